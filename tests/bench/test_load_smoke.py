"""The load benchmark's quick form (`bench/load/run.py --smoke`) works end to end: the site as
deployed (production settings, gunicorn, a Celery worker, PostgreSQL, RabbitMQ) serves pages,
the position API and attempt submissions without an error, and every accepted attempt is
scored exactly once. Speed is not checked here: the full run is a benchmark (`make load`)."""

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


def test_the_load_benchmark_runs_and_loses_no_attempt() -> None:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but DATABASE_URL is not PostgreSQL")
        pytest.skip("needs PostgreSQL")
    name = f"xiangqi_load_smoke_{uuid.uuid4().hex[:6]}"
    url = urlunsplit(urlsplit(database)._replace(path=f"/{name}"))
    broker = os.environ.get("LOAD_BROKER_URL", "amqp://guest:guest@127.0.0.1:5672//")
    result = subprocess.run(
        [sys.executable, "bench/load/run.py", "--smoke", "--database-url", url,
         "--broker-url", broker],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-5000:]
    assert "lost attempts: 0; OK" in output
    assert "errors: 0" in output
