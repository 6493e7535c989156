"""The playing engine's benchmark runs end to end with tiny settings (the
figures themselves are not checked here)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_play_bench_quick_run_prints_every_section() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "bench/play_bench.py",
            "--quick",
            "--sections",
            "speed,levels,strength,ladder,tactics,tune",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for heading in (
        "## speed",
        "## time per move",
        "## top level",
        "## each level",
        "## tactics",
        "## tuning",
    ):
        assert heading in out
    for variant in ("xiangqi", "feidan", "xinban"):
        assert variant in out
    assert "solved " in out
