"""The shared board on every page that has one, in real headless Chromium: the whole board is on
screen on common laptops and a phone; switching variant without a reload redraws it right (the
trainer and the editor); it can be played from the keyboard (arrow keys, Enter) and by typing a
move; it speaks the page's language to screen readers; and it shows ICCS coordinates when the
lesson names points, remembering the user's choice."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from engine import Move, Position
from puzzles import proving
from puzzles.models import Puzzle
from puzzles.services import puzzle_publish
from tests.puzzles.positions import MATE_IN_2, MATE_IN_2_KEY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"1280x800": (1280, 800), "1366x768": (1366, 768), "390x844": (390, 844)}
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture
def lessons(transactional_db: None) -> None:
    from tutorials.services import lessons_load

    lessons_load()


# Enough of the bank for the trainer and a shared puzzle in each variant: the layout is the
# same whatever the puzzle, and loading all of it cost 2.5 s a test (it is loaded whole and
# checked in tests/puzzles).
BANK_SAMPLE = 12


@pytest.fixture(scope="session")
def bank_sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from puzzles.bankfile import BANK_PATH

    shipped = json.loads(BANK_PATH.read_text("utf-8"))
    taken: dict[str, int] = {}
    puzzles = []
    for entry in shipped["puzzles"]:
        if taken.get(entry["variant"], 0) < BANK_SAMPLE:
            taken[entry["variant"]] = taken.get(entry["variant"], 0) + 1
            puzzles.append(entry)
    assert sorted(taken) == ["feidan", "xiangqi", "xinban"]
    path = tmp_path_factory.mktemp("bank") / "bank.json"
    path.write_text(json.dumps({**shipped, "puzzles": puzzles}), "utf-8")
    return path


@pytest.fixture
def bank(transactional_db: None, bank_sample: Path) -> None:
    from puzzles.services import bank_load

    bank_load(bank_sample)


@pytest.fixture
def open_page(browser: Browser, live_server: Any) -> Iterator[Callable[..., Page]]:
    """A new page at a screen size and in a language; JavaScript errors fail the test."""
    contexts = []
    errors: list[str] = []

    def make(screen: str = "1280x800", locale: str = "zh-CN") -> Page:
        width, height = SCREENS[screen]
        phone = width < 600
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": height},
            device_scale_factor=2 if phone else 1,
            is_mobile=phone,
            has_touch=phone,
            locale=locale,
            bypass_csp=True,
        )
        # The analysis board's engine stays off: these tests are about the board, and a search
        # still running on the worker after a test is waited for before the database is
        # emptied (tests/browser/test_analysis_engine.py tests the engine on the page).
        context.add_init_script("window.localStorage.setItem('xq-analysis-engine', 'off')")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def log_in(page: Page, live_server: Any, username: str) -> None:
    user = User.objects.create_user(username=username, password="a-long-test-password")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def published(fen: str = MATE_IN_2, n: int = 2) -> Puzzle:
    puzzle = Puzzle.objects.create(
        variant="xiangqi", fen=fen, goal="mate", moves_to_win=n, source=Puzzle.Source.MINED
    )
    return puzzle_publish(
        puzzle=puzzle, result=proving.prove(variant="xiangqi", fen=fen, goal="mate", moves_to_win=n)
    )


def board_width(page: Page) -> int:
    return 11 if "xb-11x10" in (page.get_attribute("#board", "class") or "") else 9


def point(page: Page, square: str) -> tuple[float, float]:
    """Where an ICCS point is on the screen, from the board's box alone."""
    box = page.locator("#board .xb-wrap").bounding_box()
    assert box is not None
    width = board_width(page)
    red = page.get_attribute("#board", "data-orientation") == "red"
    file, rank = ord(square[0]) - ord("a"), int(square[1:])
    col = file if red else width - 1 - file
    row = 9 - rank if red else rank
    return (
        box["x"] + (col + 0.5) * box["width"] / width,
        box["y"] + (row + 0.5) * box["height"] / 10,
    )


def ready(page: Page, selector: str) -> None:
    expect(page.locator(selector)).to_have_count(1, timeout=20_000)
    page.wait_for_timeout(300)  # the board fits itself after the page settles


def assert_on_screen(page: Page, selector: str, screen: str) -> None:
    width, height = SCREENS[screen]
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    scroll = page.evaluate("window.scrollY")
    where = f"{selector} at {box} (scrolled {scroll}) on {screen}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, where
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, where


def assert_pieces_on_points(page: Page) -> None:
    """Every piece is drawn on its point, one point wide."""
    files = board_width(page)
    pieces = page.evaluate(
        """() => [...document.querySelectorAll('#board cg-board piece')]
            .filter(p => !p.classList.contains('ghost'))
            .map(p => { const r = p.getBoundingClientRect();
                        return {key: p.cgKey, x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width}; })"""
    )
    assert pieces
    box = page.locator("#board .xb-wrap").bounding_box()
    assert box is not None
    for piece in pieces:
        square = piece["key"][0] + str("123456789:".index(piece["key"][1]))
        x, y = point(page, square)
        assert abs(piece["x"] - x) < 2 and abs(piece["y"] - y) < 2, (square, piece, (x, y))
        assert abs(piece["w"] - box["width"] / files) < 2, (square, piece, box)


def assert_board_drawn_as(page: Page, files: int, variant: str) -> None:
    classes = (page.get_attribute("#board", "class") or "").split()
    sizes = [c for c in classes if re.fullmatch(r"xb-\d+x10", c)]
    variants = [c for c in classes if c.startswith("xb-variant-")]
    assert sizes == [f"xb-{files}x10"] and variants == [f"xb-variant-{variant}"], classes
    # The drawing is the one for this size: no missile bases on a 9-file board.
    drawn, expected = page.evaluate(
        """files => {
            const probe = document.createElement('div');
            probe.className = `xb-${files}x10`;
            const inner = document.createElement('cg-board');
            probe.append(inner);
            document.body.append(probe);
            const expected = getComputedStyle(inner).backgroundImage;
            probe.remove();
            return [getComputedStyle(document.querySelector('#board cg-board')).backgroundImage, expected];
        }""",
        files,
    )
    assert drawn == expected
    assert_pieces_on_points(page)


# --- the whole board on screen ------------------------------------------------------------------


PAGES = ["lesson", "lesson-feidan", "puzzle", "share", "editor", "analysis"]


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("where", PAGES)
def test_the_whole_board_is_on_screen(
    open_page: Callable[..., Page],
    live_server: Any,
    lessons: None,
    bank: None,
    artifacts: Path,
    where: str,
    screen: str,
) -> None:
    page = open_page(screen)
    phone = SCREENS[screen][0] < 600
    if where == "lesson":
        page.goto("/learn/xiangqi-board/?step=2")  # coordinates shown: the tallest board
        ready(page, "body[data-ready='1']")
    elif where == "lesson-feidan":
        page.goto("/learn/feidan-board/")
        ready(page, "body[data-ready='1']")
    elif where == "puzzle":
        page.goto("/puzzles/?variant=feidan")
        ready(page, "body[data-puzzle-state='ready']")
    elif where == "share":
        puzzle = Puzzle.objects.filter(variant="xiangqi", status=Puzzle.Status.PUBLISHED).first()
        assert puzzle is not None
        page.goto(f"/puzzles/p/{puzzle.slug}/")
        ready(page, "body[data-puzzle-state='ready']")
    elif where == "editor":
        log_in(page, live_server, "composer")
        page.goto("/puzzles/create/")
        ready(page, "body[data-ready='1']")
        page.select_option("#editor-variant", "feidan")
        page.wait_for_timeout(300)
    else:
        page.goto("/analysis/?variant=feidan")
        ready(page, "body[data-ready='1']")
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen][0]
    if phone and where.startswith("lesson"):
        # On a phone the task comes first and the board under it: it fits once scrolled to.
        page.locator("#board").scroll_into_view_if_needed()
    assert_on_screen(page, "#board", screen)
    if where == "editor":
        assert_on_screen(page, "#palette-red", screen)  # the red pieces to place, too
    if where in ("lesson", "lesson-feidan"):
        expect(page.locator("#board")).to_have_class(re.compile(r"\bxb-iccs\b"))
    box = page.locator("#board .xb-wrap").bounding_box()
    assert box is not None and box["width"] >= (300 if phone else 400), box  # still a real board
    page.screenshot(path=str(artifacts / f"board-fit-{where}-{screen}.png"))


# --- switching variant without a reload --------------------------------------------------------


def test_switching_variant_in_the_trainer_redraws_the_board(
    open_page: Callable[..., Page], bank: None, artifacts: Path
) -> None:
    page = open_page("1280x800")
    page.goto("/puzzles/?variant=xiangqi")
    ready(page, "body[data-puzzle-state='ready']")
    assert_board_drawn_as(page, 9, "xiangqi")
    page.click("#filters-box summary")  # the filters are folded until asked for
    for variant, files in (("feidan", 11), ("xinban", 9), ("feidan", 11)):
        page.select_option("#filter-variant", variant)
        page.click("#filters button[type=submit]")
        expect(page.locator("#puzzle-info")).to_have_attribute("data-variant", variant)
        ready(page, "body[data-puzzle-state='ready']")
        assert_board_drawn_as(page, files, variant)
        page.screenshot(path=str(artifacts / f"board-switch-trainer-{variant}.png"))
        # A click lands on the point meant: the piece of the first legal move is picked up.
        move = page.evaluate("window.puzzlePlayer.state.dests[0]")
        page.mouse.click(*point(page, move[:2]))
        selected = page.evaluate("window.puzzlePlayer.board().ground.state.selectable.selected")
        assert selected == move[0] + "123456789:"[int(move[1])], (move, selected)
        page.keyboard.press("Escape")


def test_switching_variant_in_the_editor_redraws_the_board(
    open_page: Callable[..., Page], live_server: Any, artifacts: Path
) -> None:
    page = open_page("1366x768")
    log_in(page, live_server, "composer")
    page.goto("/puzzles/create/")
    ready(page, "body[data-ready='1']")
    for variant, files, square, rank in (
        ("feidan", 11, "k5", "10R"),
        ("xinban", 9, "i4", "8R"),
        ("xiangqi", 9, "a4", "R8"),
    ):
        page.select_option("#editor-variant", variant)
        page.wait_for_timeout(200)
        assert_board_drawn_as(page, files, variant)
        page.click("#palette-red button[data-piece='R']")
        before = page.input_value("#editor-fen")
        page.mouse.click(*point(page, square))  # a click lands on the point meant
        expect(page.locator("#editor-fen")).not_to_have_value(before)
        fen = page.input_value("#editor-fen")
        assert fen.split()[0].split("/")[9 - int(square[1])] == rank, (variant, fen)
        assert_board_drawn_as(page, files, variant)
        page.screenshot(path=str(artifacts / f"board-switch-editor-{variant}.png"))


# --- keyboard, typed moves, screen readers -------------------------------------------------------


def arrows(page: Page, start: str, target: str) -> None:
    """Walk the keyboard cursor from one point to another (Red at the bottom)."""
    dx = ord(target[0]) - ord(start[0])
    dy = int(target[1]) - int(start[1])
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
    expect(page.locator("#board")).to_have_attribute("data-focus", target)


def wait_result(page: Page) -> str:
    page.wait_for_function(
        "document.body.dataset.result && document.body.dataset.result !== 'waiting'"
    )
    return page.evaluate("document.body.dataset.result")


def test_a_lesson_is_played_from_the_keyboard(
    open_page: Callable[..., Page], lessons: None, artifacts: Path
) -> None:
    page = open_page("1280x800")
    page.goto("/learn/xiangqi-horse/")
    ready(page, "body[data-ready='1']")
    page.keyboard.press("Tab")
    wrap = page.locator("#board .xb-wrap")
    for _ in range(40):  # Tab until the board has the focus: it is in the page's tab order
        if wrap.evaluate("el => el === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(wrap).to_be_focused()
    expect(page.locator("#board")).to_have_attribute("data-focus", "e0")
    live = page.locator("#board .xb-live")
    expect(live).to_have_text("e0：红帅")
    arrows(page, "e0", "b0")
    expect(live).to_have_text("b0：红马")
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.keyboard.press("Enter")
    expect(live).to_contain_text("已拿起")
    arrows(page, "b0", "c2")
    expect(live).to_have_text("c2：空，可以走到这里")
    page.screenshot(path=str(artifacts / "board-keyboard-lesson.png"))
    page.keyboard.press(" ")
    assert wait_result(page) == "complete"
    expect(page.locator("#stars")).to_have_attribute("data-stars", "3")

    # The next step by typed moves: Chinese notation, then ICCS.
    page.locator("#next").click()
    expect(page.locator("body[data-step='2']")).to_have_count(1)
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.fill("#move-input", "马八进七")
    page.press("#move-input", "Enter")
    assert wait_result(page) == "playing"
    expect(page.locator("#move-input")).to_have_value("")
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.fill("#move-input", "c2d4")
    page.click("#move-play")
    assert wait_result(page) == "playing"
    # A typed move that the position does not allow is explained, and nothing is played.
    page.fill("#move-input", "车九进一")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-form .move-error")).to_be_visible()
    expect(page.locator("#move-input")).to_have_value("车九进一")


def test_a_puzzle_is_played_from_the_keyboard(
    open_page: Callable[..., Page], artifacts: Path
) -> None:
    puzzle = published()
    page = open_page("1366x768")
    page.goto(f"/puzzles/p/{puzzle.slug}/")
    ready(page, "body[data-puzzle-state='ready']")
    page.focus("#board .xb-wrap")
    expect(page.locator("#board")).to_have_attribute("data-focus", "e0")
    arrows(page, "e0", MATE_IN_2_KEY[:2])
    page.keyboard.press("Enter")
    arrows(page, MATE_IN_2_KEY[:2], MATE_IN_2_KEY[2:])
    page.keyboard.press("Enter")
    expect(page.locator("body[data-puzzle-state='playing']")).to_have_count(1, timeout=20_000)
    reply = page.locator("#moves li.move-defender").first.get_attribute("data-iccs")
    assert reply
    mate = proving.hint(proof=puzzle.proof, moves=[MATE_IN_2_KEY, reply]).move
    assert mate
    position = Position.from_fen("xiangqi", MATE_IN_2)
    position.push(Move.from_iccs(MATE_IN_2_KEY))
    position.push(Move.from_iccs(reply))
    page.fill("#move-input", position.chinese(Move.from_iccs(mate)))  # typed in Chinese notation
    page.press("#move-input", "Enter")
    expect(page.locator("#status")).to_have_attribute("data-kind", "solved", timeout=20_000)
    expect(page.locator("#move-input")).to_have_value("")  # played: the text is gone at once
    page.screenshot(path=str(artifacts / "board-keyboard-puzzle.png"))


@pytest.mark.parametrize("where", ["lesson", "puzzle", "editor", "analysis"])
def test_the_board_speaks_the_page_language(
    open_page: Callable[..., Page], live_server: Any, lessons: None, where: str
) -> None:
    puzzle = published()
    urls = {
        "lesson": ("/learn/xiangqi-horse/", "body[data-ready='1']"),
        "puzzle": (f"/puzzles/p/{puzzle.slug}/", "body[data-puzzle-state='ready']"),
        "editor": ("/puzzles/create/", "body[data-ready='1']"),
        "analysis": ("/analysis/", "body[data-ready='1']"),
    }
    url, ready_when = urls[where]
    for locale, board_name, general in (
        ("zh-CN", "象棋棋盘", "红帅"),
        ("en-US", "Xiangqi board", "red general"),
    ):
        page = open_page("1280x800", locale)
        if where == "editor":
            log_in(page, live_server, f"author-{locale}")
        page.goto(url)
        ready(page, ready_when)
        wrap = page.locator("#board .xb-wrap")
        label = wrap.get_attribute("aria-label") or ""
        assert label == board_name, label
        help_text = page.locator("#board .xb-help").text_content() or ""
        if locale == "zh-CN":
            assert CJK.search(help_text) and not LATIN.search(help_text.replace("Esc", "")), (
                help_text
            )
        else:
            assert not CJK.search(help_text), help_text
        assert wrap.get_attribute("aria-describedby") == page.locator(
            "#board .xb-help"
        ).get_attribute("id")
        page.focus("#board .xb-wrap")
        expect(page.locator("#board .xb-live")).to_contain_text(general)


def test_coordinates_shown_in_lessons_that_name_points_and_remembered(
    open_page: Callable[..., Page], lessons: None, artifacts: Path
) -> None:
    page = open_page("1280x800")
    page.goto("/learn/xiangqi-board/")
    ready(page, "body[data-ready='1']")
    board = page.locator("#board")
    expect(board).to_have_class(re.compile(r"\bxb-iccs\b"))
    expect(page.locator("#board .xb-files span")).to_have_text(list("abcdefghi"))
    expect(page.locator("#board .xb-ranks span")).to_have_text([str(r) for r in range(9, -1, -1)])
    # The letters stand under their files.
    c_label = page.locator("#board .xb-files span").nth(2).bounding_box()
    assert c_label is not None
    x, _ = point(page, "c3")
    assert abs(c_label["x"] + c_label["width"] / 2 - x) < 2
    page.screenshot(path=str(artifacts / "board-coordinates-lesson.png"))
    # The lesson asks for c3: clicking where the labels say c3 is is right.
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.mouse.click(x, point(page, "c3")[1])
    assert wait_result(page) == "complete"
    # A point can be typed too: step 2 asks for a point just across the river.
    page.locator("#next").click()
    expect(page.locator("body[data-step='2']")).to_have_count(1)
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.fill("#move-input", "a5")
    page.press("#move-input", "Enter")
    assert wait_result(page) == "complete"

    # A lesson that names no point starts without them.
    page.goto("/learn/xiangqi-stalemate/")
    ready(page, "body[data-ready='1']")
    expect(board).not_to_have_class(re.compile(r"\bxb-iccs\b"))
    expect(page.locator("#board .xb-files")).to_be_hidden()
    # Turned on by the user, they stay on everywhere, after a reload too.
    page.click("#board .xb-coordinates-toggle")
    expect(board).to_have_class(re.compile(r"\bxb-iccs\b"))
    expect(page.locator("#board .xb-coordinates-toggle")).to_have_attribute("aria-pressed", "true")
    page.reload()
    ready(page, "body[data-ready='1']")
    expect(board).to_have_class(re.compile(r"\bxb-iccs\b"))
    page.goto("/analysis/?variant=feidan")
    ready(page, "body[data-ready='1']")
    expect(page.locator("#board .xb-files span")).to_have_text(list("abcdefghijk"))
    page.click("#flip")
    expect(page.locator("#board .xb-files span")).to_have_text(list("kjihgfedcba"))
    page.screenshot(path=str(artifacts / "board-coordinates-analysis-flipped.png"))
    # Turned off, they stay off, even in a lesson that names points.
    page.click("#board .xb-coordinates-toggle")
    page.goto("/learn/xiangqi-board/")
    ready(page, "body[data-ready='1']")
    expect(board).not_to_have_class(re.compile(r"\bxb-iccs\b"))


def test_the_board_follows_the_window(open_page: Callable[..., Page], artifacts: Path) -> None:
    page = open_page("1280x800")
    page.goto("/analysis/?variant=feidan")
    ready(page, "body[data-ready='1']")
    assert_on_screen(page, "#board", "1280x800")
    wide = page.locator("#board .xb-wrap").bounding_box()
    page.set_viewport_size({"width": 1366, "height": 640})  # a shorter window: a smaller board
    page.wait_for_timeout(300)
    box = page.locator("#board").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 640
    short = page.locator("#board .xb-wrap").bounding_box()
    assert wide is not None and short is not None and short["width"] < wide["width"]
    assert_pieces_on_points(page)
    page.set_viewport_size({"width": 700, "height": 900})  # narrow: one column, full width
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= 700
    assert_pieces_on_points(page)
    page.screenshot(path=str(artifacts / "board-fit-resized-700x900.png"))


def test_the_board_works_under_the_sites_content_security_policy(
    browser: Browser, live_server: Any, lessons: None
) -> None:
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1366, "height": 768}, locale="zh-CN"
    )
    try:
        page = context.new_page()
        blocked: list[str] = []
        page.on(
            "console",
            lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text
            else None,
        )
        page.goto("/learn/xiangqi-horse/?step=2")
        expect(page.locator("body[data-ready='1']")).to_have_count(1)
        expect(page.locator("#board[data-fitted]")).to_have_count(1)
        assert_on_screen(page, "#board", "1366x768")
        page.fill("#move-input", "马八进七")  # read by the site: a request under the policy
        page.press("#move-input", "Enter")
        expect(page.locator("#board")).to_have_attribute(
            "data-fen", re.compile(r"/2N6/9/4K4 ")
        )  # b0c2
        expect(page.locator("#move-input")).to_have_value("")
        expect(page.locator("#status")).to_contain_text("轮到你走棋", use_inner_text=True)
        assert not blocked, blocked
    finally:
        context.close()


# --- the pieces' names legible ------------------------------------------------------------------

# The ink of a piece's name as drawn on the screen: the box of the pixels in the letters' red,
# inside the piece's inner ring, as a share of the piece's width.
NAME_INK = """async (selector) => {
    const piece = document.querySelector(`#board cg-board piece.${selector}`);
    const url = getComputedStyle(piece).backgroundImage.match(/^url\\("(.*)"\\)$/)[1];
    const size = Math.round(piece.getBoundingClientRect().width * devicePixelRatio);
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = size;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0, size, size);
    const { data } = context.getImageData(0, 0, size, size);
    let [top, bottom, left, right] = [size, -1, size, -1];
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            if (Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) > 0.35 * size) continue;
            const [r, g, b] = data.subarray(4 * (y * size + x), 4 * (y * size + x) + 3);
            if (r - g < 80 || r - b < 80) continue; // not the red of the letters
            [top, bottom] = [Math.min(top, y), Math.max(bottom, y)];
            [left, right] = [Math.min(left, x), Math.max(right, x)];
        }
    }
    return { width: (right - left + 1) / size, height: (bottom - top + 1) / size, px: size };
}"""


@pytest.mark.parametrize("screen", ["390x844", "1280x800"])
def test_two_character_pieces_are_written_large_enough_to_read(
    open_page: Callable[..., Page], screen: str, artifacts: Path
) -> None:
    """战机 and 导弹 are two characters on a piece the size of the others: stacked, each is
    written much larger than side by side (where each was about half the height of a
    one-character name, hard to read on a phone)."""
    page = open_page(screen)
    page.goto("/analysis/?variant=feidan")
    ready(page, "body[data-ready='1']")
    page.locator("#board").screenshot(path=str(artifacts / f"board-feidan-names-{screen}.png"))
    chariot = page.evaluate(NAME_INK, "r-piece.white")
    assert 0.3 < chariot["height"] < 0.7 and 0.3 < chariot["width"] < 0.7, chariot
    one = chariot["width"] * chariot["height"]
    for name in ("f-piece.white", "m-piece.white"):
        ink = page.evaluate(NAME_INK, name)
        # the characters stand one above the other: the name is taller than it is wide ...
        assert ink["height"] > 1.5 * ink["width"], (name, ink)
        # ... and each has a good share of a one-character name's room (stacked about 0.43,
        # side by side at the old size 0.31)
        assert ink["width"] * ink["height"] / 2 >= 0.38 * one, (name, ink, chariot)


# --- a finger's room for every point on a phone -------------------------------------------------


def selected(page: Page) -> str | None:
    key = page.evaluate("document.querySelector('#board').xbBoard.ground.state.selectable.selected")
    return None if key is None else key[0] + str("123456789:".index(key[1]))


def let_go(page: Page) -> None:
    page.evaluate("document.querySelector('#board').xbBoard.ground.selectSquare(null)")


@pytest.mark.parametrize("coordinates", [False, True], ids=["plain", "iccs"])
def test_every_point_of_the_eleven_file_board_takes_a_finger_on_a_phone(
    open_page: Callable[..., Page], artifacts: Path, coordinates: bool
) -> None:
    page = open_page("390x844", "en-US")
    page.goto("/analysis/?variant=feidan")
    ready(page, "body[data-ready='1']")
    if coordinates != ("xb-iccs" in (page.get_attribute("#board", "class") or "")):
        page.click("#board .xb-coordinates-toggle")
        page.wait_for_timeout(300)
    wrap = page.locator("#board .xb-wrap").bounding_box()
    column = page.evaluate(
        "() => { const p = document.querySelector('#board').parentElement;"
        " const s = getComputedStyle(p);"
        " return p.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }"
    )
    assert wrap is not None
    cell = wrap["width"] / 11
    # A point is read from a tap anywhere in its cell: 34 px, or as wide as the page allows
    # beside the ICCS digits (a whole number of pixels a file).
    digits = page.locator("#board .xb-ranks").bounding_box() if coordinates else None
    room = column - (digits["width"] if digits else 0)
    assert cell >= min(34, int(room / 11)) - 0.5, (cell, room)
    assert abs(cell - wrap["height"] / 10) < 0.5
    drawn = page.locator("#board cg-board").bounding_box()  # the points a tap is read on
    assert drawn is not None
    assert abs(drawn["width"] - wrap["width"]) < 0.5 and abs(drawn["x"] - wrap["x"]) < 0.5, drawn
    red = ["a0", "e0", "k0", "a2", "f3", "j3"]  # corners, the palace, fighters, soldiers
    for square in red:
        x, y = point(page, square)
        for dx, dy in [(0.45, 0), (-0.45, 0), (0, 0.45), (0, -0.45), (0.4, 0.4)]:
            page.touchscreen.tap(x + dx * cell, y + dy * cell)
            assert selected(page) == square, (square, dx, dy)
            let_go(page)
    # Beside the board (the numerals under it, the ICCS digits left of it) up to half a point:
    # the nearest point, so that the points on the edge have as much room as the others.
    x, y = point(page, "a0")
    page.touchscreen.tap(wrap["x"] + wrap["width"] / 2, wrap["y"] + wrap["height"] + 0.4 * cell)
    assert selected(page) == "f0"  # the red general
    let_go(page)
    page.touchscreen.tap(x, wrap["y"] + wrap["height"] + 0.4 * cell)
    assert selected(page) == "a0"
    page.touchscreen.tap(x, wrap["y"] + wrap["height"] + 0.4 * cell)  # again: let go
    assert selected(page) is None
    if coordinates:
        page.touchscreen.tap(wrap["x"] - 0.4 * cell, y)
        assert selected(page) == "a0"
        let_go(page)
    page.touchscreen.tap(x, wrap["y"] + wrap["height"] + 0.9 * cell)  # too far: nothing
    assert selected(page) is None
    # Text that grows above the board moves it down, with no resize or scroll: a tap is read
    # where the board is now.
    page.evaluate(
        """cell => { const note = document.createElement('p');
                     note.style.cssText = `height:${cell * 0.6}px;margin:0`;
                     document.querySelector('#board').before(note); }""",
        cell,
    )
    for square in ["f3", "a0"]:
        page.touchscreen.tap(*point(page, square))
        assert selected(page) == square, square
        let_go(page)
    page.screenshot(
        path=str(artifacts / f"board-phone-feidan-{'iccs' if coordinates else 'plain'}.png")
    )
