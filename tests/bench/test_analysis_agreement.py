"""The analysis agreement benchmark runs end to end on two master games and a few plies (the
figures themselves are not checked here), when Fairy-Stockfish is installed, and on two of
the engine's own games of Missile Xiangqi with our engine."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

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


def test_a_tiny_run_of_a_new_variant_is_judged_by_our_engine(tmp_path: Path) -> None:
    record = tmp_path / "figures.jsonl"
    result = subprocess.run(
        [sys.executable, "bench/analysis_agreement.py", "--variant", "feidan", "--games", "2",
         "--window", "2", "--nodes", "1000", "--factor", "2", "--record", str(record)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len(re.findall(r"^engine game \d+: plies \d+-\d+$", result.stdout, re.M)) == 2
    assert "reference Xiangqi School engine at 2,000 nodes" in result.stdout
    (line,) = record.read_text().splitlines()
    assert '"variant": "feidan"' in line and '"engine": "ours"' in line
