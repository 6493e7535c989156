"""/healthz (public liveness), /healthz/full (behind a token) and the health task, the latter
through a real worker and a real broker."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import current_app
from django.db import connection, connections
from django.test import Client, override_settings
from pytest_django import DjangoAssertNumQueries

from config.celery import app
from core.selectors import (
    HEALTH_REPORTS,
    broker_check,
    cache_check,
    database_check,
    judge_check,
    site_queues,
    worker_check,
)
from core.tasks import health_check
from judge import fairy_stockfish_path

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "health-token-for-tests-0123456789"
BEARER = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


@pytest.fixture(autouse=True)
def _fresh_reports() -> Iterator[None]:
    HEALTH_REPORTS.clear()
    yield
    HEALTH_REPORTS.clear()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.django_db
def test_the_public_answer_is_cheap_and_says_nothing_more(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries, monkeypatch: Any
) -> None:
    asked: list[str] = []

    def refuse(service: str) -> Any:
        def asking(*args: Any, **kwargs: Any) -> Any:
            asked.append(service)
            raise AssertionError(f"the public answer asked the {service}")

        return asking

    # Neither the broker, the workers nor the judge is asked: each of them can take a second.
    monkeypatch.setattr("core.selectors.broker_check", refuse("broker"))
    monkeypatch.setattr("core.selectors.worker_check", refuse("workers"))
    monkeypatch.setattr("core.selectors.judge_check", refuse("judge"))
    with django_assert_num_queries(0):  # no database
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"].startswith("max-age=0")
    assert asked == []


@pytest.mark.django_db
@override_settings(HEALTH_TOKEN=TOKEN)
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"HTTP_AUTHORIZATION": "Bearer wrong-token"},
        {"HTTP_AUTHORIZATION": f"Basic {TOKEN}"},
        {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}x"},
    ],
)
def test_the_full_check_needs_the_token(client: Client, headers: dict[str, str]) -> None:
    response = client.get("/healthz/full", **headers)
    assert response.status_code == 403
    assert response.json() == {"status": "forbidden"}


@pytest.mark.django_db
@override_settings(HEALTH_TOKEN="")
def test_without_a_token_configured_the_full_check_is_closed(client: Client) -> None:
    assert client.get("/healthz/full", HTTP_AUTHORIZATION="Bearer ").status_code == 403
    assert client.get("/healthz/full").status_code == 403


@pytest.mark.django_db
@override_settings(HEALTH_TOKEN=TOKEN, HEALTH_CACHE_SECONDS=60)
def test_the_full_check_with_the_token_reports_each_service_and_is_kept(client: Client) -> None:
    # This test runs without a worker of its own: workers of other test sessions share the
    # broker but read other queues, so none counts.
    response = client.get("/healthz/full", **BEARER)
    report = response.json()
    assert set(report) == {
        "status", "database", "cache", "broker", "worker", "judge", "checked_at", "age"
    }  # fmt: skip
    assert report["database"] == {"ok": True, "detail": connection.vendor}
    assert report["cache"]["ok"] is True
    assert report["broker"]["ok"] is True
    assert report["broker"]["transport"] == str(app.conf.broker_url).split("://")[0]
    assert set(report["worker"]["queues"]) == set(site_queues())
    assert report["judge"]["xiangqi"] in ("fairy-stockfish", "ours")
    services = ("database", "cache", "broker", "worker", "judge")
    all_ok = all(report[name]["ok"] for name in services)
    assert report["status"] == ("ok" if all_ok else "error")
    assert response.status_code == (200 if all_ok else 503)
    assert response["Cache-Control"].startswith("max-age=0")
    # Asked again within HEALTH_CACHE_SECONDS: the same report, not a new check.
    again = client.get("/healthz/full", **BEARER).json()
    assert again["checked_at"] == report["checked_at"] and again["age"] >= report["age"]
    with override_settings(HEALTH_CACHE_SECONDS=0):
        fresh = client.get("/healthz/full", **BEARER).json()
    assert fresh["checked_at"] > report["checked_at"]


@pytest.mark.django_db
def test_an_unreachable_service_is_reported_without_its_error_text() -> None:
    port = free_port()  # nothing listens there
    broker = broker_check(url=f"redis://127.0.0.1:{port}/0", timeout=0.5)
    assert broker.as_dict() == {"ok": False, "detail": "unreachable", "transport": "redis"}
    if connection.vendor != "postgresql":
        pytest.skip("the database part needs PostgreSQL")
    settings_dict = {**connection.settings_dict, "PORT": str(port), "HOST": "127.0.0.1"}
    elsewhere = type(connections["default"])(settings_dict, alias="health-probe")
    try:
        database = database_check(elsewhere)
    finally:
        elsewhere.close()
    assert database.as_dict() == {"ok": False, "detail": "unreachable"}
    text = json.dumps([broker.as_dict(), database.as_dict()])
    assert str(port) not in text and "127.0.0.1" not in text


@pytest.mark.skipif(fairy_stockfish_path() is None, reason="Fairy-Stockfish is not installed")
def test_the_judge_of_xiangqi_is_fairy_stockfish_with_its_version_where_installed() -> None:
    check = judge_check()
    assert check.ok and check.detail == "fairy-stockfish"
    assert check.data["xiangqi"] == "fairy-stockfish"
    assert check.data["version"].startswith("Fairy-Stockfish ")


def test_without_fairy_stockfish_the_site_s_engine_judges_xiangqi_and_all_is_well(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAIRY_STOCKFISH", "")
    assert judge_check().as_dict() == {"ok": True, "detail": "absent", "xiangqi": "ours"}


def test_a_fairy_stockfish_that_does_not_answer_is_reported_broken(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    program = tmp_path / "fairy-stockfish"
    program.write_text("#!/bin/sh\necho 'not an engine'\n")
    program.chmod(0o755)
    monkeypatch.setenv("FAIRY_STOCKFISH", str(program))
    check = judge_check(timeout=2.0)
    assert check.as_dict() == {"ok": False, "detail": "broken", "xiangqi": "fairy-stockfish"}


def test_the_broker_and_worker_checks_ask_the_site_s_own_celery_app() -> None:
    # core reads the app as celery's current one, since config (which defines it) is above it
    assert current_app._get_current_object() is app
    assert broker_check().data["transport"] == str(app.conf.broker_url).split("://")[0]


def test_the_cache_check_reads_back_what_it_wrote() -> None:
    check = cache_check()
    assert check.ok is True and check.detail == check.data["backend"]


def test_health_task_settings() -> None:
    task = app.tasks["core.health_check"]
    assert task.acks_late is True
    assert task.time_limit == 30 and task.soft_time_limit == 20
    assert app.conf.task_serializer == "json" and app.conf.accept_content == ["json"]


@pytest.fixture
def worker_on_other_queues() -> Iterator[tuple[str, list[str]]]:
    """A real worker on the same broker that reads queues of another site only."""
    other = f"other-{uuid.uuid4().hex[:8]}"
    queues = [f"{other}.celery", f"{other}.scoring"]
    hostname = f"{other}@localhost"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "CELERY_QUEUE_PREFIX": f"{other}.",
    }
    log = ROOT / "test-artifacts" / f"celery-{other}.log"
    log.parent.mkdir(exist_ok=True)
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--queues", ",".join(queues),
        "--hostname", hostname, "--pool", "solo", "--without-gossip", "--without-mingle",
    ]  # fmt: skip
    with log.open("wb") as handle:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=handle, stderr=handle)
    try:
        deadline = time.monotonic() + 90
        while not app.control.ping(destination=[hostname], timeout=1.0):
            assert process.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, "the other worker did not answer within 90s"
        yield hostname, queues
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.celery
def test_workers_on_other_queues_do_not_count(
    worker_on_other_queues: tuple[str, list[str]],
) -> None:
    hostname, other_queues = worker_on_other_queues
    mine = [f"mine-{uuid.uuid4().hex[:8]}.{kind}" for kind in ("celery", "proving", "scoring")]
    check = worker_check(queues=mine)
    assert check.ok is False
    assert check.data["queues"] == {name: [] for name in mine}
    assert hostname not in check.data["workers"]
    assert check.detail == f"no worker reads {', '.join(mine)}"
    # The same worker counts for the queues it does read, and only for those.
    theirs = worker_check(queues=[*other_queues, mine[0]])
    assert theirs.ok is False and theirs.data["queues"][other_queues[0]] == [hostname]
    assert worker_check(queues=other_queues).ok is True


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_health_task_runs_on_a_real_worker(celery_worker: Any) -> None:
    result = health_check.delay().get(timeout=60)
    assert result["worker"] == celery_worker.hostname
    assert result["database"]["ok"] is True
    assert result["database"]["detail"] == connection.vendor
    # The worker uses the test database, not another one.
    assert result["database_name"] == str(connection.settings_dict["NAME"])


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@override_settings(HEALTH_TOKEN=TOKEN)
def test_the_full_check_sees_the_worker_on_every_queue(
    celery_worker: Any, live_server: Any
) -> None:
    request = urllib.request.Request(
        f"{live_server.url}/healthz/full", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, report = response.status, json.load(response)
    except urllib.error.HTTPError as error:
        status, report = error.code, json.load(error)
    assert status == 200, report
    assert report["status"] == "ok"
    assert report["worker"]["queues"] == {name: [celery_worker.hostname] for name in site_queues()}
