"""The judge is plain Python on top of the engine: importing it, and judging a position with
the site's engine, loads nothing of Django or of the site's apps."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import judge
from engine import Position
judge.judge_for("feidan").evaluate(variant="feidan", fen=Position.start("feidan").fen(), nodes=500)
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_the_judge_loads_no_django() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    modules = json.loads(result.stdout)
    assert "judge.uci" in modules
    assert [m for m in modules if m == "django" or m.startswith("django.")] == []
    site = {"words", "core", "accounts", "tutorials", "puzzles", "games", "pages", "config"}
    assert [m for m in modules if m.split(".")[0] in site] == []
