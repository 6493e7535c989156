"""The site's error answers: a database that cannot be reached is a 503 with Retry-After (JSON
under /api/, a page elsewhere, rendered without the database); other errors stay 500."""

from __future__ import annotations

import json

from django.db import OperationalError
from django.test import RequestFactory

from core.views import RETRY_AFTER_SECONDS, server_error


def answer_while_raising(error: Exception, path: str) -> object:
    request = RequestFactory().get(path)
    try:
        raise error
    except Exception:  # noqa: BLE001 - handler500 runs while the error is being handled
        return server_error(request)


def test_an_unreachable_database_is_a_503_for_the_api() -> None:
    response = answer_while_raising(OperationalError("connection refused"), "/api/puzzles/1/")
    assert response.status_code == 503  # type: ignore[attr-defined]
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)  # type: ignore[index]
    body = json.loads(response.content)  # type: ignore[attr-defined]
    assert set(body["error"]) == {"message", "code", "params", "extra"}


def test_an_unreachable_database_is_a_503_page_elsewhere() -> None:
    response = answer_while_raising(OperationalError("connection refused"), "/puzzles/")
    assert response.status_code == 503  # type: ignore[attr-defined]
    assert b"<html" in response.content  # type: ignore[attr-defined]


def test_other_errors_stay_500() -> None:
    api = answer_while_raising(RuntimeError("bug"), "/api/positions/")
    assert api.status_code == 500 and "Retry-After" not in api  # type: ignore[attr-defined,operator]
    page = answer_while_raising(RuntimeError("bug"), "/")
    assert page.status_code == 500  # type: ignore[attr-defined]
