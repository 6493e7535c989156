"""Puzzles in real headless Chromium, with the scoring and verification tasks on a real Celery
worker: solve the daily puzzle by clicking and see the rating change, fail a puzzle and see the
refutation, author a mate in 2 and see it published, open it by its share link as someone else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from puzzles import proving
from puzzles.models import Puzzle, PuzzleAttempt
from puzzles.services import (
    daily_puzzles_choose,
    puzzle_judge,
    puzzle_line_hint,
    puzzle_publish,
)
from tests.puzzles.positions import MATE_IN_2, MATE_IN_2_KEY

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

WRONG_FIRST_MOVE = "e0e1"  # the red general steps up: Black escapes


def published(fen: str = MATE_IN_2, n: int = 2) -> Puzzle:
    puzzle = Puzzle.objects.create(
        variant="xiangqi", fen=fen, goal="mate", moves_to_win=n, source=Puzzle.Source.MINED
    )
    result = proving.prove(variant="xiangqi", fen=fen, goal="mate", moves_to_win=n)
    return puzzle_publish(puzzle=puzzle, result=result)


def log_in(page: Page, live_server: Any, username: str) -> User:
    user = User.objects.create_user(username=username, password="a-long-test-password")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return user


def point(page: Page, square: str) -> tuple[float, float]:
    page.locator("#board").scroll_into_view_if_needed()
    box = page.locator("#board .xb-wrap").bounding_box()
    assert box is not None
    width = 11 if "xb-11x10" in (page.get_attribute("#board", "class") or "") else 9
    red = page.get_attribute("#board", "data-orientation") == "red"
    file, rank = ord(square[0]) - ord("a"), int(square[1:])
    col = file if red else width - 1 - file
    row = 9 - rank if red else rank
    return (
        box["x"] + (col + 0.5) * box["width"] / width,
        box["y"] + (row + 0.5) * box["height"] / 10,
    )


def click_move(page: Page, move: str) -> None:
    page.mouse.click(*point(page, move[:2]))
    page.mouse.click(*point(page, move[2:]))


def state(page: Page, name: str) -> None:
    expect(page.locator(f"body[data-puzzle-state='{name}']")).to_have_count(1, timeout=20_000)


def test_solve_the_daily_puzzle_by_clicking(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    puzzle = published()
    daily_puzzles_choose(date=timezone.localdate())
    log_in(page, live_server, "daily-solver")
    page.goto("/puzzles/daily/")
    page.locator(".daily-card[data-variant='xiangqi'] a.button").click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/daily/xiangqi/")
    state(page, "ready")
    expect(page.locator("#puzzle-info")).to_have_attribute("data-puzzle-id", str(puzzle.pk))
    page_data = page.locator("#puzzle-page").text_content() or ""
    assert MATE_IN_2_KEY not in page_data and "proof" not in page_data

    click_move(page, MATE_IN_2_KEY)
    state(page, "playing")
    reply = page.locator("#moves li.move-defender").first.get_attribute("data-iccs")
    assert reply is not None
    # The server holds the line: after a reload the try goes on where it was.
    page.reload()
    state(page, "playing")
    expect(page.locator("#moves li.move-defender")).to_have_attribute("data-iccs", reply)
    mate = puzzle_line_hint(puzzle=puzzle, moves=[MATE_IN_2_KEY, reply])
    assert mate is not None
    click_move(page, mate)
    expect(page.locator("#status")).to_have_attribute("data-kind", "solved")
    state(page, "scored")
    result = page.locator("#result")
    expect(result).to_have_attribute("data-result", "solved")
    expect(result).to_have_attribute("data-rated", "1")
    expect(result).to_contain_text("1500 →")
    expect(page.locator("#solution-line li")).to_have_count(3)
    page.screenshot(path=str(artifacts / "puzzles-daily-solved.png"), full_page=True)
    puzzle.refresh_from_db()
    assert puzzle.plays == 1 and puzzle.solves == 1


def test_a_wrong_move_shows_the_refutation(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    puzzle = published()
    expected = puzzle_judge(puzzle=puzzle, moves=[WRONG_FIRST_MOVE])
    assert expected.verdict == "wrong" and expected.refutation
    refutation = expected.refutation[0]
    page.goto(f"/puzzles/p/{puzzle.slug}/")
    state(page, "ready")
    click_move(page, WRONG_FIRST_MOVE)
    expect(page.locator("#status")).to_have_attribute("data-kind", "wrong")
    expect(page.locator("#status")).to_contain_text(refutation.chinese)
    expect(page.locator("#moves li.move-refutation")).to_have_attribute(
        "data-iccs", refutation.iccs
    )
    expect(page.locator("#board")).to_have_attribute("data-fen", refutation.fen)
    state(page, "scored")
    expect(page.locator("#result")).to_have_attribute("data-result", "failed")
    expect(page.locator("#solution")).to_be_hidden()
    page.click("#give-up")  # now "show solution"
    expect(page.locator("#solution-line li")).to_have_count(3)
    page.screenshot(path=str(artifacts / "puzzles-refutation.png"), full_page=True)
    page.click("#retry")
    state(page, "ready")
    expect(page.locator("#board")).to_have_attribute("data-fen", MATE_IN_2)


def test_author_a_mate_in_two_and_share_it(
    browser: Browser, page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    log_in(page, live_server, "composer")
    page.goto("/puzzles/create/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    # The empty board has the generals on d9 and e0; build 3ak4/4aPP2/b8/... on it.
    placements = [
        ("k", "d9"), ("k", "e9"),  # the first click on d9 lifts Black's general off
        ("a", "d9"), ("a", "e8"), ("b", "a7"), ("P", "f8"), ("P", "g8"),
    ]  # fmt: skip
    for piece, square in placements:
        side = "red" if piece.isupper() else "black"
        page.click(f"#palette-{side} button[data-piece='{piece}']")
        page.mouse.click(*point(page, square))
    expect(page.locator("#editor-fen")).to_have_value(MATE_IN_2)
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
    page.fill("#editor-n", "2")
    page.click("#editor-submit")
    result = page.locator("#editor-result")
    expect(result).to_have_attribute("data-kind", "published", timeout=60_000)
    link = page.locator("#share-link").input_value()
    assert link and "/puzzles/p/" in link
    page.screenshot(path=str(artifacts / "puzzles-authored.png"), full_page=True)
    puzzle = Puzzle.objects.get(author__username="composer")
    assert puzzle.status == Puzzle.Status.PUBLISHED and puzzle.fen == MATE_IN_2

    # Someone else opens the share link and solves it.
    other = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    try:
        visitor = other.new_page()
        log_in(visitor, live_server, "friend")
        visitor.goto(link)
        state(visitor, "ready")
        expect(visitor.locator("#puzzle-info")).to_contain_text("@composer")
        click_move(visitor, MATE_IN_2_KEY)
        state(visitor, "playing")
        visitor.screenshot(path=str(artifacts / "puzzles-shared.png"), full_page=True)
    finally:
        other.close()


def test_the_editor_rejects_an_illegal_position_at_once(page: Page, live_server: Any) -> None:
    log_in(page, live_server, "hasty")
    page.goto("/puzzles/create/")
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
    page.click("#palette-black button[data-piece='k']")
    page.mouse.click(*point(page, "d9"))  # lift Black's general: no general left
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "0")
    expect(page.locator("#editor-check")).to_contain_text("局面不合法：黑方没有将。")


def test_dashboard_shows_ratings_and_replays(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    puzzle = published()
    log_in(page, live_server, "learner")
    page.goto(f"/puzzles/p/{puzzle.slug}/")
    state(page, "ready")
    click_move(page, WRONG_FIRST_MOVE)
    state(page, "scored")
    page.goto("/puzzles/dashboard/")
    expect(page.locator("[data-testid='rating-xiangqi'] .dash-rating")).to_be_visible()
    expect(page.locator("[data-testid='replays'] li a")).to_have_count(1)
    expect(page.locator("[data-testid='theme-stats'] tbody tr")).not_to_have_count(0)
    page.screenshot(path=str(artifacts / "puzzles-dashboard.png"), full_page=True)


def test_hints_and_the_solution_are_asked_of_the_server(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    puzzle = published()
    log_in(page, live_server, "helped")
    page.goto(f"/puzzles/p/{puzzle.slug}/")
    state(page, "ready")
    page.click("#hint")
    expect(page.locator("#result")).not_to_be_empty()
    page.click("#hint")
    expect(page.locator("#hint")).to_be_disabled()
    page.click("#give-up")
    expect(page.locator("#solution-line li")).to_have_count(3)
    state(page, "scored")
    expect(page.locator("#result")).to_have_attribute("data-result", "failed")
    expect(page.locator("#result")).to_have_attribute("data-rated", "")
    page.screenshot(path=str(artifacts / "puzzles-helped.png"), full_page=True)
    attempt = PuzzleAttempt.objects.get(puzzle=puzzle)
    assert attempt.hints_used == 2 and attempt.gave_up and not attempt.rated


def tap(page: Page, square: str) -> None:
    page.touchscreen.tap(*point(page, square))


def test_the_editor_places_a_piece_on_an_empty_point_by_a_tap(
    phone: Page, live_server: Any, artifacts: Path
) -> None:
    # A tap on an empty point far from any piece reached the board twice (the touch, then the
    # mouse events the browser makes up from it): the piece was placed and at once taken away.
    log_in(phone, live_server, "phone-composer")
    phone.goto("/puzzles/create/")
    expect(phone.locator("body[data-ready='1']")).to_have_count(1)
    start = phone.locator("#editor-fen").input_value()
    assert start.startswith("3k5/9/9/9/9/")
    phone.locator("#palette-red button[data-piece='R']").tap()
    tap(phone, "a5")
    expect(phone.locator("#editor-fen")).to_have_value(
        start.replace("/9/9/9/9/9/", "/9/9/9/R8/9/", 1)
    )
    phone.locator("#palette-black button[data-piece='p']").tap()
    tap(phone, "i4")
    expect(phone.locator("#editor-fen")).to_have_value("3k5/9/9/9/R8/8p/9/9/9/4K4 w - - 0 1")
    tap(phone, "i4")  # the same piece on its own point again takes it away
    expect(phone.locator("#editor-fen")).to_have_value("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1")
    phone.screenshot(path=str(artifacts / "puzzles-editor-phone.png"), full_page=True)


def test_the_trainer_on_a_phone_shows_the_task_and_the_answer_under_the_board(
    phone: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    # The filters (variant, difficulty, every theme) stood between the board and the task: with
    # the board on the screen, what to do and whether it worked were out of sight.
    published()
    log_in(phone, live_server, "phone-trainer")
    phone.goto("/puzzles/")
    state(phone, "ready")
    phone.locator("#board").scroll_into_view_if_needed()
    board = phone.locator("#board").bounding_box()
    title = phone.locator(".puzzle-title").bounding_box()
    status = phone.locator("#status").bounding_box()
    assert board is not None and title is not None and status is not None
    buttons = phone.locator("#hint").bounding_box()
    assert buttons is not None
    # board, task, answer and buttons on one screen
    assert buttons["y"] + buttons["height"] - board["y"] <= 844, (board, buttons)
    assert title["y"] < status["y"]
    filters = phone.locator("#filters-box").bounding_box()
    assert filters is not None and filters["y"] > status["y"]
    phone.screenshot(path=str(artifacts / "puzzles-trainer-phone.png"), full_page=True)
