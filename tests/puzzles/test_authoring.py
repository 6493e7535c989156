"""Authored puzzles: checked at once, proved by the prover, published or rejected with the
reason; only the author edits a draft; a published puzzle never changes."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from core.exceptions import ApplicationError
from puzzles.models import Puzzle
from puzzles.services import (
    puzzle_draft_create,
    puzzle_draft_submit,
    puzzle_draft_update,
    puzzle_verify,
)
from tests.puzzles.positions import (
    COOKED_IN_1,
    DEAD_GENERAL_IN_1,
    HARD_MATE_IN_4,
    MATE_IN_1,
    MATE_IN_2,
    MATE_IN_2_KEY,
    NO_WIN,
)

pytestmark = pytest.mark.django_db


def draft(user, fen: str = MATE_IN_2, n: int = 2, **kw: object) -> Puzzle:
    return puzzle_draft_create(
        author=user,
        variant=str(kw.get("variant", "xiangqi")),
        fen=fen,
        goal=str(kw.get("goal", "mate")),
        moves_to_win=n,
        title=str(kw.get("title", "")),
        mode=str(kw.get("mode", "full")),
    )


def verified(puzzle: Puzzle, **budget: float) -> Puzzle:
    Puzzle.objects.filter(pk=puzzle.pk).update(status=Puzzle.Status.VERIFYING)
    result = puzzle_verify(puzzle_id=puzzle.pk, **budget)  # type: ignore[arg-type]
    assert result is not None
    return result


def test_an_illegal_position_is_refused_with_the_reason(make_user) -> None:
    user = make_user()
    with pytest.raises(ApplicationError, match="rank 8.*advisor"):
        draft(user, "3ka4/3a5/9/9/9/9/9/9/9/2C1K4 w - - 0 1")
    with pytest.raises(ApplicationError, match="in check or its general faces"):
        draft(user, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    with pytest.raises(ApplicationError, match="Missile Xiangqi"):
        draft(user, MATE_IN_2, goal="dead_general")
    with pytest.raises(ApplicationError, match="already over"):
        draft(user, "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert Puzzle.objects.count() == 0


def test_a_sound_puzzle_is_published_with_its_proof_and_themes(make_user) -> None:
    puzzle = verified(draft(make_user(), title="Two pawns"))
    assert puzzle.status == Puzzle.Status.PUBLISHED and puzzle.published_at
    assert puzzle.proof is not None and puzzle.proof["keys"] == [MATE_IN_2_KEY]
    assert {"mate_in_2", "user_made"} <= {t.slug for t in puzzle.themes.all()}
    assert puzzle.rejection_reason == ""


def test_a_dead_general_puzzle_is_published(make_user) -> None:
    puzzle = verified(
        draft(make_user(), DEAD_GENERAL_IN_1, 1, variant="feidan", goal="dead_general")
    )
    assert puzzle.status == Puzzle.Status.PUBLISHED
    assert "dead_general" in {t.slug for t in puzzle.themes.all()}


def test_a_cooked_puzzle_is_rejected_naming_the_second_key(make_user) -> None:
    puzzle = verified(draft(make_user(), COOKED_IN_1, 1))
    assert puzzle.status == Puzzle.Status.REJECTED and puzzle.proof is None
    assert puzzle.rejection["kind"] == "cooked"
    assert set(puzzle.rejection["keys"]) == {"b1b9", "b1d1"}
    assert "Cooked" in puzzle.rejection_reason
    assert "b1b9" in puzzle.rejection_reason and "b1d1" in puzzle.rejection_reason


def test_a_puzzle_with_a_shorter_win_is_rejected(make_user) -> None:
    puzzle = verified(draft(make_user(), MATE_IN_1, 2))
    assert puzzle.status == Puzzle.Status.REJECTED
    assert puzzle.rejection["kind"] == "shorter" and puzzle.rejection["moves_to_win"] == 1
    assert "shorter win" in puzzle.rejection_reason and "a0d0" in puzzle.rejection_reason


def test_a_puzzle_without_a_win_is_rejected_with_the_escaping_defence(make_user) -> None:
    puzzle = verified(draft(make_user(), NO_WIN, 2))
    assert puzzle.status == Puzzle.Status.REJECTED
    assert puzzle.rejection["kind"] == "no_win"
    assert "No forced checkmate in 2" in puzzle.rejection_reason
    escape = puzzle.rejection.get("escape")
    if escape:
        assert escape[1] in puzzle.rejection_reason and "escapes" in puzzle.rejection_reason


def test_running_out_of_budget_is_never_published(make_user) -> None:
    puzzle = verified(draft(make_user(), HARD_MATE_IN_4, 4), nodes=2000, seconds=30.0)
    assert puzzle.status == Puzzle.Status.REJECTED
    assert puzzle.rejection["kind"] == "budget_exhausted"
    assert "Too hard to prove within the budget" in puzzle.rejection_reason


def test_only_the_author_edits_and_only_a_draft(make_user) -> None:
    author, stranger = make_user(), make_user()
    puzzle = draft(author)
    with pytest.raises(PermissionDenied):
        puzzle_draft_update(puzzle=puzzle, author=stranger, moves_to_win=3)
    with pytest.raises(PermissionDenied):
        puzzle_draft_submit(puzzle=puzzle, author=stranger)
    puzzle = puzzle_draft_update(puzzle=puzzle, author=author, title="Renamed")
    assert puzzle.title == "Renamed"
    published = verified(puzzle)
    with pytest.raises(ApplicationError, match="published puzzle cannot be changed"):
        puzzle_draft_update(puzzle=published, author=author, moves_to_win=3)
    with pytest.raises(ApplicationError, match="published"):
        puzzle_draft_submit(puzzle=published, author=author)


def test_a_rejected_puzzle_becomes_a_draft_again_when_edited(make_user) -> None:
    author = make_user()
    rejected = verified(draft(author, MATE_IN_1, 2))
    fixed = puzzle_draft_update(puzzle=rejected, author=author, moves_to_win=1)
    assert fixed.status == Puzzle.Status.DRAFT and fixed.rejection_reason == ""
    assert verified(fixed).status == Puzzle.Status.PUBLISHED


def test_a_stale_verification_result_is_dropped(make_user) -> None:
    author = make_user()
    puzzle = draft(author)
    Puzzle.objects.filter(pk=puzzle.pk).update(status=Puzzle.Status.DRAFT)
    assert puzzle_verify(puzzle_id=puzzle.pk).status == Puzzle.Status.DRAFT  # not waiting


def test_stuck_verifications_are_queued_again(make_user) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from puzzles.services import puzzle_verifications_requeue

    author = make_user()
    stuck, fresh = draft(author), draft(author, MATE_IN_1, 1)
    long_ago = timezone.now() - timedelta(hours=1)
    Puzzle.objects.filter(pk=stuck.pk).update(status="verifying", verify_requested_at=long_ago)
    Puzzle.objects.filter(pk=fresh.pk).update(
        status="verifying", verify_requested_at=timezone.now()
    )
    assert puzzle_verifications_requeue() == [stuck.pk]
    assert puzzle_verifications_requeue() == []  # asked again just now


# 五洋捉鳖 (弈海烟波): a mate in 15, every attacking move a check (连将杀).
CHECKS_MATE_IN_15 = "4k4/3Pa2P1/2N6/CP7/9/9/9/9/2p1p4/3K5 w - - 0 1"


def test_an_author_may_ask_for_a_checks_only_mate_of_up_to_30_moves(make_user) -> None:
    from puzzles.services.authoring import MAX_AUTHORED_MOVES

    assert MAX_AUTHORED_MOVES == 30
    user = make_user()
    puzzle = draft(user, CHECKS_MATE_IN_15, 15, mode="checks_only")
    assert puzzle.proof_mode == "checks_only"
    puzzle = verified(puzzle)
    assert puzzle.status == Puzzle.Status.PUBLISHED, puzzle.rejection_reason
    assert puzzle.proof_mode == "checks_only" and puzzle.proof is not None
    assert puzzle.proof["mode"] == "checks_only" and puzzle.moves_to_win == 15
    # the longest a draft may ask for, and no longer
    puzzle_draft_update(puzzle=draft(user), author=user, moves_to_win=30)
    with pytest.raises(ApplicationError, match="between 1 and 30"):
        draft(user, MATE_IN_2, 31)
    with pytest.raises(ApplicationError, match="Unknown mode"):
        draft(user, mode="every_check")


def test_a_checks_only_rejection_says_only_checks_were_counted(make_user) -> None:
    from puzzles.rejections import rejection_text

    # 双孙扶老's key is a quiet move: among checks there is no mate in 2
    puzzle = verified(draft(make_user(), MATE_IN_2, 2, mode="checks_only"))
    assert puzzle.status == Puzzle.Status.REJECTED
    assert puzzle.rejection["kind"] == "no_win" and puzzle.rejection["mode"] == "checks_only"
    assert puzzle.rejection_reason.endswith("give check were counted: a mate by checks alone.")
    assert "只计将军的着法（连将杀）" in rejection_text(puzzle.rejection, "", "zh-hans")
    # the same position over every move is sound: the mode is the author's choice
    user = make_user()
    again = verified(draft(user, MATE_IN_2, 2))
    assert again.status == Puzzle.Status.PUBLISHED and again.proof_mode == "full"
    assert "连将杀" not in rejection_text({"kind": "no_win", "goal": "mate", "moves": 2}, "", "en")


def test_the_verification_writes_how_far_the_proof_has_come(make_user, monkeypatch) -> None:
    from engine.solver import STAGES
    from puzzles.models import ProvingRequest
    from puzzles.services import authoring

    monkeypatch.setattr(authoring, "VERIFY_PROGRESS_SECONDS", 0.0)  # every few hundred nodes
    puzzle = draft(make_user(), HARD_MATE_IN_4, 4)
    ProvingRequest.objects.create(puzzle=puzzle)
    puzzle = verified(puzzle)
    assert puzzle.status == Puzzle.Status.PUBLISHED
    progress = ProvingRequest.objects.get(puzzle=puzzle).progress
    # the last word of the proof's work: its solution tree, after every first move was decided
    assert progress["stage"] in STAGES and progress["stage"] == "tree", progress
    assert progress["nodes"] > 0 and progress["seconds"] >= 0
    assert set(progress) == {"stage", "done", "total", "nodes", "seconds"}
