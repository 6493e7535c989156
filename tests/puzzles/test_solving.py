"""Solving, judged on the server against the proof; attempts scored once, with Glicko-2."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.utils import timezone

from core.exceptions import ApplicationError
from engine import Move, Position
from puzzles import proving
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleReplay
from puzzles.services import (
    Player,
    puzzle_attempt_score,
    puzzle_attempt_submit,
    puzzle_hint,
    puzzle_judge,
    puzzle_progress_merge,
)
from tests.puzzles.positions import MATE_IN_1, MATE_IN_1_KEY, MATE_IN_2, MATE_IN_2_KEY

pytestmark = pytest.mark.django_db


def winning_line(puzzle: Puzzle) -> list[str]:
    """Play the puzzle out through the judge: the key, then the proof's move after each reply."""
    moves: list[str] = []
    while True:
        move = proving.hint(variant=puzzle.variant, fen=puzzle.fen, proof=puzzle.proof, moves=moves)
        assert move is not None
        moves.append(move)
        result = puzzle_judge(puzzle=puzzle, moves=moves)
        if result.verdict == "solved":
            return moves
        assert result.verdict == "continue" and result.reply is not None
        moves.append(result.reply.iccs)


def a_wrong_first_move(puzzle: Puzzle) -> str:
    position = Position.from_fen(puzzle.variant, puzzle.fen)
    keys = set(puzzle.proof["keys"])
    return next(m.iccs() for m in sorted(position.legal_moves) if m.iccs() not in keys)


def submit(puzzle: Puzzle, player: Player, moves: list[str], **kw: object) -> PuzzleAttempt:
    return puzzle_attempt_submit(
        puzzle=puzzle,
        player=player,
        client_id=kw.pop("client_id", uuid.uuid4()),  # type: ignore[arg-type]
        moves=moves,
        seconds=int(kw.pop("seconds", 12)),  # type: ignore[call-overload]
        gave_up=bool(kw.pop("gave_up", False)),
    )


# --- Judging -------------------------------------------------------------------------------


def test_the_key_is_answered_with_the_defenders_reply(make_puzzle) -> None:
    puzzle = make_puzzle()
    result = puzzle_judge(puzzle=puzzle, moves=[MATE_IN_2_KEY])
    assert result.verdict == "continue"
    assert result.move is not None and result.move.iccs == MATE_IN_2_KEY
    assert result.reply is not None
    position = Position.from_fen("xiangqi", MATE_IN_2)
    position.push_iccs(MATE_IN_2_KEY)
    assert Move.from_iccs(result.reply.iccs) in position.legal_moves
    position.push_iccs(result.reply.iccs)
    assert result.fen == position.fen()
    assert result.legal_moves == sorted(m.iccs() for m in position.legal_moves)


def test_the_whole_line_solves(make_puzzle) -> None:
    puzzle = make_puzzle()
    line = winning_line(puzzle)
    assert len(line) == 3 and line[0] == MATE_IN_2_KEY
    result = puzzle_judge(puzzle=puzzle, moves=line)
    assert result.verdict == "solved" and result.termination == "checkmate"


def test_any_mating_move_at_the_last_step_is_accepted(make_puzzle) -> None:
    puzzle = make_puzzle()
    line = winning_line(puzzle)
    position = Position.from_fen("xiangqi", MATE_IN_2)
    for move in line[:-1]:
        position.push_iccs(move)
    mates = []
    for move in position.legal_moves:
        position.push(move)
        if position.status() == "checkmate":
            mates.append(move.iccs())
        position.pop()
    assert mates
    for mate in mates:
        assert puzzle_judge(puzzle=puzzle, moves=[*line[:-1], mate]).verdict == "solved"


def test_a_wrong_move_is_refuted(make_puzzle) -> None:
    puzzle = make_puzzle()
    wrong = a_wrong_first_move(puzzle)
    result = puzzle_judge(puzzle=puzzle, moves=[wrong])
    assert result.verdict == "wrong"
    position = Position.from_fen("xiangqi", MATE_IN_2)
    position.push_iccs(wrong)
    if result.refutation:
        refutation = result.refutation[0]
        assert Move.from_iccs(refutation.iccs) in position.legal_moves
        position.push_iccs(refutation.iccs)
        assert refutation.fen == position.fen()
    else:
        assert result.reason


def test_a_line_that_is_not_legal_is_refused(make_puzzle) -> None:
    puzzle = make_puzzle()
    with pytest.raises(ApplicationError, match="not a legal move"):
        puzzle_judge(puzzle=puzzle, moves=["a0a1"])
    with pytest.raises(ApplicationError, match="end with your move"):
        puzzle_judge(puzzle=puzzle, moves=[])
    with pytest.raises(ApplicationError, match="Too many moves"):
        puzzle_judge(puzzle=puzzle, moves=["g8g9", "d9d8", "g9f9", "d8d7", "f9e9"])


def test_hints_name_the_piece_then_the_move(make_puzzle, visitor) -> None:
    puzzle = make_puzzle()
    client_id = uuid.uuid4()
    first = puzzle_hint(puzzle=puzzle, player=visitor, client_id=client_id, moves=[], level=1)
    assert first == {"from": MATE_IN_2_KEY[:2]}
    second = puzzle_hint(puzzle=puzzle, player=visitor, client_id=client_id, moves=[], level=2)
    assert second["move"] == MATE_IN_2_KEY
    attempt = PuzzleAttempt.objects.get(client_id=client_id)
    assert attempt.hints_used == 2 and attempt.state == PuzzleAttempt.State.STARTED


# --- Scoring -------------------------------------------------------------------------------


def test_a_solve_is_rated_as_a_game_between_user_and_puzzle(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    attempt = submit(puzzle, Player(user=user), winning_line(puzzle))
    assert attempt.state == PuzzleAttempt.State.SUBMITTED
    puzzle_before = Puzzle.objects.get(pk=puzzle.pk).rating
    scored = puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None
    assert scored.result == PuzzleAttempt.Result.SOLVED and scored.rated
    rating = PuzzleRating.objects.get(user=user, variant="xiangqi")
    assert rating.games == 1
    assert scored.user_rating_before == 1500 and scored.user_rating_after == rating.rating > 1500
    puzzle.refresh_from_db()
    assert (
        scored.puzzle_rating_before == puzzle_before > puzzle.rating == scored.puzzle_rating_after
    )
    assert (puzzle.plays, puzzle.solves) == (1, 1)


def test_a_failure_lowers_the_user_and_schedules_a_replay(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    attempt = submit(puzzle, Player(user=user), [a_wrong_first_move(puzzle)])
    scored = puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None and scored.result == PuzzleAttempt.Result.FAILED and scored.rated
    assert PuzzleRating.objects.get(user=user).rating < 1500
    replay = PuzzleReplay.objects.get(user=user, puzzle=puzzle)
    assert replay.step == 0 and replay.solved_at is None
    assert timedelta(hours=23) < replay.due_at - timezone.now() <= timedelta(days=1)


def test_scoring_twice_scores_once(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    attempt = submit(puzzle, Player(user=user), winning_line(puzzle))
    first = puzzle_attempt_score(attempt_id=attempt.pk)
    second = puzzle_attempt_score(attempt_id=attempt.pk)
    assert first is not None and second is not None
    assert second.scored_at == first.scored_at
    assert PuzzleRating.objects.get(user=user).games == 1
    assert Puzzle.objects.get(pk=puzzle.pk).plays == 1


def test_submitting_the_same_try_again_returns_the_same_attempt(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    player = Player(user=make_user())
    client_id = uuid.uuid4()
    line = winning_line(puzzle)
    first = submit(puzzle, player, line, client_id=client_id)
    again = submit(puzzle, player, line, client_id=client_id)
    assert first.pk == again.pk
    with pytest.raises(ApplicationError, match="already submitted"):
        submit(puzzle, player, [a_wrong_first_move(puzzle)], client_id=client_id)


def test_a_new_try_is_stored_in_one_short_transaction(
    make_puzzle, make_user, django_assert_num_queries
) -> None:
    """Submitting is on the hot path of the site: lock-or-find, replay check, insert."""
    puzzle = make_puzzle()
    player = Player(user=make_user())
    line = winning_line(puzzle)
    # SAVEPOINT and RELEASE of the transaction (the test runs inside one) and three statements.
    with django_assert_num_queries(5):
        attempt = submit(puzzle, player, line)
    assert attempt.state == PuzzleAttempt.State.SUBMITTED and attempt.moves == line


def test_a_try_id_used_by_another_player_is_refused(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    client_id = uuid.uuid4()
    submit(puzzle, Player(user=make_user()), [], client_id=client_id, gave_up=True)
    with pytest.raises(PermissionDenied):
        submit(puzzle, Player(user=make_user()), [], client_id=client_id, gave_up=True)
    assert PuzzleAttempt.objects.filter(client_id=client_id).count() == 1


def test_only_the_first_unhelped_try_is_rated(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    other = make_puzzle(MATE_IN_1, moves_to_win=1)
    player = Player(user=make_user())
    first = puzzle_attempt_score(attempt_id=submit(puzzle, player, [a_wrong_first_move(puzzle)]).pk)
    retry = puzzle_attempt_score(attempt_id=submit(puzzle, player, winning_line(puzzle)).pk)
    assert first is not None and first.rated
    assert retry is not None and not retry.rated and retry.result == PuzzleAttempt.Result.SOLVED
    helped_id = uuid.uuid4()
    puzzle_hint(puzzle=other, player=player, client_id=helped_id, moves=[], level=1)
    helped = submit(other, player, [MATE_IN_1_KEY], client_id=helped_id)
    helped = puzzle_attempt_score(attempt_id=helped.pk)
    assert helped is not None and helped.result == PuzzleAttempt.Result.SOLVED and not helped.rated
    assert PuzzleRating.objects.get(user=player.user).games == 1


def test_anonymous_tries_are_never_rated(make_puzzle, visitor) -> None:
    puzzle = make_puzzle()
    attempt = puzzle_attempt_score(attempt_id=submit(puzzle, visitor, winning_line(puzzle)).pk)
    assert attempt is not None and attempt.result == PuzzleAttempt.Result.SOLVED
    assert not attempt.rated and attempt.user_rating_after is None
    assert PuzzleRating.objects.count() == 0


def test_giving_up_fails_the_try(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    attempt = submit(puzzle, Player(user=make_user()), [], gave_up=True)
    scored = puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None and scored.result == PuzzleAttempt.Result.FAILED and scored.rated


def test_a_forged_line_is_refused(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    with pytest.raises(ApplicationError):
        submit(puzzle, Player(user=make_user()), ["e0e1", "e9e8"])  # e9e8: no such black move
    assert PuzzleAttempt.objects.count() == 0


def test_failed_puzzles_come_back_after_1_3_and_7_days_until_solved(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    player = Player(user=make_user())
    wrong = [a_wrong_first_move(puzzle)]
    due = []
    for _ in range(4):
        puzzle_attempt_score(attempt_id=submit(puzzle, player, wrong).pk)
        replay = PuzzleReplay.objects.get(user=player.user, puzzle=puzzle)
        due.append(round((replay.due_at - timezone.now()) / timedelta(days=1)))
    assert due == [1, 3, 7, 7]
    attempt = submit(puzzle, player, winning_line(puzzle))
    assert attempt.is_replay
    puzzle_attempt_score(attempt_id=attempt.pk)
    assert PuzzleReplay.objects.get(user=player.user, puzzle=puzzle).solved_at is not None


def test_a_visitors_history_moves_to_the_account(make_puzzle, make_user, visitor) -> None:
    puzzle = make_puzzle()
    attempt = submit(puzzle, visitor, [a_wrong_first_move(puzzle)])
    puzzle_attempt_score(attempt_id=attempt.pk)
    user = make_user()
    puzzle_progress_merge(visitor.visitor_id, user)
    puzzle_progress_merge(visitor.visitor_id, user)  # idempotent
    attempt.refresh_from_db()
    assert attempt.user == user and attempt.visitor_id == "" and not attempt.rated
    assert PuzzleReplay.objects.get(puzzle=puzzle).user == user
    # Having seen the puzzle, the account's next try is not rated.
    retry = puzzle_attempt_score(
        attempt_id=submit(puzzle, Player(user=user), winning_line(puzzle)).pk
    )
    assert retry is not None and not retry.rated


@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_on_one_attempt_score_it_once(make_puzzle, make_user) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    puzzle = make_puzzle()
    user = make_user()
    # Made directly (submitting would also queue the scoring task: tests/puzzles/test_tasks.py).
    attempt = PuzzleAttempt.objects.create(
        puzzle=puzzle,
        user=user,
        client_id=uuid.uuid4(),
        moves=winning_line(puzzle),
        state=PuzzleAttempt.State.SUBMITTED,
        submitted_at=timezone.now(),
    )
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def score() -> None:
        try:
            barrier.wait()
            puzzle_attempt_score(attempt_id=attempt.pk)
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=score) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    rating = PuzzleRating.objects.get(user=user)
    assert rating.games == 1
    puzzle.refresh_from_db()
    assert puzzle.plays == 1
    attempt.refresh_from_db()
    assert attempt.user_rating_after == rating.rating
    assert attempt.puzzle_rating_after == puzzle.rating
