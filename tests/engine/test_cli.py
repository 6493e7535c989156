"""The command line: ``python -m engine moves|perft|status VARIANT FEN [DEPTH]``."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
FEIDAN = "mrnbakabnrm/11/f1c5c1f/1p1p1p1p1p1/11/11/1P1P1P1P1P1/F1C5C1F/11/MRNBAKABNRM w - - 0 1"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_moves_prints_the_legal_moves_sorted_one_per_line() -> None:
    result = run("moves", "xiangqi", START)
    assert result.returncode == 0
    lines = result.stdout.split()
    assert len(lines) == 44
    assert lines == sorted(lines)
    assert "h2e2" in lines
    assert result.stderr == ""


def test_moves_of_a_finished_position_prints_nothing() -> None:
    result = run("moves", "xiangqi", "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert result.returncode == 0
    assert result.stdout.strip() == ""


def test_perft_prints_the_count() -> None:
    result = run("perft", "xiangqi", START, "2")
    assert result.returncode == 0
    assert result.stdout.strip().splitlines()[-1] == "1920"
    assert run("perft", "feidan", FEIDAN, "2").stdout.strip() == "2484"


def test_status() -> None:
    assert run("status", "xiangqi", START).stdout.strip() == "ongoing"
    assert run("status", "xiangqi", "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").stdout.strip() == (
        "checkmate"
    )
    assert run("status", "xiangqi", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").stdout.strip() == (
        "stalemate"
    )
    dead = "4k6/11/11/11/11/11/11/5m4R/11/4AKA4 w - - 0 1"
    assert run("status", "feidan", dead).stdout.strip() == "dead_general"


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("moves", "xiangqi", "not a fen"), id="bad-fen"),
        pytest.param(("status", "xiangqi", FEIDAN), id="fen-of-another-variant"),
        pytest.param(("moves", "chess", START), id="unknown-variant"),
        pytest.param(("perft", "xiangqi", START, "x"), id="depth-not-a-number"),
        pytest.param(("perft", "xiangqi", START, "-1"), id="negative-depth"),
        pytest.param(("perft", "xiangqi", START, "99"), id="depth-too-large"),
        pytest.param(("perft", "xiangqi", START), id="missing-depth"),
        pytest.param(("fly", "xiangqi", START), id="unknown-command"),
        pytest.param((), id="no-arguments"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(
    args: tuple[str, ...],
) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_bad_fen_message_names_the_problem() -> None:
    result = run("status", "xiangqi", "3k5/9/9/9/9/9/9/9/4A4/2K6 w - - 0 1")
    assert result.returncode == 2
    assert "rank 0" in result.stderr
    assert "palace" in result.stderr
