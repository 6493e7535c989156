"""The analysis agreement benchmark runs end to end on two master games and a few plies (the
figures themselves are not checked here), when Fairy-Stockfish is installed, and on two of
the engine's own games of Missile Xiangqi with our engine."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(
    not (shutil.which("fairy-stockfish") or shutil.which("/usr/games/fairy-stockfish")),
    reason="Fairy-Stockfish is not installed",
)
def test_a_tiny_run_prints_every_figure() -> None:
    result = subprocess.run(
        [sys.executable, "bench/analysis_agreement.py", "--games", "2", "--window", "3",
         "--nodes", "5000,10000", "--factor", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert len(re.findall(r"^master \d+: plies \d+-\d+$", out, re.M)) == 2
    assert "xiangqi: 2 games (seed 2026), 6 moves judged; reference Fairy-Stockfish" in out
    assert "at 20,000 nodes a position" in out  # twice the larger budget
    for budget in ("5,000", "10,000"):
        assert re.search(rf"^Fairy-Stockfish .* at {budget} nodes: [\d.]+ s a position", out, re.M)
    assert (
        len(
            re.findall(
                r"^  mistake or worse: site \d+, reference \d+, both \d+; precision", out, re.M
            )
        )
        == 2
    )
    assert (
        len(re.findall(r"^  judged by the position each move led to \(as before\)", out, re.M)) == 2
    )
    assert len(re.findall(r"^  mistake from a drop of 0\.20: precision", out, re.M)) == 2
    assert (
        len(re.findall(r"^  \d+/\d+ = \d+% positions were close calls, searched", out, re.M)) == 2
    )


def figures(line: str) -> dict[str, Any]:
    """A recorded line without its seconds (a search read back costs nothing)."""
    found = json.loads(line)
    for budget in found["budgets"].values():
        del budget["seconds_a_position"]
    return dict(found)


def test_a_tiny_run_of_a_new_variant_is_judged_by_our_engine(tmp_path: Path) -> None:
    record, cache = tmp_path / "figures.jsonl", tmp_path / "searches.jsonl"
    command = [
        sys.executable, "bench/analysis_agreement.py", "--variant", "feidan", "--games", "2",
        "--window", "2", "--nodes", "1000", "--factor", "2", "--record", str(record),
        "--cache", str(cache),
    ]  # fmt: skip
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert len(re.findall(r"^engine game \d+: plies \d+-\d+$", result.stdout, re.M)) == 2
    assert "reference Xiangqi School engine at 2,000 nodes" in result.stdout
    (line,) = record.read_text().splitlines()
    assert '"variant": "feidan"' in line and '"engine": "ours"' in line
    searched = cache.read_text().splitlines()
    assert searched
    # asked again, every search is read back from the cache: the same figures, none added;
    # and the first game alone is the same window of the same game
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert cache.read_text().splitlines() == searched
    assert figures(record.read_text().splitlines()[1]) == figures(line)
    first = subprocess.run(
        [*command, "--first", "1"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    games = re.findall(r"^engine game \d+: plies \d+-\d+$", result.stdout, re.M)
    assert re.findall(r"^engine game \d+: plies \d+-\d+$", first.stdout, re.M) == games[:1]
    second = subprocess.run(
        [*command, "--shard", "1/2"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert re.findall(r"^engine game \d+: plies \d+-\d+$", second.stdout, re.M) == games[1:]


def test_a_sample_of_weak_engine_games_is_played_here_the_same_each_run(tmp_path: Path) -> None:
    cache = tmp_path / "searches.jsonl"
    command = [
        sys.executable, "bench/analysis_agreement.py", "--source", "engine", "--levels", "1,2",
        "--engine", "ours", "--games", "2", "--window", "2", "--nodes", "1000", "--factor", "2",
        "--cache", str(cache),
    ]  # fmt: skip
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    names = re.findall(
        r"^engine game \d+ \(levels (\d)-(\d)\): plies \d+-\d+$", result.stdout, re.M
    )
    assert sorted(names) == [("1", "2"), ("2", "1")]  # each level has Red once
    assert "xiangqi: 2 games (seed 2026), 4 moves judged" in result.stdout
    searched = cache.read_text().splitlines()
    # played again from the same seed, the games are the same: every search is read back
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert cache.read_text().splitlines() == searched
