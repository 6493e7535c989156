"""The fairness benchmark's quick form (`bench/fairness.py --smoke`) works end to end: the site
as deployed (production settings, gunicorn, the workers, PostgreSQL, RabbitMQ) serves an honest
player's game and an honest author's puzzle while abusive clients flood it with moves, and an
honest level-8 player and an honest visitor of the analysis board while they flood it with
analyses, and reports them all. Speed is not checked here: the full run is a benchmark."""

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


def test_the_fairness_benchmark_runs_and_reports_the_honest_clients() -> None:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but DATABASE_URL is not PostgreSQL")
        pytest.skip("needs PostgreSQL")
    name = f"xiangqi_fairness_smoke_{uuid.uuid4().hex[:6]}"
    url = urlunsplit(urlsplit(database)._replace(path=f"/{name}"))
    broker = os.environ.get("LOAD_BROKER_URL", "amqp://guest:guest@127.0.0.1:5672//")
    result = subprocess.run(
        [sys.executable, "bench/fairness.py", "--smoke", "--database-url", url,
         "--broker-url", broker],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-5000:]
    assert "honest player at N = 2: p95" in output
    assert "honest player's refused or failed requests: 0" in output
    assert "analysis flood: honest level-8 player at N = 2: p95" in output
    assert "analysis flood: honest board search at N = 2: p95" in output
    assert "analysis flood: the honest clients' refused or failed requests: 0" in output
