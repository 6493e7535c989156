"""A lesson in real headless Chromium when an answer goes wrong on the way: the first lesson's own
wrong move is explained in its words, and an answer lost to a server error or a dropped
connection can be sent again from the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.test_tutorials import click_point, play, wait_for_answer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVES = "**/api/learn/lessons/xiangqi-board/steps/4/moves/"
ANSWER = "**/api/learn/lessons/xiangqi-board/steps/1/answer/"


def server_error(route: Route) -> None:
    route.fulfill(status=500, content_type="text/html", body="<h1>Server Error (500)</h1>")


def resend(page: Page) -> str:
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.locator("#resend").click()
    return wait_for_answer(page)


def test_a_lost_answer_can_be_sent_again(page: Page, lessons: None) -> None:
    page.goto("/learn/xiangqi-board/?step=4")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#resend")).to_be_hidden()

    # The lesson's own wrong answer, 炮八平五, is explained in the lesson's words.
    assert play(page, "b2e2") == "failed"
    expect(page.locator("#status")).to_contain_text("这是炮八平五")
    page.locator("#retry").click()

    # A server error: the piece goes back, and the same move can be sent again.
    page.route(MOVES, server_error)
    assert play(page, "h2e2") == "lost"
    expect(page.locator("#status")).to_contain_text("服务器没能判定这一步")
    expect(page.locator("#resend")).to_be_visible()
    expect(page.locator("#resend")).to_have_text("重新发送")
    page.unroute(MOVES)
    assert resend(page) == "complete"
    expect(page.locator("#resend")).to_be_hidden()
    expect(page.locator("#stars")).to_have_attribute("data-stars", "3")

    # A dropped connection on a question: the same point can be sent again.
    page.locator(".step-dot[data-step='1']").click()
    page.route(ANSWER, lambda route: route.abort())
    assert click_point(page, "c3") == "lost"
    expect(page.locator("#status")).to_contain_text("连接不上服务器")
    page.unroute(ANSWER)
    assert resend(page) == "complete"
    expect(page.locator("#stars")).to_have_attribute("data-stars", "3")
