"""Which engine judged a "win material" puzzle, said once the try is over: the sentence in
both languages for a bank tactic and for a material win missed in the player's own game (built
by ``selectors.puzzle_judge_text``), and nowhere before the try (the page's HTML, the puzzle
and the open attempt in the API), nor for a proved mate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from accounts.owners import Owner
from judge import fairy_stockfish_path
from puzzles import selectors
from puzzles.bankfile import write_bank
from puzzles.models import Goal, MissedMate, Puzzle
from puzzles.services import bank_load
from puzzles.services.missed import missed_mates_review
from tests.puzzles.missed_games import finished
from tests.puzzles.missed_material_games import material_game
from tests.puzzles.test_tactics import fork_entry

pytestmark = pytest.mark.django_db

BANK_EN = (
    "Checked by Fairy-Stockfish on a search of 200,000 positions: only the first move of the "
    "solution wins material. The solution wins a cannon."
)
BANK_ZH = "由Fairy-Stockfish以 200,000 个局面的搜索检验：只有解答的第一着能得子。解答得一炮。"


@pytest.fixture
def tactic(tmp_path: Path) -> Puzzle:
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([fork_entry()], tactics)
    bank_load(bank, tactics)
    return Puzzle.objects.get(goal=Goal.MATERIAL)


def _post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def test_a_bank_tactic_names_its_judge_and_budget_in_both_languages(tactic: Puzzle) -> None:
    assert tactic.proof["judge"] == "Fairy-Stockfish" and tactic.proof["nodes"] == 200_000
    with translation.override("en"):
        assert selectors.puzzle_judge_text(puzzle=tactic) == BANK_EN
    with translation.override("zh-hans"):
        assert selectors.puzzle_judge_text(puzzle=tactic) == BANK_ZH


def test_several_accepted_first_moves_are_counted(tactic: Puzzle) -> None:
    """A missed win may take more than one first move as right: the sentence says how many."""
    tactic.proof["steps"][0]["accepted"] = ["d2e4", "d2c4"]
    tactic.proof["steps"][0]["good"] = []
    with translation.override("en"):
        assert selectors.puzzle_judge_text(puzzle=tactic) == (
            "Checked by Fairy-Stockfish on a search of 200,000 positions: 2 moves win material "
            "here, each taken as right. The solution wins a cannon."
        )
    with translation.override("zh-hans"):
        assert selectors.puzzle_judge_text(puzzle=tactic) == (
            "由Fairy-Stockfish以 200,000 个局面的搜索检验：此处有 2 着能得子，每一着都算对。"
            "解答得一炮。"
        )


def test_what_the_solution_wins_is_named_and_what_it_gives_for_it(tactic: Puzzle) -> None:
    """The bank's tactics store no pieces: their line is played out (the fork wins a cannon);
    a win told with what it gives says both."""
    assert "won" not in tactic.proof
    with translation.override("en"):
        assert selectors.solution_wins_text(tactic.proof) == "The solution wins a cannon."
        trade = {**tactic.proof, "won": {"chariot": 1}, "lost": {"horse": 1}}
        assert selectors.solution_wins_text(trade) == "The solution wins a chariot for a horse."
        assert selectors.solution_wins_text({**tactic.proof, "won": {}, "lost": {}}) == ""
        assert selectors.solution_wins_text({**tactic.proof, "line": ["a0a1"]}) == ""
    with translation.override("zh-hans"):
        assert selectors.solution_wins_text(trade) == "解答用一马换得一车。"


def test_a_proved_mate_has_no_judge_sentence(make_puzzle) -> None:
    mate = make_puzzle()
    assert selectors.puzzle_judge_text(puzzle=mate) is None


def _missed(user: Any, name: str) -> Puzzle:
    game = material_game(Owner(user=user), name)
    missed_mates_review(game=finished(game))
    return MissedMate.objects.get(game=game.pk).puzzle


def test_a_missed_win_judged_by_the_site_s_engine_names_it(make_user) -> None:
    """New-version Xiangqi: only the site's own engine plays it, at its own budget."""
    puzzle = _missed(make_user(), "xinban")
    assert puzzle.proof["engine"] == "ours" and puzzle.proof["nodes"] == 100_000
    with translation.override("en"):
        assert selectors.puzzle_judge_text(puzzle=puzzle) == (
            "Checked by the site's own engine on a search of 100,000 positions: only the first "
            "move of the solution wins material. The solution wins a chariot."
        )
    with translation.override("zh-hans"):
        assert selectors.puzzle_judge_text(puzzle=puzzle) == (
            "由本站引擎以 100,000 个局面的搜索检验：只有解答的第一着能得子。解答得一车。"
        )


@pytest.mark.skipif(fairy_stockfish_path() is None, reason="Fairy-Stockfish is not installed")
def test_a_missed_win_judged_by_fairy_stockfish_names_its_version(make_user) -> None:
    puzzle = _missed(make_user(), "xiangqi")
    label = puzzle.proof["judge"]
    assert puzzle.proof["engine"] == "fairy-stockfish" and label.startswith("Fairy-Stockfish ")
    with translation.override("en"):
        assert selectors.puzzle_judge_text(puzzle=puzzle) == (
            f"Checked by {label} on a search of 200,000 positions: only the first move of the "
            "solution wins material. The solution wins a chariot."
        )
    with translation.override("zh-hans"):
        assert selectors.puzzle_judge_text(puzzle=puzzle) == (
            f"由{label}以 200,000 个局面的搜索检验：只有解答的第一着能得子。解答得一车。"
        )


def test_the_sentence_is_absent_before_the_try_and_said_after_a_solve(tactic: Puzzle) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = client.get(f"/puzzles/p/{tactic.slug}/")
    assert page.status_code == 200
    assert b"Checked by" not in page.content and b"200,000" not in page.content
    before = client.get(f"/api/puzzles/{tactic.pk}/").json()
    assert before["checked_by"] is None
    opened = _post(client, f"/api/puzzles/{tactic.pk}/attempts/").json()
    assert opened["checked_by"] is None
    url = f"/api/puzzles/{tactic.pk}/judge/"
    good = _post(client, url, {"attempt": opened["id"], "move": "d2c4", "ply": 0}).json()
    assert good["verdict"] == "good" and good["attempt"]["checked_by"] is None
    step = _post(client, url, {"attempt": opened["id"], "move": "d2e4", "ply": 0}).json()
    assert step["verdict"] == "continue" and step["attempt"]["checked_by"] is None
    assert client.get(f"/api/puzzles/{tactic.pk}/").json()["checked_by"] is None
    solved = _post(client, url, {"attempt": opened["id"], "move": "e4f6", "ply": 2}).json()
    assert solved["verdict"] == "solved" and solved["attempt"]["checked_by"] == BANK_EN
    assert client.get(f"/api/puzzles/{tactic.pk}/").json()["checked_by"] == BANK_EN
    status = client.get(f"/api/puzzles/attempts/{opened['id']}/").json()
    assert status["checked_by"] == BANK_EN


def test_the_sentence_is_said_after_a_wrong_move_and_with_the_solution(tactic: Puzzle) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    url = f"/api/puzzles/{tactic.pk}/judge/"
    first = _post(client, f"/api/puzzles/{tactic.pk}/attempts/").json()["id"]
    wrong = _post(client, url, {"attempt": first, "move": "f0f1", "ply": 0}).json()
    assert wrong["verdict"] == "wrong" and wrong["attempt"]["checked_by"] == BANK_ZH

    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    second = _post(other, f"/api/puzzles/{tactic.pk}/attempts/").json()["id"]
    assert other.get(f"/api/puzzles/{tactic.pk}/").json()["checked_by"] is None
    shown = _post(other, f"/api/puzzles/{tactic.pk}/give-up/", {"attempt": second}).json()
    assert shown["gave_up"] and shown["checked_by"] == BANK_EN


def test_a_mate_says_nothing_of_a_judge_after_the_try(make_puzzle) -> None:
    mate = make_puzzle()
    client = Client()
    attempt = _post(client, f"/api/puzzles/{mate.pk}/attempts/").json()["id"]
    shown = _post(client, f"/api/puzzles/{mate.pk}/give-up/", {"attempt": attempt}).json()
    assert shown["solution"] is not None and shown["checked_by"] is None
