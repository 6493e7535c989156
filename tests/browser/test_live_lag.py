"""The lag allowance in real headless Chromium: the game's page answers each probe the server
sends it, at once and with the probe's own id, so the server can time the round trip (the
page sends nothing else about time); a spectator's page is sent no probe."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from live.models import LiveGame
from tests.browser.test_live_game import AsgiServer, _context_page, asgi_server  # noqa: F401
from tests.browser.test_play import click_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Frames:
    """Every frame of a page's game socket, each way, decoded."""

    def __init__(self, page: Page) -> None:
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: self.received.append(json.loads(payload)))
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def probes(self, frames: list[dict[str, Any]]) -> list[str]:
        return [frame["id"] for frame in frames if frame["type"] == "probe"]


def wait_for(page: Page, condition: Any) -> None:
    for _ in range(150):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("timed out")


def test_the_page_answers_every_probe_at_once_and_a_spectator_is_sent_none(
    browser: Browser,
    asgi_server: AsgiServer,  # noqa: F811
) -> None:
    base = asgi_server.url
    red = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    black = _context_page(browser, base, {"width": 390, "height": 844}, "zh-CN")
    frames = {"red": Frames(red), "black": Frames(black)}
    red.goto("/play/live/")
    red.select_option("select[name='game']", "xiangqi:standard")
    red.check("input[name='colour'][value='red']")
    red.select_option("select[name='time']", "10+5")
    red.get_by_test_id("live-create").click()
    red.wait_for_url("**/play/live/*/")
    link = red.get_by_test_id("live-link").input_value()
    black.goto(link)
    black.get_by_test_id("live-accept-button").click()
    watcher = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    watched = Frames(watcher)
    watcher.goto(link)
    expect(watcher.get_by_test_id("live-seat")).to_have_text("You are watching this game.")

    for side, page in (("red", red), ("black", black)):
        seen = frames[side]
        wait_for(page, lambda seen=seen: seen.probes(seen.sent))
        # each answer carries the id of a probe the page was sent, and nothing else
        assert set(seen.probes(seen.sent)) <= set(seen.probes(seen.received))
        assert all(set(f) == {"type", "id"} for f in seen.sent if f["type"] == "probe")
    for ply, move in enumerate(["h2e2", "h9g7", "h0g2"]):
        page = red if ply % 2 == 0 else black
        expect(page.locator("body[data-movable='1']")).to_have_count(1)
        click_move(page, move)
        expect(red.locator("#board")).to_have_attribute("data-ply", str(ply + 1))
    # the timed move was credited at most the cap, from the round trip the server measured
    timed = LiveGame.objects.get().moves[2]
    assert 0 <= timed["lag_ms"] <= 500 and timed["lag_quota_ms"] == 750 + 250 - timed["lag_ms"]
    # the spectator, there all along, was sent no probe and answered none
    assert not watched.probes(watched.received) and not watched.probes(watched.sent)
