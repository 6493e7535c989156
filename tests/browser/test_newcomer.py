"""What a newcomer meets in the first hour, in real headless Chromium and in both languages:
composing a puzzle piece by piece says what is wrong with each half-made position without a
failed request or a console error, a position only the server can refuse is an answer in the
status line, and the page header fits a phone in two rows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from core.messages import render
from puzzles.services.authoring import MAX_AUTHORED_MOVES
from tests.browser import test_puzzles as puzzles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
LANGUAGES = list(LOCALES)


class Watched:
    """A page with what went wrong on it: console errors and warnings, script errors, and
    answers of 400 or more."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        self.failed: list[str] = []
        self.checks: list[int] = []
        page.on("pageerror", lambda error: self.console.append(f"script error: {error}"))
        page.on(
            "console",
            lambda message: (
                self.console.append(f"{message.type}: {message.text}")
                if message.type in ("error", "warning")
                else None
            ),
        )
        page.on("response", self._response)

    def _response(self, response: Any) -> None:
        if "/authored/check/" in response.url:
            self.checks.append(response.status)
        if response.status >= 400:
            self.failed.append(f"{response.request.method} {response.url}: {response.status}")


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def watched(browser: Browser, live_server: Any, language: str) -> Iterator[Watched]:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 1280, "height": 900},
        locale=LOCALES[language],
        bypass_csp=True,
    )
    yield Watched(context.new_page())
    context.close()


def pick(page: Page, piece: str) -> None:
    side = "red" if piece.isupper() or piece == "erase" else "black"
    page.click(f"#palette-{side} button[data-piece='{piece}']")


Step = tuple[str, str, tuple[str, dict[str, object]] | None]
# Composing on the editor's empty board (Black's general on d9, Red's on e0, Red to move):
# each step, and what the status line then says (None: a legal position, the server's word).
COMPOSING: list[Step] = [
    ("R", "d5", ("fen.other_side_in_check", {"colour": "black", "rank": 9})),
    ("p", "d7", ("fen.soldier_behind", {"colour": "black", "square": "d7", "rank": 7})),
    ("erase", "d7", ("fen.other_side_in_check", {"colour": "black", "rank": 9})),
    ("a", "d8", ("fen.advisor_point", {"colour": "black", "square": "d8", "rank": 8})),
    ("erase", "d5", ("fen.advisor_point", {"colour": "black", "square": "d8", "rank": 8})),
    ("erase", "d8", None),
    ("k", "d9", ("fen.no_general", {"colour": "black"})),  # lifts Black's general
    ("k", "e9", ("fen.other_side_in_check", {"colour": "black", "rank": 9})),  # facing
    ("B", "a0", ("fen.elephant_point", {"colour": "red", "square": "a0", "rank": 0})),
    ("B", "a0", ("fen.other_side_in_check", {"colour": "black", "rank": 9})),  # taken away
    ("P", "e3", None),  # between the generals
    ("N", "c6", None),
    ("N", "d7", ("fen.other_side_in_check", {"colour": "black", "rank": 9})),  # horse
    ("c", "d8", None),  # on the horse's leg
    ("C", "e1", ("fen.other_side_in_check", {"colour": "black", "rank": 9})),  # over e3
    ("C", "e1", None),
]
FINAL = "4k4/3c5/3N5/2N6/9/9/4P4/9/9/4K4 w - - 0 1"
# The same in Missile Xiangqi (Black's general on e9, Red's on f0): missile and fighter checks,
# a fighter blocked only by two pieces, and a third chariot.
CHECK_E9 = ("fen.other_side_in_check", {"colour": "black", "rank": 9})
COMPOSING_FEIDAN: list[Step] = [
    ("M", "e5", CHECK_E9),
    ("M", "e5", None),
    ("F", "d6", CHECK_E9),
    ("c", "d7", CHECK_E9),  # one piece between does not block a fighter
    ("c", "d8", None),  # two do
    ("R", "a4", None),
    ("R", "b4", None),
    (
        "R",
        "c4",
        ("fen.too_many_pieces", {"colour": "red", "piece": "chariot", "count": 3, "limit": 2}),
    ),
]
FINAL_FEIDAN = "4k6/3c7/3c7/3F7/11/RRR8/11/11/11/5K5 w - - 0 1"
# New-version Xiangqi: turncoat chariots (two a side at most) and chariots on the board.
COMPOSING_XINBAN: list[Step] = [
    ("+R", "a4", None),
    ("+R", "b4", None),
    (
        "+R",
        "c4",
        ("fen.too_many_turncoats", {"colour": "red", "piece": "chariot", "count": 3, "limit": 2}),
    ),
    ("R", "c4", None),  # a plain one instead
    ("R", "d4", ("fen.other_side_in_check", {"colour": "black", "rank": 9})),
    ("r", "d6", ("fen.too_many_on_board", {"piece": "chariot", "count": 5, "limit": 4})),
]
FINAL_XINBAN = "3k5/9/9/3r5/9/+R+RRR5/9/9/9/4K4 w - - 0 1"
COMPOSED = {
    "xiangqi": (COMPOSING, FINAL),
    "feidan": (COMPOSING_FEIDAN, FINAL_FEIDAN),
    "xinban": (COMPOSING_XINBAN, FINAL_XINBAN),
}


def compose(page: Page, steps: list[Step], language: str) -> None:
    check = page.locator("#editor-check")
    for piece, square, fault in steps:
        if fault is None:  # the server is asked, once
            with page.expect_response(lambda r: "/authored/check/" in r.url) as answer:
                pick(page, piece)
                page.mouse.click(*puzzles.point(page, square))
            assert answer.value.status == 200, (piece, square)
            expect(check).to_have_attribute("data-ok", "1")
        else:
            pick(page, piece)
            page.mouse.click(*puzzles.point(page, square))
            code, params = fault
            expect(check).to_have_text(render(code, params, language))
            expect(check).to_have_attribute("data-ok", "0")


@pytest.mark.parametrize("variant", list(COMPOSED))
def test_composing_a_position_piece_by_piece_shows_each_fault_without_console_errors(
    watched: Watched, live_server: Any, language: str, variant: str
) -> None:
    page = watched.page
    puzzles.log_in(page, live_server, f"composer-{language}")
    page.goto("/puzzles/create/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
    asked = 1  # the first position
    if variant != "xiangqi":
        with page.expect_response(lambda r: "/authored/check/" in r.url):
            page.select_option("#editor-variant", variant)
        asked += 1
    steps, final = COMPOSED[variant]
    compose(page, steps, language)
    expect(page.locator("#editor-fen")).to_have_value(final)
    page.wait_for_timeout(500)  # a late answer would come now
    assert not watched.console, watched.console
    assert not watched.failed, watched.failed
    # The server is asked only about positions the board finds no fault in.
    assert watched.checks == [200] * (asked + sum(fault is None for _, _, fault in steps))


def test_a_position_only_the_server_can_refuse_is_its_answer_in_the_status_line(
    watched: Watched, live_server: Any, language: str
) -> None:
    page = watched.page
    puzzles.log_in(page, live_server, f"mated-{language}")
    page.goto("/puzzles/create/")
    check = page.locator("#editor-check")
    expect(check).to_have_attribute("data-ok", "1")
    # A dead-general goal outside Missile Xiangqi is told at once, without asking.
    asked = len(watched.checks)
    page.select_option("#editor-goal", "dead_general")
    expect(check).to_have_text(render("puzzle.dead_general_needs_feidan", {}, language))
    page.wait_for_timeout(500)
    assert len(watched.checks) == asked
    page.select_option("#editor-goal", "mate")
    expect(check).to_have_attribute("data-ok", "1")
    page.fill("#editor-n", str(MAX_AUTHORED_MOVES + 1))
    page.locator("#editor-n").press("Tab")
    expect(check).to_have_text(
        render("puzzle.moves_range", {"limit": MAX_AUTHORED_MOVES}, language)
    )
    page.wait_for_timeout(500)
    assert len(watched.checks) == asked + 1  # the goal changed back: asked once
    page.fill("#editor-n", "2")
    page.locator("#editor-n").press("Tab")
    expect(check).to_have_attribute("data-ok", "1")
    # Red to move is already mated: nothing on the board says so, the server does.
    with page.expect_response(lambda r: "/authored/check/" in r.url) as answer:
        page.fill("#editor-fen", "5k3/3rr4/9/9/9/9/9/9/9/3K5 w - - 0 1")
        page.locator("#editor-fen").press("Tab")
    assert answer.value.status == 200  # an answer: not legal, and why
    assert answer.value.json()["legal"] is False
    expect(check).to_have_text(render("puzzle.game_over", {"termination": "checkmate"}, language))
    expect(check).to_have_attribute("data-ok", "0")
    assert not watched.console, watched.console
    assert not watched.failed, watched.failed


# Every item of the header, with its box on the screen.
HEADER_ITEMS = """() => [...document.querySelectorAll(
    '.site-header .brand, .site-nav a, .site-tools button, .site-tools a')]
  .filter(el => el.offsetParent)
  .map(el => { const r = el.getBoundingClientRect();
               return {text: el.textContent.trim(), top: r.top, bottom: r.bottom}; })"""


def header_rows(page: Page) -> list[list[str]]:
    """The header's items grouped by the row they stand in (one row: overlapping tops and
    bottoms)."""
    rows: list[tuple[float, float, list[str]]] = []
    for item in sorted(page.evaluate(HEADER_ITEMS), key=lambda item: item["top"]):
        middle = (item["top"] + item["bottom"]) / 2
        for top, bottom, texts in rows:
            if top <= middle <= bottom:
                texts.append(item["text"])
                break
        else:
            rows.append((item["top"], item["bottom"], [item["text"]]))
    return [texts for _, _, texts in rows]


@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "signed-in"])
def test_the_header_fits_a_phone_with_every_link_in_sight(
    browser: Browser, live_server: Any, language: str, signed_in: bool, artifacts: Path
) -> None:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale=LOCALES[language],
        bypass_csp=True,
    )
    try:
        page = context.new_page()
        if signed_in:
            puzzles.log_in(page, live_server, "a-newcomer-with-a-long-name")
        for path in ["/", "/learn/", "/puzzles/daily/"]:
            page.goto(path)
            rows = header_rows(page)
            header = page.locator(".site-header").bounding_box()
            assert header is not None
            item = page.locator(".menu-button").bounding_box()
            assert item is not None
            # the name, the tools and the menu's button: at most two rows (the English menu
            # took three)
            assert len(rows) <= 2, (path, rows, header)
            assert header["height"] <= 2 * item["height"] + 40, (path, header, item)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
            # every link of the menu is on the screen once the menu's button is tapped: none
            # hidden sideways or below the screen, each one a finger's height
            nav = page.locator(".site-nav")
            expect(nav).to_be_hidden()
            page.locator(".menu-button").tap()
            expect(nav).to_be_visible()
            assert nav.evaluate("el => el.scrollWidth <= el.clientWidth"), path
            anchors = nav.locator("a").all()
            assert len(anchors) >= 6, path
            for anchor in anchors:
                box = anchor.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5
                assert box["y"] >= header["y"] and box["y"] + box["height"] <= 844, box
                assert box["height"] >= 34, (anchor.text_content(), box)
            if path == "/":
                who = "signed-in" if signed_in else "visitor"
                page.screenshot(
                    path=str(artifacts / f"header-phone-{language}-{who}.png"),
                    clip={"x": 0, "y": 0, "width": 390, "height": 420},
                )
            # a link of the menu is followed, the menu closes with Escape
            page.keyboard.press("Escape")
            expect(nav).to_be_hidden()
        page.locator(".menu-button").tap()
        page.locator(".site-nav a[href='/learn/']").tap()
        expect(page).to_have_url(re.compile(r"/learn/$"))
    finally:
        context.close()
