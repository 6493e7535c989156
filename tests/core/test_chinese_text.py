"""Every page a learner meets in Chinese follows the rules of Chinese typesetting: no space
next to Chinese punctuation or between Chinese characters, no ASCII colon after Chinese, no
double spaces (in the page and in the texts its scripts will show). The pages are visited
with real content: every lesson, a puzzle of each variant as today's puzzle, an account."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from accounts.models import User
from puzzles import proving
from puzzles.models import Puzzle
from puzzles.services import puzzle_publish
from tests.puzzles.positions import MATE_IN_2
from tests.text_rules import chinese_text_faults, page_faults
from tutorials.models import Lesson

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"
FEIDAN_IN_2 = "4k6/1n3a5/5N5/5M5/11/11/11/6K4/11/11 w - - 1 2"
XINBAN_IN_2 = "2ba5/4a4/3k5/9/9/5+c3/5+R+n1+r/9/4K4/9 w - - 0 1"


def test_the_rules_find_what_they_should() -> None:
    assert chinese_text_faults("红方 走棋: 4步杀")  # the fault this test was written for
    assert chinese_text_faults("红方走棋:4步杀")
    assert chinese_text_faults("局面合法 ：红方走棋。")
    assert chinese_text_faults("走法  炮二平五")
    assert chinese_text_faults("对了！ 继续。")
    assert not chinese_text_faults("红方走棋：4步杀")
    assert not chinese_text_faults("等级分 1500 → 1512（+12）")
    assert not chinese_text_faults("Red to move:  mate in 4")  # not Chinese


def chinese_pages(client: Client) -> list[str]:
    lessons = [f"/learn/{slug}/" for slug in Lesson.objects.values_list("slug", flat=True)]
    assert len(lessons) > 20
    body = {"variant": "feidan", "setup": "plum_blossom", "mode": "local"}
    game = client.post("/api/games/", body, content_type="application/json").json()["id"]
    return [
        "/",
        "/learn/",
        *lessons,
        "/puzzles/",
        "/puzzles/?variant=feidan",
        "/puzzles/daily/",
        "/puzzles/daily/xiangqi/",
        "/puzzles/daily/feidan/",
        "/puzzles/daily/xinban/",
        "/puzzles/dashboard/",
        "/puzzles/patterns/",
        "/puzzles/streak/",
        "/puzzles/storm/?variant=xinban",
        "/puzzles/create/",
        "/puzzles/mine/",
        "/analysis/",
        "/analysis/?variant=xinban",
        "/accounts/profile/",
        f"/play/{game}/",
        "/play/games/",
    ]


ANONYMOUS_PAGES = [
    "/",
    "/learn/",
    "/puzzles/",
    "/puzzles/patterns/",
    "/puzzles/streak/?variant=feidan",
    "/puzzles/storm/",
    "/analysis/",
    "/play/",
    "/play/games/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password-reset/",
    "/accounts/password-reset/sent/",
    "/accounts/password-reset/complete/",
    "/accounts/password-reset/MQ/bad-token/",
]


def publish(variant: str, fen: str, goal: str) -> None:
    puzzle = Puzzle.objects.create(
        variant=variant, fen=fen, goal=goal, moves_to_win=2, source=Puzzle.Source.MINED
    )
    result = proving.prove(variant=variant, fen=fen, goal=goal, moves_to_win=2)
    assert result.sound, result
    puzzle_publish(puzzle=puzzle, result=result)


def test_chinese_pages_follow_the_typesetting_rules(client: Client, lessons: None) -> None:
    publish("xiangqi", MATE_IN_2, "mate")  # each becomes today's puzzle of its variant
    publish("feidan", FEIDAN_IN_2, "dead_general")
    publish("xinban", XINBAN_IN_2, "mate")
    faults: list[str] = []
    anonymous = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    for path in ANONYMOUS_PAGES:
        response = anonymous.get(path, follow=True)
        assert response.status_code == 200, path
        faults += [f"{path}: {fault}" for fault in page_faults(response.content.decode())]
    User.objects.create_user(username="hong", password=PASSWORD)
    client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    for path in chinese_pages(client):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert response.status_code == 200, path
        assert '<html lang="zh-hans">' in response.content.decode(), path
        faults += [f"{path}: {fault}" for fault in page_faults(response.content.decode())]
    assert not faults, "\n".join(faults)


@pytest.fixture
def lessons(db: None) -> None:
    from tutorials.services import lessons_load

    lessons_load()


def test_the_site_says_you_to_its_reader_in_one_form() -> None:
    """你 everywhere (lessons, puzzles, pages, mails); a 您 here and there reads as two voices."""
    root = Path(__file__).resolve().parents[2]
    sources = [
        *root.glob("**/locale/zh_Hans/LC_MESSAGES/*.po"),
        *root.glob("templates/**/*.*"),
        *root.glob("tutorials/lessons/**/*.toml"),
        root / "core" / "messages.py",
        *root.glob("*/static/**/*.js"),
        *root.glob("frontend/src/*.js"),
    ]
    sources = [path for path in sources if ".venv" not in path.parts]
    assert len(sources) > 30
    formal = [str(path.relative_to(root)) for path in sources if "您" in path.read_text("utf-8")]
    assert not formal


def test_every_sentence_the_catalogues_give_a_chinese_page_says_you_as_the_site_does() -> None:
    """What gettext can say on a Chinese page: the site's catalogues and those of Django, DRF
    and the admin they merge with (a refused API request, the CSRF page). Theirs say 您; the
    site's catalogue says those sentences again with 你 (core/vendor_texts.py)."""
    from django.utils import translation
    from django.utils.translation import trans_real

    catalogue = trans_real.translation("zh-hans")._catalog
    keys = {key for key, _said in catalogue.items() if isinstance(key, str) and key}
    assert len(keys) > 1000
    with translation.override("zh-hans"):
        formal = {key: said for key in keys if "您" in (said := translation.gettext(key))}
        assert not formal
        denied = translation.gettext("You do not have permission to perform this action.")
    assert denied == "你没有执行该操作的权限。"
