"""The puzzle trainer's habits in real headless Chromium, on a desktop screen (1280×800, in
Chinese) and a phone (390×844, in English), played with the keyboard: the themes appear only
once the try is over, a difficulty that had to be relaxed is said in words, the theme filter
follows the variant, the move of the solution or refutation shown is marked on the board,
and the dashboard draws the rating history with a dot per rating.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from engine.variants import FEIDAN
from puzzles import proving
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleTheme
from puzzles.services import puzzle_publish, theme_catalogue_sync
from tests.puzzles.positions import MATE_IN_2, MATE_IN_2_KEY

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

WRONG_FIRST_MOVE = "e0e1"  # the red general steps up: Black escapes
SCREENS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}, "locale": "zh-CN"},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "locale": "en-US",
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
WORDS = {  # what each screen's language says
    "desktop": {"quiet": "冷着", "harder": "难一些", "chart": "谜题等级分变化"},
    "phone": {
        "quiet": "Quiet move",
        "harder": "A little harder",
        "chart": "Puzzle rating over time",
    },
}


@pytest.fixture(params=list(SCREENS))
def screen(request: Any, browser: Browser, live_server: Any) -> Iterator[Page]:
    context = browser.new_context(
        base_url=live_server.url, bypass_csp=True, **SCREENS[request.param]
    )
    page = context.new_page()
    page.screen_name = request.param  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def words(page: Page) -> dict[str, str]:
    return WORDS[page.screen_name]  # type: ignore[attr-defined]


def published(fen: str = MATE_IN_2, n: int = 2, rating: float | None = None) -> Puzzle:
    puzzle = Puzzle.objects.create(
        variant="xiangqi", fen=fen, goal="mate", moves_to_win=n, source=Puzzle.Source.MINED
    )
    result = proving.prove(variant="xiangqi", fen=fen, goal="mate", moves_to_win=n)
    puzzle = puzzle_publish(puzzle=puzzle, result=result)
    if rating is not None:
        Puzzle.objects.filter(pk=puzzle.pk).update(rating=rating)
    return puzzle


def log_in(page: Page, live_server: Any, username: str) -> User:
    user = User.objects.create_user(username=username, password="a-long-test-password")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return user


def state(page: Page, name: str) -> None:
    expect(page.locator(f"body[data-puzzle-state='{name}']")).to_have_count(1, timeout=20_000)


def type_move(page: Page, move: str) -> None:
    """A move typed in the move box and played with Enter: the keyboard's way."""
    page.locator("#move-input").fill(move)
    page.locator("#move-input").press("Enter")


def cg_key(point: str) -> str:
    """An ICCS point as the board's chessground names it (ranks 0..9 are 1..9 and ":")."""
    return point[0] + "123456789:"[int(point[1])]


def last_move_points(page: Page) -> Any:
    return page.locator("#board cg-board square.last-move")


def test_the_themes_appear_only_once_the_try_is_over(
    screen: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    puzzle = published()  # a mate in 2 with a quiet key
    screen.goto(f"/puzzles/p/{puzzle.slug}/")
    state(screen, "ready")
    themes = screen.locator("[data-testid='puzzle-themes']")
    expect(themes).to_be_hidden()
    expect(themes).to_have_attribute("data-themes", "")
    assert words(screen)["quiet"] not in screen.locator("#puzzle-info").inner_text()
    type_move(screen, WRONG_FIRST_MOVE)
    state(screen, "scored")
    expect(themes).to_be_visible()
    expect(themes).to_contain_text(f"#{words(screen)['quiet']}")
    assert "quiet_move" in (themes.get_attribute("data-themes") or "").split(",")
    screen.screenshot(
        path=str(artifacts / f"trainer-themes-{screen.screen_name}.png"),  # type: ignore[attr-defined]
        full_page=True,
    )


def test_a_relaxed_difficulty_is_said_and_the_themes_follow_the_variant(
    screen: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    xiangqi = published(rating=1400)
    feidan = Puzzle.objects.create(
        variant="feidan",
        fen=FEIDAN.default_start,
        goal="mate",
        moves_to_win=2,
        status="published",
        proof=xiangqi.proof,
    )
    theme_catalogue_sync()
    feidan.themes.set(PuzzleTheme.objects.filter(slug="fighter"))
    # A visitor is rated 1500: "a little harder" asks for 1650–1950; only a 1400 is there.
    screen.goto("/puzzles/?variant=xiangqi&difficulty=harder")
    state(screen, "ready")
    notice = screen.locator("[data-testid='puzzle-notice']")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("1650–1950")
    expect(notice).to_contain_text(words(screen)["harder"])
    expect(notice).to_contain_text("1400")
    screen.locator("#filters-box summary").click()  # folded until asked for
    screen.locator("#filters").scroll_into_view_if_needed()
    fighter = screen.locator("label.theme-chip:has(input[value='fighter'])")
    quiet = screen.locator("label.theme-chip:has(input[value='quiet_move'])")
    expect(fighter).to_be_hidden()
    expect(quiet).to_be_visible()
    screen.screenshot(
        path=str(artifacts / f"trainer-notice-{screen.screen_name}.png"),  # type: ignore[attr-defined]
        full_page=True,
    )
    # The variant chosen with the keyboard: the chips follow it at once.
    screen.locator("#filter-variant").focus()
    screen.locator("#filter-variant").select_option("feidan")
    expect(fighter).to_be_visible()
    expect(quiet).to_be_hidden()
    screen.locator("#filter-variant").select_option("xiangqi")
    expect(fighter).to_be_hidden()
    # A chosen theme stays while the variant can have it, and goes with one that cannot.
    screen.locator("#filter-variant").select_option("feidan")
    fighter.locator("input").check()
    screen.locator("#filter-variant").select_option("xinban")
    expect(fighter).to_be_hidden()
    expect(fighter.locator("input")).not_to_be_checked()
    screen.locator("#filter-variant").select_option("xiangqi")
    # At the player's own level the 1400 is within range; but this visitor has tried the only
    # puzzle there is, and that is what is said now.
    screen.locator("#filter-difficulty").select_option("normal")
    screen.locator("#filters button[type=submit]").press("Enter")
    state(screen, "ready")
    expect(notice.locator(".puzzle-notice-line")).to_have_count(1)
    expect(notice.locator(".puzzle-notice-line")).to_have_attribute("data-code", "tried")
    expect(notice).not_to_contain_text("1650")


DESKTOPS = {  # the two commonest laptop screens, one in each language
    "1280x800-zh": ({"width": 1280, "height": 800}, "zh-CN"),
    "1366x768-en": ({"width": 1366, "height": 768}, "en-US"),
}
TASK_WORDS = {
    "zh-CN": {
        "checks": "每步都必须将军",
        "hint": "这次尝试用过提示",
        "hinted": "用了提示，本次尝试不再计等级分。",
    },
    "en-US": {
        "checks": "every move must give check",
        "hint": "A hint was taken in this try.",
        "hinted": "This try is no longer rated: a hint was taken.",
    },
}


@pytest.mark.parametrize("desktop", list(DESKTOPS))
def test_the_task_and_its_buttons_sit_beside_the_board(
    desktop: str, browser: Browser, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    """The theme and pattern filters (some forty check-boxes) came before the task in the side
    panel: what to do, whether it worked, Hint and Show solution were under the fold, and a
    click on Hint scrolled the board away. Once the puzzle is over: "proved among checks" is
    said only then (it gives the answer's kind away), Show solution is not offered after a
    solve (the solution is on the page), and an unrated try says why."""
    viewport, locale = DESKTOPS[desktop]
    words = TASK_WORDS[locale]
    context = browser.new_context(
        base_url=live_server.url, viewport=viewport, locale=locale, bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    puzzle = published()
    Puzzle.objects.filter(pk=puzzle.pk).update(proof_mode="checks_only")
    line = proving.main_line(puzzle.proof)
    log_in(page, live_server, f"laptop-{desktop}")
    page.goto("/puzzles/")
    state(page, "ready")
    expect(page.locator("#filters-box")).not_to_have_attribute("open", "")
    expect(page.locator("#filters")).to_be_hidden()
    expect(page.locator("[data-testid='proof-mode']")).to_be_hidden()
    assert words["checks"] not in page.locator("#puzzle-info").inner_text()

    def beside_the_board_on_screen() -> None:
        board = page.locator("#board").bounding_box()
        assert board is not None
        assert board["y"] >= 0 and board["y"] + board["height"] <= viewport["height"], board
        for selector in (".puzzle-title", "#status", "#hint", "#give-up", "#move-input"):
            box = page.locator(selector).bounding_box()
            assert box is not None, selector
            assert box["x"] >= board["x"] + board["width"], (selector, box, board)
            bottom = box["y"] + box["height"]
            assert box["y"] >= 0 and bottom <= viewport["height"], (selector, box)

    beside_the_board_on_screen()
    page.locator("#hint").click()
    expect(page.locator("#board cg-shapes, #board svg").first).to_be_attached()
    expect(page.locator("#result")).to_have_text(words["hinted"])  # why, at once
    assert page.evaluate("window.scrollY") == 0
    beside_the_board_on_screen()
    type_move(page, line[0])
    state(page, "playing")
    type_move(page, line[2])
    state(page, "scored")
    expect(page.locator("#result")).to_have_attribute("data-result", "solved")
    expect(page.locator("#give-up")).to_be_hidden()
    expect(page.locator("#solution")).to_be_visible()
    expect(page.locator("[data-testid='proof-mode']")).to_have_text(re.compile(words["checks"]))
    expect(page.locator("#result")).to_have_attribute("data-reason", "hints")
    expect(page.locator("#result")).to_contain_text(words["hint"])
    page.screenshot(path=str(artifacts / f"trainer-laptop-{desktop}.png"))
    # The filters unfold on a click, with the themes of the variant.
    page.locator("#filters-box summary").click()
    expect(page.locator("#filters")).to_be_visible()
    expect(page.locator("label.theme-chip:has(input[value='quiet_move'])")).to_be_visible()
    context.close()
    assert not errors, errors


def test_the_move_shown_is_marked_on_the_board(
    screen: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    puzzle = published()
    line = proving.main_line(puzzle.proof)
    log_in(screen, live_server, f"marked-{screen.screen_name}")  # type: ignore[attr-defined]
    screen.goto(f"/puzzles/p/{puzzle.slug}/")
    state(screen, "ready")
    expect(last_move_points(screen)).to_have_count(0)
    # A wrong move: the refutation is shown, its two points marked.
    type_move(screen, WRONG_FIRST_MOVE)
    state(screen, "scored")
    expect(last_move_points(screen)).to_have_count(2)
    expect(screen.locator("#status")).to_have_attribute("data-kind", "wrong")
    # The solution asked for: the board shows its key from the start, marked, and the list
    # says which move is on the board.
    screen.locator("#give-up").focus()
    screen.keyboard.press("Enter")
    buttons = screen.locator("#solution-line button")
    expect(buttons).to_have_count(len(line))
    expect(buttons.nth(0)).to_have_attribute("aria-current", "step")
    expect(buttons.nth(0)).to_have_attribute("data-iccs", MATE_IN_2_KEY)
    expect(last_move_points(screen)).to_have_count(2)
    expect(screen.locator("#board cg-board square.last-move").first).to_be_visible()
    # and an arrow from its first point to its second (chessground names ranks 1..9, ":")
    arrows = screen.evaluate(
        "() => window.puzzlePlayer.board().ground.state.drawable.autoShapes"
        ".map(s => s.orig + s.dest + s.brush)"
    )
    assert arrows == [f"{cg_key(MATE_IN_2_KEY[:2])}{cg_key(MATE_IN_2_KEY[2:])}green"], arrows
    screen.screenshot(
        path=str(artifacts / f"trainer-solution-{screen.screen_name}.png"),  # type: ignore[attr-defined]
        full_page=True,
    )
    fen_key = screen.locator("#board").get_attribute("data-fen")
    # Another move of the solution, chosen with the keyboard.
    buttons.nth(1).focus()
    screen.keyboard.press("Enter")
    expect(buttons.nth(1)).to_have_attribute("aria-current", "step")
    expect(buttons.nth(0)).not_to_have_attribute("aria-current", "step")
    expect(last_move_points(screen)).to_have_count(2)
    assert screen.locator("#board").get_attribute("data-fen") != fen_key


def test_the_solution_shown_by_giving_up_marks_the_next_move(
    screen: Page, live_server: Any, celery_worker: Any
) -> None:
    puzzle = published()
    line = proving.main_line(puzzle.proof)
    screen.goto(f"/puzzles/p/{puzzle.slug}/")
    state(screen, "ready")
    type_move(screen, MATE_IN_2_KEY)  # right: the defender answers
    state(screen, "playing")
    screen.locator("#give-up").click()
    buttons = screen.locator("#solution-line button")
    expect(buttons).to_have_count(len(line))
    # Where the try stopped: the solution's next move for the attacker (the third).
    expect(buttons.nth(2)).to_have_attribute("aria-current", "step")
    expect(last_move_points(screen)).to_have_count(2)


def rated_history(user: User, ratings: list[float]) -> None:
    base = published()
    start = timezone.now() - datetime.timedelta(days=3)
    for index, (before, after) in enumerate(itertools.pairwise(ratings)):
        puzzle = Puzzle.objects.create(
            variant="xiangqi",
            fen=base.fen,
            goal="mate",
            moves_to_win=2,
            status="published",
            proof=base.proof,
        )
        PuzzleAttempt.objects.create(
            user=user,
            puzzle=puzzle,
            first_try=True,
            rated=True,
            state="scored",
            result="solved" if after >= before else "failed",
            scored_at=start + datetime.timedelta(hours=index),
            user_rating_before=before,
            user_rating_after=after,
        )
    PuzzleRating.objects.create(
        user=user, variant="xiangqi", rating=ratings[-1], games=len(ratings) - 1
    )


def test_the_dashboard_draws_the_rating_history(
    screen: Page, live_server: Any, artifacts: Path
) -> None:
    user = log_in(screen, live_server, f"charted-{screen.screen_name}")  # type: ignore[attr-defined]
    ratings = [1500.0, 1532.0, 1511.0, 1560.0, 1549.0, 1590.0, 1622.0]
    rated_history(user, ratings)
    screen.goto("/puzzles/dashboard/")
    chart = screen.locator("[data-testid='rating-chart-xiangqi']")
    expect(chart.locator("svg circle.chart-point")).to_have_count(len(ratings))
    expect(chart.locator("svg title").first).to_contain_text(words(screen)["chart"])
    svg = chart.locator("svg").bounding_box()
    assert svg is not None and svg["width"] > 200
    assert (
        svg["x"] >= 0
        and svg["x"] + svg["width"] <= SCREENS[screen.screen_name]["viewport"]["width"]
    )  # type: ignore[attr-defined,index]
    # The dots go up and down with the ratings (SVG y grows downwards).
    ys = [
        float(y)
        for y in chart.locator("circle.chart-point").evaluate_all(
            "els => els.map(e => e.getAttribute('cy'))"
        )
    ]
    assert ys[-1] < ys[0] and ys[2] > ys[1]
    # The numbers as text, opened with the keyboard.
    chart.locator("summary").focus()
    screen.keyboard.press("Enter")
    table = screen.locator("[data-testid='rating-table-xiangqi']")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(len(ratings))
    expect(table.locator("tbody tr").last).to_contain_text("1622")
    screen.screenshot(
        path=str(artifacts / f"dashboard-chart-{screen.screen_name}.png"),  # type: ignore[attr-defined]
        full_page=True,
    )
