"""Hostile requests get clear 4xx answers in the API's error shape, never a server error:
bodies that are too large, JSON nested absurdly deep or not JSON at all, move lists that are
too long, unknown variants, and forms (the API reads JSON only)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from core.parsers import json_depth
from core.services import MAX_MOVES

pytestmark = pytest.mark.django_db

POSITIONS = "/api/positions/"


def post_raw(client: Client, body: bytes | str, content_type: str = "application/json") -> Any:
    return client.post(POSITIONS, data=body, content_type=content_type)


def assert_error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"message", "code", "params", "extra"}
    assert body["error"]["message"]
    return body["error"]


def test_a_body_over_the_limit_is_refused_before_it_is_read(client: Client) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    padding = "x" * (limit + 1)
    error = assert_error(post_raw(client, json.dumps({"variant": "xiangqi", "pad": padding})), 413)
    assert error["extra"]["limit"] == limit
    # Pages refuse it too (plain text, not a server error).
    response = client.post("/accounts/login/", {"username": "a", "password": padding})
    assert response.status_code == 413


def test_a_body_just_under_the_limit_is_read(client: Client) -> None:
    moves = ["h2e2", "h9g7"] * (MAX_MOVES // 2)
    body = json.dumps({"variant": "xiangqi", "moves": moves})
    assert len(body) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    # h2e2 twice is illegal: read, then answered as not legal
    response = post_raw(client, body)
    assert response.status_code == 200 and response.json()["legal"] is False


@pytest.mark.parametrize("depth", [settings.API_MAX_JSON_DEPTH + 1, 50, 5_000, 50_000])
def test_json_nested_too_deep_is_a_400(client: Client, depth: int) -> None:
    body = '{"variant": "xiangqi", "moves": ' + "[" * depth + "]" * depth + "}"
    if len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        assert_error(post_raw(client, body), 413)
    else:
        error = assert_error(post_raw(client, body), 400)
        assert "nested" in error["message"]


def test_json_at_the_depth_limit_is_read() -> None:
    assert json_depth({"a": [[{"b": 1}]]}) == 4
    assert json_depth([]) == 1 and json_depth("x") == 0


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{",
        b"null",
        b"[]",
        b'"xiangqi"',
        b"42",
        b'{"variant": NaN}',
        b"\xff\xfe\x00garbage",
        b'{"variant": "xiangqi", "moves": "h2e2"}',
        b'{"variant": "xiangqi", "moves": [1, 2, 3]}',
        b'{"variant": "xiangqi", "moves": [{"iccs": "h2e2"}]}',
        b'{"variant": ["xiangqi"]}',
        b'{"variant": "xiangqi", "fen": 7}',
        b'{"variant": "xiangqi", "fen": "' + b"r" * 5000 + b'"}',
        b'{"variant": "xiangqi", "moves": ["' + b"h" * 5000 + b'"]}',
        b'{"variant": "xiangqi\\u0000"}',
    ],
)
def test_malformed_bodies_are_400s(client: Client, body: bytes) -> None:
    assert_error(post_raw(client, body), 400)


def test_an_unknown_content_type_is_a_415(client: Client) -> None:
    assert_error(post_raw(client, "<xml/>", content_type="application/xml"), 415)


@pytest.mark.parametrize("variant", ["chess", "", "XIANGQI ", "feidan2", "象棋", "x" * 32])
def test_unknown_variants_are_400s(client: Client, variant: str) -> None:
    error = assert_error(post_raw(client, json.dumps({"variant": variant})), 400)
    assert error["extra"]["fields"]["variant"] if "fields" in error["extra"] else True


def test_too_many_moves_is_a_400_naming_the_limit(client: Client) -> None:
    body = json.dumps({"variant": "xiangqi", "moves": ["h2e2"] * (MAX_MOVES + 1)})
    error = assert_error(post_raw(client, body), 400)
    assert str(MAX_MOVES) in error["message"]


def test_a_form_is_a_415_before_any_field_is_read(client: Client) -> None:
    """The API reads JSON only; a form with too many fields is refused like any other."""
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = post_raw(client, fields, content_type="application/x-www-form-urlencoded")
    assert_error(response, 415)


def test_unknown_api_paths_answer_json_404(client: Client) -> None:
    error = assert_error(client.get("/api/no/such/thing/"), 404)
    assert error["extra"]["path"] == "/api/no/such/thing/"
    # Pages keep their HTML 404.
    assert client.get("/no/such/page/").status_code == 404


def test_wrong_method_is_a_json_405(client: Client) -> None:
    assert_error(client.delete(POSITIONS), 405)
