"""Fixtures shared by the app tests: services checks and a real Celery worker.

The test command (scripts/test) points ``DATABASE_URL`` at PostgreSQL and ``CELERY_BROKER_URL``
at Redis when they answer; with ``REQUIRE_SERVICES=1`` (CI) both are required and the run stops
at once when either is missing. Tests marked ``celery`` get a real worker process, started once
per session, reading queues of its own and using the same test database. Tests marked
``faults`` start private PostgreSQL and RabbitMQ servers of their own (tests/faults/).
Throttle counters (the cache) are emptied before each test.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from email import message_from_bytes
from email import policy as email_policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("REQUIRE_SERVICES"):
        database = os.environ.get("DATABASE_URL", "")
        broker = os.environ.get("CELERY_BROKER_URL", "")
        if not database.startswith(("postgres://", "postgresql://")):
            raise pytest.UsageError(
                f"REQUIRE_SERVICES is set but DATABASE_URL is not PostgreSQL: {database!r}"
            )
        if not broker.startswith(("redis://", "rediss://", "amqp://")):
            raise pytest.UsageError(
                f"REQUIRE_SERVICES is set but CELERY_BROKER_URL is not Redis/RabbitMQ: {broker!r}"
            )


def _worker_database_url() -> str:
    """A DATABASE_URL for another process that names the test database."""
    from django.db import connection

    name = connection.settings_dict["NAME"]
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{name}"
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``, as scripts/test runs the whole suite), the
    tests that start servers and process pools of their own (``faults``: a private PostgreSQL
    and RabbitMQ shared for the session; ``slow``: the benchmarks' smoke runs, ``scripts/run``,
    the bank's re-proof) run one after another in one process, while the other processes take
    the rest: two of them at once would only fight for the cores."""
    for item in items:
        if item.get_closest_marker("faults") or item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.xdist_group("servers"))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    """Creating, migrating and dropping the test databases is a command's work: no time
    limit (a busy machine can take seconds to copy the template database)."""
    from config.database import use_role

    use_role("command")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Tests then run as the web does, under its database time limits."""
    from config.database import use_role

    with django_db_blocker.unblock():
        use_role("web")
    yield
    with django_db_blocker.unblock():
        use_role("command")


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with no throttle counted (the test cache is this process's memory)."""
    from django.core.cache import cache

    cache.clear()


# The worker this test process started, once started (``celery_worker``).
_RUNNING: list[CeleryWorker] = []


@pytest.fixture(autouse=True)
def _worker_idle_before_the_database_is_emptied(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test whose database is emptied after it (a transactional one: its commits were real)
    empties it only once this process's worker has finished what the test gave it, whether the
    test asked for the worker or only sent it work (a finished try sends its scoring), and once
    no other connection is still in the middle of a statement or a transaction on it (a live
    server's request still running after its browser page closed): a task or request still
    writing would block or deadlock the DELETEs that empty the database
    (config/testing/postgresql)."""
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction")) or bool(
        {"transactional_db", "live_server"} & set(request.fixturenames)
    )
    asks = "celery_worker" in request.fixturenames
    if not (asks or transactional):
        yield
        return
    if marker is not None or transactional:
        # Set up the database first, so that this fixture's teardown runs before its flush.
        request.getfixturevalue("_django_db_helper")
    worker = request.getfixturevalue("celery_worker") if asks else (_RUNNING or [None])[0]
    yield
    waited = time.monotonic()
    if worker is not None and not worker.wait_until_idle(IDLE_WAIT_SECONDS):
        # emptying the database under a task still writing would fail the next test instead
        pytest.fail(
            f"the Celery worker was still busy {IDLE_WAIT_SECONDS:.0f} s after the test "
            f"(see test-artifacts/celery-worker-*.log)"
        )
    idle = time.monotonic()
    _database_quiet()
    _note_wait(request.node.nodeid, idle - waited, time.monotonic() - idle)


# How long a test's teardown waits for its worker to finish what the test gave it: longer than
# the longest task a test may start (a missed-wins review stops itself after 90 s,
# puzzles.services.missed.REVIEW_SECONDS), since a slow machine can stretch a short one.
IDLE_WAIT_SECONDS = 150.0

# Teardown waits longer than this are written down and summed up at the end of the run.
WAIT_NOTED_SECONDS = 0.5


def _note_wait(test: str, worker_seconds: float, database_seconds: float) -> None:
    """Write down a test's teardown wait for its worker and its database, when long enough to
    matter (``pytest_terminal_summary`` adds them up): a suite that grows slower shows where."""
    if worker_seconds + database_seconds < WAIT_NOTED_SECONDS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    line = {
        "test": test,
        "worker": round(worker_seconds, 2),
        "database": round(database_seconds, 2),
    }
    with (ARTIFACTS / f"teardown-waits-{name}.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller: a fresh record
        for pattern in ("teardown-waits-*.jsonl", "celery-worker-*.log"):
            for path in ARTIFACTS.glob(pattern):
                path.unlink()
    _flush_again_if_a_task_raced_it()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The teardown waits of the run (their total and the longest, by test), and the tasks the
    test processes' Celery workers ran longest in all."""
    waits = []
    for path in sorted(ARTIFACTS.glob("teardown-waits-*.jsonl")):
        waits += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    tasks: dict[str, list[float]] = {}
    for path in ARTIFACTS.glob("celery-worker-*.log"):
        for name, seconds in TASK_DONE.findall(path.read_text(errors="replace")):
            tasks.setdefault(name, []).append(float(seconds))
    if not waits and not tasks:
        return
    total = sum(w["worker"] + w["database"] for w in waits)
    worker = sum(w["worker"] for w in waits)
    terminalreporter.write_sep("-", f"teardown waits over {WAIT_NOTED_SECONDS} s, worker tasks")
    terminalreporter.write_line(
        f"{len(waits)} tests waited {total:.0f} s in all: {worker:.0f} s for their Celery "
        f"worker to be idle, {total - worker:.0f} s for the database to be quiet"
    )
    for w in sorted(waits, key=lambda w: -(w["worker"] + w["database"]))[:10]:
        terminalreporter.write_line(f"{w['worker']:7.1f} s {w['database']:6.1f} s  {w['test']}")
    for name, times in sorted(tasks.items(), key=lambda item: -sum(item[1]))[:6]:
        terminalreporter.write_line(
            f"the test workers ran {name} {len(times)} times, {sum(times):.0f} s in all"
        )


# A task's end in a worker's log: its name and seconds.
TASK_DONE = re.compile(r"Task ([\w.]+)\[[^\]]+\] succeeded in ([\d.]+)s")


def _database_quiet(seconds: float = 15.0) -> None:
    """Wait (at most ``seconds``) until no other connection to this test database is running
    a statement or holding a transaction open (PostgreSQL only)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    busy = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"
    )
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(busy)
            if not cursor.fetchone()[0]:
                return
        time.sleep(0.05)


def _flush_again_if_a_task_raced_it() -> None:
    """Empty a transactional test's database a second time if the first try failed because a
    Celery task wrote during it: a task sent by an on-commit hook in another thread (a live
    game's consumer) can reach the worker just after the teardown found it idle, and its rows
    then break the flush's deferred foreign keys. The second try waits for the worker and the
    database first; a flush that fails again fails the test as before."""
    from django.core.management.base import CommandError
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown

    def teardown(self: TransactionTestCase) -> None:
        try:
            flush(self)
        except CommandError:
            if _RUNNING:
                _RUNNING[0].wait_until_idle(IDLE_WAIT_SECONDS)
            _database_quiet()
            flush(self)

    TransactionTestCase._fixture_teardown = teardown  # type: ignore[method-assign]


class CeleryWorker:
    def __init__(
        self,
        hostname: str,
        queue: str,
        process: subprocess.Popen[bytes],
        log: Path,
        mail_dir: Path,
        queues: list[str] | None = None,
    ):
        self.hostname = hostname
        self.queue = queue  # the default queue; the worker reads the other queues too
        self.queues = queues or [queue]
        self.process = process
        self.log = log
        self.mail_dir = mail_dir  # the mails the worker sends, one file per connection

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def wait_until_idle(self, seconds: float = 30) -> bool:
        """Wait until the worker runs nothing, holds nothing and its queues are empty.

        The worker's pool is ``solo``: it answers a control message only between tasks, so a
        reply to ``reserved`` also says the task it was running has ended. A test's database is
        emptied after the test, which blocks or deadlocks against a task still writing."""
        from config.celery import app

        inspector = app.control.inspect(destination=[self.hostname], timeout=5, limit=1)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            replies = inspector.reserved()
            if replies and not any(replies.values()) and self._queues_empty(app):
                return True
            time.sleep(0.05)
        return False

    def _queues_empty(self, app: Any) -> bool:
        with app.connection_for_write() as connection:
            for name in self.queues:
                channel = connection.channel()  # a failed passive declare closes an AMQP channel
                try:
                    if channel.queue_declare(queue=name, passive=True).message_count:
                        return False
                except Exception:  # a queue never declared holds nothing
                    continue
                finally:
                    with contextlib.suppress(Exception):
                        channel.close()
        return True

    def mails(self) -> list[EmailMessage]:
        """Every mail the worker has sent so far, oldest first."""
        found = []
        for path in sorted(self.mail_dir.glob("*.log"), key=lambda p: p.stat().st_mtime_ns):
            for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if chunk.strip():
                    found.append(message_from_bytes(chunk.lstrip(), policy=email_policy.default))
        return found  # type: ignore[return-value]  # policy.default parses EmailMessages


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None, django_db_blocker: object) -> Iterator[CeleryWorker]:
    """A real ``celery -A config worker`` process on the real broker, with its own queues."""
    from django.conf import settings

    from config.celery import app

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    queues = [
        queue,
        settings.CELERY_PROVING_QUEUE,
        settings.CELERY_SCORING_QUEUE,
        settings.CELERY_PLAYING_QUEUE,
        settings.CELERY_PLAYING_DEEP_QUEUE,
        settings.CELERY_MINING_QUEUE,
    ]
    hostname = f"{queue}-{uuid.uuid4().hex[:6]}@localhost"
    ARTIFACTS.mkdir(exist_ok=True)
    # One worker per test process: under pytest-xdist each process (gw0, gw1, ...) has its own.
    log = ARTIFACTS / f"celery-worker-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    mail_dir = ARTIFACTS / f"worker-mail-{uuid.uuid4().hex[:8]}"
    mail_dir.mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _worker_database_url(),
        "CELERY_QUEUE_PREFIX": settings.CELERY_QUEUE_PREFIX,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "TEST_EMAIL_DIR": str(mail_dir),
    }
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--queues", ",".join(queues), "--hostname", hostname, "--pool", "solo", "--loglevel", "INFO",
        "--without-gossip", "--without-mingle",
    ]  # fmt: skip
    with log.open("wb") as handle:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT
        )
    worker = CeleryWorker(hostname, queue, process, log, mail_dir, queues)
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                pytest.fail(f"the Celery worker exited ({process.returncode}):\n{worker.output()}")
            if app.control.ping(destination=[hostname], timeout=1.0):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"the Celery worker did not answer within 90s:\n{worker.output()}")
        _RUNNING.append(worker)
        yield worker
    finally:
        if worker in _RUNNING:
            _RUNNING.remove(worker)
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(mail_dir, ignore_errors=True)
