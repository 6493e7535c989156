"""An endgame against the computer on the lesson page, in real headless Chromium: the learner
plays a whole step (车胜双士) to mate with the computer replying after every move, then a
blunder in the next step is refuted in words."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_tutorials import play
from tutorials.curriculum import read_lessons
from tutorials.curriculum.audit import engine_run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_endgame_is_played_to_mate_against_the_computer(page: Page, lessons: None) -> None:
    lesson = next(x for x in read_lessons() if x.slug == "xiangqi-endgames-chariot")
    step = next(s for s in lesson.steps if s.key == "2")
    run = engine_run(step)  # the same replies the server gives: a fixed node budget
    replies = [p.chinese for p in run.plies if p.by == "opponent"]

    page.goto("/learn/xiangqi-endgames-chariot/?step=2")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    # the counter shows the moves used out of the moves allowed, and the par
    expect(page.locator("#counter")).to_contain_text(f"0/{step.goal.within}")
    expect(page.locator("#counter")).to_contain_text(str(step.par))
    for index, move in enumerate(run.moves):
        result = play(page, move)
        if index < len(run.moves) - 1:
            assert result == "playing"
            # the computer's reply is shown on the board and named in the status line
            expect(page.locator("#status")).to_contain_text(replies[index])
    assert result == "complete"
    expect(page.locator("#counter")).to_contain_text(f"{len(run.moves)}/{step.goal.within}")
    expect(page.locator("#stars")).to_have_attribute("data-stars", "3")
    expect(page.locator("#status")).to_contain_text("双士守不住单车")

    # The next step: the chariot left where an elephant takes it.
    page.goto("/learn/xiangqi-endgames-chariot/?step=3")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    assert play(page, "a4a7") == "failed"
    expect(page.locator("#status")).to_contain_text("象")
    expect(page.locator("#status")).to_contain_text("吃掉了你的车")
