"""A learner's first hour, page by page, in Chinese and in English on a laptop (1366 × 768):
every page a newcomer opens on the way (the home page, the course map, the first lesson of each
course, today's puzzles, the analysis board, sign-up, log-in, password reset, then signed in the
rated trainer, the editor, the profile and the dashboard) answers without an error (no 4xx or
5xx, no script error, nothing in the console), shows its whole board on the screen, and has no
interface text of the other language: buttons, links, labels, headings and choices, and the
words read out to a screen reader."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page

from puzzles.services import daily_puzzles_choose
from tests.browser import test_puzzles as puzzles
from tests.puzzles.positions import MATE_IN_2

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 1366, 768
LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
ANONYMOUS = [
    "/",
    "/learn/",
    "/learn/xiangqi-board/",
    "/learn/feidan-board/",
    "/learn/xinban-pieces/",
    "/puzzles/daily/",
    "/puzzles/daily/xiangqi/",
    "/puzzles/daily/xinban/",
    "/analysis/",
    "/accounts/signup/?next=/learn/",
    "/accounts/login/",
    "/accounts/password-reset/",
]
SIGNED_IN = ["/puzzles/", "/puzzles/create/", "/accounts/profile/", "/puzzles/dashboard/"]
CJK = re.compile(r"[\u4e00-\u9fff]")
WORD = re.compile(r"[A-Za-z]{3,}")
# Names that stay as they are in a Chinese page.
LATIN_NAMES = {"FEN", "ICCS", "OpenAPI", "API", "Esc", "English"}

# The interface's own words: what is written in the pieces, on the board and in the palette,
# in moves and in texts marked with their language is left out.
INTERFACE_TEXT = """() => {
  const skip = '#board, .palette, [lang]:not(html), .puzzle-moves, .puzzle-solution, script, style';
  const texts = [];
  for (const el of document.querySelectorAll(
      'button, a, label, h1, h2, h3, legend, th, option, summary, .status')) {
    if (el.closest(skip) || (!el.offsetParent && el.tagName !== 'OPTION')) continue;
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(' ');
    if (own.trim()) texts.push(own.trim());
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (el.closest('.palette')) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
}"""


def foreign(texts: list[str], language: str, username: str) -> list[str]:
    found = []
    for text in texts:
        text = text.replace(username, "")
        if language == "en":
            # the one Chinese example: how a move may be typed
            if CJK.search(text.replace("炮二平五", "")):
                found.append(text)
        elif not CJK.search(text) and set(WORD.findall(text)) - LATIN_NAMES:
            found.append(text)
    return found


@pytest.fixture
def content(transactional_db: None) -> Iterator[None]:
    from puzzles import proving
    from puzzles.models import Puzzle
    from puzzles.services import puzzle_publish
    from tutorials.services import lessons_load

    lessons_load()
    puzzles.published()
    xinban = Puzzle.objects.create(
        variant="xinban", fen=MATE_IN_2, goal="mate", moves_to_win=2, source=Puzzle.Source.MINED
    )
    result = proving.prove(variant="xinban", fen=MATE_IN_2, goal="mate", moves_to_win=2)
    puzzle_publish(puzzle=xinban, result=result)
    daily_puzzles_choose(date=timezone.localdate())
    yield


def visit(page: Page, path: str, problems: list[str], language: str, username: str) -> None:
    page.goto(path)
    page.wait_for_load_state("networkidle")
    where = f"{language} {path}"
    board = page.locator("#board")
    if board.count():
        box = board.bounding_box()
        assert box is not None, where
        if box["y"] < 0 or box["y"] + box["height"] > HEIGHT + 0.5 or box["x"] < 0:
            problems.append(f"{where}: the board is not all on the screen: {box}")
        if box["x"] + box["width"] > WIDTH + 0.5:
            problems.append(f"{where}: the board is wider than the screen: {box}")
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if wide > 1:
        problems.append(f"{where}: the page scrolls sideways by {wide}px")
    for text in foreign(page.evaluate(INTERFACE_TEXT), language, username):
        problems.append(f"{where}: text in the other language: {text!r}")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_first_hour_has_no_error_hidden_board_or_untranslated_text(
    browser: Browser, live_server: Any, content: None, language: str
) -> None:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": WIDTH, "height": HEIGHT},
        locale=LOCALES[language],
        bypass_csp=True,
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"{page.url}: script error {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"{page.url}: console {message.type}: {message.text}")
            if message.type in ("error", "warning")
            else None
        ),
    )
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.request.method} {response.url}: {response.status}")
            if response.status >= 400
            else None
        ),
    )
    try:
        username = f"newcomer-{language}"
        for path in ANONYMOUS:
            visit(page, path, problems, language, username)
        puzzles.log_in(page, live_server, username)
        for path in SIGNED_IN:
            visit(page, path, problems, language, username)
    finally:
        context.close()
    assert not problems, "\n".join(problems)
