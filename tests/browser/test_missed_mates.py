"""A mate missed in the player's own game, in real headless Chromium with the search on a real
Celery worker: the game's replay names the moment and links to it; the link opens the trainer
on that private puzzle, which is solved (or refuted) like any other and never rated. On a
desktop (1280×800, Chinese) and on a phone (390×844, English)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.owners import Owner
from puzzles.models import GameReview, MissedMate
from tests.browser.test_puzzles import click_move, log_in, state
from tests.puzzles.missed_games import MISSED, TWO_WINS, played_game
from tests.puzzles.test_tasks import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def searched_game(page: Page, live_server: Any, worker: Any, variant: str, name: str) -> int:
    user = log_in(page, live_server, name)
    game = played_game(Owner(user=user), variant)
    wait_for(lambda: GameReview.objects.filter(game=game.pk).exists(), worker)
    return game.pk


def test_the_replay_links_to_the_missed_dead_general_and_it_is_solved(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    game = searched_game(page, live_server, celery_worker, "feidan", "missed-desk")
    missed = MissedMate.objects.get(game=game)
    page.goto(f"/play/{game}/")
    moment = page.get_by_test_id("missed-moment")
    expect(moment).to_have_count(1)
    expect(moment).to_contain_text("第 1 回合，你本有1步死将。你走了帅六退一 (f1f0)。")
    # which engine looked, and how far (feidan: the site's own engine, up to 5 moves)
    expect(page.get_by_test_id("missed-status")).to_have_text("本站引擎搜寻了 5 步以内的必胜着法。")
    expect(page.get_by_test_id("missed-status")).to_have_attribute("data-looked-by", "ours")
    page.screenshot(path=str(artifacts / "missed-replay-desktop.png"), full_page=True)
    moment.get_by_test_id("missed-try").click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/p/{missed.puzzle.slug}/")
    state(page, "ready")
    click_move(page, MISSED["feidan"][2])
    expect(page.locator("#status")).to_have_attribute("data-kind", "solved")
    state(page, "scored")
    expect(page.locator("#result")).to_have_attribute("data-result", "solved")
    expect(page.locator("#result")).to_have_attribute("data-rated", "")
    expect(page.locator("#result")).to_have_text("出自你自己对局的谜题不计等级分。")
    expect(page.get_by_test_id("puzzle-game")).to_contain_text("你的对局，第 1 回合")
    expect(page.locator("#share-box")).to_be_hidden()  # nobody else could open the link
    page.screenshot(path=str(artifacts / "missed-solved-desktop.png"), full_page=True)
    next_link = page.locator("a#next")
    expect(next_link).to_have_attribute("href", "/puzzles/?variant=feidan&pool=mine")
    # The dashboard lists it, solved; the trainer offers it "from my games".
    page.goto("/puzzles/dashboard/")
    expect(page.get_by_test_id("missed")).to_contain_text("已解出")
    page.goto("/puzzles/?pool=mine&variant=feidan")
    state(page, "ready")
    expect(page.locator("#puzzle-info")).to_have_attribute("data-puzzle-id", str(missed.puzzle_id))


def test_on_a_phone_a_wrong_try_is_refuted_then_the_mate_is_found(
    phone: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    game = searched_game(phone, live_server, celery_worker, "xinban", "missed-phone")
    phone.goto(f"/play/{game}/")
    moment = phone.get_by_test_id("missed-moment")
    expect(moment).to_contain_text("At move 1 you had a mate in 1. You played 车九进一 (a0a1).")
    expect(phone.get_by_test_id("missed-status")).to_have_text(
        "The site's own engine looked for forced wins of up to 5 moves."
    )
    moment.get_by_test_id("missed-try").scroll_into_view_if_needed()
    phone.screenshot(path=str(artifacts / "missed-replay-phone.png"), full_page=True)
    moment.get_by_test_id("missed-try").click()
    state(phone, "ready")
    click_move(phone, "a0a1")
    expect(phone.locator("#status")).to_have_attribute("data-kind", "wrong")
    expect(phone.locator("#moves li.move-refutation")).to_have_count(1)
    state(phone, "scored")
    phone.click("#retry")
    state(phone, "ready")
    click_move(phone, MISSED["xinban"][2])
    expect(phone.locator("#status")).to_have_attribute("data-kind", "solved")
    state(phone, "scored")
    expect(phone.locator("#result")).to_have_attribute("data-rated", "")
    expect(phone.locator("#result")).to_have_text("Puzzles from your own games are not rated.")
    phone.screenshot(path=str(artifacts / "missed-solved-phone.png"), full_page=True)


@pytest.mark.parametrize(
    ("screen", "key", "said"),
    [
        ("page", "a0d0", "第 1 回合，你本有1步杀。"),
        ("phone", "a0a9", "At move 1 you had a mate in 1."),
    ],
)
def test_a_mate_in_1_by_two_moves_is_shown_missed_and_either_move_solves_it(
    screen: str,
    key: str,
    said: str,
    live_server: Any,
    celery_worker: Any,
    artifacts: Path,
    request: Any,
) -> None:
    """Red could mate in 1 with either chariot move (a0a9 or a0d0) and played h8h7: the replay
    names the moment, and the puzzle it opens takes either mate (desktop in Chinese with one,
    phone in English with the other)."""
    view: Page = request.getfixturevalue(screen)
    if screen == "page":
        view.set_viewport_size({"width": 1280, "height": 800})
    user = log_in(view, live_server, f"two-wins-{screen}")
    game = played_game(Owner(user=user), "xiangqi", case=TWO_WINS).pk
    wait_for(lambda: GameReview.objects.filter(game=game).exists(), celery_worker)
    view.goto(f"/play/{game}/")
    moment = view.get_by_test_id("missed-moment")
    expect(moment).to_have_count(1)
    expect(moment).to_contain_text(said)
    moment.get_by_test_id("missed-try").scroll_into_view_if_needed()
    view.screenshot(path=str(artifacts / f"missed-two-wins-{screen}.png"), full_page=True)
    moment.get_by_test_id("missed-try").click()
    state(view, "ready")
    click_move(view, key)
    expect(view.locator("#status")).to_have_attribute("data-kind", "solved")
    state(view, "scored")
    expect(view.locator("#result")).to_have_attribute("data-result", "solved")
