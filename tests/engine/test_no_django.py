"""The engine is pure Python: importing it loads nothing of Django."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import engine
from engine import Position, perft
perft(Position.start("feidan"), 2)
Position.start("xinban").outcome()
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_the_engine_loads_no_django() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    modules = json.loads(result.stdout)
    assert "engine" in modules
    assert "engine.position" in modules
    assert [m for m in modules if m == "django" or m.startswith("django.")] == []
    assert [m for m in modules if m.startswith(("rest_framework", "celery"))] == []
