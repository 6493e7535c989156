"""A tactics puzzle (win material) in real headless Chromium: a second-best move is answered
"also good, but not the best" and taken back, then the best line solves it, and the engine that
judged the puzzle is named then (English and Chinese at 1280 x 800); on a phone (390 x 844, in
English) it is named once the solution is shown, not before."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from engine import Position
from puzzles.bankfile import write_bank
from puzzles.models import Puzzle
from puzzles.services.bank import bank_load
from tests.browser.test_puzzles import click_move, state
from tests.puzzles.test_tactics import fork_entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
ENGLISH = {"locale": "en-US", "viewport": DESKTOP}
CHINESE = {"locale": "zh-CN", "viewport": DESKTOP}
PHONE = {
    "locale": "en-US",
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# What the page says, by language: the task, "also good", solved, and the judge.
TEXTS = {
    "en": {
        "task": "Win material: find the only move that does",
        "also_good": "Also good, but not the best",
        "solved": "Solved",
        "checked": "Checked by Fairy-Stockfish on a search of 200,000 positions: only the "
        "first move of the solution wins material. The solution wins a cannon.",
    },
    "zh": {
        "task": "得子：找出唯一能得子的着法",
        "also_good": "也不错，但不是最好的",
        "solved": "解出来了",
        "checked": "由Fairy-Stockfish以 200,000 个局面的搜索检验：只有解答的第一着能得子。"
        "解答得一炮。",
    },
}


@pytest.fixture
def tactic(tmp_path: Path) -> Puzzle:
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([fork_entry()], tactics)
    bank_load(bank, tactics)
    return Puzzle.objects.get(goal="material")


@pytest.mark.parametrize(
    ("page", "language"), [(ENGLISH, "en"), (CHINESE, "zh")], indirect=["page"]
)
def test_a_tactics_puzzle_says_also_good_then_is_solved_and_names_its_judge(
    page: Page, language: str, tactic: Puzzle, artifacts: Path
) -> None:
    texts = TEXTS[language]
    page.goto(f"/puzzles/p/{tactic.slug}/")
    state(page, "ready")
    expect(page.locator("body")).to_contain_text(texts["task"])
    checked = page.get_by_test_id("checked-by")
    expect(checked).to_be_hidden()  # nothing given away before the try
    expect(page.locator("body")).not_to_contain_text(texts["checked"])
    click_move(page, "d2c4")  # keeps a smaller edge
    state(page, "also-good")
    expect(page.locator("#status")).to_contain_text(texts["also_good"])
    expect(page.locator("#moves li")).to_have_count(0)  # not played
    expect(checked).to_be_hidden()
    page.screenshot(path=str(artifacts / f"tactics-also-good-{language}.png"))
    click_move(page, "d2e4")  # the fork
    expect(page.locator("#moves li")).to_have_count(2)  # the move and the defender's reply
    expect(checked).to_be_hidden()
    click_move(page, "e4f6")
    expect(page.locator("#status")).to_contain_text(texts["solved"], timeout=20_000)
    expect(checked).to_be_visible()
    expect(checked).to_have_text(texts["checked"])
    page.screenshot(path=str(artifacts / f"tactics-solved-judge-{language}.png"))


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_the_judge_is_named_on_a_phone_once_the_solution_is_shown(
    page: Page, tactic: Puzzle, artifacts: Path
) -> None:
    page.goto(f"/puzzles/p/{tactic.slug}/")
    state(page, "ready")
    checked = page.get_by_test_id("checked-by")
    expect(checked).to_be_hidden()
    page.click("#give-up")
    expect(page.get_by_test_id("solution")).to_be_visible(timeout=20_000)
    expect(checked).to_be_visible()
    expect(checked).to_have_text(TEXTS["en"]["checked"])
    checked.scroll_into_view_if_needed()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
    page.screenshot(path=str(artifacts / "tactics-solution-judge-phone-en.png"))


PHONE_ZH = {**PHONE, "locale": "zh-CN"}


@pytest.mark.parametrize("page", [PHONE_ZH], indirect=True)
def test_a_streak_on_a_phone_meets_a_tactic_and_says_also_good(
    page: Page, tactic: Puzzle, artifacts: Path
) -> None:
    """Streak and Storm mix the tactics with the mates: here the streak's one puzzle is the
    fork, and a move that keeps a smaller edge is said to be also good, not played and not a
    miss; the fork then solves it (Chinese, 390 x 844)."""
    page.goto("/puzzles/streak/?variant=xiangqi")
    expect(page.locator("body[data-run-state='idle']")).to_have_count(1, timeout=20_000)
    page.click("#run-start")
    expect(page.locator("#puzzle-info")).to_have_attribute(
        "data-puzzle-id", str(tactic.pk), timeout=20_000
    )
    expect(page.locator("body")).to_contain_text(TEXTS["zh"]["task"])
    click_move(page, "d2c4")
    status = page.locator("#status")
    expect(status).to_contain_text(TEXTS["zh"]["also_good"])
    expect(status).to_have_attribute("data-kind", "good")
    expect(page.locator("#run-score")).to_have_text("0")
    page.screenshot(path=str(artifacts / "streak-tactic-also-good-phone-zh.png"))
    click_move(page, "d2e4")  # the fork; the defender's reply is played on the board
    after = Position.from_fen("xiangqi", tactic.fen)
    for move in ("d2e4", "d6d9"):
        after.push_iccs(move)
    expect(page.locator("#board")).to_have_attribute("data-fen", after.fen(), timeout=20_000)
    expect(page.locator("body[data-run-state='playing']")).to_have_count(1)
    click_move(page, "e4f6")
    expect(page.locator("body[data-run-state='finished']")).to_have_count(1, timeout=20_000)
    expect(page.locator("#run-final")).to_contain_text("1")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"


# A wrong move in the fork: the king steps aside and the chariot takes the horse.
REFUTED = {
    "en": "Not the right move: the opponent answers {move}, and you lose a horse.",
    "zh": "不对：对方应以{move}，你反失一马。",
}


@pytest.mark.parametrize(
    ("page", "language", "width"),
    [(ENGLISH, "en", 1280), (PHONE_ZH, "zh", 390)],
    indirect=["page"],
)
def test_a_wrong_move_in_a_tactic_shows_the_engine_s_reply(
    page: Page, language: str, width: int, tactic: Puzzle, artifacts: Path
) -> None:
    """The opponent's best reply (the site's own engine) is played on the board, marked, and
    the status says what it leaves the solver: desktop in English, phone in Chinese."""
    after = Position.from_fen("xiangqi", tactic.fen)
    after.push_iccs("f0f1")
    reply = after.chinese(after.parse_move("d6d2"))  # in the notation of the page's move list
    after.push_iccs("d6d2")
    page.goto(f"/puzzles/p/{tactic.slug}/")
    state(page, "ready")
    click_move(page, "f0f1")
    status = page.locator("#status")
    expect(status).to_have_attribute("data-kind", "wrong", timeout=20_000)
    expect(status).to_have_text(REFUTED[language].format(move=reply))
    expect(page.locator("#moves li.move-refutation")).to_have_attribute("data-iccs", "d6d2")
    expect(page.locator("#board")).to_have_attribute("data-fen", after.fen())
    expect(page.get_by_test_id("checked-by")).to_be_visible()  # the try is over
    scrolled = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, f"the page scrolls sideways ({scrolled}px)"
    page.screenshot(path=str(artifacts / f"tactics-refutation-{language}.png"))


@pytest.mark.parametrize(
    ("page", "language"), [(ENGLISH, "en"), (PHONE_ZH, "zh")], indirect=["page"]
)
def test_a_streak_ends_on_a_tactic_s_wrong_move_with_the_engine_s_reply(
    page: Page, language: str, tactic: Puzzle, artifacts: Path
) -> None:
    """A wrong move ends a streak; the reply that refutes it is played on the board and the
    status says what it leaves the solver, as in the trainer (desktop in English, phone in
    Chinese)."""
    after = Position.from_fen("xiangqi", tactic.fen)
    after.push_iccs("f0f1")
    reply = after.chinese(after.parse_move("d6d2"))
    after.push_iccs("d6d2")
    page.goto("/puzzles/streak/?variant=xiangqi")
    expect(page.locator("body[data-run-state='idle']")).to_have_count(1, timeout=20_000)
    page.click("#run-start")
    expect(page.locator("#puzzle-info")).to_have_attribute(
        "data-puzzle-id", str(tactic.pk), timeout=20_000
    )
    click_move(page, "f0f1")
    expect(page.locator("body[data-run-state='finished']")).to_have_count(1, timeout=20_000)
    expect(page.locator("#board")).to_have_attribute("data-refutation", "d6d2")
    expect(page.locator("#board")).to_have_attribute("data-fen", after.fen())
    ends = {"en": " The streak ends here.", "zh": "连胜到此结束。"}[language]
    expect(page.locator("#status")).to_have_text(REFUTED[language].format(move=reply) + ends)
    page.screenshot(path=str(artifacts / f"streak-tactic-refutation-{language}.png"))
