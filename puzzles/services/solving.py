"""Solving, played on the server the way a rated game is: the server opens an attempt, holds
the line played so far, judges each move against the stored proof as it arrives, and ends the
try at the first wrong move, at the goal, or when the player asks for the solution.

The browser never holds the solution. Hints and the solution are recorded on the attempt they
were asked under, and only a player's first attempt at a puzzle can be rated, so neither a
throwaway attempt nor the judge can be used to learn the answer before a rated try. Scoring (a
Celery task) reads the result the server judged, never a line the client sends.

A try is rated only when the player who ends it is signed in, and no solution of the puzzle was
shown from the same address in the last day (a visitor giving up, then solving "on the first
try" as an account, rates nothing), and the account has not ended ``PUZZLE_RATED_PER_MINUTE``
rated tries in the last minute (past that pace tries are accepted, unrated). The reason a try
is not rated is recorded on it when it ends, so the scoring task honours the identity that
made it even when the try changes owner (a visitor signing in) before it is scored.

Judging costs nothing while the line follows the stored proof; a move that leaves it is
searched within a small budget (``proving.LIVE_NODES``, about 0.1 s) and the answer is kept in
``PuzzleLineResult``, so the same line is never searched twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import Http404
from django.utils import timezone

from accounts.owners import Owner, owner_columns, owner_of_row_q
from core import glicko2
from core.exceptions import ApplicationError
from core.services import PlayedMove
from engine import EngineError, Move, Position
from engine.vocab import Verdict as VerdictWord
from puzzles import proving, tactics, tactics_refutation
from puzzles.models import (
    Puzzle,
    PuzzleAttempt,
    PuzzleLineResult,
    PuzzleRating,
    PuzzleReplay,
    PuzzleRunMet,
    PuzzleSolutionSeen,
    UnratedReason,
)

logger = logging.getLogger(__name__)

# Days until a failed puzzle comes back: after the first failure, the second, the third on.
REPLAY_INTERVALS_DAYS = (1, 3, 7)
MAX_SECONDS = 24 * 60 * 60
# A solution shown from an address keeps an account's try from that address unrated this long.
SEEN_WINDOW = timedelta(hours=24)
# Rated tries are counted over this window (``settings.PUZZLE_RATED_PER_MINUTE`` at most).
PACE_WINDOW = timedelta(minutes=1)
# A try still waiting to be scored this long after it ended has lost its scoring message: it is
# sent again (``puzzle_attempts_score_waiting``). Scoring takes milliseconds once a worker has it.
WAITING_AFTER = timedelta(minutes=10)
WAITING_BATCH = 500
HINT_PIECE = 1
HINT_MOVE = 2


@dataclass(frozen=True)
class JudgeResult:
    """The answer to "is my move right?"."""

    # continue | solved | wrong | unknown (could not be judged in time) | good (also good, but
    # not the best: a tactics puzzle's second-best move, not played)
    verdict: VerdictWord
    move: PlayedMove | None = None  # the attacker's move just judged
    reply: PlayedMove | None = None  # the defender's answer when the line goes on
    refutation: list[PlayedMove] = field(default_factory=list)  # after a wrong move
    reason: str = ""
    fen: str = ""  # the position after the reply (or after the last move when solved)
    legal_moves: list[str] = field(default_factory=list)  # the attacker's moves from ``fen``
    check: str | None = None  # the point of a general in check in ``fen``
    termination: str | None = None


@dataclass(frozen=True)
class AttemptPosition:
    """Where an attempt stands: its line in both notations and the position after it."""

    line: list[PlayedMove]
    fen: str
    legal_moves: list[str]  # the attacker's moves from ``fen``; empty once the try is over
    check: str | None


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


def _kept_answer(
    puzzle: Puzzle, kind: str, line: Sequence[str], compute: Callable[[], tuple[Any, bool]]
) -> Any:
    """The answer kept for this line of the puzzle, or the one ``compute()`` gives, kept only
    when it is decided (its second value): the same line is never searched twice once
    answered. An answer the budget ran out on (``unknown``, no hint found) is not kept, for a
    busy moment would fix it for everyone; the line is searched again when asked again."""
    proof = _require_proof(puzzle)
    digest = proving.proof_digest(proof)
    key = " ".join(line)
    rows = PuzzleLineResult.objects.filter(puzzle=puzzle, proof=digest, kind=kind, line=key)
    kept = rows.values_list("answer", flat=True).first()
    if kept is not None:
        return kept
    answer, decided = compute()
    if decided:
        PuzzleLineResult.objects.bulk_create(
            [PuzzleLineResult(puzzle=puzzle, proof=digest, kind=kind, line=key, answer=answer)],
            ignore_conflicts=True,  # a twin request kept the same answer first
        )
    return answer


def _line_verdict(puzzle: Puzzle, moves: Sequence[str]) -> proving.Verdict:
    proof = _require_proof(puzzle)
    if tactics.is_material(proof):
        # Read from the answers stored on the puzzle, no search: nothing to keep, and the
        # reason is said in this reader's language, not the first reader's.
        return proving.judge(proof=proof, moves=list(moves))

    def compute() -> tuple[Any, bool]:
        verdict = proving.judge(proof=proof, moves=list(moves))
        return verdict.to_data(), verdict.verdict != "unknown"

    answer = _kept_answer(puzzle, PuzzleLineResult.Kind.JUDGE, moves, compute)
    # kept for every reader: its reason is said again in this reader's language
    return proving.Verdict.from_data(answer).in_reader_language()


def puzzle_line_hint(*, puzzle: Puzzle, moves: Sequence[str]) -> str | None:
    """A winning attacker move after the legal line ``moves`` (attacker to move), or ``None``
    when none wins, or none was found within the budget."""
    proof = _require_proof(puzzle)

    def compute() -> tuple[Any, bool]:
        found = proving.hint(proof=proof, moves=moves)
        return {"move": found.move}, found.decided

    answer = _kept_answer(puzzle, PuzzleLineResult.Kind.HINT, moves, compute)
    move = answer.get("move")
    return str(move) if move else None


def puzzle_judge(*, puzzle: Puzzle, moves: Sequence[str], refute: bool = True) -> JudgeResult:
    """Judge the line ``moves`` (the attacker's moves and the defender's replies so far).

    The line must end with an attacker move. A wrong move of a tactics puzzle is refuted by a
    search (``puzzle_tactic_refutation``) unless ``refute`` is false (a storm, which goes
    straight on to its next puzzle, shows no refutation). Raises ``ApplicationError`` for a line that is not
    legal from the puzzle's position. Changes nothing but the kept answers of lines.
    """
    _require_proof(puzzle)
    if len(moves) % 2 == 0:
        raise ApplicationError.coded(
            "solving.ends_with_reply", extra={"field": "moves", "length": len(moves)}
        )
    position = _moves_check(puzzle, moves)
    moves = [Move.from_iccs(m).iccs() for m in moves]
    last = position.pop()
    played = _played(position, [last.iccs()])[0]
    position.push(last)
    verdict = _line_verdict(puzzle, moves)
    if verdict.verdict == "continue" and verdict.reply is not None:
        reply = _played(position, [verdict.reply])[0]
        position.push(Move.from_iccs(verdict.reply))
        return JudgeResult(
            verdict="continue",
            reply=reply,
            move=played,
            fen=position.fen(),
            legal_moves=sorted(m.iccs() for m in position.legal_moves),
            check=position.checked_general(),
            reason=verdict.reason,
        )
    if verdict.verdict == "solved":
        outcome = position.outcome()
        return JudgeResult(
            verdict="solved",
            move=played,
            fen=position.fen(),
            check=position.checked_general(),
            termination=outcome.termination if outcome else None,
            reason=verdict.reason,
        )
    if verdict.verdict in ("unknown", "good"):
        # Not played: it could not be judged in time, or (a tactics puzzle) it is also good,
        # but not the best. The solver tries another move from the same position.
        return JudgeResult(
            verdict=verdict.verdict, move=played, fen=position.fen(), reason=verdict.reason
        )
    if verdict.verdict != "wrong":
        logger.error("judge answered %s for puzzle %s line %s", verdict, puzzle.pk, moves)
    outcome = position.outcome()
    refutation, reason = _played(position, verdict.refutation), verdict.reason
    if refute and not refutation and tactics.is_material(puzzle.proof):
        refuted = puzzle_tactic_refutation(puzzle=puzzle, moves=moves)
        if refuted is not None:
            refutation, reason = [refuted[0]], refuted[1]
    return JudgeResult(
        verdict="wrong",
        move=played,
        refutation=refutation,
        fen=position.fen(),
        check=position.checked_general(),
        termination=outcome.termination if outcome else None,
        reason=reason,
    )


def puzzle_tactic_refutation(
    *, puzzle: Puzzle, moves: Sequence[str]
) -> tuple[PlayedMove, str] | None:
    """The opponent's best reply to the solver's wrong move (the last of the legal line
    ``moves``) in a tactics puzzle, and why the move fails, in the reader's language; ``None``
    when the game is over after the move, or the engine gave no reply (an error is logged and
    the try ends with the plain "wrong"). The engine searches ``PUZZLE_REFUTATION_NODES``
    positions (``tactics_refutation``), once a line: the answer is kept."""
    proof = _require_proof(puzzle)

    def compute() -> tuple[Any, bool]:
        try:
            found = tactics_refutation.refute(
                variant=puzzle.variant,
                fen=str(proof.get("fen") or puzzle.fen),
                moves=moves,
                nodes=settings.PUZZLE_REFUTATION_NODES,
            )
        except Exception:  # the try still ends, with the plain "wrong", and is tried again
            logger.exception("no refutation for puzzle %s line %s", puzzle.pk, list(moves))
            return {"reply": None}, False
        if found is None:
            return {"reply": None}, True
        return {"reply": found.reply, "won": found.won, "lost": found.lost}, True

    answer = _kept_answer(puzzle, PuzzleLineResult.Kind.REFUTATION, moves, compute)
    if not answer.get("reply"):
        return None
    from puzzles.selectors import tactic_refutation_text  # the selectors import this package

    position = Position.from_fen(puzzle.variant, puzzle.fen)
    for text in moves:
        position.push(Move.from_iccs(text))
    reply = _played(position, [str(answer["reply"])])[0]
    side = "black" if position.turn == "red" else "red"  # the solver's: the reply's opponent
    reason = tactic_refutation_text(
        reply=reply.chinese, side=side, won=answer.get("won") or {}, lost=answer.get("lost") or {}
    )
    return reply, reason


def puzzle_move_check(*, puzzle: Puzzle, moves: Sequence[str]) -> PlayedMove:
    """The last move of the legal line ``moves`` in both notations, judging nothing. Raises
    ``ApplicationError`` for a line that is not legal from the puzzle's position."""
    if len(moves) % 2 == 0:
        raise ApplicationError.coded(
            "solving.ends_with_reply", extra={"field": "moves", "length": len(moves)}
        )
    position = _moves_check(puzzle, moves)
    last = position.pop()
    return _played(position, [last.iccs()])[0]


def puzzle_line_result(*, puzzle: Puzzle, moves: Sequence[str], gave_up: bool) -> str:
    """``solved`` or ``failed`` for a whole line, judged with the offline budget. Only for
    attempts submitted whole before tries were played on the server (never rated)."""
    proof = _require_proof(puzzle)
    _moves_check(puzzle, moves)
    if gave_up or not moves:
        return PuzzleAttempt.Result.FAILED
    for end in range(1, len(moves) + 1, 2):
        verdict = proving.judge(
            proof=proof,
            moves=list(moves[:end]),
            nodes=proving.OFFLINE_NODES,
            seconds=proving.OFFLINE_SECONDS,
        )
        if verdict.verdict == "wrong":
            return PuzzleAttempt.Result.FAILED
        if verdict.verdict == "solved":
            return PuzzleAttempt.Result.SOLVED if end == len(moves) else PuzzleAttempt.Result.FAILED
    return PuzzleAttempt.Result.FAILED  # stopped half-way: counts as giving up


# --- Attempts ------------------------------------------------------------------------------


def puzzle_line_position(*, puzzle: Puzzle, moves: Sequence[str], is_open: bool) -> AttemptPosition:
    """The line ``moves`` (already judged) of ``puzzle`` in both notations and the position
    after it, with the attacker's moves from there while the try ``is_open``."""
    position = Position.from_fen(puzzle.variant, puzzle.fen)
    line = _played(position, moves)
    for move in moves:
        position.push(Move.from_iccs(move))
    legal = sorted(m.iccs() for m in position.legal_moves) if is_open else []
    return AttemptPosition(
        line=line, fen=position.fen(), legal_moves=legal, check=position.checked_general()
    )


def attempt_position(*, attempt: PuzzleAttempt) -> AttemptPosition:
    """The attempt's line in both notations and the position after it."""
    return puzzle_line_position(puzzle=attempt.puzzle, moves=attempt.moves, is_open=attempt.is_open)


def puzzle_tryable_check(*, puzzle: Puzzle) -> None:
    """Refuse a puzzle that cannot be tried (not proved yet)."""
    if puzzle.proof is None:
        raise ApplicationError.coded("solving.not_open", extra={"status": puzzle.status})


def puzzle_attempt_open(*, puzzle: Puzzle, player: Owner) -> tuple[PuzzleAttempt, bool]:
    """The player's open attempt at ``puzzle``, or a new one; ``True`` when it is new.

    A player has at most one open attempt per puzzle (a database constraint), so opening
    again, from another tab or after reloading the page, goes on with the same line, hints
    and all. A new attempt is the player's first try only if the player (account or visitor)
    has never opened one at this puzzle before; only a first try can be rated.
    """
    puzzle_tryable_check(puzzle=puzzle)
    for _ in range(3):
        earlier = list(
            PuzzleAttempt.objects.filter(player.q(), puzzle=puzzle)
            .select_related("puzzle")
            .order_by("-id")
        )
        for attempt in earlier:
            if attempt.is_open:
                return attempt, False
        fields = {
            "first_try": not earlier,
            "is_replay": bool(earlier)
            and PuzzleReplay.objects.filter(
                player.q(), puzzle=puzzle, solved_at__isnull=True
            ).exists(),
        }
        try:
            with transaction.atomic():
                attempt = PuzzleAttempt.objects.create(puzzle=puzzle, **player.fields(), **fields)
            return attempt, True
        except IntegrityError:  # a twin request opened one first: go on with it
            continue
    raise ApplicationError.coded("solving.open_failed", extra={"field": "attempt"})


def _attempt_locked(*, attempt_id: int, puzzle: Puzzle, player: Owner | None) -> PuzzleAttempt:
    """Inside a transaction: the player's attempt ``attempt_id`` at ``puzzle``, its row locked
    until the end of the transaction. Anyone else's, or none, is a 404."""
    attempt = (
        PuzzleAttempt.objects.select_for_update().filter(pk=attempt_id, puzzle=puzzle).first()
        if player is not None
        else None
    )
    if attempt is None or player is None or not player.owns(attempt):
        raise Http404("No such attempt.")
    attempt.puzzle = puzzle
    return attempt


def _require_open(attempt: PuzzleAttempt) -> None:
    if not attempt.is_open:
        raise ApplicationError.coded(
            "solving.attempt_over",
            extra={"field": "attempt", "code": "attempt_over", "state": attempt.state},
        )


def _solution_seen(puzzle: Puzzle, address: str, now: datetime) -> None:
    """Record that a solution of ``puzzle`` (or part of it) was shown to ``address`` (an
    ``address_key``), and forget a few records older than the window (rows another request is
    forgetting are skipped, so two requests never wait on each other)."""
    if not address:
        return
    PuzzleSolutionSeen.objects.create(puzzle=puzzle, address=address, seen_at=now)
    old = list(
        PuzzleSolutionSeen.objects.select_for_update(skip_locked=True)
        .filter(seen_at__lt=now - SEEN_WINDOW)
        .values_list("pk", flat=True)[:100]
    )
    if old:
        PuzzleSolutionSeen.objects.filter(pk__in=old).delete()


def puzzle_solutions_seen(
    *, player: Owner, address: str, puzzle_ids: Sequence[int] | None = None
) -> set[int]:
    """The puzzles (of ``puzzle_ids``, or all) whose solution, or part of it, ``player`` has
    been shown, or anyone at ``address`` (an ``address_key``) in the last ``SEEN_WINDOW``: the
    player's tries that ended (their page shows the solution: solved, failed, given up), a try
    with a hint, the player's own published puzzles, and the address's record
    (``PuzzleSolutionSeen``: given up, a wrong move refuted, a hint)."""
    if puzzle_ids is not None and not puzzle_ids:
        return set()
    only = Q() if puzzle_ids is None else Q(puzzle_id__in=list(puzzle_ids))
    shown = (
        Q(state__in=(PuzzleAttempt.State.SUBMITTED, PuzzleAttempt.State.SCORED))
        | Q(hints_used__gt=0)
        | Q(gave_up=True)
    )
    seen = set(
        PuzzleAttempt.objects.filter(player.q(), only, shown).values_list("puzzle_id", flat=True)
    )
    if address:
        recent = timezone.now() - SEEN_WINDOW
        seen |= set(
            PuzzleSolutionSeen.objects.filter(only, address=address, seen_at__gte=recent)
            .values_list("puzzle_id", flat=True)
            .distinct()
        )
    if player.user is not None:
        authored = Puzzle.objects.filter(author_id=player.user.pk)
        if puzzle_ids is not None:
            authored = authored.filter(pk__in=list(puzzle_ids))
        seen |= set(authored.values_list("pk", flat=True))
    return seen


def _unrated_by_rule(attempt: PuzzleAttempt, puzzle: Puzzle) -> str:
    """Why the attempt cannot be rated by the rules of the try itself, or ``""``."""
    if puzzle.status == Puzzle.Status.PRIVATE:
        return UnratedReason.MISSED
    if attempt.user_id is None:
        return UnratedReason.VISITOR
    if not attempt.first_try:
        return UnratedReason.NOT_FIRST_TRY
    if attempt.is_replay:
        return UnratedReason.REPLAY
    if attempt.hints_used:
        return UnratedReason.HINTS
    if attempt.gave_up:
        return UnratedReason.GAVE_UP
    if puzzle.author_id is not None and puzzle.author_id == attempt.user_id:
        return UnratedReason.OWN_PUZZLE
    if puzzle.status != Puzzle.Status.PUBLISHED:
        return UnratedReason.NOT_PUBLISHED
    return ""


def _unrated_reason(attempt: PuzzleAttempt, address: str, now: datetime) -> str:
    """Why the try ending now cannot be rated, or ``""``: the rules of the try, then the
    puzzle met in one of the player's runs (``PuzzleRunMet``), then a solution seen from the
    same address within ``SEEN_WINDOW``, then the account's pace.

    Locking: called with the attempt row locked; locks the user's row until the transaction
    ends, so that two tries ending at once are counted one after the other."""
    reason = _unrated_by_rule(attempt, attempt.puzzle)
    if reason:
        return reason
    if PuzzleRunMet.objects.filter(owner_of_row_q(attempt), puzzle_id=attempt.puzzle_id).exists():
        return UnratedReason.MET_IN_RUN
    seen = PuzzleSolutionSeen.objects.filter(
        puzzle_id=attempt.puzzle_id, address=address, seen_at__gte=now - SEEN_WINDOW
    )
    if address and seen.exists():
        return UnratedReason.SEEN_NEARBY
    user_id = attempt.user_id
    assert user_id is not None  # a visitor's try stopped at the rules
    list(get_user_model().objects.select_for_update().filter(pk=user_id).values_list("pk"))
    rated_lately = (
        PuzzleAttempt.objects.filter(
            user_id=user_id,
            submitted_at__gte=now - PACE_WINDOW,
            state__in=(PuzzleAttempt.State.SUBMITTED, PuzzleAttempt.State.SCORED),
            unrated_reason="",
        )
        .exclude(pk=attempt.pk)
        .count()
    )
    if rated_lately >= settings.PUZZLE_RATED_PER_MINUTE:
        return UnratedReason.PACE
    return ""


def _finish(attempt: PuzzleAttempt, result: str, now: datetime, address: str = "") -> None:
    """End the try with ``result``, decide whether it can be rated (from the player ending it,
    from ``address``) and have it scored (once) by a Celery task."""
    attempt.unrated_reason = _unrated_reason(attempt, address, now)
    attempt.result = result
    attempt.state = PuzzleAttempt.State.SUBMITTED
    attempt.submitted_at = now
    attempt.seconds = max(0, min(int((now - attempt.created_at).total_seconds()), MAX_SECONDS))
    attempt.save()
    _score_later(attempt.pk)


def _score_later(attempt_id: int) -> None:
    """Have the attempt scored by a Celery task once the transaction commits. Sending it again
    is harmless: the task skips an attempt already scored."""
    from puzzles.tasks import puzzle_attempt_score_task

    # The page polls the attempt's row, never the task's result: none is stored.
    transaction.on_commit(
        lambda: puzzle_attempt_score_task.apply_async((attempt_id,), ignore_result=True)
    )


def puzzle_attempt_move(
    *,
    attempt_id: int,
    puzzle: Puzzle,
    player: Owner | None,
    move: str,
    ply: int | None = None,
    address: str = "",
) -> tuple[PuzzleAttempt, JudgeResult]:
    """Play the attacker's ``move`` in the open attempt and judge it against the proof.

    ``continue``: the move and the defender's reply join the attempt's line. ``solved`` and
    ``wrong`` end the try (the first wrong move ends it). ``unknown``: the move could not be
    judged within the budget and is not played; another may be tried. ``good`` (a tactics
    puzzle): also good, but not the best; not played either, the solver tries again. ``ply``, when given, is
    where the move goes in the line: a move sent again after a lost answer gets the same
    answer, and a move out of step is refused. ``address`` (``core.addresses.address_key``)
    is where the player is: a wrong move shows the refutation to it.
    """
    with transaction.atomic():
        attempt = _attempt_locked(attempt_id=attempt_id, puzzle=puzzle, player=player)
        line = list(attempt.moves)
        if ply is not None and ply != len(line):
            if ply < len(line) and ply % 2 == 0 and line[ply] == move:
                if attempt.state == PuzzleAttempt.State.SUBMITTED:
                    _score_later(attempt.pk)  # its message may have been lost with the answer
                return attempt, puzzle_judge(puzzle=puzzle, moves=line[: ply + 1])
            raise ApplicationError.coded(
                "solving.out_of_step",
                {"ply": len(line)},
                {"field": "ply", "code": "out_of_step", "ply": len(line)},
            )
        _require_open(attempt)
        result = puzzle_judge(puzzle=puzzle, moves=[*line, move])
        assert result.move is not None
        if result.verdict in ("unknown", "good"):
            return attempt, result
        line.append(result.move.iccs)
        if result.verdict == "continue" and result.reply is not None:
            attempt.moves = [*line, result.reply.iccs]
            attempt.save(update_fields=["moves", "updated_at"])
            return attempt, result
        attempt.moves = line
        solved = result.verdict == "solved"
        result_name = PuzzleAttempt.Result.SOLVED if solved else PuzzleAttempt.Result.FAILED
        now = timezone.now()
        _finish(attempt, result_name, now, address)
        if not solved:
            _solution_seen(puzzle, address, now)
    return attempt, result


def puzzle_attempt_hint(
    *, attempt_id: int, puzzle: Puzzle, player: Owner | None, level: int, address: str = ""
) -> tuple[PuzzleAttempt, dict[str, str]]:
    """A hint for the attacker's next move in the open attempt: level 1 names the piece,
    level 2 the move. It is recorded on the attempt, which can then no longer be rated."""
    with transaction.atomic():
        attempt = _attempt_locked(attempt_id=attempt_id, puzzle=puzzle, player=player)
        _require_open(attempt)
        best = puzzle_line_hint(puzzle=puzzle, moves=attempt.moves)
        if best is None:
            raise ApplicationError.coded(
                "solving.no_hint", extra={"field": "attempt", "code": "no_hint"}
            )
        attempt.hints_used += 1
        attempt.save(update_fields=["hints_used", "updated_at"])
        _solution_seen(puzzle, address, timezone.now())
    if level >= HINT_MOVE:
        return attempt, {"from": best[:2], "to": best[2:], "move": best}
    return attempt, {"from": best[:2]}


def puzzle_attempt_give_up(
    *, attempt_id: int, puzzle: Puzzle, player: Owner | None, address: str = ""
) -> PuzzleAttempt:
    """Show the solution: the open try ends, failed and unrated. An attempt already over is
    returned as it is (its solution can be shown too). Either way the solution is shown to
    ``address``."""
    with transaction.atomic():
        attempt = _attempt_locked(attempt_id=attempt_id, puzzle=puzzle, player=player)
        now = timezone.now()
        if attempt.is_open:
            attempt.gave_up = True
            _finish(attempt, PuzzleAttempt.Result.FAILED, now, address)
        elif attempt.state == PuzzleAttempt.State.SUBMITTED:
            _score_later(attempt.pk)  # its message may have been lost with the first answer
        _solution_seen(puzzle, address, now)
    return attempt


def puzzle_attempts_score_waiting(*, now: datetime | None = None) -> list[int]:
    """Send the scoring message again for the tries that ended more than ``WAITING_AFTER`` ago
    and are still waiting to be scored (at most ``WAITING_BATCH``, the oldest first); returns
    their ids.

    A try's message is sent when the transaction that ends it commits. It is lost when the
    answer to that commit is (the database went away just after committing: the message is
    dropped with the transaction's other commit hooks), when the broker refuses it, or when
    the task gives up after its retries (a database outage longer than they last). A player
    who sends the same move again gets it sent again; this finds the others. Harmless when a
    message is merely slow: the task skips an attempt already scored.
    """
    cutoff = (now or timezone.now()) - WAITING_AFTER
    waiting = list(
        PuzzleAttempt.objects.filter(state=PuzzleAttempt.State.SUBMITTED, submitted_at__lt=cutoff)
        .order_by("submitted_at")
        .values_list("pk", flat=True)[:WAITING_BATCH]
    )
    for attempt_id in waiting:
        _score_later(attempt_id)
    return waiting


def _replay_update(attempt: PuzzleAttempt, now: datetime) -> None:
    replay = (
        PuzzleReplay.objects.select_for_update()
        .filter(owner_of_row_q(attempt), puzzle_id=attempt.puzzle_id)
        .first()
    )
    if attempt.result == PuzzleAttempt.Result.SOLVED:
        if replay is not None and replay.solved_at is None:
            replay.solved_at = now
            replay.save(update_fields=["solved_at", "updated_at"])
        return
    if replay is None or replay.solved_at is not None:
        if replay is None:
            replay = PuzzleReplay(puzzle_id=attempt.puzzle_id, **owner_columns(attempt))
        replay.step = 0
        replay.solved_at = None
    else:
        replay.step += 1
    interval = REPLAY_INTERVALS_DAYS[min(replay.step, len(REPLAY_INTERVALS_DAYS) - 1)]
    replay.due_at = now + timedelta(days=interval)
    replay.save()


def puzzle_attempt_score(*, attempt_id: int) -> PuzzleAttempt | None:
    """Score a finished attempt from the result the server judged: ratings, plays, replays —
    once. Rated only for a logged-in player's first try, without hints or the solution shown,
    at a published puzzle the player did not author, and only when nothing kept it unrated
    when it ended (``unrated_reason``, decided from the player who ended it: a visitor's try
    stays unrated after the visitor signs in, even when it is scored after that).

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
        result = attempt.result
        if result == PuzzleAttempt.Result.PENDING:  # submitted whole, before server play
            result = puzzle_line_result(puzzle=puzzle, moves=attempt.moves, gave_up=attempt.gave_up)
        rating_row = None
        if attempt.user_id is not None:
            PuzzleRating.objects.get_or_create(user_id=attempt.user_id, variant=puzzle.variant)
            rating_row = PuzzleRating.objects.select_for_update().get(
                user_id=attempt.user_id, variant=puzzle.variant
            )
        first_try = attempt.first_try
        reason = attempt.unrated_reason or _unrated_by_rule(attempt, puzzle)
        rated = rating_row is not None and not reason
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
        attempt.unrated_reason = reason
        attempt.state = PuzzleAttempt.State.SCORED
        attempt.scored_at = now
        attempt.save()
        _replay_update(attempt, now)
    return attempt
