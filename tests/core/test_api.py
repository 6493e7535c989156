"""The variants and positions API, through the full HTTP stack against the test database."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from core.api import ANSWERS, AnswerCache, entry_size
from engine import VARIANTS, Move, Position
from tests.core.positions import (
    DEAD_GENERAL_IN_ONE,
    MATE_IN_ONE,
    MATING_MOVE,
    STALEMATE,
)

pytestmark = pytest.mark.django_db

POSITIONS = "/api/positions/"


def analyse(client: Client, **body: Any) -> Any:
    return client.post(POSITIONS, data=json.dumps(body), content_type="application/json")


def test_variants_lists_every_variant_with_its_board_and_starts(client: Client) -> None:
    response = client.get("/api/variants/")
    assert response.status_code == 200
    variants = {v["name"]: v for v in response.json()}
    assert set(variants) == set(VARIANTS) == {"xiangqi", "feidan", "xinban"}
    assert (variants["feidan"]["width"], variants["feidan"]["height"]) == (11, 10)
    assert (variants["xiangqi"]["width"], variants["xinban"]["width"]) == (9, 9)
    for name, variant in variants.items():
        assert variant["starts"][0]["fen"] == Position.start(name).fen()
        assert variant["title_zh"] and variant["title_en"]
    assert [s["name"] for s in variants["xinban"]["starts"]] == [
        "new", "traditional", "red-new", "black-new",
    ]  # fmt: skip


def test_variant_titles_follow_the_request_language(client: Client) -> None:
    english = client.get("/api/variants/", HTTP_ACCEPT_LANGUAGE="en").json()
    chinese = client.get("/api/variants/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert english[0]["title"] == english[0]["title_en"] == "Xiangqi"
    assert chinese[0]["title"] == chinese[0]["title_zh"] == "中国象棋"


def test_start_position_lists_the_legal_moves_in_both_notations(client: Client) -> None:
    response = analyse(client, variant="xiangqi")
    assert response.status_code == 200
    data = response.json()
    assert data["fen"] == data["start_fen"] == Position.start("xiangqi").fen()
    assert data["turn"] == "red"
    assert len(data["legal_moves"]) == 44
    assert {"iccs": "h2e2", "chinese": "炮二平五"} in data["legal_moves"]
    assert data["check"] is False and data["check_square"] is None
    assert data["termination"] is None and data["winner"] is None
    assert data["played"] == []


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_start_answers_the_engines_legal_moves(client: Client, variant: str) -> None:
    data = analyse(client, variant=variant).json()
    position = Position.start(variant)
    assert sorted(m["iccs"] for m in data["legal_moves"]) == sorted(
        m.iccs() for m in position.legal_moves
    )
    for move in data["legal_moves"]:
        assert move["chinese"] == position.chinese(Move.from_iccs(move["iccs"]))


def test_moves_may_be_given_in_iccs_or_chinese(client: Client) -> None:
    data = analyse(client, variant="xiangqi", moves=["炮二平五", "h9g7", "h0g2"]).json()
    assert [m["iccs"] for m in data["played"]] == ["h2e2", "h9g7", "h0g2"]
    assert [m["chinese"] for m in data["played"]] == ["炮二平五", "马8进7", "马二进三"]
    position = Position.start("xiangqi")
    for played in data["played"]:
        position.push_iccs(played["iccs"])
        assert played["fen"] == position.fen()
    assert data["fen"] == position.fen()
    assert data["turn"] == "black"


def test_named_start_of_xinban(client: Client) -> None:
    data = analyse(client, variant="xinban", setup="red-new").json()
    assert data["start_fen"] == Position.start("xinban", "red-new").fen()


def test_checkmate_is_reported_with_the_winner(client: Client) -> None:
    data = analyse(
        client, variant="xiangqi", fen=MATE_IN_ONE["xiangqi"], moves=[MATING_MOVE]
    ).json()
    assert data["termination"] == "checkmate"
    assert data["winner"] == "red"
    assert data["check"] is True
    assert data["check_square"] == "d9"
    assert data["legal_moves"] == []


def test_dead_general_is_reported(client: Client) -> None:
    data = analyse(client, variant="feidan", fen=DEAD_GENERAL_IN_ONE, moves=["c7f7"]).json()
    assert data["played"][0]["chinese"] == Position.from_fen("feidan", DEAD_GENERAL_IN_ONE).chinese(
        Move.from_iccs("c7f7")
    )
    assert (data["termination"], data["winner"]) == ("dead_general", "red")
    assert data["check_square"] == "f9"


def test_stalemate_is_reported(client: Client) -> None:
    data = analyse(client, variant="xiangqi", fen=STALEMATE).json()
    assert (data["termination"], data["winner"]) == ("stalemate", "red")
    assert data["check"] is False


def test_bad_fen_is_a_400_naming_the_problem(client: Client) -> None:
    response = analyse(client, variant="xiangqi", fen="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9 w - - 0 1")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "fen.rank_count" and error["params"]["count"] == 6
    assert error["message"].startswith("局面不合法")  # the default language
    assert error["extra"]["field"] == "fen"
    assert error["extra"]["reason"]


def test_letter_outside_the_variant_is_refused(client: Client) -> None:
    feidan_start = Position.start("feidan").fen()
    response = analyse(client, variant="xiangqi", fen=feidan_start)
    assert response.status_code == 400
    assert response.json()["error"]["extra"]["field"] == "fen"


def test_illegal_move_is_an_answer_naming_the_move(client: Client) -> None:
    response = analyse(client, variant="xiangqi", moves=["h2e2", "e9e7"])
    # trying a move is not a fault of the request: 200, not legal, the reason
    assert response.status_code == 200
    assert response.json()["legal"] is False
    error = response.json()["error"]
    assert "e9e7" in error["message"]
    assert error["extra"]["field"] == "moves"
    assert error["extra"]["index"] == 1
    assert error["extra"]["move"] == "e9e7"
    assert error["extra"]["kind"] == "IllegalMoveError"


def test_unreadable_move_is_a_400(client: Client) -> None:
    response = analyse(client, variant="xiangqi", moves=["hello"])
    assert response.status_code == 400
    assert response.json()["error"]["extra"]["kind"] == "InvalidMoveError"


def test_move_after_the_end_of_the_game_is_refused(client: Client) -> None:
    response = analyse(
        client, variant="xiangqi", fen=MATE_IN_ONE["xiangqi"], moves=[MATING_MOVE, "d9e9"]
    )
    assert response.status_code == 400
    assert response.json()["error"]["extra"]["termination"] == "checkmate"


def test_unknown_variant_and_start_are_400(client: Client) -> None:
    response = analyse(client, variant="chess")
    assert response.status_code == 400
    assert "chess" in response.json()["error"]["message"]
    response = analyse(client, variant="xiangqi", setup="nonsense")
    assert response.status_code == 400
    assert response.json()["error"]["extra"]["known"] == ["standard"]


def test_missing_variant_is_a_validation_error_naming_the_field(client: Client) -> None:
    response = analyse(client, moves=["h2e2"])
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "input.required" and error["params"] == {"field": "variant"}
    assert error["message"] == "缺少字段“variant”。"  # the default language
    assert "variant" in error["extra"]["fields"]


def test_wrong_method_keeps_the_error_shape(client: Client) -> None:
    response = client.get(POSITIONS, HTTP_ACCEPT="application/json")
    assert response.status_code == 405
    assert response.json()["error"]["message"]


def test_logged_in_api_calls_need_the_csrf_token(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user(username="ming", password="pw-long-enough-1")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = analyse(client, variant="xiangqi")
    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]["message"]
    client.get("/analysis/")  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        POSITIONS,
        data=json.dumps({"variant": "xiangqi"}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200


def test_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    assert {"/api/variants/", "/api/positions/"} <= set(paths)
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger" in html.lower()
    assert "cdn." not in html  # served from our own static files


@pytest.mark.django_db(transaction=True)
def test_positions_over_a_real_socket(live_server: Any) -> None:
    request = urllib.request.Request(
        f"{live_server.url}{POSITIONS}",
        data=json.dumps({"variant": "feidan", "moves": ["i2f2"]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data = json.load(response)
    assert data["played"][0]["iccs"] == "i2f2"
    bad = urllib.request.Request(
        f"{live_server.url}{POSITIONS}",
        data=json.dumps({"variant": "feidan", "fen": "x"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(bad, timeout=30)
    assert caught.value.code == 400
    assert json.load(caught.value)["error"]["extra"]["field"] == "fen"


def test_a_repeated_request_gets_the_same_answer_kept_by_the_web_process(client: Client) -> None:
    ANSWERS.clear()
    first = analyse(client, variant="xiangqi", moves=["h2e2", "h9g7"])
    assert first.status_code == 200
    # The same request with its keys in another order and other spacing is the same request.
    again = client.post(
        POSITIONS,
        data='{ "moves": ["h2e2", "h9g7"],   "variant": "xiangqi" }',
        content_type="application/json",
    )
    assert again.status_code == 200
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"] == "application/json"
    assert json.loads(first.content)["played"][1]["iccs"] == "h9g7"
    other = analyse(client, variant="xiangqi", moves=["h2e2"])
    assert other.content != first.content


def test_errors_are_never_kept(client: Client) -> None:
    ANSWERS.clear()
    for _ in range(2):
        response = analyse(client, variant="xiangqi", moves=["a0a5"])  # illegal: an answer
        assert response.status_code == 200 and response.json()["legal"] is False
        assert "a0a5" in response.json()["error"]["message"]
        response = analyse(client, variant="xiangqi", moves=["a0a0"])  # unreadable: a fault
        assert response.status_code == 400
    assert len(ANSWERS) == 0


def test_the_kept_answers_drop_the_least_recently_used() -> None:
    cache = AnswerCache(max_bytes=2 * entry_size("a", b"1"))
    cache.put("a", b"1")
    cache.put("b", b"2")
    assert cache.get("a") == b"1"  # now the most recently used
    cache.put("c", b"3")
    assert cache.get("b") is None and cache.get("a") == b"1" and cache.get("c") == b"3"


def test_the_kept_answers_stay_within_their_byte_bound() -> None:
    answer = b"x" * 10_000
    bound = 5 * entry_size("key-00", answer) + 100
    cache = AnswerCache(max_bytes=bound)
    for index in range(50):
        cache.put(f"key-{index:02}", answer)
        assert cache.bytes <= bound
    assert len(cache) == 5  # the five latest: the bound is bytes, not a count
    assert cache.get("key-49") == answer and cache.get("key-44") is None
    # Small answers fit many more into the same bytes.
    for index in range(200):
        cache.put(f"small-{index:03}", b"{}")
    assert cache.bytes <= bound and len(cache) > 100
    # An answer larger than the whole bound is not kept, and drops nothing.
    kept = len(cache)
    cache.put("huge", b"x" * bound)
    assert cache.get("huge") is None and len(cache) == kept
    # The same key again replaces the answer; its bytes are counted once.
    cache.clear()
    cache.put("k", answer)
    cache.put("k", answer)
    assert cache.bytes == entry_size("k", answer)


def test_the_site_keeps_answers_within_the_configured_bytes(client: Client) -> None:
    """Distinct games through the API: the process keeps no more than the setting's bytes."""
    assert ANSWERS.max_bytes == settings.POSITION_ANSWER_CACHE_BYTES
    saved = ANSWERS.max_bytes
    ANSWERS.clear()
    ANSWERS.max_bytes = 40_000
    try:
        openings = ["h2e2", "b2e2", "h0g2", "b0c2", "c3c4", "g3g4", "i0i1", "a0a1"]
        replies = ["h9g7", "b9c7", "h7e7", "b7e7", "c6c5", "g6g5"]
        for first in openings:
            for reply in replies:
                assert analyse(client, variant="xiangqi", moves=[first, reply]).status_code == 200
                assert ANSWERS.bytes <= 40_000
        assert 0 < len(ANSWERS) < len(openings) * len(replies)
    finally:
        ANSWERS.max_bytes = saved
        ANSWERS.clear()


def test_the_browsable_api_still_answers_html(client: Client) -> None:
    ANSWERS.clear()
    body = json.dumps({"variant": "xiangqi"})
    client.post(POSITIONS, data=body, content_type="application/json")
    html = client.post(
        POSITIONS, data=body, content_type="application/json", HTTP_ACCEPT="text/html"
    )
    assert html.status_code == 200
    assert html["Content-Type"].startswith("text/html")
