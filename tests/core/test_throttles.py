"""Throttles (core.throttles): rates, fixed windows, client addresses, and the API throttle
that applies to views by their URL name."""

from __future__ import annotations

import json

import pytest
from django.test import Client, RequestFactory, override_settings

from core.throttles import Rate, client_address, parse_rate, throttle_hit


def test_rates_are_read_from_text() -> None:
    assert parse_rate("10/min") == Rate(10, 60)
    assert parse_rate("5/hour") == Rate(5, 3600)
    assert parse_rate("1000/s") == Rate(1000, 1)
    for bad in ("10", "ten/min", "10/week", "/min", "10/2min"):
        with pytest.raises(ValueError):
            parse_rate(bad)


@override_settings(THROTTLE_RATES={"test": "3/min"})
def test_a_window_allows_the_rate_then_answers_the_seconds_left() -> None:
    start = 6000.0  # the start of a one-minute window
    assert [throttle_hit("test", "k", now=start + i) for i in range(3)] == [None, None, None]
    assert throttle_hit("test", "k", now=start + 20) == 40.0
    assert throttle_hit("test", "other", now=start + 20) is None  # counted per key
    assert throttle_hit("test", "k", now=start + 60) is None  # the next window starts afresh


def test_a_scope_without_a_rate_is_not_throttled() -> None:
    assert all(throttle_hit("no-such-scope", "k") is None for _ in range(100))


@override_settings(TRUSTED_PROXY_COUNT=0)
def test_the_client_address_ignores_forwarded_for_without_a_trusted_proxy() -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_address(request) == "10.0.0.9"


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_the_client_address_behind_one_proxy_is_the_last_forwarded_one() -> None:
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4"
    )
    assert client_address(request) == "1.2.3.4"  # the client cannot choose it


@pytest.mark.django_db
@override_settings(
    THROTTLE_RATES={"analysis": "2/day"},  # a day: no window ends during the test
    THROTTLE_SCOPES_BY_URL_NAME={"core-api:positions": "analysis"},
)
def test_the_api_throttle_applies_by_url_name(client: Client) -> None:
    def analyse() -> int:
        body = json.dumps({"variant": "xiangqi"})
        return int(
            client.post("/api/positions/", body, content_type="application/json").status_code
        )

    assert [analyse(), analyse()] == [200, 200]
    refused = client.post(
        "/api/positions/", "{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert refused.json()["error"]["message"].startswith("Request was throttled")
    assert client.get("/api/variants/").status_code == 200  # other views are not affected
