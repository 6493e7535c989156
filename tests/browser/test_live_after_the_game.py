"""A live game after its end, in real headless Chromium, against the site served by its ASGI
server (uvicorn, on the test database) with the searches on a real Celery worker: two visitors
play a short game by challenge link (Black throws a cannon away, Red does not take it, Black
resigns); then Red, on a desktop in English, finds the game in their games list marked live,
opens its replay, sees the cannon they missed and asks for the computer's analysis; Black, on
a phone in Chinese, finds it in theirs, with Red's miss not shown to them. Screenshots land in
test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect

from live.models import LiveGame
from puzzles.models import GameReview
from tests.browser.test_live_game import AsgiServer, _context_page
from tests.browser.test_play import click_move
from tests.puzzles.test_tasks import wait_for
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

# Black throws a cannon away (3... 炮8进7, h7h0); Red lets it be (4. a0a1) and misses it.
GAME = ["h2e2", "h9g7", "h0g2", "h7h0", "a0a1"]


@pytest.fixture
def server(transactional_db: None, tmp_path: Path) -> Iterator[AsgiServer]:
    """The site under uvicorn, sending its tasks to the test worker's queues."""
    served = AsgiServer(tmp_path / "uvicorn.log")
    served.env["CELERY_QUEUE_PREFIX"] = settings.CELERY_QUEUE_PREFIX
    served.env["CELERY_TASK_DEFAULT_QUEUE"] = settings.CELERY_TASK_DEFAULT_QUEUE
    served.start()
    try:
        yield served
    finally:
        served.stop()


def test_a_finished_live_game_is_in_the_players_lists_with_its_replay_missed_wins_and_analysis(
    browser: Browser, server: AsgiServer, celery_worker: Any, artifacts: Path
) -> None:
    red = _context_page(browser, server.url, {"width": 1280, "height": 800}, "en-US")
    black = _context_page(browser, server.url, {"width": 390, "height": 844}, "zh-CN")
    errors: list[str] = []
    for page in (red, black):
        page.on("pageerror", lambda error: errors.append(str(error)))

    red.goto("/play/live/")
    red.select_option("select[name='game']", "xiangqi:standard")
    red.check("input[name='colour'][value='red']")
    red.get_by_test_id("live-create").click()
    red.wait_for_url("**/play/live/*/")
    link = red.get_by_test_id("live-link").input_value()
    black.goto(link)
    black.get_by_test_id("live-accept-button").click()
    for page, side in ((red, "red"), (black, "black")):
        expect(page.locator(f"body[data-you='{side}'][data-live-status='playing']")).to_have_count(
            1
        )
    for ply, move in enumerate(GAME):
        mover = red if ply % 2 == 0 else black
        expect(mover.locator("body[data-movable='1']")).to_have_count(1)
        click_move(mover, move)
        for page in (red, black):
            expect(page.locator("#board")).to_have_attribute("data-ply", str(ply + 1))
    black.get_by_test_id("live-resign").click()  # the confirmation is accepted
    for page in (red, black):
        expect(page.locator("body[data-live-status='finished']")).to_have_count(1)
    game = LiveGame.objects.get()
    # the game's page now leads its players to the replay
    replay = f"/play/live/{game.pk}/replay/"
    expect(red.get_by_test_id("live-after-game")).to_have_text("Replay, missed wins and analysis")
    expect(black.get_by_test_id("live-after-game")).to_have_text("回放、错过的胜机和电脑分析")
    for page in (red, black):
        expect(page.get_by_test_id("live-after-game")).to_have_attribute("href", replay)
    assert game.iccs_moves == GAME
    # the game's end sent each player's search to the worker
    wait_for(
        lambda: GameReview.objects.filter(source="live", game=game.pk).count() == 2, celery_worker
    )

    # Red, in English on a desktop: the games list, the replay, the missed cannon, the analysis
    red.goto("/play/games/")
    row = red.get_by_test_id("live-game-row")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("live-mark")).to_have_text("Live, against a visitor")
    expect(row).to_contain_text("against a visitor (you: Red)")
    expect(row).to_contain_text("You won — your opponent resigned")
    red.screenshot(path=str(artifacts / "live-after-list-desktop-en.png"), full_page=True)
    row.get_by_test_id("live-replay-link").click()
    red.wait_for_url(f"**/play/live/{game.pk}/replay/")
    expect(red.get_by_test_id("live-replay-players")).to_have_text("you (Red) against a visitor")
    expect(red.get_by_test_id("moves").locator(".move-button")).to_have_count(5)
    expect(red.locator("#board")).to_have_attribute("data-orientation", "red")
    moment = red.get_by_test_id("missed-moment")
    expect(moment).to_have_count(1, timeout=30_000)
    expect(moment).to_contain_text("At move 3 you could have won a cannon")
    expect(moment).to_contain_text("You played")
    red.get_by_test_id("analysis-ask").click()
    expect(red.locator("[data-testid='analysis-svg']")).to_have_count(1, timeout=120_000)
    expect(red.locator("#moves button[data-ply='4'] .analysis-symbol")).to_have_count(1)
    expect(red.get_by_test_id("analysis-learn")).to_be_visible()
    red.screenshot(path=str(artifacts / "live-after-replay-desktop-en.png"), full_page=True)
    red.get_by_test_id("analysis-learn").click()
    red.wait_for_url(f"**/play/live/{game.pk}/learn/")
    expect(red.get_by_test_id("learn-prompt")).to_contain_text("Red")
    red.get_by_test_id("learn-back").click()
    red.wait_for_url(f"**/play/live/{game.pk}/replay/")

    # Black, in Chinese on a phone: the games list and the replay; Red's miss is Red's alone
    black.goto("/play/games/")
    row = black.get_by_test_id("live-game-row")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("live-mark")).to_have_text("实时对局，对手：访客")
    expect(row).to_contain_text("你执黑")
    expect(row).to_contain_text("你输了——你认输了")
    assert not chinese_text_faults(row.inner_text())
    row.get_by_test_id("live-replay-link").click()
    black.wait_for_url(f"**/play/live/{game.pk}/replay/")
    expect(black.get_by_test_id("live-replay-players")).to_have_text("你执黑，对手：访客")
    expect(black.locator("#board")).to_have_attribute("data-orientation", "black")
    expect(black.get_by_test_id("missed-status")).to_contain_text(
        "这局棋没有错过的胜机", timeout=30_000
    )
    expect(black.get_by_test_id("missed-moment")).to_have_count(0)
    expect(black.get_by_test_id("analysis-ask")).to_be_visible()
    black.screenshot(path=str(artifacts / "live-after-replay-phone-zh.png"), full_page=True)
    assert not chinese_text_faults(black.locator("main").inner_text())
    assert not errors, errors
    for page in (red, black):
        page.context.close()
