"""Judging in a web request costs little: the stored proof answers at once, a move that leaves
it is searched within the cap (about 0.1 s) and the answer is kept per line, so the same line
is never searched twice."""

from __future__ import annotations

import pytest

from accounts.owners import Owner
from puzzles import proving
from puzzles.models import PuzzleAttempt, PuzzleLineResult
from puzzles.services import (
    puzzle_attempt_move,
    puzzle_attempt_open,
    puzzle_judge,
    puzzle_line_hint,
)
from tests.puzzles.positions import HARD_MATE_IN_4

pytestmark = pytest.mark.django_db

# Not the key (c7c9) of HARD_MATE_IN_4; proving that it fails takes more than the cap.
HARD_WRONG_MOVE = "e8e9"


@pytest.fixture
def hard_puzzle(make_puzzle):
    return make_puzzle(HARD_MATE_IN_4, moves_to_win=4)


def test_a_move_off_the_stored_tree_is_answered_within_the_cap_and_kept(
    hard_puzzle, make_user, monkeypatch
) -> None:
    uncapped = proving.judge(
        proof=hard_puzzle.proof, moves=[HARD_WRONG_MOVE],
        nodes=proving.OFFLINE_NODES, seconds=proving.OFFLINE_SECONDS,
    )  # fmt: skip
    assert uncapped.verdict == "wrong"
    player = Owner(user=make_user())
    attempt, _ = puzzle_attempt_open(puzzle=hard_puzzle, player=player)
    budgets = []
    judge = proving.judge

    def judge_watched(**kwargs):
        budgets.append((kwargs.get("nodes"), kwargs.get("seconds")))
        return judge(**kwargs)

    monkeypatch.setattr(proving, "judge", judge_watched)
    _, result = puzzle_attempt_move(
        attempt_id=attempt.pk, puzzle=hard_puzzle, player=player, move=HARD_WRONG_MOVE
    )
    # The capped search does not prove it, but the stored tree holds every winning first
    # move: the move is wrong, and the try is over.
    assert result.verdict == "wrong"
    # Searched once, within the web request's cap (the site's default), not the offline budget.
    assert budgets == [(None, None)]
    assert proving.LIVE_NODES < proving.OFFLINE_NODES
    attempt.refresh_from_db()
    assert attempt.state == PuzzleAttempt.State.SUBMITTED and attempt.result == "failed"
    kept = PuzzleLineResult.objects.get(puzzle=hard_puzzle, kind="judge", line=HARD_WRONG_MOVE)
    assert kept.answer["verdict"] == "wrong"
    # Asked again (by anyone), the line is answered from what was kept, without a search.
    # (a row kept before its reason was kept as a code keeps its words)
    kept.answer = {**kept.answer, "reason": "kept answer", "code": ""}
    kept.save()
    again = puzzle_judge(puzzle=hard_puzzle, moves=[HARD_WRONG_MOVE])
    assert again.verdict == "wrong" and again.reason == "kept answer"
    assert PuzzleLineResult.objects.filter(puzzle=hard_puzzle, line=HARD_WRONG_MOVE).count() == 1


def test_moves_on_the_stored_tree_cost_no_search(hard_puzzle, visitor, monkeypatch) -> None:
    attempt, _ = puzzle_attempt_open(puzzle=hard_puzzle, player=visitor)
    key = hard_puzzle.proof["keys"][0]
    judge = proving.judge

    def judge_without_search(**kwargs):  # a budget of one node: any search would be cut off
        return judge(**{**kwargs, "nodes": 1, "seconds": 0.001})

    monkeypatch.setattr(proving, "judge", judge_without_search)
    _, result = puzzle_attempt_move(
        attempt_id=attempt.pk, puzzle=hard_puzzle, player=visitor, move=key
    )
    assert result.verdict == "continue"
    # The same budget finds no refutation of a move off the tree: only a search would.
    cut = judge_without_search(proof=hard_puzzle.proof, moves=[HARD_WRONG_MOVE])
    assert cut.refutation == []


def test_a_kept_answer_belongs_to_its_proof(hard_puzzle) -> None:
    """A puzzle proved again is judged afresh: answers are kept per proof."""
    puzzle_judge(puzzle=hard_puzzle, moves=[HARD_WRONG_MOVE])
    hard_puzzle.proof = {**hard_puzzle.proof, "seconds": hard_puzzle.proof["seconds"] + 1}
    hard_puzzle.save()
    puzzle_judge(puzzle=hard_puzzle, moves=[HARD_WRONG_MOVE])
    kept = PuzzleLineResult.objects.filter(puzzle=hard_puzzle, line=HARD_WRONG_MOVE)
    assert kept.values("proof").distinct().count() == 2


# After a wrong first move and a reply, the stored tree says nothing: whether the attacker's
# next move still mates in time takes more than the cap to settle (it does not).
UNSETTLED_LINE = ["e8e9", "f9e9", "a4a0"]


def test_an_answer_the_cap_could_not_settle_is_not_kept(hard_puzzle) -> None:
    """An ``unknown`` kept for everyone would fix a busy moment's answer for good."""
    judged = puzzle_judge(puzzle=hard_puzzle, moves=UNSETTLED_LINE)
    assert judged.verdict == "unknown"
    hint = puzzle_line_hint(puzzle=hard_puzzle, moves=UNSETTLED_LINE[:2])
    assert hint is None
    assert not PuzzleLineResult.objects.filter(puzzle=hard_puzzle).exists()
    settled = proving.judge(
        proof=hard_puzzle.proof, moves=UNSETTLED_LINE,
        nodes=proving.OFFLINE_NODES, seconds=proving.OFFLINE_SECONDS,
    )  # fmt: skip
    assert settled.verdict == "wrong"
    # A settled answer is kept, and then given to everyone.
    puzzle_judge(puzzle=hard_puzzle, moves=[HARD_WRONG_MOVE])
    assert PuzzleLineResult.objects.filter(puzzle=hard_puzzle, line=HARD_WRONG_MOVE).exists()
