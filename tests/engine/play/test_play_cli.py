"""``python -m engine bestmove``: one JSON line, or exit 2 with one error line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Move, Position

ROOT = Path(__file__).resolve().parents[3]
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "bestmove", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_prints_one_json_line() -> None:
    result = run("xiangqi", START, "--moves", "h2e2", "h9g7", "--level", "3", "--seed", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    found = json.loads(lines[0])
    assert set(found) == {"move", "score", "depth", "nodes", "pv"}
    pos = Position.from_fen("xiangqi", START)
    pos.push_iccs("h2e2")
    pos.push_iccs("h9g7")
    assert Move.from_iccs(found["move"]) in pos.legal_moves
    assert isinstance(found["score"], int)
    assert found["pv"][0] == found["move"]


def test_a_mate_is_printed_as_mate() -> None:
    result = run("xiangqi", "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1", "--nodes", "20000")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["move"] == "g8g9"
    assert found["score"] == {"mate": 2}


def test_the_node_budget_is_kept() -> None:
    result = run("feidan", Position.start("feidan").fen(), "--nodes", "300", "--hash", "1")
    found = json.loads(result.stdout)
    assert found["nodes"] <= 300


def test_a_movetime_is_accepted() -> None:
    result = run("xinban", Position.start("xinban").fen(), "--movetime", "100", "--level", "8")
    assert result.returncode == 0
    assert json.loads(result.stdout)["depth"] >= 1


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("chess", START), id="unknown-variant"),
        pytest.param(("xiangqi", "not a fen"), id="bad-fen"),
        pytest.param(("xiangqi", START, "--moves", "h2x2"), id="unreadable-move"),
        pytest.param(("xiangqi", START, "--moves", "a0a5"), id="illegal-move"),
        pytest.param(("xiangqi", START, "--level", "9"), id="level-too-high"),
        pytest.param(("xiangqi", START, "--level", "x"), id="level-not-a-number"),
        pytest.param(("xiangqi", START, "--nodes", "0"), id="no-nodes"),
        pytest.param(("xiangqi", START, "--movetime", "-1"), id="negative-movetime"),
        pytest.param(("xiangqi", START, "--hash", "0"), id="no-hash"),
        pytest.param(("xiangqi", "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1"), id="game-over"),
        pytest.param(("xiangqi",), id="missing-fen"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_game_over_names_the_ending() -> None:
    result = run("xiangqi", "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert "checkmate" in result.stderr
