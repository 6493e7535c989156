"""The README's set-up command, in its non-interactive form: `scripts/run --check` sets up,
migrates, loads content, starts the web server and a Celery worker, and checks that the home
page and /healthz answer, both with the embedded defaults and with PostgreSQL and Redis."""

from __future__ import annotations

import os
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICE_VARIABLES = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CELERY_TASK_DEFAULT_QUEUE",
    "CELERY_QUEUE_PREFIX",
    "DJANGO_SETTINGS_MODULE",
)

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def base_environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    env.update(VAR_DIR=str(tmp_path / "var"), HOST="127.0.0.1", PORT=str(free_port()))
    return env


def run_check(env: dict[str, str]) -> str:
    result = subprocess.run(
        [str(ROOT / "scripts" / "run"), "--check"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=900,
        check=False,
    )
    output = result.stdout.decode(errors="replace")
    assert result.returncode == 0, output[-6000:]
    assert f"Xiangqi School is running at http://127.0.0.1:{env['PORT']}/" in output
    assert "Check passed" in output
    assert "'status': 'ok'" in output
    return output


def test_run_with_embedded_defaults(tmp_path: Path) -> None:
    output = run_check(base_environment(tmp_path))
    assert "Database: SQLite" in output
    assert "Task broker: files" in output
    assert (tmp_path / "var" / "db.sqlite3").exists()
    assert "manage.py load_content" in output


@pytest.fixture
def scratch_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one run of the site, dropped afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but DATABASE_URL is not PostgreSQL")
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    import psycopg

    name = f"xiangqi_run_{uuid.uuid4().hex[:8]}"
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_run_with_postgresql_and_a_broker(tmp_path: Path, scratch_database: str) -> None:
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith(("redis://", "amqp://")):
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("REQUIRE_SERVICES is set but CELERY_BROKER_URL is not Redis/RabbitMQ")
        pytest.skip("needs Redis or RabbitMQ (CELERY_BROKER_URL)")
    env = base_environment(tmp_path)
    env.update(
        DATABASE_URL=scratch_database,
        CELERY_BROKER_URL=broker,
        CELERY_QUEUE_PREFIX=f"run-{uuid.uuid4().hex[:8]}.",
    )
    output = run_check(env)
    assert "Database: postgres" in output
    assert f"Task broker: {broker.split('://')[0]}" in output
    assert not (tmp_path / "var" / "db.sqlite3").exists()
