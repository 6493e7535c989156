"""A request refused for one of its fields (missing, of the wrong type, too long, not a choice)
is said like every other API error: a code of the site (``input.*``), its params with the
field's path, and the message in the reader's language; the answer keeps its keys, with every
field's errors still in ``extra["fields"]``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from core import field_errors
from core.messages import APP_EN, APP_ZH, render

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u4e00-\u9fff]")
# English words in a Chinese message, besides field names, values and JSON's own words
ENGLISH_WORD = re.compile(r"(?<![“\w])[A-Za-z]{3,}(?![\w”])")

CHECK = "/api/puzzles/authored/check/"
POSITIONS = "/api/positions/"
GAMES = "/api/games/"
SETUP_CHECK = "/api/games/setup/check/"
LESSON_SETUP = "/api/learn/lessons/feidan-setups/steps/4/setup/"
TOO_MANY_POINTS = {
    f"{file}{rank}{n}": "P" for file in "abcdefghijk" for rank in range(10) for n in "xy"
}

CASES: list[tuple[str, dict[str, Any] | list[Any], str, dict[str, object]]] = [
    # missing fields
    (CHECK, {"variant": "xiangqi"}, "input.required", {"field": "fen"}),
    (POSITIONS, {"moves": ["h2e2"]}, "input.required", {"field": "variant"}),
    (GAMES, {"level": 2}, "input.required", {"field": "variant"}),
    # fields of the wrong type
    (
        CHECK,
        {"variant": "xiangqi", "fen": "4k4/9/9/9/9/9/9/9/9/4K4 w", "moves_to_win": "two"},
        "input.not_integer",
        {"field": "moves_to_win"},
    ),
    (CHECK, {"variant": "xiangqi", "fen": ["4k4"]}, "input.not_string", {"field": "fen"}),
    (POSITIONS, {"variant": "xiangqi", "moves": "h2e2"}, "input.not_list", {"field": "moves"}),
    (
        POSITIONS,
        {"variant": "xiangqi", "moves": ["h2e2", 7, {"to": "e2"}]},
        "input.not_string",
        {"field": "moves.2"},
    ),
    (GAMES, {"variant": "xiangqi", "level": True}, "input.not_integer", {"field": "level"}),
    (GAMES, {"variant": "xiangqi", "level": None}, "input.null", {"field": "level"}),
    # limits and choices the field declares
    (GAMES, {"variant": "xiangqi", "level": 9}, "input.too_large", {"field": "level", "limit": 8}),
    (
        GAMES,
        {"variant": "xiangqi", "clock_minutes": -1},
        "input.too_small",
        {"field": "clock_minutes", "limit": 0},
    ),
    (
        POSITIONS,
        {"variant": "x" * 40},
        "input.too_long",
        {"field": "variant", "limit": 32},
    ),
    (
        CHECK,
        {"variant": "chess", "fen": "x"},
        "input.not_a_choice",
        {"field": "variant", "input": "chess", "known": "xiangqi, feidan, xinban"},
    ),
    # a placement of more pieces than a board has points, or a lesson's setup allows
    (
        SETUP_CHECK,
        {"method": "middle_soldier", "color": "red", "placement": TOO_MANY_POINTS},
        "input.too_many",
        {"field": "placement", "limit": 110},
    ),
    (
        SETUP_CHECK,
        {"method": "middle_soldier", "color": "red", "placement": {}},
        "input.required",
        {"field": "placement"},
    ),
    (
        LESSON_SETUP,
        {"placement": dict(list(TOO_MANY_POINTS.items())[:61])},
        "input.too_many",
        {"field": "placement", "limit": 60},
    ),
    # not an object at all
    (POSITIONS, ["xiangqi"], "input.body_not_object", {"type": "list"}),
]


def refuse(language: str, path: str, body: Any) -> dict[str, Any]:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    user = User.objects.create_user(username=f"fields-{language}", password="a-long-password-1")
    client.force_login(user)
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    answer = response.json()
    assert set(answer) == {"error"}
    assert set(answer["error"]) == {"message", "code", "params", "extra"}
    return answer["error"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize(("path", "body", "code", "params"), CASES)
def test_a_refused_field_is_said_by_its_code_in_the_reader_s_language(
    language: str, path: str, body: Any, code: str, params: dict[str, object]
) -> None:
    error = refuse(language, path, body)
    assert error["code"] == code, error
    assert error["params"] == params, error
    assert error["message"] == render(code, error["params"], language)
    if "field" in params:
        assert str(params["field"]).split(".")[0] in error["extra"]["fields"]
        assert f"“{params['field']}”" in error["message"]
    message = error["message"]
    if language == "en":
        assert not CJK.search(message), message
    else:
        assert CJK.search(message), message
        plain = re.sub(r"“[^”]*”|（可选：[^）]*）", "", message)
        assert not ENGLISH_WORD.search(plain.replace("JSON", "").replace("null", "")), message
        # DRF's own sentences for every field, kept for programs, are Chinese too
        for said in field_sentences(error["extra"].get("fields", {})):
            assert CJK.search(said), (said, error)


def field_sentences(tree: Any) -> list[str]:
    if isinstance(tree, dict):
        return [said for value in tree.values() for said in field_sentences(value)]
    if isinstance(tree, list):
        return [said for value in tree for said in field_sentences(value)]
    return [str(tree)]


def test_the_two_languages_say_it_as_the_site_does() -> None:
    assert render("input.required", {"field": "fen"}, "zh") == "缺少字段“fen”。"
    assert render("input.required", {"field": "fen"}, "en") == "The field “fen” is missing."
    said = render(
        "input.not_a_choice",
        {"field": "variant", "input": "chess", "known": "xiangqi, feidan, xinban"},
        "zh",
    )
    assert (
        said
        == "字段“variant”不能是“chess”（可选：中国象棋 xiangqi、飞弹象棋 feidan、新版象棋 xinban）。"
    )


def test_every_code_the_field_errors_give_has_both_sentences() -> None:
    source = Path(field_errors.__file__).read_text("utf-8")
    codes = set(re.findall(r'"(input\.[a-z_]+)"', source))
    codes |= {f"input.{name}" for name in ("required", "null")}  # made from DRF's codes
    assert len(codes) > 15
    assert codes <= set(APP_EN) and codes <= set(APP_ZH), codes - set(APP_EN) - set(APP_ZH)
