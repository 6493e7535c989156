"""Why a puzzle is refused, said once and in the reader's language: the editor's check of a
position, and the reasons of a rejected authored puzzle (no technical repeat, right plurals)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from puzzles.models import Puzzle
from puzzles.rejections import rejection_text
from puzzles.services import puzzle_draft_create, puzzle_verify
from tests.puzzles.positions import COOKED_IN_1, MATE_IN_1, NO_WIN

pytestmark = pytest.mark.django_db
CJK = re.compile(r"[\u4e00-\u9fff]")


def _rejected(user: Any, fen: str, n: int) -> Puzzle:
    puzzle = puzzle_draft_create(
        author=user, variant="xiangqi", fen=fen, goal="mate", moves_to_win=n, title=""
    )
    Puzzle.objects.filter(pk=puzzle.pk).update(status=Puzzle.Status.VERIFYING)
    result = puzzle_verify(puzzle_id=puzzle.pk)
    assert result is not None and result.status == Puzzle.Status.REJECTED
    return result


def _client(user: Any, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_shorter_win_is_said_once_with_the_right_plural(make_user) -> None:
    puzzle = _rejected(make_user(), MATE_IN_1, 2)
    en = rejection_text(puzzle.rejection, "", "en")
    assert en == "There is a shorter win: checkmate in 1 move, starting 车九平六 (a0d0)."
    assert "1 moves" not in en and "(key" not in en and en.count("a0d0") == 1
    assert puzzle.rejection_reason == en
    zh = rejection_text(puzzle.rejection, "", "zh-hans")
    assert zh == "有更短的解法：1 步即可将死，首着 车九平六 (a0d0)。"


def test_a_cooked_puzzle_and_no_win_in_chinese(make_user) -> None:
    user = make_user()
    cooked = rejection_text(_rejected(user, COOKED_IN_1, 1).rejection, "", "zh")
    assert cooked.startswith("有多解") and "b1b9" in cooked and "b1d1" in cooked
    assert "more than one" not in cooked
    no_win = rejection_text(_rejected(user, NO_WIN, 2).rejection, "", "zh")
    assert no_win.startswith("2 步内不能强制将死")
    assert not re.search(r"[A-Za-z]{3,}", no_win)


def test_the_authored_list_says_the_reason_in_the_readers_language(make_user) -> None:
    user = make_user()
    _rejected(user, MATE_IN_1, 2)
    zh = _client(user, "zh-hans").get("/api/puzzles/authored/").json()[0]["rejection_reason"]
    en = _client(user, "en").get("/api/puzzles/authored/").json()[0]["rejection_reason"]
    assert CJK.search(zh) and not re.search(r"[A-Za-z]{3,}", zh.replace("a0d0", ""))
    assert en.startswith("There is a shorter win")
    page = _client(user, "zh-hans").get("/puzzles/mine/").content.decode()
    assert "有更短的解法" in page and "shorter win" not in page


def test_the_editor_check_says_why_a_position_is_illegal_in_chinese(make_user) -> None:
    client = _client(make_user(), "zh-hans")
    response = client.post(
        "/api/puzzles/authored/check/",
        data=json.dumps({"variant": "xiangqi", "fen": "3k5/9/9/9/9/9/9/9/4K4/4K4 w - - 0 1"}),
        content_type="application/json",
    )
    # placing pieces is trying, not a fault of the request: an answer, with the reason
    assert response.status_code == 200 and response.json()["legal"] is False
    error = response.json()["error"]
    assert error["message"] == "局面不合法：第 1 横线：红方有 2 个帅。"
    assert error["code"] == "fen.two_generals"
    assert error["params"] == {"colour": "red", "count": 2, "rank": 1}
