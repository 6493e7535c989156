"""Two people meet in the lobby in real headless Chromium, each in a browser context of their
own, against the site served by its ASGI server (uvicorn, on the test database): Ming on a
desktop in English makes a seek; Hua, already in the lobby on a phone in Chinese, sees it
appear without a reload and accepts it; both land in the same game, and a move is played.
Screenshots land in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from live.models import LiveGame
from tests.browser.test_live_game import AsgiServer, _context_page, asgi_server  # noqa: F401
from tests.browser.test_play import click_move
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_seek_made_in_the_lobby_appears_live_and_taking_it_starts_one_game_for_both(
    browser: Browser,
    asgi_server: AsgiServer,  # noqa: F811
    artifacts: Path,
) -> None:
    base = asgi_server.url
    ming = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    hua = _context_page(browser, base, {"width": 390, "height": 844}, "zh-CN")
    errors: list[str] = []
    for page in (ming, hua):
        page.on("pageerror", lambda error: errors.append(str(error)))

    # Hua waits in the lobby (reached from the play page): nothing open yet
    hua.goto("/play/")
    hua.get_by_test_id("play-lobby-link").click()
    hua.wait_for_url("**/play/live/lobby/")
    expect(hua.locator("body[data-connected='1'][data-seeks='0']")).to_have_count(1)
    expect(hua.get_by_test_id("lobby-status")).to_have_text(
        "还没有公开邀战：发出一个，所有人都会在这里看到。"
    )

    # Ming: the lobby from Play a friend; a seek for traditional xiangqi, Red, 5+3
    ming.goto("/play/live/")
    ming.get_by_test_id("lobby-link").click()
    ming.wait_for_url("**/play/live/lobby/")
    expect(ming.locator("body[data-connected='1']")).to_have_count(1)
    ming.select_option("select[name='game']", "xiangqi:standard")
    ming.check("input[name='colour'][value='red']")
    ming.select_option("select[name='time']", "5+3")
    ming.get_by_test_id("lobby-create").click()
    own = ming.get_by_test_id("seek")
    expect(own).to_have_count(1)
    expect(own).to_have_attribute("data-mine", "1")
    expect(own).to_contain_text("visitor (your seek)")
    expect(own).to_contain_text("5+3")
    expect(own).to_contain_text("plays Red")
    expect(own.get_by_test_id("seek-cancel")).to_have_text("Cancel")
    ming.screenshot(path=str(artifacts / "live-lobby-seek-desktop-en.png"))

    # Hua's page shows it without a reload, in Chinese; Hua's own accept of it starts the game
    hua_ws_before = hua.get_attribute("body", "data-connections")
    seek = hua.get_by_test_id("seek")
    expect(seek).to_have_count(1)
    expect(seek).to_have_attribute("data-mine", "0")
    for said in ("访客", "中国象棋", "5+3", "不计等级分", "执红"):
        expect(seek).to_contain_text(said)
    assert hua.get_attribute("body", "data-connections") == hua_ws_before  # no reload
    hua.screenshot(path=str(artifacts / "live-lobby-seek-phone-zh.png"))
    assert not chinese_text_faults(hua.locator("main").inner_text())
    seek.get_by_test_id("seek-accept").click()

    for page, side in ((ming, "red"), (hua, "black")):
        page.wait_for_url(re.compile(r".*/play/live/(?!lobby/)[a-z0-9]+/$"))
        expect(page.locator(f"body[data-you='{side}'][data-live-status='playing']")).to_have_count(
            1
        )
    assert ming.url == hua.url
    game = LiveGame.objects.get()
    assert ming.url.endswith(f"/play/live/{game.slug}/")
    assert (game.seek, game.status, game.base_ms, game.increment_ms) == (
        True,
        "playing",
        300_000,
        3_000,
    )
    expect(ming.get_by_test_id("game-status")).to_have_text("Your move.")
    expect(hua.get_by_test_id("game-status")).to_have_text("轮到对手走。")

    expect(ming.locator("body[data-movable='1']")).to_have_count(1)
    click_move(ming, "h2e2")
    for page in (ming, hua):
        expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(hua.get_by_test_id("moves")).to_contain_text("炮二平五")
    hua.screenshot(path=str(artifacts / "live-lobby-game-phone-zh.png"))
    assert LiveGame.objects.get().iccs_moves == ["h2e2"]
    assert not errors, errors
    for page in (ming, hua):
        page.context.close()
