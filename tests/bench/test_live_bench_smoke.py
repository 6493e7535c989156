"""The live-games benchmark's quick form (`bench/live_bench.py --smoke`) works end to end: the
site as deployed (production settings, gunicorn with uvicorn workers, PostgreSQL) serves games
made by challenge link, whose bots and spectators play and watch over the WebSockets with no
move refused and no connection failed. Speed is not checked here: the full run is a
benchmark."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_live_benchmark_plays_games_and_reports_the_round_trips() -> None:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but DATABASE_URL is not PostgreSQL")
        pytest.skip("needs PostgreSQL")
    name = f"xiangqi_live_smoke_{uuid.uuid4().hex[:6]}"
    url = urlunsplit(urlsplit(database)._replace(path=f"/{name}"))
    result = subprocess.run(
        [sys.executable, "bench/live_bench.py", "--smoke", "--database-url", url],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-5000:]
    assert "connections 12 of 12" in output
    assert "refused: 0; failed connections: 0" in output
    assert "move round trip (mover): p50" in output
    assert "KiB per open connection" in output
