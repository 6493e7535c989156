"""Errors in the reader's language: every engine error code and every code of the site has a
Chinese and an English sentence, the catalogues are complete, and the API answers a bad FEN,
an illegal move or an unknown variant wholly in the language asked for."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from core.messages import APP_EN, APP_ZH, ENGINE_ZH, TEXT_PARAMS, reads_chinese, render
from engine import Position
from engine.errors import CODES, MESSAGES

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
# Words that may stay in Latin letters in a Chinese sentence: notations and formats.
LATIN_OK = {"FEN", "ICCS", "JSON", "w", "r", "b", "h2e2", "a", "k", "red", "black", "nodes",
            "seconds"}  # fmt: skip


def _Any(*templates: str) -> dict[str, Any]:  # noqa: N802 - reads as a value
    """Params with a value for every field of the templates (a text in both languages for
    the params that hold one)."""
    return {
        name: {"zh": "中文", "en": "English"} if name in TEXT_PARAMS else 1
        for template in templates
        for name in _fields(template)
    }


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_engine_code_has_both_languages() -> None:
    assert CODES, "the engine lists its codes"
    missing = sorted(code for code in CODES if code not in ENGINE_ZH)
    assert not missing, f"engine codes without a Chinese sentence: {missing}"
    assert not set(ENGINE_ZH) - CODES, "Chinese sentences for codes the engine does not have"
    for code in sorted(CODES):
        params = _Any(MESSAGES[code], ENGINE_ZH[code])
        zh = render(code, params, "zh-hans")
        en = render(code, params, "en")
        assert CJK.search(zh), (code, zh)
        assert not CJK.search(re.sub("[前中后平]", "", en)), (code, en)
        template = ENGINE_ZH[code]
        leftover = re.sub(r"\{[^}]*\}", "", template)
        words = set(re.findall(r"[A-Za-z][A-Za-z0-9-]*", leftover))
        assert words <= LATIN_OK, (code, words)
        # the Chinese sentence uses only values the English one has (or words made from them)
        allowed = _fields(MESSAGES[code]) | {"piece_of_colour", "moves_text", "piece", "colour"}
        assert _fields(template) <= allowed, code


def test_every_site_code_has_both_languages() -> None:
    assert set(APP_EN) == set(APP_ZH)
    for code in APP_EN:
        params = _Any(APP_EN[code], APP_ZH[code])
        assert CJK.search(render(code, params, "zh")), code
        # an English sentence may show Chinese notation as an example, nothing else Chinese
        english = re.sub(r"Chinese notation \([^)]*\)", "", render(code, params, "en"))
        assert not CJK.search(english), code
        assert _fields(APP_ZH[code]) <= _fields(APP_EN[code]), code


def test_pieces_sides_and_counts_are_said_in_words() -> None:
    params = {"colour": "black", "count": 3, "piece": "advisor", "limit": 2}
    assert render("fen.too_many_pieces", params, "zh") == (
        "局面不合法：黑方有 3 个士，对局中一方最多只能有 2 个。"
    )
    assert render("fen.too_many_pieces", params, "en") == (
        "This position is not legal: Black has 3 advisors; a game can give a side at most 2."
    )
    rank = {"colour": "black", "count": 2, "rank": 9}
    assert render("fen.two_generals", rank, "zh") == "局面不合法：第 9 横线：黑方有 2 个将。"
    reach = {"piece": "cannon", "colour": "red", "turncoat": 1, "square": "h2", "target": "e3"}
    assert render("move.cannot_reach", reach, "zh") == "h2 上的炮走不到 e3。"
    assert render("move.cannot_reach", reach, "en") == "The cannon on h2 cannot move to e3."
    assert render("rejection.no_win", {"goal": "mate", "moves": 1}, "en") == (
        "No forced checkmate in 1 move."
    )
    assert render("rejection.no_win", {"goal": "mate", "moves": 2}, "en") == (
        "No forced checkmate in 2 moves."
    )


def _po_entries(path: Path) -> list[str]:
    return [block for block in path.read_text(encoding="utf-8").split("\n\n") if "msgid" in block]


@pytest.mark.parametrize(
    "path",
    sorted(p for p in ROOT.glob("*/locale/*/LC_MESSAGES/*.po"))
    + sorted(ROOT.glob("locale/*/LC_MESSAGES/*.po")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_catalogue_has_no_untranslated_or_fuzzy_entries(path: Path) -> None:
    entries = _po_entries(path)
    assert len(entries) > 1
    for block in entries[1:]:  # the first entry is the header
        assert not re.search(r"^#,.*\bfuzzy\b", block, re.M), block
        for match in re.finditer(r'^msgstr(?:\[\d+\])? ""\s*$((?:\n".*")*)', block, re.M):
            assert match.group(1).strip(), f"untranslated: {block}"


def _post(client: Client, language: str, **body: Any) -> dict[str, Any]:
    response = client.post(
        "/api/positions/",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    # a move the rules refuse is an answer (200, not legal); anything else a 400
    assert response.status_code == 400 or response.json()["legal"] is False
    return response.json()["error"]


def _latin_words(text: str, *quoted: str) -> set[str]:
    for value in quoted:
        text = text.replace(value, "")
    return set(re.findall(r"\b[A-Za-z]{3,}\b", text))


BAD = [
    ({"variant": "feidan", "fen": "4aka4/3M7/4a6/5F5/11/11/11/11/2c8/6K4 w - - 0 1"},
     "fen.too_many_pieces", ()),
    ({"variant": "xiangqi", "fen": "3k5/9/9/9/9/9/9/9/45/4K4 w - - 0 1"}, "fen.rank_width", ()),
    ({"variant": "xiangqi", "moves": ["h2e2", "h9g7", "e2e9x"]}, "notation.bad_start",
     ("e2e9x",)),
    ({"variant": "xinban", "moves": ["h2e3"]}, "move.cannot_reach", ()),
    ({"variant": "xiangqi", "moves": ["炮二平二"]}, "notation.same_file", ()),
    ({"variant": "chess"}, "variant.unknown", ("chess", "xiangqi", "feidan", "xinban")),
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "code", "quoted"), BAD)
def test_the_api_answers_in_chinese_with_no_english_sentence(
    client: Client, body: dict[str, Any], code: str, quoted: tuple[str, ...]
) -> None:
    error = _post(client, "zh-hans", **body)
    assert error["code"] == code
    assert CJK.search(error["message"]), error["message"]
    assert not _latin_words(error["message"], *quoted), error["message"]
    assert "+C" not in error["message"]
    assert "fen" not in body or body["fen"].split()[0] not in error["message"]
    assert (
        Position.start(body["variant"] if body["variant"] != "chess" else "xiangqi").fen()
        not in (error["message"])
    )
    english = _post(client, "en", **body)
    assert english["code"] == code and english["params"] == error["params"]
    assert not CJK.search(re.sub("炮二平二|[前中后平]", "", english["message"])), english["message"]


def test_reads_chinese_follows_the_given_or_the_current_language() -> None:
    assert reads_chinese("zh-hans") and reads_chinese("zh-cn")
    assert not reads_chinese("en") and not reads_chinese("en-us")
    with translation.override("en"):
        assert not reads_chinese()
    with translation.override("zh-hans"):
        assert reads_chinese()
