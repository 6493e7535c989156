"""The engine benchmark script runs and prints its tables (quick mode; the
figures themselves are not checked here)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_bench_quick_run_prints_the_tables() -> None:
    result = subprocess.run(
        [sys.executable, "bench/engine_bench.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for heading in ("perft (xiangqi)", "one legal-move list", "perft (no peer)", "goal"):
        assert heading in out
    for name in ("xiangqi start", "middlegame A", "feidan start", "xinban start"):
        assert name in out
    assert "1,920" in out
    # both programs count the same nodes where both ran
    assert "NO (" not in out
