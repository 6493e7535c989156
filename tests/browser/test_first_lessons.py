"""The first lesson of each course, clicked through in real headless Chromium as a newcomer
would, in Chinese and in English: the lesson's own wrong moves are answered in its words, every
step is then done with full stars, every message is in the page's language, and no answer is
lost to an error."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_tutorials import click_point, current_step, play
from tutorials.curriculum.schema import LESSONS_DIR, read_lesson_file
from tutorials.curriculum.solve import shortest_solution

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["xiangqi/01-board.toml", "feidan/01-board.toml", "xinban/01-pieces.toml"]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("path", FIRST)
def test_a_newcomer_completes_the_first_lesson(
    page: Page, lessons: None, path: str, language: str, live_server: Any
) -> None:
    lesson = read_lesson_file(LESSONS_DIR / path)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"/learn/{lesson.slug}/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    for index, step in enumerate(lesson.steps):
        assert current_step(page) == step.key
        instruction = page.locator("#instruction").inner_text()
        assert instruction == step.instruction.get(language)
        if step.goal.kind == "point":
            results = [click_point(page, step.goal.answers[0])]
        else:
            for move, words in step.wrong.items():
                # the lesson's own wrong move first: its words, then start the step again
                assert play(page, move) in ("failed", "refused"), move
                expect(page.locator("#status")).to_have_text(words.get(language))
                page.locator("#retry").click()
            moves = shortest_solution(step, step.par) or []
            results = [play(page, move) for move in moves]
        assert results[-1] == "complete", (step.key, results)
        assert all(r == "playing" for r in results[:-1]), (step.key, results)
        status = page.locator("#status").inner_text()
        assert status.strip()
        if language == "zh-hans":
            assert CJK.search(status), status
        else:
            assert re.search(r"[A-Za-z]{3}", status), status
        expect(page.locator("#stars")).to_have_attribute("data-stars", "3")
        if index + 1 < len(lesson.steps):
            page.locator("#next").click()
    expect(page.locator("#next-lesson")).to_be_visible()
