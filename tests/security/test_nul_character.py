"""A NUL character anywhere a request can carry one (path, query parameter, cookie, JSON
string or key) is refused with a 400 before it reaches PostgreSQL, which cannot store or
compare text holding one (it answered 500 for ``?themes=%00``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.security.test_query_bounds import api_schema, query_parameters

pytestmark = pytest.mark.django_db


def assert_refused(answer: Any) -> None:
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["error"]["code"] == "input.nul_character"


def test_every_query_parameter_of_the_api_refuses_a_nul(published: Any) -> None:
    published()
    checked = 0
    for path, name, _ in query_parameters():
        url = path.replace("{puzzle_id}", "1").replace("{game_id}", "1").replace("{slug}", "x")
        assert_refused(Client().get(url, {"variant": "xiangqi", name: "a\x00b"}))
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize(
    "url",
    ["/api/puzzles/?themes=%00", "/api/learn/lessons/x/steps/%00/answer/", "/puzzles/?themes=%00"],
)
def test_a_nul_in_the_address_is_refused(url: str) -> None:
    answer = Client().get(url)
    assert answer.status_code == 400
    if url.startswith("/api/"):
        assert_refused(answer)


def test_a_nul_in_a_cookie_is_refused() -> None:
    client = Client()
    client.cookies["sessionid"] = "a-session\x00key"
    assert_refused(client.get("/api/puzzles/"))


def test_every_json_body_of_the_api_refuses_a_nul_in_a_string_or_a_key() -> None:
    """Each operation that reads a JSON body, with a NUL in a string and in a key."""
    client = Client(enforce_csrf_checks=False)
    checked = 0
    for path, operations in api_schema()["paths"].items():
        url = path.replace("{puzzle_id}", "1").replace("{game_id}", "1")
        url = url.replace("{slug}", "x").replace("{key}", "y")
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            for body in ({"fen": "a\x00b", "moves": ["\x00"]}, {"a\x00": 1}):
                send = getattr(client, method)
                answer = send(url, data=json.dumps(body), content_type="application/json")
                if answer.status_code in (401, 403, 404, 405, 429):
                    continue  # refused before its body is read
                assert_refused(answer)
                checked += 1
    assert checked >= 10
