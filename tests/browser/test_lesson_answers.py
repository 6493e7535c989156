"""Every try on a lesson page is answered in words, in real headless Chromium: a move off the
piece's pattern, a piece dropped on its own piece, a step past its par (with the offer to start
again), a click after a question is answered, a move written in Chinese notation, and the end of
a course, which offers a game against the computer in its variant and at its level."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_tutorials import click_point, open_step, play, point, wait_for_answer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def drag(page: Page, move: str) -> str:
    """Drag a piece from its point to another and wait for the server's verdict."""
    page.evaluate("document.body.dataset.result = 'waiting'")
    start, end = point(page, move[:2]), point(page, move[2:])
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    return wait_for_answer(page)


def test_a_wrong_try_is_answered_and_par_offers_a_new_start(page: Page, lessons: None) -> None:
    open_step(page, "xiangqi-general", "2")
    # Diagonally, as the step's own text warns: the general's rule, not a silent snap back.
    assert play(page, "e0d1") == "refused"
    expect(page.locator("#status")).to_contain_text("帅（将）每步只能横或竖走一格")
    # Dropped on its own advisor: said too.
    assert drag(page, "e0e1") == "refused"
    expect(page.locator("#status")).to_contain_text("不能吃自己的棋子")
    # Three moves (the par) without reaching the circle: said, with "Try again" offered.
    for move in ("e0f0", "f0e0", "e0f0"):
        assert play(page, move) == "playing"
    expect(page.locator("body")).to_have_attribute("data-notice", "over_par")
    expect(page.locator("#status")).to_contain_text("标准步数")
    expect(page.locator("#retry")).to_be_visible()
    page.locator("#retry").click()
    expect(page.locator("#counter")).to_contain_text("0")
    for move in ("e0f0", "f0e0", "e0d0", "d0d1"):
        assert play(page, move) == "playing"
    assert play(page, "d1d2") == "complete"
    expect(page.locator("#stars")).to_have_attribute("data-stars", "2")


def test_a_click_after_a_question_is_answered_is_not_judged_again(
    page: Page, lessons: None
) -> None:
    open_step(page, "xiangqi-board", "1")
    assert click_point(page, "c3") == "complete"
    page.mouse.click(*point(page, "a9"))
    expect(page.locator("#status")).to_contain_text("这一步已经完成")


def test_a_move_is_written_in_words(page: Page, lessons: None) -> None:
    open_step(page, "xiangqi-notation", "4")
    expect(page.locator("#write-form")).to_be_visible()
    expect(page.locator("#move-form")).to_be_hidden()
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.locator("#write-input").fill("马八进九")
    page.locator("#write-submit").click()
    assert wait_for_answer(page) == "wrong"
    expect(page.locator("#status")).to_contain_text("马八进九")
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.locator("#write-input").fill("马8进7")
    page.locator("#write-submit").click()
    assert wait_for_answer(page) == "complete"
    expect(page.locator("#status")).to_contain_text("马八进七")
    expect(page.locator("#stars")).to_have_attribute("data-stars", "2")


def test_the_end_of_a_course_offers_a_game_against_the_computer(page: Page, lessons: None) -> None:
    open_step(page, "xiangqi-course-end", "6")
    expect(page.locator("#play-computer")).to_be_hidden()
    assert play(page, "a7c8") == "complete"
    link = page.locator("#play-computer")
    expect(link).to_be_visible()
    expect(link).to_contain_text("1 级")
    expect(link).to_have_attribute("href", "/play/?variant=xiangqi&level=1")
    link.click()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#variant")).to_have_value("xiangqi")
    expect(page.locator("#level")).to_have_value("1")
