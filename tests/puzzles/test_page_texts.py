"""What the puzzle pages say before any script runs: today's puzzles with a picture of each
position, difficulty choices in words, a way on to the next puzzle from a daily or shared
puzzle, and the warning that showing the solution counts as not solved."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from engine import Position
from tests.puzzles.conftest import MakePuzzle

FEIDAN_IN_2 = "4k6/1n3a5/5N5/5M5/11/11/11/6K4/11/11 w - - 1 2"


def test_daily_cards_show_the_position(client: Client, make_puzzle: MakePuzzle) -> None:
    xiangqi = make_puzzle()
    feidan = make_puzzle(FEIDAN_IN_2, variant="feidan", goal="dead_general")
    for path in ("/puzzles/daily/", "/"):  # the daily page chooses them, home reads
        page = client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        for puzzle in (xiangqi, feidan):
            card = page[
                page.index(f'<article class="daily-card" data-variant="{puzzle.variant}"') :
            ]
            card = card[: card.index("</article>")]
            assert f'data-fen="{puzzle.fen}"' in card
            drawn = dict(re.findall(r'data-point="(\w\d)" data-piece="([^"]+)"', card))
            assert drawn == Position.from_fen(puzzle.variant, puzzle.fen).pieces()
            assert 'role="img" aria-label="' in card
    assert "puzzles/puzzles.css" in client.get("/").content.decode()  # the cards' styles


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_difficulty_choices_are_words(client: Client, db: None, language: str) -> None:
    page = client.get("/puzzles/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    select = page[page.index('id="filter-difficulty"') :]
    options = re.findall(r"<option [^>]*>([^<]+)</option>", select[: select.index("</select>")])
    assert len(options) == 5
    for text in options:
        assert not re.search(r"[0-9+−-]", text), text
    if language == "en":
        assert options[2] == "At my level"
    else:
        assert options[0] == "比我的水平简单很多"


def test_the_home_page_says_what_the_site_is(client: Client, db: None) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    hero = page[page.index('<section class="hero">') :]
    hero = hero[: hero.index("</section>")]
    for words in ("Lessons and puzzles", "three variants", "Missile Xiangqi", "New-version"):
        assert words in hero
    assert "analysis board" not in hero.lower()
    zh = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "三种象棋的课程和谜题" in zh


def test_daily_and_shared_puzzles_lead_to_the_next_puzzle(
    client: Client, make_puzzle: MakePuzzle
) -> None:
    puzzle = make_puzzle(FEIDAN_IN_2, variant="feidan", goal="dead_general")
    for path in ("/puzzles/daily/feidan/", f"/puzzles/p/{puzzle.slug}/"):
        page = client.get(path).content.decode()
        assert re.search(
            r'<a id="next" class="puzzle-button" href="/puzzles/\?variant=feidan" hidden>', page
        ), path
    trainer = client.get("/puzzles/").content.decode()
    assert '<button type="button" id="next"' in trainer


def test_show_solution_says_what_it_costs(client: Client, make_puzzle: MakePuzzle) -> None:
    puzzle = make_puzzle()
    User.objects.create_user(username="hong", password="a-long-pass-phrase-42")
    client.post("/accounts/login/", {"username": "hong", "password": "a-long-pass-phrase-42"})
    page = client.get(f"/puzzles/p/{puzzle.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    note = re.search(r'<p id="give-up-note"[^>]*>([^<]+)</p>', page)
    assert note and "not count for your rating" in note.group(1)
    zh = client.get(f"/puzzles/p/{puzzle.slug}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "不计等级分" in zh


def test_the_trainer_keeps_only_known_themes_each_once(client: Client, db: None) -> None:
    """The page hands its themes to the API, which refuses unknown ones: it drops them."""
    page = client.get("/puzzles/?themes=mate_in_2,nope,mate_in_2,%3Cb%3E,quiet_move")
    assert page.status_code == 200
    assert page.context["selected_themes"] == ["mate_in_2", "quiet_move"]
