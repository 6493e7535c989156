"""Solving, judged on the server against the proof; attempts scored once, with Glicko-2."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.http import Http404
from django.utils import timezone

from accounts.owners import Owner
from core.exceptions import ApplicationError
from engine import Move, Position
from puzzles import services
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleReplay
from tests.puzzles.positions import MATE_IN_1, MATE_IN_1_KEY, MATE_IN_2, MATE_IN_2_KEY

pytestmark = pytest.mark.django_db


def winning_line(puzzle: Puzzle) -> list[str]:
    """Play the puzzle out through the judge: the key, then the proof's move after each reply."""
    moves: list[str] = []
    while True:
        move = services.puzzle_line_hint(puzzle=puzzle, moves=moves)
        assert move is not None
        moves.append(move)
        result = services.puzzle_judge(puzzle=puzzle, moves=moves)
        if result.verdict == "solved":
            return moves
        assert result.verdict == "continue" and result.reply is not None
        moves.append(result.reply.iccs)


def a_wrong_first_move(puzzle: Puzzle) -> str:
    position = Position.from_fen(puzzle.variant, puzzle.fen)
    keys = set(puzzle.proof["keys"])
    return next(m.iccs() for m in sorted(position.legal_moves) if m.iccs() not in keys)


def open_attempt(puzzle: Puzzle, player: Owner) -> PuzzleAttempt:
    attempt, _created = services.puzzle_attempt_open(puzzle=puzzle, player=player)
    return attempt


def play(attempt: PuzzleAttempt, player: Owner, move: str, **kw: Any) -> services.JudgeResult:
    _attempt, result = services.puzzle_attempt_move(
        attempt_id=attempt.pk, puzzle=attempt.puzzle, player=player, move=move, **kw
    )
    return result


def solve(puzzle: Puzzle, player: Owner) -> PuzzleAttempt:
    """Open an attempt and play the winning line in it, move by move."""
    attempt = open_attempt(puzzle, player)
    while attempt.is_open:
        move = services.puzzle_line_hint(puzzle=puzzle, moves=attempt.moves)
        assert move is not None
        play(attempt, player, move)
        attempt.refresh_from_db()
    assert attempt.result == PuzzleAttempt.Result.SOLVED
    return attempt


def fail(puzzle: Puzzle, player: Owner) -> PuzzleAttempt:
    attempt = open_attempt(puzzle, player)
    assert play(attempt, player, a_wrong_first_move(puzzle)).verdict == "wrong"
    attempt.refresh_from_db()
    return attempt


def give_up(puzzle: Puzzle, player: Owner) -> PuzzleAttempt:
    attempt = open_attempt(puzzle, player)
    return services.puzzle_attempt_give_up(attempt_id=attempt.pk, puzzle=puzzle, player=player)


def hint(attempt: PuzzleAttempt, player: Owner, level: int = 1) -> dict[str, str]:
    _attempt, answer = services.puzzle_attempt_hint(
        attempt_id=attempt.pk, puzzle=attempt.puzzle, player=player, level=level
    )
    return answer


# --- Judging -------------------------------------------------------------------------------


def test_the_key_is_answered_with_the_defenders_reply(make_puzzle) -> None:
    puzzle = make_puzzle()
    result = services.puzzle_judge(puzzle=puzzle, moves=[MATE_IN_2_KEY])
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
    result = services.puzzle_judge(puzzle=puzzle, moves=line)
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
        assert services.puzzle_judge(puzzle=puzzle, moves=[*line[:-1], mate]).verdict == "solved"


def test_a_wrong_move_is_refuted(make_puzzle) -> None:
    puzzle = make_puzzle()
    wrong = a_wrong_first_move(puzzle)
    result = services.puzzle_judge(puzzle=puzzle, moves=[wrong])
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
        services.puzzle_judge(puzzle=puzzle, moves=["a0a1"])
    with pytest.raises(ApplicationError, match="end with your move"):
        services.puzzle_judge(puzzle=puzzle, moves=[])
    with pytest.raises(ApplicationError, match="Too many moves"):
        services.puzzle_judge(puzzle=puzzle, moves=["g8g9", "d9d8", "g9f9", "d8d7", "f9e9"])


# --- Attempts played on the server --------------------------------------------------------


def test_the_server_holds_the_line_and_opening_again_goes_on_with_it(make_puzzle, visitor) -> None:
    puzzle = make_puzzle()
    attempt, created = services.puzzle_attempt_open(puzzle=puzzle, player=visitor)
    assert created and attempt.is_open and attempt.first_try and attempt.moves == []
    result = play(attempt, visitor, MATE_IN_2_KEY)
    assert result.verdict == "continue" and result.reply is not None
    again, created = services.puzzle_attempt_open(puzzle=puzzle, player=visitor)
    assert not created and again.pk == attempt.pk
    assert again.moves == [MATE_IN_2_KEY, result.reply.iccs]


def test_the_first_wrong_move_ends_the_try(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    player = Owner(user=make_user())
    attempt = open_attempt(puzzle, player)
    wrong = a_wrong_first_move(puzzle)
    assert play(attempt, player, wrong).verdict == "wrong"
    attempt.refresh_from_db()
    assert attempt.state == PuzzleAttempt.State.SUBMITTED
    assert attempt.result == PuzzleAttempt.Result.FAILED and attempt.moves == [wrong]
    with pytest.raises(ApplicationError, match="attempt is over"):
        play(attempt, player, MATE_IN_2_KEY)
    # A move sent again at its place gets the same answer and changes nothing.
    assert play(attempt, player, wrong, ply=0).verdict == "wrong"
    with pytest.raises(ApplicationError, match="out of step"):
        play(attempt, player, MATE_IN_2_KEY, ply=0)


def test_an_illegal_move_is_refused_and_loses_nothing(make_puzzle, visitor) -> None:
    puzzle = make_puzzle()
    attempt = open_attempt(puzzle, visitor)
    with pytest.raises(ApplicationError, match="not a legal move"):
        play(attempt, visitor, "a0a1")
    with pytest.raises(ApplicationError):
        play(attempt, visitor, "zz99")
    attempt.refresh_from_db()
    assert attempt.is_open and attempt.moves == []


def test_another_players_attempt_does_not_exist_for_them(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    owner = Owner(user=make_user())
    attempt = open_attempt(puzzle, owner)
    for stranger in (Owner(user=make_user()), Owner(visitor_id="someone"), None):
        with pytest.raises(Http404):
            services.puzzle_attempt_move(
                attempt_id=attempt.pk, puzzle=puzzle, player=stranger, move=MATE_IN_2_KEY
            )
        with pytest.raises(Http404):
            services.puzzle_attempt_hint(
                attempt_id=attempt.pk, puzzle=puzzle, player=stranger, level=2
            )
    attempt.refresh_from_db()
    assert attempt.moves == [] and attempt.hints_used == 0


def test_hints_name_the_piece_then_the_move(make_puzzle, visitor) -> None:
    puzzle = make_puzzle()
    attempt = open_attempt(puzzle, visitor)
    assert hint(attempt, visitor, 1) == {"from": MATE_IN_2_KEY[:2]}
    assert hint(attempt, visitor, 2)["move"] == MATE_IN_2_KEY
    attempt.refresh_from_db()
    assert attempt.hints_used == 2 and attempt.is_open


def test_a_hint_needs_an_open_attempt(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    player = Owner(user=make_user())
    attempt = fail(puzzle, player)
    with pytest.raises(ApplicationError, match="attempt is over"):
        hint(attempt, player)
    attempt.refresh_from_db()
    assert attempt.hints_used == 0


# --- Scoring -------------------------------------------------------------------------------


def test_a_solve_is_rated_as_a_game_between_user_and_puzzle(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    attempt = solve(puzzle, Owner(user=user))
    assert attempt.state == PuzzleAttempt.State.SUBMITTED
    puzzle_before = Puzzle.objects.get(pk=puzzle.pk).rating
    scored = services.puzzle_attempt_score(attempt_id=attempt.pk)
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


def test_scoring_reads_the_result_the_server_judged(make_puzzle, make_user) -> None:
    """Whatever the row's line says, the score is the server's verdict at the time."""
    puzzle = make_puzzle()
    user = make_user()
    attempt = fail(puzzle, Owner(user=user))
    PuzzleAttempt.objects.filter(pk=attempt.pk).update(moves=winning_line(puzzle))
    scored = services.puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None and scored.result == PuzzleAttempt.Result.FAILED and scored.rated
    assert PuzzleRating.objects.get(user=user).rating < 1500


def test_a_failure_lowers_the_user_and_schedules_a_replay(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    attempt = fail(puzzle, Owner(user=user))
    scored = services.puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None and scored.result == PuzzleAttempt.Result.FAILED and scored.rated
    assert PuzzleRating.objects.get(user=user).rating < 1500
    replay = PuzzleReplay.objects.get(user=user, puzzle=puzzle)
    assert replay.step == 0 and replay.solved_at is None
    assert timedelta(hours=23) < replay.due_at - timezone.now() <= timedelta(days=1)


def test_scoring_twice_scores_once(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    attempt = solve(puzzle, Owner(user=user))
    first = services.puzzle_attempt_score(attempt_id=attempt.pk)
    second = services.puzzle_attempt_score(attempt_id=attempt.pk)
    assert first is not None and second is not None
    assert second.scored_at == first.scored_at
    assert PuzzleRating.objects.get(user=user).games == 1
    assert Puzzle.objects.get(pk=puzzle.pk).plays == 1


def test_an_open_attempt_is_not_scored(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    player = Owner(user=make_user())
    attempt = open_attempt(puzzle, player)
    scored = services.puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None and scored.is_open and not PuzzleRating.objects.exists()


def test_only_the_first_unhelped_try_is_rated(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    other = make_puzzle(MATE_IN_1, moves_to_win=1)
    player = Owner(user=make_user())
    first = services.puzzle_attempt_score(attempt_id=fail(puzzle, player).pk)
    retry = services.puzzle_attempt_score(attempt_id=solve(puzzle, player).pk)
    assert first is not None and first.rated
    assert retry is not None and not retry.rated and retry.result == PuzzleAttempt.Result.SOLVED
    assert not retry.first_try
    helped = open_attempt(other, player)
    hint(helped, player)
    play(helped, player, MATE_IN_1_KEY)
    helped = services.puzzle_attempt_score(attempt_id=helped.pk)
    assert helped is not None and helped.result == PuzzleAttempt.Result.SOLVED and not helped.rated
    assert helped.hints_used == 1 and helped.first_try
    assert PuzzleRating.objects.get(user=player.user).games == 1


def test_hints_stay_with_the_player_and_puzzle(make_puzzle, make_user) -> None:
    """Hints are recorded on the open attempt, which is the one played on and scored: a
    player cannot take a hint under one attempt and play clean under another."""
    puzzle = make_puzzle()
    player = Owner(user=make_user())
    helped = open_attempt(puzzle, player)
    assert hint(helped, player, 2)["move"] == MATE_IN_2_KEY
    clean = open_attempt(puzzle, player)  # "a new attempt" is the same open one
    assert clean.pk == helped.pk and clean.hints_used == 1
    scored = services.puzzle_attempt_score(attempt_id=solve(puzzle, player).pk)
    assert scored is not None and scored.pk == helped.pk
    assert scored.hints_used == 1 and not scored.rated
    assert not PuzzleRating.objects.filter(games__gt=0).exists()


def test_anonymous_tries_are_never_rated(make_puzzle, visitor) -> None:
    puzzle = make_puzzle()
    attempt = services.puzzle_attempt_score(attempt_id=solve(puzzle, visitor).pk)
    assert attempt is not None and attempt.result == PuzzleAttempt.Result.SOLVED
    assert not attempt.rated and attempt.user_rating_after is None
    assert PuzzleRating.objects.count() == 0


def test_showing_the_solution_fails_the_try_unrated(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    attempt = give_up(puzzle, Owner(user=make_user()))
    assert attempt.gave_up and attempt.state == PuzzleAttempt.State.SUBMITTED
    scored = services.puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None and scored.result == PuzzleAttempt.Result.FAILED
    assert not scored.rated and not PuzzleRating.objects.filter(games__gt=0).exists()
    assert PuzzleReplay.objects.filter(puzzle=puzzle).exists()


def test_failed_puzzles_come_back_after_1_3_and_7_days_until_solved(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    player = Owner(user=make_user())
    due = []
    for _ in range(4):
        services.puzzle_attempt_score(attempt_id=fail(puzzle, player).pk)
        replay = PuzzleReplay.objects.get(user=player.user, puzzle=puzzle)
        due.append(round((replay.due_at - timezone.now()) / timedelta(days=1)))
    assert due == [1, 3, 7, 7]
    attempt = solve(puzzle, player)
    assert attempt.is_replay
    services.puzzle_attempt_score(attempt_id=attempt.pk)
    assert PuzzleReplay.objects.get(user=player.user, puzzle=puzzle).solved_at is not None


def test_a_visitors_history_moves_to_the_account(make_puzzle, make_user, visitor) -> None:
    puzzle = make_puzzle()
    attempt = fail(puzzle, visitor)
    services.puzzle_attempt_score(attempt_id=attempt.pk)
    user = make_user()
    services.puzzle_progress_merge(visitor.visitor_id, user)
    services.puzzle_progress_merge(visitor.visitor_id, user)  # idempotent
    attempt.refresh_from_db()
    assert attempt.user == user and attempt.visitor_id is None and not attempt.rated
    assert PuzzleReplay.objects.get(puzzle=puzzle).user == user
    # Having seen the puzzle, the account's next try is not rated.
    retry = services.puzzle_attempt_score(attempt_id=solve(puzzle, Owner(user=user)).pk)
    assert retry is not None and not retry.rated


def test_merging_keeps_one_open_attempt_and_one_first_try(make_puzzle, make_user, visitor) -> None:
    puzzle = make_puzzle()
    user = make_user()
    mine = open_attempt(puzzle, Owner(user=user))
    theirs = open_attempt(puzzle, visitor)
    hint(theirs, visitor)
    services.puzzle_progress_merge(visitor.visitor_id, user)
    theirs.refresh_from_db()
    assert theirs.user == user and theirs.state == PuzzleAttempt.State.ABANDONED
    assert not theirs.first_try
    assert open_attempt(puzzle, Owner(user=user)).pk == mine.pk


@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_on_one_attempt_score_it_once(make_puzzle, make_user) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    puzzle = make_puzzle()
    user = make_user()
    # Made directly (finishing a try would also queue the scoring task: tests/puzzles/test_tasks.py).
    attempt = PuzzleAttempt.objects.create(
        puzzle=puzzle,
        user=user,
        first_try=True,
        moves=winning_line(puzzle),
        state=PuzzleAttempt.State.SUBMITTED,
        result=PuzzleAttempt.Result.SOLVED,
        submitted_at=timezone.now(),
    )
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def score() -> None:
        try:
            barrier.wait()
            services.puzzle_attempt_score(attempt_id=attempt.pk)
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


@pytest.mark.django_db(transaction=True)
def test_two_opens_racing_make_one_open_attempt_and_one_first_try(make_puzzle, make_user) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    puzzle = make_puzzle()
    player = Owner(user=make_user())
    barrier = threading.Barrier(4)
    opened: list[int] = []
    errors: list[BaseException] = []

    def go() -> None:
        try:
            barrier.wait()
            attempt, _created = services.puzzle_attempt_open(puzzle=puzzle, player=player)
            opened.append(attempt.pk)
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(set(opened)) == 1
    assert PuzzleAttempt.objects.filter(puzzle=puzzle).count() == 1


def test_a_kept_verdict_gives_its_reason_in_each_readers_language(make_puzzle) -> None:
    """A line's verdict is kept for every later reader (``PuzzleLineResult``); its reason was
    kept in the first reader's words, so a reader of the other language read them too."""
    from django.utils import translation

    from puzzles.models import PuzzleLineResult

    puzzle = make_puzzle()
    wrong = a_wrong_first_move(puzzle)
    with translation.override("zh-hans"):
        first = services.puzzle_judge(puzzle=puzzle, moves=[wrong])
    assert PuzzleLineResult.objects.filter(puzzle=puzzle).count() == 1  # kept
    with translation.override("en"):
        second = services.puzzle_judge(puzzle=puzzle, moves=[wrong])
    assert first.verdict == second.verdict == "wrong"
    assert first.reason and second.reason and first.reason != second.reason
    assert any("\u4e00" <= ch <= "\u9fff" for ch in first.reason)
    assert second.reason.isascii(), second.reason
