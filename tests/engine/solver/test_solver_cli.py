"""``python -m engine solve``: one JSON line on success; exit status 2 and
nothing on stdout for bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
QUIET_KEY = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
STALEMATE = "4k4/9/9/9/7N1/9/9/9/9/3K5 w - - 0 1"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "solve", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_solve_prints_one_json_line() -> None:
    result = _run("xiangqi", QUIET_KEY, "--goal", "mate", "--max", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert set(data) == {"status", "moves_to_win", "key_moves", "mode", "nodes", "seconds"}
    assert data["status"] == "sound_unique"
    assert data["moves_to_win"] == 2 and data["key_moves"] == ["g8g9"]
    assert data["mode"] == "full" and data["nodes"] > 0


def test_checks_only_and_goal_win() -> None:
    data = json.loads(_run("xiangqi", QUIET_KEY, "--max", "2", "--checks-only").stdout)
    assert data["status"] == "no_win" and data["mode"] == "checks_only"
    data = json.loads(_run("xiangqi", STALEMATE, "--goal", "win", "--max", "1").stdout)
    assert data["key_moves"] == ["h5g7"]


def test_a_node_budget_ends_the_search() -> None:
    fen = "3k5/4a4/3aP4/9/9/9/6R2/6R2/2pp1p3/1c2K4 w - - 0 1"
    data = json.loads(_run("xiangqi", fen, "--max", "5", "--nodes", "1000").stdout)
    assert data["status"] == "budget_exhausted" and data["moves_to_win"] is None


@pytest.mark.parametrize(
    "args",
    [
        ("xiangqi", "not a fen", "--max", "2"),
        ("chess", QUIET_KEY, "--max", "2"),
        ("xiangqi", QUIET_KEY, "--goal", "draw", "--max", "2"),
        ("xiangqi", QUIET_KEY, "--max", "0"),
        ("xiangqi", QUIET_KEY, "--max", "two"),
        ("xiangqi", QUIET_KEY),
        ("xiangqi", QUIET_KEY, "--goal", "dead_general", "--max", "2"),
        ("xiangqi", QUIET_KEY, "--max", "2", "--nodes", "0"),
        ("xiangqi", QUIET_KEY, "--max", "2", "--seconds", "-1"),
    ],
)
def test_bad_input_exits_2_with_nothing_on_stdout(args: tuple[str, ...]) -> None:
    result = _run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error:")
