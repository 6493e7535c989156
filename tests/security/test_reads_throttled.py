"""API reads are counted per client address (the scope ``reads``), whoever asks: a flood of
polls from one address, however many sessions or accounts it uses, gets one budget and cannot
fill the web workers everyone else waits for (issue: a client that polls its busy games).
Rates per day here, so that no counting window ends during the test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from core.throttles import parse_rate
from tests.security.conftest import logged_in

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def read(client: Client, address: str) -> int:
    return int(client.get("/api/variants/", REMOTE_ADDR=address).status_code)


@override_settings(THROTTLE_RATES={"reads": "4/day"})
def test_api_reads_share_one_budget_per_address_across_sessions_and_accounts() -> None:
    flood = "10.66.0.1"
    answers = [read(Client(), flood) for _ in range(2)]  # two visitors' sessions
    answers += [read(logged_in(name), flood) for name in ("first", "second")]  # two accounts
    assert answers == [200, 200, 200, 200]
    refused = Client().get("/api/variants/", REMOTE_ADDR=flood)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert read(logged_in("third"), flood) == 429
    assert read(Client(), "10.1.0.1") == 200  # another address is not affected


@override_settings(THROTTLE_RATES={"reads": "1/day", "games": "10/day"})
def test_a_refused_read_changes_nothing_and_writes_are_counted_apart() -> None:
    client = Client()
    assert read(client, "10.66.0.2") == 200
    assert read(client, "10.66.0.2") == 429
    assert "sessionid" not in client.cookies  # refused before any session was made
    assert client.get("/play/", REMOTE_ADDR="10.66.0.2").status_code == 200  # pages are apart
    made = client.post("/api/games/", {"variant": "xiangqi"}, content_type="application/json",
                       REMOTE_ADDR="10.66.0.2")  # fmt: skip
    assert made.status_code == 201  # its own scope, not the reads'


def test_the_default_read_budget_lets_a_family_poll_several_games_at_once() -> None:
    """The game page polls every POLL_MS while the computer thinks; the default budget of an
    address covers five such pages polling without a pause, with room for the rest."""
    script = (ROOT / "games/static/games/game.js").read_text()
    found = re.search(r"const POLL_MS = (\d+);", script)
    assert found, "the game page's poll interval"
    polls_per_second = 1000 / int(found.group(1))
    rate = parse_rate(settings.THROTTLE_RATES["reads"])
    assert rate.count / rate.seconds >= 5 * polls_per_second * 1.5


@override_settings(THROTTLE_RATES={"reads": "1/day"})
@pytest.mark.parametrize(("language", "words"), [("en", "throttled"), ("zh-hans", "请求")])
def test_a_refused_read_says_why_in_the_readers_language(language: str, words: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert read(client, "10.66.0.3") == 200
    refused = client.get("/api/variants/", REMOTE_ADDR="10.66.0.3")
    body = refused.json()["error"]
    assert refused.status_code == 429 and body["code"] == "throttled"
    assert words in body["message"].lower(), body
