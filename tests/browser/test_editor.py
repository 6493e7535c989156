"""The puzzle editor in real headless Chromium, in both languages: a side's general is moved,
not doubled; the palette says each piece's name; a verdict never outlives the position it was
given for; the share link of a published puzzle stays inside the sidebar on a laptop, copied by
its button; and on a phone the prover's progress and its verdict open in view, within the
screen's width."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser import test_puzzles as puzzles
from tests.puzzles.positions import MATE_IN_2

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"zh-hans": "zh-CN", "en": "en-US"}
EMPTY = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"  # the editor's empty board


@pytest.fixture(params=list(LOCALES))
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def open_editor(
    browser: Browser, live_server: Any, language: str, size: tuple[int, int] = (1280, 800)
) -> Page:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": size[0], "height": size[1]},
        locale=LOCALES[language],
        bypass_csp=True,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    puzzles.log_in(page, live_server, f"composer-{language}")
    page.goto("/puzzles/create/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
    return page


def enter_problem(page: Page, fen: str, moves: int) -> None:
    """Type a position and its length into the form, leaving each field as a user would, and
    wait for the page to find the position sound."""
    page.fill("#editor-fen", fen)
    page.locator("#editor-fen").press("Tab")
    page.fill("#editor-n", str(moves))
    page.locator("#editor-n").press("Tab")
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")


@pytest.fixture
def editor(browser: Browser, live_server: Any, language: str) -> Iterator[Page]:
    page = open_editor(browser, live_server, language)
    yield page
    page.context.close()
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def pick(page: Page, piece: str) -> None:
    side = "red" if piece.isupper() or piece == "erase" else "black"
    page.click(f"#palette-{side} button[data-piece='{piece}']")


def place(page: Page, piece: str, square: str) -> None:
    pick(page, piece)
    page.mouse.click(*puzzles.point(page, square))


def test_placing_a_general_elsewhere_moves_it(editor: Page) -> None:
    fen = editor.locator("#editor-fen")
    expect(fen).to_have_value(EMPTY)
    place(editor, "K", "d0")  # Red's general was on e0
    expect(fen).to_have_value("3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    place(editor, "k", "f9")  # Black's was on d9
    expect(fen).to_have_value("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    expect(editor.locator("#editor-check")).to_have_attribute("data-ok", "1")
    place(editor, "k", "f9")  # the same piece on its own point still lifts it
    expect(fen).to_have_value("9/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    place(editor, "k", "e8")
    place(editor, "R", "a5")  # other pieces are added, not moved
    place(editor, "R", "b5")
    expect(fen).to_have_value("9/4k4/9/9/RR7/9/9/9/9/3K5 w - - 0 1")


NAMES = {
    "zh-hans": {"R": "红车", "k": "黑将", "P": "红兵", "+R": "红底车", "m": "黑导弹"},
    "en": {
        "R": "Red chariot",
        "k": "Black general",
        "P": "Red soldier",
        "+R": "Red turncoat chariot",
        "m": "Black missile",
    },
}


def test_the_palette_names_each_piece_in_the_page_s_language(editor: Page, language: str) -> None:
    titles: dict[str, str] = {}
    for variant in ["xiangqi", "feidan", "xinban"]:
        editor.select_option("#editor-variant", variant)
        for button in editor.locator(".palette-piece").all():
            titles[button.get_attribute("data-piece") or ""] = button.get_attribute("title") or ""
    for letter, name in NAMES[language].items():
        assert titles[letter] == name, (letter, titles)
    assert len(titles) == 2 * 12 + 1  # every piece of the three variants, and the eraser
    for letter, title in titles.items():  # a name, never the FEN letter
        assert title and not re.fullmatch(r"\+?[A-Za-z]", title), (letter, title)
        assert bool(re.search(r"[\u4e00-\u9fff]", title)) == (language == "zh-hans"), title


def test_a_verdict_is_taken_back_as_soon_as_the_position_changes(editor: Page) -> None:
    check = editor.locator("#editor-check")
    verdict = check.text_content()
    # The server's answer about the next position is held back: until it comes, the line
    # must not still give the verdict on the position before.
    held: list[Route] = []
    editor.route("**/authored/check/", lambda route: held.append(route))
    editor.select_option("#editor-turn", "b")
    expect(check).not_to_have_text(verdict or "")
    expect(check).not_to_have_attribute("data-ok", "1")
    place(editor, "R", "a5")
    expect(check).not_to_have_attribute("data-ok", "1")
    editor.wait_for_timeout(400)  # the check is asked a moment after the last change
    assert held
    for route in held:
        route.continue_()
    editor.unroute("**/authored/check/")
    expect(check).to_have_attribute("data-ok", "1")
    expect(check).not_to_have_text(verdict or "")  # now Black to move

    # The result of saving, too, belongs to the position it was said of.
    editor.click("#editor-save")
    result = editor.locator("#editor-result")
    expect(result).to_have_attribute("data-kind", "saved")
    place(editor, "R", "b5")
    expect(result).to_have_text("")
    editor.click("#editor-save")
    expect(result).to_have_attribute("data-kind", "saved")
    editor.fill("#editor-n", "3")
    editor.locator("#editor-n").press("Tab")
    expect(result).to_have_text("")


def test_the_share_link_of_a_published_puzzle_fits_the_sidebar_of_a_laptop(
    browser: Browser, live_server: Any, celery_worker: Any, language: str, artifacts: Path
) -> None:
    page = open_editor(browser, live_server, language, size=(1366, 768))
    try:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.fill("#editor-fen", MATE_IN_2)
        page.locator("#editor-fen").press("Tab")
        expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
        page.fill("#editor-n", "2")
        page.click("#editor-submit")
        result = page.locator("#editor-result")
        expect(result).to_have_attribute("data-kind", "published", timeout=60_000)
        field = page.locator("#share-link")
        link = field.input_value()
        assert re.fullmatch(rf"{live_server.url}/puzzles/p/[\w-]+/", link), link
        page.screenshot(path=str(artifacts / f"editor-published-1366-{language}.png"))
        side = page.locator(".puzzle-side").bounding_box()
        assert side is not None
        for item in [field, page.locator("#copy-link"), result]:
            box = item.bounding_box()
            assert box is not None
            assert (
                side["x"] - 0.5 <= box["x"]
                and box["x"] + box["width"] <= side["x"] + side["width"] + 0.5
            ), (item, box, side)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
        page.click("#copy-link")
        expect(page.locator("#copy-link")).to_have_text(
            "已复制" if language == "zh-hans" else "Copied"
        )
        assert page.evaluate("navigator.clipboard.readText()") == link
        # the proof was of the position as submitted: a change takes it back
        place(page, "R", "a5")
        expect(result).to_have_text("")
        expect(page.locator("#share-box")).to_be_hidden()
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


# 围魏救赵 (陶情弈趣): a mate in 13 over every move, a few seconds of proving.
MATE_IN_13 = "3ak1b1N/8C/5P3/5P3/9/9/4r4/8p/1p2p4/3K5 w - - 0 1"
# 五洋捉鳖 (弈海烟波): a mate in 15 by checks alone (连将杀).
CHECKS_MATE_IN_15 = "4k4/3Pa2P1/2N6/CP7/9/9/9/9/2p1p4/3K5 w - - 0 1"
# (a number and its unit are kept on one line by a no-break space: \s)
WORK = {"en": re.compile(r"positions searched in \d+\ss \(it stops at 150\ss\)\."),
        "zh-hans": re.compile(r"已搜索 [\d,]+\s个局面，用时 \d+\s秒（最多 150\s秒）。")}  # fmt: skip


def test_a_long_mate_is_proved_with_its_progress_shown_and_a_checks_only_one_too(
    browser: Browser, live_server: Any, celery_worker: Any, language: str, artifacts: Path
) -> None:
    page = open_editor(browser, live_server, language)
    try:
        enter_problem(page, MATE_IN_13, 13)
        page.click("#editor-submit")
        progress = page.locator("#editor-progress")
        # while the prover works, the page says at which stage and how much it has done
        expect(progress).to_have_attribute(
            "data-stage", re.compile("^(win|shorter|unique|tree)$"), timeout=60_000
        )
        expect(page.locator("#editor-work")).to_have_text(WORK[language])
        assert page.locator("#editor-stage").inner_text().strip()
        assert page.locator("#editor-submit").is_disabled()
        page.screenshot(path=str(artifacts / f"editor-proving-{language}.png"))
        result = page.locator("#editor-result")
        expect(result).to_have_attribute("data-kind", "published", timeout=120_000)
        expect(progress).to_be_hidden()
        # a mate by checks alone, longer than any the prover could be asked before
        page.goto("/puzzles/create/")
        expect(page.locator("body[data-ready='1']")).to_have_count(1)
        page.fill("#editor-fen", CHECKS_MATE_IN_15)
        page.locator("#editor-fen").press("Tab")
        page.fill("#editor-n", "15")
        page.select_option("#editor-mode", "checks_only")
        page.click("#editor-submit")
        expect(result).to_have_attribute("data-kind", "published", timeout=60_000)
        from puzzles.models import Puzzle

        made = Puzzle.objects.filter(author__username=f"composer-{language}").order_by("pk")
        assert [(p.moves_to_win, p.proof_mode) for p in made] == [(13, "full"), (15, "checks_only")]
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


PHONE = (390, 844)
FITS = """selectors => {
  const width = window.innerWidth;
  const faults = [];
  if (document.documentElement.scrollWidth > width) {
    faults.push(`the page is ${document.documentElement.scrollWidth} px wide in ${width}`);
  }
  for (const selector of selectors) {
    const element = document.querySelector(selector);
    const box = element.getBoundingClientRect();
    if (box.left < 0 || box.right > width) faults.push(`${selector} at ${box.left}..${box.right}`);
    // (a share link longer than its field ends in an ellipsis: the copy button copies it whole)
    if (element.tagName !== "INPUT" && element.scrollWidth > element.clientWidth) {
      faults.push(`${selector}: its text overflows`);
    }
  }
  return faults;
}"""


def test_on_a_phone_the_progress_of_a_proof_and_its_verdict_open_in_view_and_fit(
    browser: Browser, live_server: Any, celery_worker: Any, language: str, artifacts: Path
) -> None:
    """At 390 x 844 the form runs on below the board: the author taps Submit at the foot of the
    screen, and the progress box opens in view, no wider than the screen, and then the
    verdict."""
    page = open_editor(browser, live_server, language, size=PHONE)
    try:
        enter_problem(page, MATE_IN_13, 13)
        assert page.evaluate(FITS, ["#editor-mode", "#editor-save", "#editor-submit"]) == []
        # the button at the foot of the screen, where a thumb leaves it
        submit = page.locator("#editor-submit")
        submit.evaluate(
            "button => window.scrollBy(0, button.getBoundingClientRect().bottom"
            " - window.innerHeight + 8)"
        )
        box = submit.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE[1]
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        progress = page.locator("#editor-progress")
        expect(progress).to_have_attribute(
            "data-stage", re.compile("^(win|shorter|unique|tree)$"), timeout=60_000
        )
        expect(page.locator("#editor-work")).to_have_text(WORK[language])
        expect(progress).to_be_in_viewport(ratio=1)
        expect(page.locator("#editor-stage")).to_be_visible()
        assert page.locator("#editor-stage").inner_text().strip()
        expect(page.locator("#editor-bar")).to_be_visible()
        parts = ["#editor-progress", "#editor-stage", "#editor-bar", "#editor-work"]
        assert page.evaluate(FITS, parts) == []
        expect(submit).to_be_disabled()
        page.screenshot(path=str(artifacts / f"editor-proving-phone-{language}.png"))
        result = page.locator("#editor-result")
        expect(result).to_have_attribute("data-kind", "published", timeout=120_000)
        expect(progress).to_be_hidden()
        expect(result).to_be_in_viewport(ratio=1)
        expect(page.locator("#share-box")).to_be_in_viewport(ratio=1)
        assert page.evaluate(FITS, ["#editor-result", "#share-link", "#copy-link"]) == []
        page.screenshot(path=str(artifacts / f"editor-published-phone-{language}.png"))
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
