"""A puzzle from a master game, in real headless Chromium: once the try is over the page names
the game and links to its replay, which opens at the puzzle's moment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from core.masters import SHIPPED_FILE, read_shipped, write_shipped
from games.library import master_games_load
from puzzles.bankfile import write_bank
from puzzles.mining import Chunk, mine_master
from puzzles.models import Puzzle
from puzzles.services.bank import bank_load

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game_puzzle(tmp_path: Path) -> Puzzle:
    games = tmp_path / "games.jsonl.gz"
    write_shipped((g for g in read_shipped(SHIPPED_FILE) if g.id == 73), games)
    master_games_load(games)
    chunk = Chunk(variant="xiangqi", strategy="master", seed=1, count=1, max_moves=7, games=1)
    (mined,) = mine_master(chunk, path=games)
    bank = tmp_path / "bank.json"
    write_bank([mined.as_entry()], bank)
    bank_load(bank)
    return Puzzle.objects.get(source_key=mined.key)


def test_a_puzzle_names_its_game_after_the_try_and_opens_it_at_its_moment(
    page: Page, live_server: Any, game_puzzle: Puzzle, artifacts: Path
) -> None:
    page.goto(f"/puzzles/p/{game_puzzle.slug}/")
    expect(page.locator("body[data-puzzle-state='ready']")).to_have_count(1, timeout=20_000)
    expect(page.get_by_test_id("puzzle-game")).to_be_hidden()  # the game goes on with the answer
    page.click("#give-up")
    link = page.get_by_test_id("puzzle-game-link")
    expect(link).to_contain_text("第 54 回合")
    expect(page.get_by_test_id("puzzle-game")).to_contain_text("CC BY 4.0")
    page.screenshot(path=str(artifacts / "puzzle-from-a-game-zh.png"), full_page=True)
    link.click()
    expect(page.get_by_test_id("record-players")).to_be_visible()
    expect(page.get_by_test_id("replay-ply")).to_contain_text("第 53 回合")  # the move before
    fen = page.evaluate("() => window.gamePage.state.game.moves[105].fen")
    assert fen.split(" ")[0] == game_puzzle.fen.split(" ")[0]
