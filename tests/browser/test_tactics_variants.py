"""A Missile Xiangqi and a New-version Xiangqi tactics puzzle from the shipped bank, in real
headless Chromium: a move the judge finds also good is answered so and not played, then the
key solves it, and the page names the judge (the site's own engine) only then. Missile Xiangqi
on a desktop in English (its eleven-file board), New-version Xiangqi on a phone in Chinese."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from puzzles.bankfile import write_bank
from puzzles.models import Puzzle
from puzzles.services.bank import bank_load
from tests.browser.test_puzzles import click_move, state
from tests.browser.test_tactics_puzzle import ENGLISH, PHONE_ZH
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
DESKTOP_ENGLISH = ENGLISH
PHONE_CHINESE = PHONE_ZH
TEXTS = {
    "en": {
        "task": "Win material",
        "also_good": "Also good, but not the best",
        "solved": "Solved",
        "checked": "Checked by the site's own engine on a search of 100,000 positions",
    },
    "zh": {
        "task": "得子",
        "also_good": "也不错，但不是最好的",
        "solved": "解出来了",
        "checked": "由本站引擎以 100,000 个局面",
    },
}


def shipped_with_a_good_move(variant: str) -> dict[str, Any]:
    """The first shipped one-move tactic of ``variant`` whose key has an also-good move."""
    data = json.loads((ROOT / "puzzles/data/tactics.json").read_text(encoding="utf-8"))
    entries = data["puzzles"] if isinstance(data, dict) else data
    return next(
        entry
        for entry in entries
        if entry["variant"] == variant
        and entry["moves_to_win"] == 1
        and entry["proof"]["steps"][0]["good"]
    )


@pytest.mark.parametrize(
    ("page", "variant", "language"),
    [(DESKTOP_ENGLISH, "feidan", "en"), (PHONE_CHINESE, "xinban", "zh")],
    indirect=["page"],
)
def test_a_tactic_of_the_new_variants_says_also_good_then_is_solved_and_names_its_judge(
    page: Page, variant: str, language: str, tmp_path: Path, artifacts: Path
) -> None:
    entry = shipped_with_a_good_move(variant)
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([entry], tactics)
    bank_load(bank, tactics)
    puzzle = Puzzle.objects.get(goal="material", variant=variant)
    texts = TEXTS[language]

    page.goto(f"/puzzles/p/{puzzle.slug}/")
    state(page, "ready")
    expect(page.locator("body")).to_contain_text(texts["task"])
    checked = page.get_by_test_id("checked-by")
    expect(checked).to_be_hidden()  # the judge is not named before the try
    click_move(page, entry["proof"]["steps"][0]["good"][0])
    state(page, "also-good")
    expect(page.locator("#status")).to_contain_text(texts["also_good"])
    expect(page.locator("#moves li")).to_have_count(0)  # not played
    expect(checked).to_be_hidden()
    click_move(page, entry["main_line"][0])
    state(page, "solved")
    expect(page.locator("#status")).to_contain_text(texts["solved"])
    expect(checked).to_be_visible()
    expect(checked).to_contain_text(texts["checked"])
    page.screenshot(path=str(artifacts / f"tactics-{variant}-{language}.png"), full_page=True)
    if language == "zh":
        assert not chinese_text_faults(page.locator("main").inner_text())
