"""A newcomer's first game and first clicks, in real headless Chromium, at the sizes of a
laptop and a phone and in both languages: a timed game shows both clocks and the whole board
without scrolling; trying illegal moves (a lesson, the analysis board, a game) is answered
without a failed request or a console error."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.test_tutorials import play as play_in_lesson

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
SCREENS = {"1280x800": (1280, 800), "1366x768": (1366, 768), "390x844": (390, 844)}


class Watched:
    """A page with what went wrong on it: console errors and warnings, script errors,
    requests that failed and answers of 400 or more."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        page.on(
            "console",
            lambda message: (
                self.problems.append(f"{message.type}: {message.text}")
                if message.type in ("error", "warning")
                else None
            ),
        )
        page.on(
            "requestfailed",
            lambda request: self.problems.append(f"failed: {request.method} {request.url}"),
        )
        page.on(
            "response",
            lambda response: (
                self.problems.append(f"{response.request.method} {response.url}: {response.status}")
                if response.status >= 400
                else None
            ),
        )


@pytest.fixture
def open_page(browser: Browser, live_server: Any) -> Iterator[Callable[[str, str], Watched]]:
    """A new watched page at a screen size (``1280x800``) and in a language (``en``)."""
    contexts: list[BrowserContext] = []

    def make(screen: str, language: str) -> Watched:
        width, height = SCREENS[screen]
        phone = width < 600
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": height},
            device_scale_factor=2 if phone else 1,
            is_mobile=phone,
            has_touch=phone,
            locale=LOCALES[language],
            bypass_csp=True,
        )
        contexts.append(context)
        return Watched(context.new_page())

    yield make
    for context in contexts:
        context.close()


def start_game(page: Page, *, clock_minutes: int = 0, mode: str = "computer") -> int:
    """A new game from the new-game form (Red, level 1): its id, its page shown."""
    page.goto("/play/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.select_option("#variant", "xiangqi")
    page.check(f"input[name='mode'][value='{mode}']")
    if mode == "computer":
        page.check("input[name='side'][value='red']")
        page.select_option("#level", "1")
    page.fill("#clock-minutes", str(clock_minutes))
    page.click("#start-game")
    page.wait_for_url("**/play/*/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


@pytest.mark.parametrize("language", list(LOCALES))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_timed_game_shows_both_clocks_and_the_board_without_scrolling(
    open_page: Callable[[str, str], Watched], screen: str, language: str, artifacts: Path
) -> None:
    watched = open_page(screen, language)
    page = watched.page
    start_game(page, clock_minutes=1)
    expect(page.locator("#clock-bottom")).to_be_visible()
    expect(page.locator("#clock-top")).to_be_visible()
    page.wait_for_timeout(300)  # the board has fitted itself to the space left
    assert page.evaluate("window.scrollY") == 0
    height = SCREENS[screen][1]
    top, board, mine = box(page, "#clock-top"), box(page, "#board"), box(page, "#clock-bottom")
    assert top["y"] >= 0
    assert top["y"] + top["height"] <= board["y"] + 1  # above the board, not on it
    assert board["y"] + board["height"] <= mine["y"] + 1
    # the player's own clock, under the board, is in sight
    assert mine["y"] + mine["height"] <= height, (screen, language, mine, board)
    # ... and the board is not shrunk to nothing to make room for it
    assert board["width"] >= min(SCREENS[screen][0] - 40, 400), board
    page.screenshot(path=str(artifacts / f"first-game-clocks-{screen}-{language}.png"))
    assert not watched.problems, watched.problems


MATE_IN_ONE_FOR_RED = "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1"  # i0i9 mates
RESULTS = {
    "zh-hans": ("你赢了——将死", "你输了——你认输了"),
    "en": ("You won — checkmate", "You lost — you resigned"),
}


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_games_result_is_announced_as_a_result_not_an_error(
    open_page: Callable[[str, str], Watched], language: str, artifacts: Path
) -> None:
    from games.models import Game
    from tests.browser.test_play import click_move

    watched = open_page("1280x800", language)
    page = watched.page
    won = start_game(page)
    Game.objects.filter(pk=won).update(start_fen=MATE_IN_ONE_FOR_RED, moves=[])
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    click_move(page, "i0i9")
    status = page.locator("#status")
    expect(status).to_have_attribute("data-kind", "over")
    expect(status).to_have_attribute("data-outcome", "won")
    expect(status).to_have_attribute("role", "status")
    expect(page.locator("[data-testid='result-headline']")).to_have_text(RESULTS[language][0])
    expect(page.locator("#explanation")).to_be_hidden()  # the box errors are said in
    # its own look: not the pink of an error
    colours = page.evaluate(
        """() => {
          const probe = document.createElement('div');
          probe.className = 'error';
          document.body.append(probe);
          const error = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return [getComputedStyle(document.getElementById('status')).backgroundColor, error];
        }"""
    )
    assert colours[0] != colours[1], colours
    page.screenshot(path=str(artifacts / f"first-game-won-{language}.png"))
    lost = start_game(page)
    page.click("#resign")
    page.click("#resign")  # asked twice
    expect(status).to_have_attribute("data-outcome", "lost")
    expect(page.locator("[data-testid='result-headline']")).to_have_text(RESULTS[language][1])
    # my games says the same, from the player's side
    page.goto("/play/games/")
    expect(page.locator(f"tr:has(a[href='/play/{won}/']) [data-outcome]")).to_have_text(
        RESULTS[language][0]
    )
    expect(page.locator(f"tr:has(a[href='/play/{lost}/']) [data-outcome]")).to_have_text(
        RESULTS[language][1]
    )
    assert not watched.problems, watched.problems


@pytest.mark.parametrize("language", list(LOCALES))
def test_trying_illegal_moves_fills_no_console_with_errors(
    open_page: Callable[[str, str], Watched],
    language: str,
    lessons: None,
) -> None:
    from tests.browser.test_play import click_move

    watched = open_page("1280x800", language)
    page = watched.page
    answers: list[tuple[str, int]] = []
    page.on(
        "response",
        lambda response: (
            answers.append((response.url, response.status)) if "/api/" in response.url else None
        ),
    )
    # a lesson: a horse whose leg is blocked, tried twice
    page.goto("/learn/xiangqi-horse/?step=3")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    for _ in range(2):
        assert play_in_lesson(page, "e2d4") == "refused"
        assert page.evaluate("document.body.dataset.refusal") == "horse_leg"
    expect(page.locator("#status")).to_contain_text(
        "蹩马脚" if language == "zh-hans" else "Hobbled"
    )
    expect(page.locator("#resend")).to_be_hidden()  # an answer, not a lost one
    # the analysis board: a chariot typed through its own soldier
    page.goto("/analysis/?variant=xiangqi")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.fill("#move-input", "a0a5")
    page.press("#move-input", "Enter")
    expect(page.locator("#error")).to_contain_text("a0a5")
    expect(page.locator("#move-list td.move")).to_have_count(0)
    # a game: a soldier sideways before the river, a horse over its leg
    gid = start_game(page)
    for move in ("a3b3", "b0d1"):
        click_move(page, move)
        expect(page.locator("#explanation")).to_be_visible()
        expect(page.locator("#board")).to_have_attribute("data-plies", "0")
    page.wait_for_timeout(300)  # a late answer would come now
    tried = [status for url, status in answers if url.endswith(("/moves/", "/positions/"))]
    assert len(tried) >= 5 and set(tried) == {200}, answers
    assert not watched.problems, watched.problems
    from games.models import Game

    assert Game.objects.get(pk=gid).moves == []


HOME_PLAY = {
    "zh-hans": ("下一盘棋", "开始下棋", "和朋友下棋"),
    "en": ("Play a game", "Start a game", "Play a friend"),
}


@pytest.mark.parametrize("language", list(LOCALES))
@pytest.mark.parametrize("screen", ["1366x768", "390x844"])
def test_the_home_page_offers_play_and_the_api_link_is_in_the_footer(
    open_page: Callable[[str, str], Watched], screen: str, language: str, artifacts: Path
) -> None:
    watched = open_page(screen, language)
    page = watched.page
    page.goto("/")
    expect(page.locator(".site-nav a[href='/api/docs/']")).to_have_count(0)
    expect(page.locator(".site-footer a[href='/api/docs/']")).to_have_count(1)
    card = page.locator("[data-testid='play-card']")
    heading, button, live = HOME_PLAY[language]
    expect(card.locator("h2")).to_have_text(heading)
    expect(card.locator("a.button")).to_have_text([button, live])
    expect(card.get_by_test_id("home-live")).to_have_attribute("href", "/play/live/")
    card.screenshot(path=str(artifacts / f"home-play-card-{screen}-{language}.png"))
    card.locator("a.button").first.click()
    page.wait_for_url("**/play/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    assert not watched.problems, watched.problems


SHARED = {
    "zh-hans": ("访客（红方）对电脑 1 级（黑方）", "黑方胜——红方认输"),
    "en": ("A visitor (Red) against the computer, level 1 (Black)", "Black won — Red resigned"),
}


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_shared_game_tells_a_stranger_who_played_it_and_when(
    open_page: Callable[[str, str], Watched], language: str, artifacts: Path
) -> None:
    from games.models import Game

    owner = open_page("1280x800", language).page
    gid = start_game(owner)
    owner.click("#resign")
    owner.click("#resign")
    expect(owner.locator("#share-panel")).to_be_visible()
    owner.click("#share")
    expect(owner.locator("#share-box")).to_be_visible()
    link = owner.input_value("#share-link")
    game = Game.objects.get(pk=gid)
    for screen in ("1366x768", "390x844"):
        watched = open_page(screen, language)
        stranger = watched.page
        stranger.goto(link)
        expect(stranger.locator("body[data-ready='1']")).to_have_count(1)
        players, headline = SHARED[language]
        expect(stranger.locator("[data-testid='shared-players']")).to_have_text(players)
        date = stranger.locator("[data-testid='shared-date']")
        expect(date).to_have_attribute("datetime", game.created_at.astimezone().isoformat())
        expect(stranger.locator("h1")).to_contain_text(
            "中国象棋" if language == "zh-hans" else "Xiangqi"
        )
        expect(stranger.locator("[data-testid='result-headline']")).to_have_text(headline)
        body = stranger.locator("body").inner_text()
        for owner_only in (
            "your games come with you",
            "你的对局也会一起保留",
            "You lost",
            "你输了",
        ):
            assert owner_only not in body
        stranger.screenshot(path=str(artifacts / f"shared-game-{screen}-{language}.png"))
        assert not watched.problems, watched.problems


SOUNDS_BUTTON = {"zh-hans": "声音", "en": "Sound"}


@pytest.mark.parametrize("language", list(LOCALES))
def test_moves_are_heard_until_the_player_turns_the_sound_off(
    open_page: Callable[[str, str], Watched], language: str
) -> None:
    """A capture, the other side's answer (two players at one board): each move shown on the
    board makes its sound (made in the browser, no file); the board's Sound button turns them
    off, for every board of the browser, and the choice outlasts a reload."""
    from games.models import Game
    from tests.browser.test_play import click_move

    watched = open_page("1280x800", language)
    page = watched.page
    game = start_game(page, mode="local")
    Game.objects.filter(pk=game).update(start_fen="3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 0 1", moves=[])
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    board = page.locator("#board")
    toggle = board.locator("button.xb-sound-toggle")
    expect(toggle).to_have_text(SOUNDS_BUTTON[language])
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert board.get_attribute("data-sounds-played") is None  # the page's first position: quiet
    click_move(page, "a0a1")  # the chariot takes the chariot
    expect(board).to_have_attribute("data-sounds-played", "capture")
    click_move(page, "d9d8")  # the black general answers
    expect(board).to_have_attribute("data-sounds-played", "capture move")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    fen = board.get_attribute("data-fen")
    click_move(page, "e0e1")
    expect(board).not_to_have_attribute("data-fen", fen or "")
    expect(board).to_have_attribute("data-last-sound", "move")  # shown, not heard
    expect(board).to_have_attribute("data-sounds-played", "capture move")
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#board button.xb-sound-toggle")).to_have_attribute("aria-pressed", "false")
    assert not watched.problems, watched.problems
