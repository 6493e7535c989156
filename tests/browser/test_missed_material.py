"""A material win missed in the player's own game, in real headless Chromium with the search on
a real Celery worker: the game's replay names the moment (what it wins and which engine judged
it) beside the missed mates; its link opens the trainer on that private puzzle, which the
winning move solves, never rated. On a desktop (1280×800, Chinese, traditional xiangqi) and on
a phone (390×844, English, New-version Xiangqi)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.owners import Owner
from judge import fairy_stockfish_path
from puzzles.models import GameReview, MissedMate
from tests.browser.test_puzzles import click_move, log_in, state
from tests.puzzles.missed_material_games import CASES, material_game
from tests.puzzles.test_tasks import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def searched_game(page: Page, live_server: Any, worker: Any, name: str, user: str) -> int:
    owner = log_in(page, live_server, user)
    game = material_game(Owner(user=owner), name)
    wait_for(lambda: GameReview.objects.filter(game=game.pk).exists(), worker)
    return game.pk


def test_the_replay_shows_the_missed_chariot_and_its_puzzle_is_solved(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    game = searched_game(page, live_server, celery_worker, "xiangqi", "material-desk")
    missed = MissedMate.objects.get(game=game)
    engine = "Fairy-Stockfish" if fairy_stockfish_path() else "本站引擎"
    page.goto(f"/play/{game}/")
    moment = page.get_by_test_id("missed-moment")
    expect(moment).to_have_count(1)
    expect(moment).to_contain_text(
        f"第 1 回合，你本可以得一车（{engine}判断）。你走了车一进一 (i0i1)。"
    )
    page.screenshot(path=str(artifacts / "missed-material-replay-desktop.png"), full_page=True)
    moment.get_by_test_id("missed-try").click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/p/{missed.puzzle.slug}/")
    state(page, "ready")
    expect(page.locator("#puzzle-info")).to_contain_text("得子：找出能得子的着法")
    click_move(page, CASES["xiangqi"][3])
    expect(page.locator("#status")).to_have_attribute("data-kind", "solved")
    state(page, "scored")
    expect(page.locator("#result")).to_have_attribute("data-rated", "")
    expect(page.locator("#result")).to_have_text("出自你自己对局的谜题不计等级分。")
    expect(page.get_by_test_id("puzzle-game")).to_contain_text("你的对局，第 1 回合")
    page.screenshot(path=str(artifacts / "missed-material-solved-desktop.png"), full_page=True)


def test_on_a_phone_the_move_played_is_wrong_and_the_winning_move_solves_it(
    phone: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    game = searched_game(phone, live_server, celery_worker, "xinban", "material-phone")
    phone.goto(f"/play/{game}/")
    moment = phone.get_by_test_id("missed-moment")
    expect(moment).to_have_count(1)
    expect(moment).to_contain_text(
        "At move 1 you could have won a chariot (judged by the site's own engine). "
        "You played 车一进一 (i0i1)."
    )
    moment.get_by_test_id("missed-try").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "missed-material-replay-phone.png"), full_page=True)
    moment.get_by_test_id("missed-try").click()
    state(phone, "ready")
    expect(phone.locator("#puzzle-info")).to_contain_text("Win material: find a move that does")
    click_move(phone, "i0i1")  # the move played
    expect(phone.locator("#status")).to_have_attribute("data-kind", "wrong")
    state(phone, "scored")
    phone.click("#retry")
    state(phone, "ready")
    click_move(phone, CASES["xinban"][3])
    expect(phone.locator("#status")).to_have_attribute("data-kind", "solved")
    state(phone, "scored")
    expect(phone.locator("#result")).to_have_attribute("data-rated", "")
    expect(phone.locator("#result")).to_have_text("Puzzles from your own games are not rated.")
    phone.screenshot(path=str(artifacts / "missed-material-solved-phone.png"), full_page=True)
