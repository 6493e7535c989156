"""Fixtures of the fault tests: a private PostgreSQL and RabbitMQ for the whole session, a
private Redis for a test that needs one (see servers.py), a migrated and seeded database, and
a ``site`` per test whose processes are all stopped when the test ends."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.faults.servers import ROOT, PrivatePostgres, PrivateRabbit, PrivateRedis, Site

ARTIFACTS = ROOT / "test-artifacts" / "faults"


def _unavailable(reason: str) -> None:
    if os.environ.get("REQUIRE_SERVICES"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def fault_postgres() -> Iterator[PrivatePostgres]:
    try:
        server = PrivatePostgres()
    except (RuntimeError, subprocess.CalledProcessError) as error:
        _unavailable(f"cannot make a private PostgreSQL: {error}")
    try:
        server.start()
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def fault_rabbit() -> Iterator[PrivateRabbit]:
    try:
        server = PrivateRabbit()
    except RuntimeError as error:
        _unavailable(f"cannot make a private RabbitMQ: {error}")
    try:
        server.start()
        yield server
    finally:
        server.destroy()


@pytest.fixture
def fault_redis() -> Iterator[PrivateRedis]:
    """A Redis of one test's own (the site's cache: throttle counters, sessions, fragments)."""
    try:
        server = PrivateRedis()
    except RuntimeError as error:
        _unavailable(f"cannot make a private Redis: {error}")
    try:
        server.start()
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def fault_database(fault_postgres: PrivatePostgres) -> Iterator[dict[str, Any]]:
    """A migrated database with users and a published puzzle; its URL and the seeded ids."""
    name = f"faults_{uuid.uuid4().hex[:8]}"
    fault_postgres.execute(f'CREATE DATABASE "{name}"')
    url = fault_postgres.url(name)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": url}
    for command in (
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        [sys.executable, "-m", "tests.faults.seed", "40"],
    ):
        result = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert result.returncode == 0, result.stdout + result.stderr
    seeded = json.loads(result.stdout.strip().splitlines()[-1])
    yield {"url": url, "name": name, **seeded}


@pytest.fixture
def site(
    request: pytest.FixtureRequest,
    fault_database: dict[str, Any],
    fault_rabbit: PrivateRabbit,
) -> Iterator[Site]:
    """The site's processes for one test, logs kept in test-artifacts/faults/<test>/."""
    logs = ARTIFACTS / request.node.name
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    prefix = f"t{uuid.uuid4().hex[:6]}."  # each test's queues are its own
    site = Site(fault_database["url"], fault_rabbit.url, logs, queue_prefix=prefix)
    try:
        yield site
    finally:
        site.stop()


@pytest.fixture
def live_site(
    request: pytest.FixtureRequest, fault_database: dict[str, Any], fault_redis: PrivateRedis
) -> Iterator[Site]:
    """The site for a live game's fault test: its web processes (``Site.asgi_web``) on the
    private database, the channel layer on the test's private Redis (database 0; unused while
    one process serves with the layer in memory), its tasks' broker beside it (database 1: no
    task is sent before a game ends)."""
    logs = ARTIFACTS / request.node.name
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    prefix = f"t{uuid.uuid4().hex[:6]}."
    site = Site(
        fault_database["url"], fault_redis.url(1), logs, queue_prefix=prefix,
        CHANNEL_LAYER_URL=fault_redis.url(0), CHANNEL_LAYER_PREFIX=prefix,
    )  # fmt: skip
    try:
        yield site
    finally:
        site.stop()


class Player:
    """A logged-in browser session on the site (session and CSRF cookies, token header)."""

    def __init__(self, url: str, username: str, password: str) -> None:
        self.url = url
        self.http = requests.Session()
        self.http.get(f"{url}/accounts/login/", timeout=30).raise_for_status()
        token = self.http.cookies["csrftoken"]
        response = self.http.post(
            f"{url}/accounts/login/",
            data={"username": username, "password": password, "csrfmiddlewaretoken": token},
            allow_redirects=False,
            timeout=30,
        )
        assert response.status_code == 302, response.text[:500]
        self.http.headers["X-CSRFToken"] = self.http.cookies["csrftoken"]

    def post(self, path: str, body: Any = None, **kwargs: Any) -> requests.Response:
        return self.http.post(f"{self.url}{path}", json=body or {}, **kwargs)

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.http.get(f"{self.url}{path}", **kwargs)
