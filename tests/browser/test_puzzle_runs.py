"""Puzzle Streak and Puzzle Storm in real headless Chromium, on a desktop (1280×800) and a
phone (390×844): a streak played to its end by clicking and by typing, surviving a reload, with
its one skip; a storm with a miss that costs seconds, ended by the server's clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from puzzles import proving
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleRun
from puzzles.services import puzzle_judge, puzzle_line_hint, puzzle_publish
from tests.browser.test_puzzles import click_move
from tests.puzzles.positions import DEAD_GENERAL_IN_1, MATE_IN_1, MATE_IN_2
from tests.puzzles.test_solving import a_wrong_first_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def published(fen: str, *, variant: str = "xiangqi", n: int = 1, rating: float = 1000) -> Puzzle:
    goal = "dead_general" if variant == "feidan" else "mate"
    puzzle = Puzzle.objects.create(
        variant=variant, fen=fen, goal=goal, moves_to_win=n, source=Puzzle.Source.MINED
    )
    result = proving.prove(variant=variant, fen=fen, goal=goal, moves_to_win=n)
    puzzle = puzzle_publish(puzzle=puzzle, result=result)
    Puzzle.objects.filter(pk=puzzle.pk).update(rating=rating)
    puzzle.refresh_from_db()
    return puzzle


@pytest.fixture(params=list(SIZES))
def screen(request: Any, browser: Browser, live_server: Any) -> Iterator[Page]:
    """A page at 1280×800 (in Chinese) or 390×844 (a phone, in English)."""
    width, height = SIZES[request.param]
    phone = request.param == "phone"
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": height},
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale="en-US" if phone else "zh-CN",
        bypass_csp=True,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def log_in(page: Page, live_server: Any, username: str) -> User:
    user = User.objects.create_user(username=username, password="a-long-test-password")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return user


def run_state(page: Page, name: str) -> None:
    expect(page.locator(f"body[data-run-state='{name}']")).to_have_count(1, timeout=20_000)


def at_puzzle(page: Page, puzzle: Puzzle) -> None:
    expect(page.locator("#puzzle-info")).to_have_attribute(
        "data-puzzle-id", str(puzzle.pk), timeout=20_000
    )
    run_state(page, "playing")


def key(puzzle: Puzzle, line: list[str] | None = None) -> str:
    found = puzzle_line_hint(puzzle=puzzle, moves=line or [])
    assert found is not None
    return found


def type_move(page: Page, move: str) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


def no_fit_problem(page: Page) -> None:
    """Nothing wider than the screen: the board and the side column fit on a phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width  # type: ignore[index]


def test_a_streak_to_its_end(screen: Page, live_server: Any, artifacts: Path, request: Any) -> None:
    first = published(MATE_IN_1, rating=900)
    second = published(MATE_IN_1, rating=1000)
    third = published(MATE_IN_1, rating=1100)
    fourth = published(MATE_IN_2, n=2, rating=1500)
    size = request.node.callspec.id
    user = log_in(screen, live_server, f"streaker-{size}")
    screen.goto("/puzzles/streak/")
    run_state(screen, "idle")
    # before a run the board is there, at the variant's start: 32 pieces, none to move
    expect(screen.locator("#board cg-board piece")).to_have_count(32)
    expect(screen.locator("[data-testid='best-today']")).to_be_hidden()  # no run yet today
    screen.click("#run-start")
    at_puzzle(screen, first)
    # Start goes while the run is played, and the board is on the screen again, whole (on a
    # phone the button is under it).
    expect(screen.locator("#run-start")).to_be_hidden()
    board_box = screen.locator("#board").bounding_box()
    assert board_box is not None and board_box["y"] >= 0, board_box
    assert board_box["y"] + board_box["height"] <= SIZES[size][1], board_box
    page_data = screen.locator("#run-page").text_content() or ""
    assert "proof" not in page_data and key(first) not in page_data
    click_move(screen, key(first))
    at_puzzle(screen, second)
    expect(screen.locator("#run-score")).to_have_text("1")
    # The keyboard: a move typed in either notation.
    type_move(screen, key(second))
    at_puzzle(screen, third)
    expect(screen.locator("#run-score")).to_have_text("2")
    # The run survives a reload; the one skip passes the third puzzle.
    screen.reload()
    at_puzzle(screen, third)
    expect(screen.locator("#run-score")).to_have_text("2")
    screen.click("#run-skip")
    at_puzzle(screen, fourth)
    expect(screen.locator("#run-skip")).to_be_hidden()
    no_fit_problem(screen)
    screen.locator("#move-input").focus()
    type_move(screen, key(fourth))  # right: the defender answers, the puzzle goes on
    expect(screen.locator("#status")).to_have_attribute("data-kind", "good")
    run = PuzzleRun.objects.get(user=user)
    expect(screen.locator("#board")).to_have_attribute(
        "data-fen", puzzle_judge(puzzle=fourth, moves=[key(fourth)]).fen
    )
    run.refresh_from_db()
    wrong = next(
        move
        for move in ("e0e1", "e0d0", "e0f0", "g8h8", "f8f9")
        if puzzle_judge(puzzle=fourth, moves=[*run.line, move]).verdict == "wrong"
    )
    refuted = puzzle_judge(puzzle=fourth, moves=[*run.line, wrong]).refutation
    assert refuted, "the proof names the defence that escapes"
    type_move(screen, wrong)
    run_state(screen, "finished")
    expect(screen.locator("body")).to_have_attribute("data-run-end", "wrong")
    # The streak ends on the defence that escapes, played on the board and named.
    expect(screen.locator("#board")).to_have_attribute("data-refutation", refuted[0].iccs)
    expect(screen.locator("#board")).to_have_attribute("data-fen", refuted[0].fen)
    ends = "连胜到此结束" if size == "desktop" else "The streak ends here"
    expect(screen.locator("#status")).to_contain_text(refuted[0].chinese)
    expect(screen.locator("#status")).to_contain_text(ends)
    expect(screen.locator("#run-final")).to_contain_text("2")
    # The whole run to review, each puzzle a link: solved, solved, skipped, missed.
    played = screen.locator("#run-played li")
    expect(played).to_have_count(4)
    results = [played.nth(n).get_attribute("data-result") for n in range(4)]
    assert results == ["solved", "solved", "skipped", "missed"], results
    ids = [played.nth(n).locator("a").get_attribute("data-puzzle-id") for n in range(4)]
    assert ids == [str(p.pk) for p in (first, second, third, fourth)], ids
    expect(played.nth(2)).to_contain_text("跳过" if size == "desktop" else "Skipped")
    expect(screen.locator("#run-start")).to_be_visible()
    # The day's best is said at once, not after a reload.
    expect(screen.locator("[data-testid='best-today']")).to_be_visible()
    expect(screen.locator("[data-testid='best-today']")).to_contain_text("2")
    screen.screenshot(path=str(artifacts / f"puzzle-streak-{size}.png"), full_page=True)
    run.refresh_from_db()
    assert (run.score, run.end, run.skip_used) == (2, "wrong", True)
    # Unrated: no attempt, no rating.
    assert not PuzzleAttempt.objects.exists() and not PuzzleRating.objects.exists()
    # The leaderboard, shown again as the run ends, and the best after a reload.
    board = screen.locator("[data-testid='leaderboard']")
    expect(board).to_have_attribute("data-refreshed", "1")
    expect(board).to_contain_text(user.username)
    screen.reload()
    run_state(screen, "idle")
    expect(screen.locator("[data-testid='leaderboard']")).to_contain_text(user.username)
    expect(screen.locator("#run-best")).to_have_text("2")
    screen.goto("/accounts/profile/")
    expect(screen.locator("[data-testid='profile-runs']")).to_contain_text("2")


def test_a_storm_to_its_end_by_the_servers_clock(
    screen: Page, live_server: Any, artifacts: Path, request: Any
) -> None:
    size = request.node.callspec.id
    # A feidan storm on the phone (the 11-file board), a xiangqi one on the desktop.
    variant, fen = ("feidan", DEAD_GENERAL_IN_1) if size == "phone" else ("xiangqi", MATE_IN_1)
    made = [published(fen, variant=variant, rating=900 + 100 * n) for n in range(4)]
    screen.goto(f"/puzzles/storm/?variant={variant}")
    run_state(screen, "idle")
    screen.click("#run-start")
    at_puzzle(screen, made[0])
    run = PuzzleRun.objects.get(mode="storm")
    clock = int(screen.locator("#run-clock").text_content() or "0")
    assert 170 <= clock <= 180
    click_move(screen, key(made[0]))
    at_puzzle(screen, made[1])
    expect(screen.locator("#run-score")).to_have_text("1")
    expect(screen.locator("#run-combo")).to_have_text("1")
    # A miss: ten seconds lost, on to the next puzzle, the combo broken.
    type_move(screen, a_wrong_first_move(made[1]))
    at_puzzle(screen, made[2])
    expect(screen.locator("#status")).to_have_attribute("data-kind", "wrong")
    expect(screen.locator("#run-combo")).to_have_text("0")
    assert int(screen.locator("#run-clock").text_content() or "0") <= 170
    no_fit_problem(screen)
    # The server's clock runs out (the run started long ago, by its own timestamps); the page
    # still counts down from what it was told, but the next move is refused and ends the run.
    PuzzleRun.objects.filter(pk=run.pk).update(
        started_at=timezone.now() - timezone.timedelta(minutes=4)
    )
    click_move(screen, key(made[2]))
    run_state(screen, "finished")
    expect(screen.locator("body")).to_have_attribute("data-run-end", "time")
    expect(screen.locator("#run-final")).to_contain_text("1")
    played = screen.locator("#run-played li")
    expect(played).to_have_count(2)
    expect(played.nth(1)).to_have_attribute("data-result", "missed")
    expect(played.nth(1).locator("a")).to_have_attribute("data-puzzle-id", str(made[1].pk))
    expect(screen.locator("#run-clock")).to_have_text("0")
    screen.screenshot(path=str(artifacts / f"puzzle-storm-{size}.png"), full_page=True)
    run.refresh_from_db()
    assert (run.score, run.end, run.missed) == (1, "time", [made[1].pk])
    for puzzle in made:
        rating = puzzle.rating
        puzzle.refresh_from_db()
        assert puzzle.rating == rating and puzzle.plays == 0
    # The missed puzzle opens in the trainer, to try again.
    played.nth(1).locator("a").click()
    expect(screen.locator("#puzzle-info")).to_have_attribute("data-puzzle-id", str(made[1].pk))


def test_a_solution_looked_up_during_a_streak_counts_as_a_miss(
    screen: Page, live_server: Any, request: Any
) -> None:
    """The streak's puzzle given up in the trainer (another tab of the same account): the
    right move played in the run then counts as a miss, and the page says why."""
    first = published(MATE_IN_1, rating=900)
    published(MATE_IN_1, rating=1000)
    user = log_in(screen, live_server, f"looker-{request.node.callspec.id}")
    screen.goto("/puzzles/streak/")
    run_state(screen, "idle")
    expect(screen.locator("[data-testid='run-fair']")).to_be_visible()
    screen.click("#run-start")
    at_puzzle(screen, first)
    trainer = Client()
    trainer.force_login(user)
    opened = trainer.post(f"/api/puzzles/{first.pk}/attempts/", content_type="application/json")
    shown = trainer.post(
        f"/api/puzzles/{first.pk}/give-up/",
        data={"attempt": opened.json()["id"]},
        content_type="application/json",
    )
    assert shown.json()["solution"]["key"] == key(first)
    click_move(screen, key(first))
    run_state(screen, "finished")
    expect(screen.locator("#board")).to_have_attribute("data-last-reason", "solution_seen")
    expect(screen.locator("#status")).to_have_attribute("data-kind", "wrong")
    expect(screen.locator("#status")).to_contain_text(
        "答案" if "desktop" in request.node.callspec.id else "solution"
    )
    expect(screen.locator("#run-final")).to_contain_text("0")
    expect(screen.locator("#run-played li[data-result='missed'] a")).to_have_attribute(
        "data-puzzle-id", str(first.pk)
    )
    run = PuzzleRun.objects.get(user=user)
    assert (run.score, run.end, run.missed) == (0, "wrong", [first.pk])
