"""A New-version Xiangqi game between two people in real headless Chromium, each in a browser
context of their own, against the site served by its ASGI server (uvicorn, on the test
database): Red on a desktop in English, Black on a phone in Chinese. Each side's capture makes
a turncoat defect, and both boards show the piece changing sides; then Black's clock runs out
while the pages are open: the pages see it reach zero and tell the server (Red's claims the
win), which judges from its own clock, and both pages show the loss on time. Screenshots land in test-artifacts/."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

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


def test_a_xinban_game_with_defections_on_both_sides_ends_on_time_with_the_pages_open(
    browser: Browser,
    asgi_server: AsgiServer,  # noqa: F811
    artifacts: Path,
) -> None:
    base = asgi_server.url
    red, black, errors = desktop_and_phone(browser, base)
    start_by_link(red, black, "xinban:new", time="3+2")

    # Red's cannon takes Black's turncoat horse: the horse comes over to Red, on the point the
    # cannon left; Black's chariot takes that cannon, which goes over to Black in turn
    expect(red.locator("body[data-movable='1']")).to_have_count(1)
    click_move(red, "h2h9")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "1")
        expect(page.locator("#board")).to_have_attribute(
            "data-fen", re.compile(r"^\+r\+nbakab\+C\+r/.*/1\+C5N1/9/")
        )
    expect(red.get_by_test_id("moves").locator("[data-effect='defection']")).to_have_count(1)
    expect(black.get_by_test_id("moves").locator("[data-effect='defection']")).to_have_count(1)
    expect(black.locator("body[data-movable='1']")).to_have_count(1)
    click_move(black, "i9h9")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "2")
        expect(page.locator("#board")).to_have_attribute(
            "data-fen", re.compile(r"^\+r\+nbakab\+rc/")
        )
        expect(page.get_by_test_id("moves").locator("[data-effect='defection']")).to_have_count(2)
    red.screenshot(path=str(artifacts / "live-xinban-defections-desktop-en.png"))
    black.screenshot(path=str(artifacts / "live-xinban-defections-phone-zh.png"))
    assert not chinese_text_faults(black.locator("main").inner_text())

    expect(red.locator("body[data-movable='1']")).to_have_count(1)
    click_move(red, "a3a4")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "3")

    # Black thinks on: its clock is brought to its last three seconds on the server (as if it
    # had thought for 2 min 57 s), and both pages learn the server's figures on a reload
    game = LiveGame.objects.get()
    assert game.turn == "black"
    LiveGame.objects.filter(pk=game.pk).update(
        black_clock_ms=3_000, turn_started_at=timezone.now() - timedelta(milliseconds=50)
    )
    for page in (red, black):
        page.reload()
        expect(page.locator("#board")).to_have_attribute("data-ply", "3")
    # nobody clicks anything: Black's clock reaches zero on both pages, Red's claims the win,
    # and the server, judging from its own clock, ends the game on both pages
    for page in (red, black):
        expect(page.locator("body[data-live-status='finished']")).to_have_count(1, timeout=15_000)
    expect(red.get_by_test_id("game-status")).to_contain_text("Black ran out of time. Red wins.")
    expect(black.get_by_test_id("game-status")).to_contain_text("黑方超时。红方胜。")
    expect(red.get_by_test_id("clock-black")).to_have_text("0:00")
    red.screenshot(path=str(artifacts / "live-xinban-flag-desktop-en.png"))
    black.screenshot(path=str(artifacts / "live-xinban-flag-phone-zh.png"))
    assert not chinese_text_faults(black.locator("main").inner_text())

    game.refresh_from_db()
    assert (game.status, game.termination, game.winner) == ("finished", "timeout", "red")
    assert game.iccs_moves == ["h2h9", "i9h9", "a3a4"]
    assert [entry.get("effect") for entry in game.moves[:2]] == ["defection", "defection"]
    assert game.black_clock_ms == 0
    assert not errors, errors
    for page in (red, black):
        page.context.close()
