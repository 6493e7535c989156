"""A tactics step in real headless Chromium: a tempting wrong try is answered with the lesson's
own words, the right move is accepted, the opponent's scripted reply is shown and the win is
completed; a step that forbids leaving a piece hanging names the attacker and draws its capture."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_tutorials import open_step, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_fork_is_found_after_a_wrong_try(page: Page, lessons: None) -> None:
    open_step(page, "xiangqi-double-attack", "1")
    # The horse to b6 attacks the chariot only: the lesson's own words say so.
    assert play(page, "c4b6") == "failed"
    expect(page.locator("#status")).to_contain_text("只捉住了车")
    page.locator("#retry").click()
    expect(page.locator("#counter")).to_contain_text("0")
    # The fork: Black saves its chariot (the scripted reply), and the cannon falls.
    assert play(page, "c4d6") == "playing"
    expect(page.locator("#status")).to_contain_text("c8c2")
    assert play(page, "d6e8") == "complete"
    expect(page.locator("#status")).to_contain_text("捉双")
    expect(page.locator("#stars")).to_have_attribute("data-stars", "3")


def test_a_piece_left_hanging_fails_with_the_attacker_shown(page: Page, lessons: None) -> None:
    open_step(page, "xiangqi-chariot", "5")
    # Taking the soldier first leaves the chariot to the horse on b8.
    assert play(page, "a2a6") == "failed"
    expect(page.locator("#status")).to_contain_text("b8 的马保护")
    expect(page.locator("body")).to_have_attribute("data-threat", "b8a6")
    expect(page.locator("#board svg.cg-shapes line")).not_to_have_count(0)
