"""A kill-pattern lesson in real headless Chromium: the pattern is shown and played, and the
lesson's last step, once mated, offers "practise this pattern": the puzzle trainer on that theme
in the lesson's variant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_puzzles import published, state
from tests.browser.test_tutorials import play

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

SLUG = "xiangqi-pattern-two-ghosts"


def open_step(page: Page, key: str) -> None:
    page.goto(f"/learn/{SLUG}/?step={key}")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


def test_a_pattern_lesson_ends_with_practising_the_pattern(
    page: Page, live_server: Any, celery_worker: Any, lessons: None, artifacts: Path
) -> None:
    from tutorials.curriculum import read_lessons

    lesson = next(lesson for lesson in read_lessons() if lesson.slug == SLUG)
    first, last = lesson.steps[0], lesson.steps[-1]
    # the trainer has a puzzle with the pattern: the lesson's last mate
    puzzle = published(last.fen, last.par)

    open_step(page, first.key)
    expect(page.locator("#instruction")).to_contain_text("二鬼拍门")
    assert play(page, first.arrows[0]) == "complete"
    expect(page.locator("#practise-theme")).to_be_hidden()  # the lesson is not over yet
    expect(page.locator("#next")).to_be_visible()

    open_step(page, last.key)
    expect(page.locator("#practise-theme")).to_be_hidden()
    key = next(iter(last.replies))
    assert play(page, key) == "playing"
    from tutorials.curriculum.solve import shortest_solution

    mate = (shortest_solution(last, last.par) or [])[-1]
    assert play(page, mate) == "complete"
    link = page.locator("#practise-theme")
    expect(link).to_be_visible()
    expect(link).to_have_text("练习这个杀法")
    expect(link).to_have_attribute("href", "/puzzles/?variant=xiangqi&themes=two_ghosts")
    page.screenshot(path=str(artifacts / "pattern-lesson-practise.png"), full_page=False)
    link.click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/?variant=xiangqi&themes=two_ghosts")
    state(page, "ready")
    expect(page.locator("#puzzle-info")).to_have_attribute("data-puzzle-id", str(puzzle.pk))
    expect(page.locator("#filters input[value='two_ghosts']")).to_be_checked()
