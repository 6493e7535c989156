"""The analysis agreement benchmark runs end to end on two master games and a few plies (the
figures themselves are not checked here), when Fairy-Stockfish is installed."""

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
         "--fsf-nodes", "5000"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert len(re.findall(r"^game \d+: plies \d+-\d+$", out, re.M)) == 2
    assert "2 master games (seed 2026), 6 moves judged" in out
    assert re.search(r"^blunder: ours \d+, Fairy-Stockfish \d+; both \d+", out, re.M)
    assert re.search(r"^mistake or worse: ours \d+, .* precision .* recall ", out, re.M)
    assert re.search(r"^the same choice of move in a position: \d+/8 = \d+%$", out, re.M)
