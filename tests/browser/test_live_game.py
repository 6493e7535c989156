"""Two people play each other in real headless Chromium, each in a browser context of their
own, against the site served by its ASGI server (uvicorn, on the test database): Red on a
desktop in English makes a challenge, Black on a phone in Chinese opens the link and accepts,
and they play a master game's 24 plies to Black's mate, Black reloading the page mid-game and
going on where the game stood, and the server killed mid-game and started again (every page
reconnects by itself and the game goes on), while a third visitor with the link watches; then a rematch with
the colours swapped. Two accounts set up a rated feidan game in secret and play it to a
result; two accounts play a rated game to a resignation and see their ratings change.
Screenshots land in test-artifacts/."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from live.models import LiveGame
from tests.browser.test_play import click_move
from tests.live.test_consumer import SHORT_MATE
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    """The test database as a URL, for the server process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class AsgiServer:
    """The site's ASGI application under uvicorn, one process (the in-memory channel layer),
    on the test database, at ``url``; ``crash_and_restart()`` kills it and starts it again on
    the same port, as a crash does."""

    def __init__(self, log: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": _database_url(),
        }
        self.env.pop("CHANNEL_LAYER_URL", None)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host",
                 "127.0.0.1", "--port", str(self.port), "--log-level", "warning"],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2):
                    return
            except OSError:
                assert self.process.poll() is None, self.log.read_text()
                time.sleep(0.1)
        raise AssertionError(f"the server did not answer: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)

    def crash_and_restart(self) -> None:
        """Kill the server outright (SIGKILL: no shutdown, open sockets cut, as a crash or an
        out-of-memory kill does), then start it again on the same port."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=30)
        self.start()


@pytest.fixture
def asgi_server(transactional_db: None, tmp_path: Path) -> Iterator[AsgiServer]:
    server = AsgiServer(tmp_path / "uvicorn.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _context_page(browser: Browser, base: str, viewport: dict[str, int], locale: str) -> Page:
    # The site's Content-Security-Policy stays on: the page's WebSocket must be allowed by it
    # (connect-src 'self'), and nothing here evaluates script in the page.
    context = browser.new_context(
        base_url=base,
        viewport=viewport,
        locale=locale,
        is_mobile=viewport["width"] < 500,
        has_touch=viewport["width"] < 500,
    )
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def desktop_and_phone(browser: Browser, base: str) -> tuple[Page, Page, list[str]]:
    """Red's page on a desktop in English, Black's on a phone in Chinese, and the list their
    JavaScript errors go to."""
    red = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    black = _context_page(browser, base, {"width": 390, "height": 844}, "zh-CN")
    errors: list[str] = []
    for page in (red, black):
        page.on("pageerror", lambda error: errors.append(str(error)))
    return red, black, errors


def start_by_link(red: Page, black: Page, game: str, time: str | None = None) -> None:
    """Red challenges (``game`` as the form names it, Red's colour), Black opens the link and
    accepts; both pages then show the game being played."""
    red.goto("/play/live/")
    red.select_option("select[name='game']", game)
    red.check("input[name='colour'][value='red']")
    if time is not None:
        red.select_option("select[name='time']", time)
    red.get_by_test_id("live-create").click()
    red.wait_for_url("**/play/live/*/")
    black.goto(red.get_by_test_id("live-link").input_value())
    black.get_by_test_id("live-accept-button").click()
    for page, side in ((red, "red"), (black, "black")):
        expect(page.locator(f"body[data-you='{side}'][data-live-status='playing']")).to_have_count(
            1
        )


def test_two_visitors_play_by_challenge_link_to_a_mate_with_a_reload_and_a_restart(
    browser: Browser, asgi_server: AsgiServer, artifacts: Path
) -> None:
    base = asgi_server.url
    red = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    black = _context_page(browser, base, {"width": 390, "height": 844}, "zh-CN")
    errors: list[str] = []
    for page in (red, black):
        page.on("pageerror", lambda error: errors.append(str(error)))

    # Red: Play a friend from the play page, a traditional game, Red, 10+5
    red.goto("/play/")
    red.get_by_test_id("play-friend-link").click()
    red.select_option("select[name='game']", "xiangqi:standard")
    red.check("input[name='colour'][value='red']")
    red.select_option("select[name='time']", "10+5")
    red.get_by_test_id("live-create").click()
    red.wait_for_url("**/play/live/*/")
    link = red.get_by_test_id("live-link").input_value()
    expect(red.get_by_test_id("game-status")).to_contain_text("Waiting for your friend")

    # Black: the link, in Chinese on a phone; accept
    black.goto(link)
    expect(black.get_by_test_id("live-accept")).to_contain_text("朋友执红")
    black.get_by_test_id("live-accept-button").click()
    for page, side in ((red, "red"), (black, "black")):
        expect(page.locator(f"body[data-you='{side}'][data-live-status='playing']")).to_have_count(
            1
        )
    expect(red.get_by_test_id("game-status")).to_have_text("Your move.")
    expect(black.get_by_test_id("game-status")).to_have_text("轮到对手走。")
    expect(red.get_by_test_id("live-invite")).to_be_hidden()
    expect(red.get_by_test_id("clock-red")).to_have_text("10:00")
    # anyone else with the link watches: the moves come live, no seat, no buttons
    watcher = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    watcher.goto(link)
    expect(watcher.get_by_test_id("live-seat")).to_have_text("You are watching this game.")
    expect(watcher.get_by_test_id("live-accept")).to_have_count(0)
    expect(watcher.get_by_test_id("live-resign")).to_be_hidden()

    for ply, move in enumerate(SHORT_MATE):
        if ply == 10:  # Black reloads mid-game: the page goes on where the game stood
            black.reload()
            expect(black.locator("#board")).to_have_attribute("data-ply", "10")
            expect(black.get_by_test_id("moves").locator(".move-button")).to_have_count(10)
            black.screenshot(path=str(artifacts / "live-reloaded-phone-zh.png"))
        if ply == 16:  # the server is killed and started again: every page reconnects
            opened = [
                page.get_attribute("body", "data-connections") for page in (red, black, watcher)
            ]
            asgi_server.crash_and_restart()
            for page, before in zip((red, black, watcher), opened, strict=True):
                again = str(int(before or "0") + 1)
                expect(page.locator("body")).to_have_attribute(
                    "data-connections", again, timeout=15_000
                )
                expect(page.locator("#board")).to_have_attribute("data-ply", "16")
        mover = red if ply % 2 == 0 else black
        expect(mover.locator("body[data-movable='1']")).to_have_count(1)
        click_move(mover, move)
        for page in (red, black, watcher):
            expect(page.locator("#board")).to_have_attribute("data-ply", str(ply + 1))
        if ply == 12:
            red.screenshot(path=str(artifacts / "live-game-desktop-en.png"))

    for page in (red, black):
        expect(page.locator("body[data-live-status='finished']")).to_have_count(1)
    expect(red.get_by_test_id("game-status")).to_contain_text("Checkmate")
    expect(black.get_by_test_id("game-status")).to_contain_text("将死")
    expect(watcher.get_by_test_id("game-status")).to_contain_text("Black wins")
    # the players are led to the replay, their missed wins and the analysis; a watcher is not
    expect(red.get_by_test_id("live-after-game")).to_be_visible()
    expect(black.get_by_test_id("live-after-game")).to_be_visible()
    expect(watcher.get_by_test_id("live-after-game")).to_be_hidden()
    expect(black.get_by_test_id("live-resign")).to_be_hidden()
    red.screenshot(path=str(artifacts / "live-mate-desktop-en.png"))
    black.screenshot(path=str(artifacts / "live-mate-phone-zh.png"))
    assert not chinese_text_faults(black.locator("main").inner_text())

    game = LiveGame.objects.get()
    assert (game.status, game.termination, game.winner) == ("finished", "checkmate", "black")
    assert game.iccs_moves == SHORT_MATE

    # a rematch, colours swapped: offered on one page, accepted on the other, both go to it
    red.get_by_test_id("rematch-offer").click()
    expect(black.get_by_test_id("rematch")).to_contain_text("对手提出再来一局")
    black.get_by_test_id("rematch-accept").click()
    for page, side in ((red, "black"), (black, "red")):
        page.wait_for_url(re.compile(r".*/play/live/(?!" + game.slug + r")[a-z0-9]+/$"))
        expect(page.locator(f"body[data-you='{side}'][data-live-status='playing']")).to_have_count(
            1
        )
    expect(watcher.locator("#rematch-link")).to_be_visible()
    assert not errors, errors
    for page in (red, black, watcher):
        page.context.close()


# Red's and Black's secret halves in the setup test below, each told by its back rank.
RED_BACK_RANK = "MNRBAKABRNM"  # chariots and horses swapped on both wings
BLACK_BACK_RANK = "mnrbakabnrm"  # on one wing


def _placement(page: Page) -> str:
    """The pieces the page's board shows (the placement part of its FEN)."""
    return (page.get_attribute("#board", "data-fen") or "").split(" ")[0]


PASSWORD = "a-long-test-password"


def sign_in(page: Page, name: str) -> None:
    """Fill the sign-in form the page shows and send it."""
    page.locator("input[name='username']").fill(name)
    page.locator("input[name='password']").fill(PASSWORD)
    page.locator("main form button[type='submit'], main form input[type='submit']").click()


def test_two_accounts_set_up_a_rated_feidan_game_in_secret_to_the_reveal_and_a_result(
    browser: Browser, asgi_server: AsgiServer, artifacts: Path
) -> None:
    """Lan (desktop, English) and Zhu (phone, Chinese), both signed in, play a rated feidan
    game with a secret setup: each arranges their half, reloading mid-setup, neither page ever
    holding the other's half before the reveal; after a move each Zhu resigns and both feidan
    ratings change."""
    base = asgi_server.url
    for name in ("lan", "zhu"):
        User.objects.create_user(username=name, password=PASSWORD)
    red = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    black = _context_page(browser, base, {"width": 390, "height": 844}, "zh-CN")
    errors: list[str] = []
    frames: dict[str, list[str]] = {"red": [], "black": []}  # every socket message received
    for page, side in ((red, "red"), (black, "black")):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "websocket",
            lambda socket, side=side: socket.on(
                "framereceived", lambda payload, side=side: frames[side].append(str(payload))
            ),
        )

    for page, name in ((red, "lan"), (black, "zhu")):
        page.goto("/accounts/login/?next=/play/live/")
        sign_in(page, name)
        page.wait_for_url("**/play/live/")
    red.select_option("select[name='game']", "feidan:five_soldiers")
    red.check("input[name='colour'][value='red']")
    red.check("input[name='mode'][value='rated']")
    red.select_option("select[name='time']", "10+5")
    red.get_by_test_id("live-create").click()
    red.wait_for_url("**/play/live/*/")
    expect(red.get_by_test_id("live-mode")).to_have_text("rated")
    link = red.get_by_test_id("live-link").input_value()
    black.goto(link)
    expect(black.get_by_test_id("live-accept")).to_contain_text("五兵守门")
    black.get_by_test_id("live-accept-button").click()
    for page, side in ((red, "red"), (black, "black")):
        expect(
            page.locator(f"body[data-you='{side}'][data-live-status='setting_up']")
        ).to_have_count(1)
    expect(red.get_by_test_id("game-status")).to_have_text("Arrange your half, then hand it in.")
    expect(black.get_by_test_id("game-status")).to_have_text("摆好你的一半，然后交出。")
    expect(red.get_by_test_id("clock-red")).to_have_text("10:00")
    # each board shows its own half only, from the first state
    assert _placement(red) == _placement(red).upper()
    assert _placement(black) == _placement(black).lower()

    # Red arranges: a fault is explained at once, then a legal half is handed in
    expect(red.locator("#violations li.ok")).to_have_count(1)
    click_move(red, "f0f4")
    expect(red.locator("#violations li[data-code='general_outside_palace']")).to_be_visible()
    expect(red.get_by_test_id("setup-send")).to_be_disabled()
    click_move(red, "f4f0")
    click_move(red, "b0c0")
    click_move(red, "j0i0")
    expect(red.locator("#violations li.ok")).to_have_count(1)
    red.get_by_test_id("setup-send").click()
    expect(red.get_by_test_id("game-status")).to_have_text(
        "Your setup is in: waiting for your opponent's."
    )
    expect(black.get_by_test_id("setup-ready")).to_have_text("对手已经交出布局。")

    # Black arranges its own, reloads mid-setup (the half it was arranging comes back), and
    # Red reloads too (the half it handed in comes back from the server)
    click_move(black, "b9c9")
    expect(black.locator("#violations li.ok")).to_have_count(1)
    black.reload()
    expect(black.locator("#board")).to_have_attribute("data-fen", re.compile(BLACK_BACK_RANK))
    red.reload()
    expect(red.locator("#board")).to_have_attribute("data-fen", re.compile(RED_BACK_RANK))
    expect(red.get_by_test_id("setup-send")).to_be_hidden()
    red.screenshot(path=str(artifacts / "live-setup-waiting-desktop-en.png"))
    black.screenshot(path=str(artifacts / "live-setup-arranging-phone-zh.png"))

    # Before the reveal neither page holds the other's half: not on its board, not anywhere in
    # its HTML, not in the page's source as served, not in any socket message it received.
    for page, side, theirs in ((red, "red", BLACK_BACK_RANK), (black, "black", RED_BACK_RANK)):
        mine = _placement(page)
        assert mine == (mine.upper() if side == "red" else mine.lower())
        assert theirs not in page.content()
        assert theirs not in page.request.get(link).text()
        assert frames[side] and not any(theirs in frame for frame in frames[side])

    black.get_by_test_id("setup-send").click()
    for page in (red, black):
        expect(page.locator("body[data-live-status='playing']")).to_have_count(1)
        expect(page.locator("#board")).to_have_attribute(
            "data-fen", re.compile(f"^{BLACK_BACK_RANK}/.*/{RED_BACK_RANK} w")
        )
    expect(red.get_by_test_id("setup-panel")).to_be_hidden()
    expect(red.get_by_test_id("game-status")).to_have_text("Your move.")
    expect(red.locator("body[data-movable='1']")).to_have_count(1)
    click_move(red, "c0c1")  # the chariot Red set on c0
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(black.get_by_test_id("moves")).to_contain_text("c0c1")
    # Black's first move has its window (the clocks run from it), counted down on both pages
    expect(red.get_by_test_id("first-move")).to_contain_text("Black has")
    expect(black.get_by_test_id("first-move")).to_contain_text("秒内走出第一步")
    red.screenshot(path=str(artifacts / "live-setup-revealed-desktop-en.png"))
    black.screenshot(path=str(artifacts / "live-setup-revealed-phone-zh.png"))
    assert not chinese_text_faults(black.locator("main").inner_text())

    game = LiveGame.objects.get()
    assert (game.status, game.setup, game.iccs_moves) == ("playing", "five_soldiers", ["c0c1"])
    assert game.start_fen.startswith(f"{BLACK_BACK_RANK}/")

    # Black answers, then resigns: both feidan ratings move, as both pages and the profile say
    expect(black.locator("body[data-movable='1']")).to_have_count(1)
    click_move(black, "c9c8")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    black.get_by_test_id("live-resign").click()  # the confirmation is accepted
    for page in (red, black):
        expect(page.locator("body[data-live-status='finished']")).to_have_count(1)
    game.refresh_from_db()
    assert (game.rated, game.termination, game.winner) == (True, "resignation", "red")
    up, down = (round(game.rating_changes[s]["after"]) for s in ("red", "black"))
    assert up > 1500 > down
    expect(red.get_by_test_id("live-rating-change")).to_contain_text(f"Rating: {up}?")
    expect(black.get_by_test_id("live-rating-change")).to_contain_text(f"等级分：{down}?")
    red.goto("/accounts/profile/")
    expect(red.get_by_test_id("live-rating-feidan")).to_contain_text(f"{up}?")
    assert not errors, errors
    for page in (red, black):
        page.context.close()


def test_two_accounts_play_a_rated_game_to_a_resignation_and_see_their_ratings_change(
    browser: Browser, asgi_server: AsgiServer, artifacts: Path
) -> None:
    """Ming (desktop, English, signed in) makes a rated challenge; Hua (phone, Chinese) opens
    the link as a visitor, is told to sign in and cannot take the seat, signs in on the form,
    comes back, accepts; after one move each Hua resigns, and both pages show the change of
    both ratings, as the profile and the dashboard then do. Hua then blocks Ming, and neither
    page offers a rematch any more."""
    base = asgi_server.url
    for name in ("ming", "hua"):
        User.objects.create_user(username=name, password=PASSWORD)
    red = _context_page(browser, base, {"width": 1280, "height": 800}, "en-US")
    black = _context_page(browser, base, {"width": 390, "height": 844}, "zh-CN")
    errors: list[str] = []
    for page in (red, black):
        page.on("pageerror", lambda error: errors.append(str(error)))

    red.goto("/accounts/login/?next=/play/live/")
    sign_in(red, "ming")
    red.wait_for_url("**/play/live/")
    red.select_option("select[name='game']", "xiangqi:standard")
    red.check("input[name='colour'][value='red']")
    red.check("input[name='mode'][value='rated']")
    red.get_by_test_id("live-create").click()
    red.wait_for_url("**/play/live/*/")
    expect(red.get_by_test_id("live-mode")).to_have_text("rated")
    link = red.get_by_test_id("live-link").input_value()

    # Hua opens it as a visitor: told to sign in, no seat to take
    black.goto(link)
    expect(black.get_by_test_id("live-sign-in-message")).to_contain_text("计等级分的对局需要")
    expect(black.get_by_test_id("live-challenger-rating")).to_contain_text("ming的等级分：1500?")
    expect(black.get_by_test_id("live-accept-button")).to_have_count(0)
    black.screenshot(path=str(artifacts / "live-rated-sign-in-phone-zh.png"))
    black.get_by_test_id("live-sign-in-login").click()
    sign_in(black, "hua")
    black.wait_for_url(link)
    black.get_by_test_id("live-accept-button").click()
    for page, side in ((red, "red"), (black, "black")):
        expect(page.locator(f"body[data-you='{side}'][data-live-status='playing']")).to_have_count(
            1
        )
        for shown in ("red", "black"):
            expect(page.get_by_test_id(f"rating-{shown}")).to_have_text("1500?")

    for ply, move in enumerate(["h2e2", "h9g7"]):
        mover = red if ply % 2 == 0 else black
        expect(mover.locator("body[data-movable='1']")).to_have_count(1)
        click_move(mover, move)
        for page in (red, black):
            expect(page.locator("#board")).to_have_attribute("data-ply", str(ply + 1))
    black.get_by_test_id("live-resign").click()  # the confirmation is accepted
    for page in (red, black):
        expect(page.locator("body[data-live-status='finished']")).to_have_count(1)

    game = LiveGame.objects.get()
    assert (game.rated, game.termination, game.winner) == (True, "resignation", "red")
    up, down = (round(game.rating_changes[s]["after"]) for s in ("red", "black"))
    gain, loss = up - 1500, 1500 - down
    assert gain > 0 and loss > 0
    for page in (red, black):
        expect(page.get_by_test_id("rating-change-red")).to_have_text(f" +{gain}")
        expect(page.get_by_test_id("rating-change-black")).to_have_text(f" \u2212{loss}")
    expect(red.get_by_test_id("live-rating-change")).to_have_text(f"Rating: {up}? (+{gain})")
    expect(black.get_by_test_id("live-rating-change")).to_have_text(
        f"等级分：{down}?（\u2212{loss}）"
    )
    red.screenshot(path=str(artifacts / "live-rated-over-desktop-en.png"))
    black.screenshot(path=str(artifacts / "live-rated-over-phone-zh.png"))
    assert not chinese_text_faults(black.locator("main").inner_text())

    # Both are offered a rematch; once Hua blocks Ming neither page offers it any more: Hua's
    # (back from the block) as it loads, Ming's where it stands, without a reload
    for page in (red, black):
        expect(page.get_by_test_id("rematch-offer")).to_be_visible()
    # Ming's page was made before Hua accepted: its block button names Hua without a reload
    expect(red.get_by_test_id("live-block")).to_have_text("Block hua")
    expect(black.get_by_test_id("live-block")).to_have_text("屏蔽ming")
    black.get_by_test_id("live-block").click()
    expect(black.get_by_test_id("live-blocked")).to_contain_text("你已屏蔽ming")
    expect(black.locator("body[data-live-status='finished']")).to_have_count(1)  # its state came
    for page in (red, black):
        expect(page.get_by_test_id("rematch-offer")).to_be_hidden()
        expect(page.get_by_test_id("rematch")).to_be_hidden()
    red.screenshot(path=str(artifacts / "live-blocked-no-rematch-desktop-en.png"))
    # Hua unblocks Ming on the profile, in another tab: both open game pages offer the rematch
    # again, and Hua's the Block button, without a reload
    profile = black.context.new_page()
    profile.goto("/accounts/profile/")
    profile.get_by_test_id("live-unblock").click()
    expect(profile.get_by_test_id("live-unblock")).to_have_count(0)
    profile.close()
    for page in (red, black):
        expect(page.get_by_test_id("rematch-offer")).to_be_visible()
    expect(black.get_by_test_id("live-block")).to_be_visible()
    expect(black.get_by_test_id("live-blocked")).to_be_hidden()

    # the profile and the dashboard show the new live rating, provisional
    red.goto("/accounts/profile/")
    expect(red.get_by_test_id("live-rating-xiangqi")).to_contain_text(f"{up}?")
    expect(red.get_by_test_id("live-rating-xiangqi")).to_contain_text("1 rated game")
    black.goto("/puzzles/dashboard/")
    expect(black.get_by_test_id("live-rating-xiangqi")).to_contain_text(f"{down}?")
    expect(black.get_by_test_id("live-rating-xiangqi")).to_contain_text("1盘计分对局")
    black.screenshot(path=str(artifacts / "live-rating-dashboard-phone-zh.png"), full_page=True)
    assert not errors, errors
    for page in (red, black):
        page.context.close()


def test_a_player_who_confirms_moves_sends_each_only_once_confirmed(
    browser: Browser, asgi_server: AsgiServer, artifacts: Path
) -> None:
    """On a phone a finger can slip: Black turns move confirmation on (kept in the browser);
    a move is then shown on the board with Send and Take back, and nothing reaches the server
    until it is sent. Taken back, the position is as it was and the move can be made again;
    sent, both pages go on. Red, who left it off, moves at once."""
    red, black, errors = desktop_and_phone(browser, asgi_server.url)
    start_by_link(red, black, "xiangqi:standard")
    for page in (red, black):
        expect(page.get_by_test_id("live-confirm-moves")).not_to_be_checked()
    black.get_by_test_id("live-confirm-moves").check()
    click_move(red, "h2e2")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    before = black.locator("#board").get_attribute("data-fen")
    click_move(black, "h9g7")
    expect(black.get_by_test_id("live-confirm")).to_be_visible()
    expect(black.locator("#confirm-text")).to_contain_text("h9g7")
    black.screenshot(path=str(artifacts / "live-confirm-phone-zh.png"))
    black.wait_for_timeout(500)  # nothing is sent meanwhile
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    black.get_by_test_id("live-cancel-move").click()
    expect(black.get_by_test_id("live-confirm")).to_be_hidden()
    expect(black.locator("#board")).to_have_attribute("data-fen", before or "")
    click_move(black, "h9g7")
    black.get_by_test_id("live-confirm-move").click()
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    assert LiveGame.objects.get().moves[-1]["iccs"] == "h9g7"
    black.reload()
    expect(black.get_by_test_id("live-confirm-moves")).to_be_checked()
    assert not errors, errors
    for page in (red, black):
        page.context.close()


def test_a_premove_is_played_when_the_turn_comes_and_let_go_when_it_is_illegal_then(
    browser: Browser, asgi_server: AsgiServer
) -> None:
    """During the opponent's turn a player may move ahead: the board keeps the premove and
    plays it the moment the turn comes if it is legal then; one the opponent's move made
    illegal is let go, and the player moves as usual."""
    red, black, errors = desktop_and_phone(browser, asgi_server.url)
    start_by_link(red, black, "xiangqi:standard")
    board = black.locator("#board")
    # Black's cannon takes the horse over Red's cannon: legal for now, not once the screen goes
    click_move(black, "h7h0")
    expect(board).to_have_attribute("data-premove", "h7h0")
    click_move(red, "h2e2")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(board).not_to_have_attribute("data-premove", re.compile("."))
    expect(black.locator("body[data-movable='1']")).to_have_count(1)  # Black moves as usual
    click_move(black, "h9g7")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    # a premove legal when the turn comes is played at once
    click_move(black, "b9c7")
    expect(board).to_have_attribute("data-premove", "b9c7")
    click_move(red, "b0c2")
    for page in (red, black):
        expect(page.locator("#board")).to_have_attribute("data-ply", "4")
    assert [m["iccs"] for m in LiveGame.objects.get().moves] == ["h2e2", "h9g7", "b0c2", "b9c7"]
    assert not errors, errors
    for page in (red, black):
        page.context.close()
