"""Every error under /api/ answers in the API's JSON shape, also under the local settings
(``DEBUG`` on), where Django would otherwise answer its HTML debug pages."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

import config.settings.local as local_settings

pytestmark = pytest.mark.django_db

URLS = "tests.core.api_error_urls"


def error_of(response: object) -> dict[str, object]:
    assert response["Content-Type"].startswith("application/json")  # type: ignore[index]
    body = json.loads(response.content)  # type: ignore[attr-defined]
    assert set(body) == {"error"}
    assert set(body["error"]) == {"message", "code", "params", "extra"}
    return body["error"]  # type: ignore[no-any-return]


def test_the_local_settings_run_with_debug_and_the_json_errors() -> None:
    assert local_settings.DEBUG is True
    assert "core.middleware.ApiJsonErrorMiddleware" in local_settings.MIDDLEWARE


@pytest.mark.parametrize("debug", [True, False])
def test_an_unknown_api_url_is_a_json_404(debug: bool) -> None:
    with override_settings(DEBUG=debug, ROOT_URLCONF=URLS):
        response = Client().get("/api/no-such-thing/", HTTP_ACCEPT="text/html")
    assert response.status_code == 404
    error = error_of(response)
    assert error["extra"] == {"path": "/api/no-such-thing/"}


@pytest.mark.parametrize("debug", [True, False])
def test_a_bug_under_the_api_is_a_json_500(debug: bool) -> None:
    with override_settings(DEBUG=debug, ROOT_URLCONF=URLS):
        response = Client(raise_request_exception=False).get(
            "/api/test-broken/", HTTP_ACCEPT="text/html"
        )
    assert response.status_code == 500
    error = error_of(response)
    assert "RuntimeError" not in json.dumps(error)  # no traceback or code in the answer


def test_a_suspicious_request_under_the_api_is_a_json_400_with_debug() -> None:
    with override_settings(DEBUG=True, ROOT_URLCONF=URLS):
        response = Client(raise_request_exception=False).get("/api/test-suspicious/")
    assert response.status_code == 400
    error_of(response)


def test_a_missing_puzzle_is_json_with_debug() -> None:
    with override_settings(DEBUG=True):
        response = Client().get("/api/puzzles/987654/", HTTP_ACCEPT="application/json")
    assert response.status_code == 404
    error_of(response)


def test_pages_outside_the_api_keep_the_debug_page() -> None:
    with override_settings(DEBUG=True):
        response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
