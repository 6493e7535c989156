"""A tactics puzzle (win material) in real headless Chromium, in English at 1280 x 800: a
second-best move is answered "also good, but not the best" and taken back, then the best line
solves it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from puzzles.bankfile import write_bank
from puzzles.models import Puzzle
from puzzles.services.bank import bank_load
from tests.browser.test_puzzles import click_move, state
from tests.puzzles.test_tactics import fork_entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def english(browser: Browser, live_server: Any) -> Iterator[Page]:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 1280, "height": 800},
        locale="en-US",
        bypass_csp=True,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def tactic(tmp_path: Path) -> Puzzle:
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([fork_entry()], tactics)
    bank_load(bank, tactics)
    return Puzzle.objects.get(goal="material")


def test_a_tactics_puzzle_says_also_good_then_is_solved(
    english: Page, tactic: Puzzle, artifacts: Path
) -> None:
    page = english
    page.goto(f"/puzzles/p/{tactic.slug}/")
    state(page, "ready")
    expect(page.locator("body")).to_contain_text("Win material: find the only move that does")
    click_move(page, "d2c4")  # keeps a smaller edge
    state(page, "also-good")
    expect(page.locator("#status")).to_contain_text("Also good, but not the best")
    expect(page.locator("#moves li")).to_have_count(0)  # not played
    page.screenshot(path=str(artifacts / "tactics-also-good-en.png"))
    click_move(page, "d2e4")  # the fork
    expect(page.locator("#moves li")).to_have_count(2)  # the move and the defender's reply
    click_move(page, "e4f6")
    expect(page.locator("#status")).to_contain_text("Solved", timeout=20_000)
