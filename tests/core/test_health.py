"""/healthz and the health task, the latter through a real worker and a real broker."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from config.celery import app
from core.tasks import health_check


@pytest.mark.django_db
def test_healthz_reports_each_service_as_json(client: Client) -> None:
    # This test runs without a worker of its own; any worker on the broker may answer.
    response = client.get("/healthz")
    report = response.json()
    assert set(report) == {"status", "database", "broker", "worker"}
    assert report["database"] == {"ok": True, "detail": connection.vendor}
    assert report["broker"]["ok"] is True
    assert report["broker"]["transport"] == str(app.conf.broker_url).split("://")[0]
    all_ok = report["database"]["ok"] and report["broker"]["ok"] and report["worker"]["ok"]
    assert report["status"] == ("ok" if all_ok else "error")
    assert response.status_code == (200 if all_ok else 503)
    assert response["Cache-Control"].startswith("max-age=0")


def test_health_task_settings() -> None:
    task = app.tasks["core.health_check"]
    assert task.acks_late is True
    assert task.time_limit == 30 and task.soft_time_limit == 20
    assert app.conf.task_serializer == "json" and app.conf.accept_content == ["json"]


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
def test_healthz_sees_the_worker(celery_worker: Any, live_server: Any) -> None:
    try:
        with urllib.request.urlopen(f"{live_server.url}/healthz", timeout=30) as response:
            status, report = response.status, json.load(response)
    except urllib.error.HTTPError as error:
        status, report = error.code, json.load(error)
    assert status == 200, report
    assert report["status"] == "ok"
    assert celery_worker.hostname in report["worker"]["workers"]
