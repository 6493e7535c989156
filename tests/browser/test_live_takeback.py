"""A takeback in a live game, in real headless Chromium against the site under uvicorn (on the
test database): Red on a desktop in English asks to take back a move, Black on a phone in
Chinese accepts, both boards show the position before it, and play goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from engine import Move, Position
from live.models import LiveGame
from tests.browser.test_live_game import (  # noqa: F401
    AsgiServer,
    asgi_server,
    desktop_and_phone,
    start_by_link,
)
from tests.browser.test_play import click_move
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fen_after(moves: list[str]) -> str:
    pos = Position.start("xiangqi")
    for move in moves:
        pos.push(Move.from_iccs(move))
    return pos.fen()


def test_red_asks_to_take_back_a_move_black_accepts_and_play_goes_on(
    browser: Browser,
    asgi_server: AsgiServer,  # noqa: F811
    artifacts: Path,
) -> None:
    base = asgi_server.url
    red, black, errors = desktop_and_phone(browser, base)
    start_by_link(red, black, "xiangqi:standard")
    # nothing to take back yet
    expect(red.get_by_test_id("live-takeback")).to_be_disabled()

    for ply, move in enumerate(["h2e2", "h9g7", "b0c2"]):
        mover = red if ply % 2 == 0 else black
        expect(mover.locator("body[data-movable='1']")).to_have_count(1)
        click_move(mover, move)
        for page in (red, black):
            expect(page.locator("#board")).to_have_attribute("data-ply", str(ply + 1))

    red.get_by_test_id("live-takeback").click()
    expect(red.get_by_test_id("takeback-text")).to_have_text(
        "You asked to take back your last move."
    )
    expect(red.get_by_test_id("takeback-accept")).to_be_hidden()
    expect(black.get_by_test_id("takeback-text")).to_have_text("对方请求悔回上一步棋。")
    black.screenshot(path=str(artifacts / "live-takeback-asked-phone-zh.png"))
    black.get_by_test_id("takeback-accept").click()

    undone = _fen_after(["h2e2", "h9g7"])
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "2")
        expect(page.locator("#board")).to_have_attribute("data-fen", undone)
        expect(page.get_by_test_id("moves").locator(".move-button")).to_have_count(2)
    expect(red.get_by_test_id("takeback-text")).to_have_text(
        "Your move was taken back: play again."
    )
    expect(black.get_by_test_id("takeback-text")).to_have_text("红方的棋已悔回。")
    expect(red.get_by_test_id("game-status")).to_have_text("Your move.")
    red.screenshot(path=str(artifacts / "live-takeback-desktop-en.png"))
    assert not chinese_text_faults(black.locator("main").inner_text())

    # play goes on from there, with another move
    expect(red.locator("body[data-movable='1']")).to_have_count(1)
    click_move(red, "h0g2")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "3")
        expect(page.get_by_test_id("takeback-offer")).to_be_hidden()
    game = LiveGame.objects.get()
    assert game.iccs_moves == ["h2e2", "h9g7", "h0g2"] and game.status == "playing"
    assert game.takebacks[0]["by"] == "red"
    assert not errors, errors
    for page in (red, black):
        page.context.close()
