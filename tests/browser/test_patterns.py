"""The kill patterns in real headless Chromium: from the patterns page, "practise this
pattern" opens the trainer on a puzzle with that pattern, which names it only once solved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_puzzles import click_move, published, state
from tests.puzzles.positions import MATE_IN_2

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

# 马后炮 in one: h2e2, the cannon checks over its own horse.
HORSE_CANNON_IN_1 = "4k4/9/4N4/9/9/9/9/7C1/9/3K5 w - - 0 1"


def test_practise_a_pattern_from_its_page_and_see_it_named_once_solved(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    published(MATE_IN_2, 2)  # no named pattern: the trainer must not offer it
    horse = published(HORSE_CANNON_IN_1, 1)
    page.goto("/puzzles/")
    page.get_by_role("link", name="杀法", exact=True).first.click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/patterns/")
    card = page.locator("#horse_cannon")
    expect(card.locator("h3")).to_contain_text("马后炮")
    expect(card.locator("h3")).to_contain_text("Horse-and-cannon mate")
    expect(card.locator("svg.board-diagram")).to_have_count(1)
    expect(page.locator("#iron_bolt .practise-link")).to_have_count(0)  # no puzzle has it
    page.screenshot(path=str(artifacts / "patterns-page.png"), full_page=False)
    card.get_by_test_id("practise-horse_cannon-xiangqi").click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/?variant=xiangqi&themes=horse_cannon")
    state(page, "ready")
    expect(page.locator("#puzzle-info")).to_have_attribute("data-puzzle-id", str(horse.pk))
    expect(page.locator("#filters input[value='horse_cannon']")).to_be_checked()
    page.locator("#filters-box summary").click()  # the filters are folded until asked for
    # a pattern is offered only in the variants that have puzzles with it
    page.select_option("#filter-variant", "feidan")
    expect(page.locator("#filters .theme-filter-patterns label[data-variants]")).to_have_count(1)
    expect(page.locator("#filters input[value='horse_cannon']")).to_be_visible()  # chosen
    page.uncheck("#filters input[value='horse_cannon']")
    page.select_option("#filter-variant", "xinban")
    expect(page.locator("#filters input[value='horse_cannon']")).to_be_hidden()
    page.select_option("#filter-variant", "xiangqi")
    page.check("#filters input[value='horse_cannon']")
    # not named before the try is over
    named = page.get_by_test_id("puzzle-patterns")
    expect(named).to_be_hidden()
    expect(page.locator("#puzzle-info")).not_to_contain_text("马后炮")
    click_move(page, "h2e2")
    expect(page.locator("#status")).to_have_attribute("data-kind", "solved")
    expect(named).to_be_visible()
    link = named.locator("a[data-pattern='horse_cannon']")
    expect(link).to_have_text("马后炮")
    expect(link).to_have_attribute("href", "/puzzles/patterns/#horse_cannon")
    state(page, "scored")
    page.screenshot(path=str(artifacts / "patterns-solved.png"), full_page=False)
    link.click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/patterns/#horse_cannon")
