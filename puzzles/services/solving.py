"""Solving: judging moves against the proof, hints, submitting and scoring attempts.

The browser never holds the solution. It posts the moves played so far; the server replays
them on the engine, judges them against the stored proof and answers with the defender's
reply, or with the refutation of a wrong move. A finished try is submitted as an attempt and
scored by a Celery task, which judges the whole line again before it touches any rating.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from core.exceptions import ApplicationError
from engine import EngineError, Move, Position
from puzzles import glicko2, proving
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleReplay
from puzzles.services.players import Player

logger = logging.getLogger(__name__)

# Days until a failed puzzle comes back: after the first failure, the second, the third on.
REPLAY_INTERVALS_DAYS = (1, 3, 7)
MAX_SECONDS = 24 * 60 * 60
HINT_PIECE = 1
HINT_MOVE = 2


@dataclass(frozen=True)
class PlayedMove:
    iccs: str
    chinese: str
    fen: str  # the position after the move


@dataclass(frozen=True)
class JudgeResult:
    """The answer to "is my line right so far?"."""

    verdict: str  # continue | solved | wrong | unknown (could not be judged in time)
    move: PlayedMove | None = None  # the attacker's move just judged
    reply: PlayedMove | None = None  # the defender's answer when the line goes on
    refutation: list[PlayedMove] = field(default_factory=list)  # after a wrong move
    reason: str = ""
    fen: str = ""  # the position after the reply (or after the last move when solved)
    legal_moves: list[str] = field(default_factory=list)  # the attacker's moves from ``fen``
    check: str | None = None  # the point of a general in check in ``fen``
    termination: str | None = None


def _moves_check(puzzle: Puzzle, moves: Sequence[str]) -> Position:
    """Replay ``moves`` from the puzzle; refuse anything that is not a legal line from it."""
    if len(moves) > 2 * puzzle.moves_to_win - 1:
        raise ApplicationError.coded(
            "solving.too_many_moves",
            {"moves": puzzle.moves_to_win, "limit": 2 * puzzle.moves_to_win - 1},
            {"field": "moves"},
        )
    position = Position.from_fen(puzzle.variant, puzzle.fen)
    for index, text in enumerate(moves):
        try:
            move = Move.from_iccs(text)
            if position.outcome() is not None or move not in position.legal_moves:
                raise ApplicationError.coded(
                    "solving.not_in_line",
                    {"index": index + 1, "input": text},
                    {"field": "moves", "index": index, "move": text, "fen": position.fen()},
                )
        except EngineError as error:
            raise ApplicationError.from_engine(
                error, {"field": "moves", "index": index, "move": text}, index=index + 1, input=text
            ) from None
        position.push(move)
    return position


def _general_in_check(position: Position) -> str | None:
    if not position.is_check():
        return None
    return position.square_name(position.kings[0 if position.turn == "red" else 1])


def _played(position: Position, line: Sequence[str]) -> list[PlayedMove]:
    out = []
    copy = position.copy()
    for text in line:
        move = Move.from_iccs(text)
        chinese = copy.chinese(move)
        copy.push(move)
        out.append(PlayedMove(iccs=move.iccs(), chinese=chinese, fen=copy.fen()))
    return out


def _require_proof(puzzle: Puzzle) -> dict[str, object]:
    if puzzle.proof is None:
        raise ApplicationError.coded("solving.not_proved", extra={"status": puzzle.status})
    return puzzle.proof


def puzzle_judge(*, puzzle: Puzzle, moves: Sequence[str]) -> JudgeResult:
    """Judge the line ``moves`` (the attacker's moves and the defender's replies so far).

    The line must end with an attacker move. Raises ``ApplicationError`` for a line that is not
    legal from the puzzle's position.
    """
    proof = _require_proof(puzzle)
    if len(moves) % 2 == 0:
        raise ApplicationError.coded(
            "solving.ends_with_reply", extra={"field": "moves", "length": len(moves)}
        )
    position = _moves_check(puzzle, moves)
    last = position.pop()
    played = _played(position, [last.iccs()])[0]
    position.push(last)
    verdict = proving.judge(variant=puzzle.variant, fen=puzzle.fen, proof=proof, moves=list(moves))
    if verdict.verdict == "continue" and verdict.reply is not None:
        reply = _played(position, [verdict.reply])[0]
        position.push(Move.from_iccs(verdict.reply))
        return JudgeResult(
            verdict="continue",
            reply=reply,
            move=played,
            fen=position.fen(),
            legal_moves=sorted(m.iccs() for m in position.legal_moves),
            check=_general_in_check(position),
            reason=verdict.reason,
        )
    if verdict.verdict == "solved":
        outcome = position.outcome()
        return JudgeResult(
            verdict="solved",
            move=played,
            fen=position.fen(),
            check=_general_in_check(position),
            termination=outcome.termination if outcome else None,
            reason=verdict.reason,
        )
    if verdict.verdict == "unknown":
        return JudgeResult(
            verdict="unknown", move=played, fen=position.fen(), reason=verdict.reason
        )
    if verdict.verdict != "wrong":
        logger.error("judge answered %s for puzzle %s line %s", verdict, puzzle.pk, moves)
    outcome = position.outcome()
    return JudgeResult(
        verdict="wrong",
        move=played,
        refutation=_played(position, verdict.refutation),
        fen=position.fen(),
        check=_general_in_check(position),
        termination=outcome.termination if outcome else None,
        reason=verdict.reason,
    )


def puzzle_line_result(*, puzzle: Puzzle, moves: Sequence[str], gave_up: bool) -> str:
    """``solved`` or ``failed`` for a finished try; the line must be legal (checked here)."""
    proof = _require_proof(puzzle)
    _moves_check(puzzle, moves)
    if gave_up or not moves:
        return PuzzleAttempt.Result.FAILED
    for end in range(1, len(moves) + 1, 2):
        verdict = proving.judge(
            variant=puzzle.variant, fen=puzzle.fen, proof=proof, moves=list(moves[:end])
        )
        if verdict.verdict == "wrong":
            return PuzzleAttempt.Result.FAILED
        if verdict.verdict == "solved":
            return PuzzleAttempt.Result.SOLVED if end == len(moves) else PuzzleAttempt.Result.FAILED
    return PuzzleAttempt.Result.FAILED  # stopped half-way: counts as giving up


def _attempt_get_or_create(
    *, puzzle: Puzzle, player: Player, client_id: uuid.UUID
) -> PuzzleAttempt:
    """The player's attempt with this client id, created if new; safe against a racing twin."""
    others = PuzzleAttempt.objects.filter(puzzle=puzzle, client_id=client_id).exclude(
        player.owner_q()
    )
    if others.exists():
        raise PermissionDenied("This attempt belongs to someone else.")
    lookup = {"puzzle": puzzle, "client_id": client_id, **player.owner_fields()}
    try:
        with transaction.atomic():
            attempt, _created = PuzzleAttempt.objects.get_or_create(**lookup)
    except IntegrityError:  # the twin request created it between our read and our write
        attempt = PuzzleAttempt.objects.get(**lookup)
    return attempt


def puzzle_hint(
    *, puzzle: Puzzle, player: Player, client_id: uuid.UUID, moves: Sequence[str], level: int
) -> dict[str, str]:
    """A hint for the attacker's next move: level 1 names the piece, level 2 the move.

    The attempt is marked as helped, which makes it unrated.
    """
    proof = _require_proof(puzzle)
    if len(moves) % 2 == 1:
        raise ApplicationError.coded("solving.hint_wait", extra={"field": "moves"})
    _moves_check(puzzle, moves)
    best = proving.hint(variant=puzzle.variant, fen=puzzle.fen, proof=proof, moves=list(moves))
    if best is None:
        raise ApplicationError.coded("solving.no_winning_move", extra={"field": "moves"})
    with transaction.atomic():
        attempt = _attempt_get_or_create(puzzle=puzzle, player=player, client_id=client_id)
        attempt = PuzzleAttempt.objects.select_for_update().get(pk=attempt.pk)
        if attempt.state == PuzzleAttempt.State.STARTED and attempt.hints_used < level:
            attempt.hints_used = level
            attempt.save(update_fields=["hints_used", "updated_at"])
    if level >= HINT_MOVE:
        return {"from": best[:2], "to": best[2:], "move": best}
    return {"from": best[:2]}


def _owned_by(attempt: PuzzleAttempt, player: Player) -> bool:
    if player.user is not None:
        return attempt.user_id == player.user.pk
    return attempt.user_id is None and attempt.visitor_id == player.visitor_id


def _attempt_locked(
    *, puzzle: Puzzle, player: Player, client_id: uuid.UUID
) -> PuzzleAttempt | None:
    """Inside a transaction: the player's attempt with this client id, its row locked until the
    end of the transaction, or ``None`` when there is none yet. An id another player already
    used for this puzzle is refused."""
    rows = list(
        PuzzleAttempt.objects.select_for_update().filter(puzzle=puzzle, client_id=client_id)
    )
    if any(not _owned_by(row, player) for row in rows):
        raise PermissionDenied("This attempt belongs to someone else.")
    return rows[0] if rows else None


def puzzle_attempt_submit(
    *,
    puzzle: Puzzle,
    player: Player,
    client_id: uuid.UUID,
    moves: Sequence[str],
    seconds: int,
    gave_up: bool,
) -> PuzzleAttempt:
    """Record a finished try and have it scored (once) by a Celery task.

    Submitting the same try again (same player, puzzle and ``client_id``) returns the same
    attempt and schedules nothing more. Only published puzzles, and one's own drafts, can be
    tried; a line that is not legal from the puzzle's position is refused.
    """
    if puzzle.proof is None:
        raise ApplicationError.coded("solving.not_open", extra={"status": puzzle.status})
    _moves_check(puzzle, moves)
    line = [Move.from_iccs(m).iccs() for m in moves]
    try:
        return _attempt_submit_once(puzzle, player, client_id, line, seconds, gave_up)
    except IntegrityError:  # a twin request inserted the same attempt first: read its row
        return _attempt_submit_once(puzzle, player, client_id, line, seconds, gave_up)


def _attempt_submit_once(
    puzzle: Puzzle,
    player: Player,
    client_id: uuid.UUID,
    moves: list[str],
    seconds: int,
    gave_up: bool,
) -> PuzzleAttempt:
    """One transaction: a new try costs three statements (lock-or-find, replay check,
    insert); a try that took hints already has a row, which is locked and updated."""
    from puzzles.tasks import puzzle_attempt_score_task

    with transaction.atomic():
        attempt = _attempt_locked(puzzle=puzzle, player=player, client_id=client_id)
        if attempt is not None and attempt.state != PuzzleAttempt.State.STARTED:
            if attempt.moves != moves or attempt.gave_up != gave_up:
                raise ApplicationError.coded(
                    "solving.already_submitted",
                    extra={
                        "field": "attempt_id",
                        "code": "already_submitted",
                        "attempt": attempt.pk,
                    },
                )
            return attempt
        fields = {
            "moves": moves,
            "gave_up": gave_up,
            "seconds": max(0, min(int(seconds), MAX_SECONDS)),
            "is_replay": PuzzleReplay.objects.filter(
                player.owner_q(), puzzle=puzzle, solved_at__isnull=True
            ).exists(),
            "state": PuzzleAttempt.State.SUBMITTED,
            "submitted_at": timezone.now(),
        }
        if attempt is None:
            attempt = PuzzleAttempt.objects.create(
                puzzle=puzzle, client_id=client_id, **player.owner_fields(), **fields
            )
        else:
            for name, value in fields.items():
                setattr(attempt, name, value)
            attempt.save(update_fields=[*fields, "updated_at"])
        attempt_id = attempt.pk
        # The page polls the attempt's row, never the task's result: none is stored.
        transaction.on_commit(
            lambda: puzzle_attempt_score_task.apply_async((attempt_id,), ignore_result=True)
        )
    return attempt


def _earlier_attempts(attempt: PuzzleAttempt) -> bool:
    """Has the owner tried this puzzle before this attempt?"""
    same_owner = (
        PuzzleAttempt.objects.filter(user_id=attempt.user_id)
        if attempt.user_id is not None
        else PuzzleAttempt.objects.filter(user__isnull=True, visitor_id=attempt.visitor_id)
    )
    return (
        same_owner.filter(puzzle_id=attempt.puzzle_id)
        .exclude(pk=attempt.pk)
        .exclude(state=PuzzleAttempt.State.STARTED)
        .filter(submitted_at__lte=attempt.submitted_at)
        .exists()
    )


def _replay_update(attempt: PuzzleAttempt, now: timezone.datetime) -> None:
    owner = {"user_id": attempt.user_id} if attempt.user_id else {
        "user__isnull": True, "visitor_id": attempt.visitor_id
    }  # fmt: skip
    replay = (
        PuzzleReplay.objects.select_for_update()
        .filter(puzzle_id=attempt.puzzle_id, **owner)
        .first()
    )
    if attempt.result == PuzzleAttempt.Result.SOLVED:
        if replay is not None and replay.solved_at is None:
            replay.solved_at = now
            replay.save(update_fields=["solved_at", "updated_at"])
        return
    if replay is None or replay.solved_at is not None:
        fields = {"user_id": attempt.user_id, "visitor_id": attempt.visitor_id}
        if replay is None:
            replay = PuzzleReplay(puzzle_id=attempt.puzzle_id, **fields)
        replay.step = 0
        replay.solved_at = None
    else:
        replay.step += 1
    interval = REPLAY_INTERVALS_DAYS[min(replay.step, len(REPLAY_INTERVALS_DAYS) - 1)]
    replay.due_at = now + timedelta(days=interval)
    replay.save()


def puzzle_attempt_score(*, attempt_id: int) -> PuzzleAttempt | None:
    """Score a submitted attempt: judge its line, update ratings, plays and replays — once.

    Locking: the attempt row is locked with ``select_for_update`` for the whole transaction, and
    the attempt is skipped when it is already scored, so a retried task or two workers racing on
    the same attempt score it exactly once. Rows are locked in one order (attempt, the user's
    rating, the puzzle) so that scorings of different attempts cannot deadlock.
    Returns the attempt, or ``None`` when it does not exist.
    """
    with transaction.atomic():
        attempt = (
            PuzzleAttempt.objects.select_for_update()
            .select_related("puzzle")
            .filter(pk=attempt_id)
            .first()
        )
        if attempt is None or attempt.state != PuzzleAttempt.State.SUBMITTED:
            return attempt  # gone, already scored, or not submitted: nothing to do
        puzzle = attempt.puzzle
        now = timezone.now()
        result = puzzle_line_result(puzzle=puzzle, moves=attempt.moves, gave_up=attempt.gave_up)
        rating_row = None
        if attempt.user_id is not None:
            PuzzleRating.objects.get_or_create(user_id=attempt.user_id, variant=puzzle.variant)
            rating_row = PuzzleRating.objects.select_for_update().get(
                user_id=attempt.user_id, variant=puzzle.variant
            )
        first_try = not _earlier_attempts(attempt)
        rated = (
            rating_row is not None
            and first_try
            and attempt.hints_used == 0
            and not attempt.is_replay
            and puzzle.status == Puzzle.Status.PUBLISHED
            and puzzle.author_id != attempt.user_id
        )
        locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        if rated and rating_row is not None:
            score = 1.0 if result == PuzzleAttempt.Result.SOLVED else 0.0
            user_new, puzzle_new = glicko2.rate_game(rating_row.glicko, locked.glicko, score)
            attempt.user_rating_before = rating_row.rating
            attempt.puzzle_rating_before = locked.rating
            rating_row.rating = user_new.rating
            rating_row.deviation = user_new.deviation
            rating_row.volatility = user_new.volatility
            rating_row.games = F("games") + 1
            rating_row.save()
            locked.rating = puzzle_new.rating
            locked.rating_deviation = puzzle_new.deviation
            locked.rating_volatility = puzzle_new.volatility
            locked.save(update_fields=["rating", "rating_deviation", "rating_volatility"])
            attempt.user_rating_after = user_new.rating
            attempt.puzzle_rating_after = puzzle_new.rating
        if first_try:
            Puzzle.objects.filter(pk=puzzle.pk).update(
                plays=F("plays") + 1,
                solves=F("solves") + (1 if result == PuzzleAttempt.Result.SOLVED else 0),
            )
        attempt.result = result
        attempt.rated = rated
        attempt.state = PuzzleAttempt.State.SCORED
        attempt.scored_at = now
        attempt.save()
        _replay_update(attempt, now)
    return attempt
