"""A player who leaves a live game for good, in real headless Chromium against the site under
uvicorn on the test database (with a short ``LIVE_GONE_SECONDS``): Black, on a phone in
Chinese, closes the page mid-game; Red, on a desktop in English, is told the opponent left,
sees the countdown, and claims the win once it has run out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from live.models import LiveGame
from tests.browser.test_live_game import AsgiServer, _context_page
from tests.browser.test_play import click_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GONE_SECONDS = 4


@pytest.fixture
def quick_server(transactional_db: None, tmp_path: Path) -> Iterator[AsgiServer]:
    server = AsgiServer(tmp_path / "uvicorn.log")
    server.env["LIVE_GONE_SECONDS"] = str(GONE_SECONDS)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_player_who_closes_the_page_loses_when_the_opponent_claims(
    browser: Browser, quick_server: AsgiServer, artifacts: Path
) -> None:
    red = _context_page(browser, quick_server.url, {"width": 1280, "height": 800}, "en-US")
    black = _context_page(browser, quick_server.url, {"width": 390, "height": 844}, "zh-CN")
    errors: list[str] = []
    red.on("pageerror", lambda error: errors.append(str(error)))

    red.goto("/play/live/")
    red.check("input[name='colour'][value='red']")
    red.get_by_test_id("live-create").click()
    red.wait_for_url("**/play/live/*/")
    black.goto(red.get_by_test_id("live-link").input_value())
    black.get_by_test_id("live-accept-button").click()
    for ply, (page, move) in enumerate(((red, "h2e2"), (black, "h9g7"))):
        expect(page.locator("body[data-movable='1']")).to_have_count(1)
        click_move(page, move)
        expect(red.locator("#board")).to_have_attribute("data-ply", str(ply + 1))
    expect(red.get_by_test_id("live-away")).to_be_hidden()

    black.close()  # mid-game, on Red's turn: Red's clock would never run Black out
    away = red.get_by_test_id("live-away")
    expect(away).to_contain_text("Your opponent left the game.")
    expect(red.get_by_test_id("live-away-count")).to_contain_text("You can claim the win in")
    expect(red.get_by_test_id("live-claim-win")).to_be_hidden()
    red.screenshot(path=str(artifacts / "live-left-countdown-desktop-en.png"))
    claim = red.get_by_test_id("live-claim-win")
    expect(claim).to_be_visible(timeout=(GONE_SECONDS + 10) * 1000)
    expect(red.get_by_test_id("live-claim-draw")).to_be_visible()
    claim.click()
    expect(red.get_by_test_id("game-status")).to_have_text("Black left the game. Red wins.")
    expect(away).to_be_hidden()
    red.screenshot(path=str(artifacts / "live-left-claimed-desktop-en.png"))

    game = LiveGame.objects.get()
    assert (game.status, game.termination, game.winner, game.ended_by) == (
        "finished",
        "left",
        "red",
        "black",
    )
    assert not errors, errors
    red.context.close()
    black.context.close()
