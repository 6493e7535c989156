"""Puzzle Streak and Puzzle Storm: runs of puzzles judged on the server, unrated.

A run (``PuzzleRun``) holds its sequence of puzzles, the puzzle reached, the line played in
it, the score and, for a storm, its clock. Each move is judged by the trainer's judge
(``solving.puzzle_judge``: any move that keeps the forced win is right, the defender's reply
comes from the proof); nothing here rates anything, and no answer is sent before the move.

- Streak: the day's sequence of a variant, the same for everyone (``streak_sequence``), from
  easy to hard; one skip; the first wrong move ends the run. The score is the puzzles solved.
- Storm: three minutes on the server's clock; a wrong move costs ``STORM_MISS_SECONDS`` and
  goes on to the next puzzle; every ``STORM_COMBO_STEP`` puzzles solved in a row give
  ``STORM_COMBO_SECONDS`` more. A move that arrives after the clock ran out is refused and
  ends the run. The score is the puzzles solved; the missed ones are listed for review.

Why a score cannot be forged: the page only ever sends a move, with the puzzle (``index``) and
the place in its line (``ply``) it is for. The server replays it on the line it holds, judges
it against the proof, and alone counts the score, the combo and the time; a request that is
out of step (sent twice, or from a second tab after the first moved on) is refused without
changing anything, and every move locks the run's row, so two requests are judged one after
the other.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from accounts.owners import Owner, owner_columns, owner_rows_of_visitor, owner_transfer
from core.exceptions import ApplicationError
from core.services import PlayedMove
from puzzles.models import Puzzle, PuzzleRun, PuzzleRunMet
from puzzles.services.solving import AttemptPosition, puzzle_judge, puzzle_line_position

if TYPE_CHECKING:
    from accounts.models import User

# Difficulty buckets of a sequence: the variant's puzzles sorted by rating, cut in this many
# slices of (nearly) equal size, easiest first; a variant with fewer puzzles has one a slice.
BUCKETS = 10
# The longest puzzles a run offers (moves of the attacker): a run is played fast.
STREAK_MAX_MOVES = 5
STORM_MAX_MOVES = 3
STORM_SECONDS = 180
STORM_MISS_SECONDS = 10
STORM_COMBO_STEP = 5
STORM_COMBO_SECONDS = 3


@dataclass(frozen=True)
class RunMove:
    """The answer to a move in a run."""

    verdict: str  # continue | solved | wrong | unknown (not judged in time, not played)
    move: PlayedMove | None
    reply: PlayedMove | None
    seconds: int = 0  # a storm's time won (bonus) or lost (miss) by this move


# --- Sequences -----------------------------------------------------------------------------


def _candidates(mode: str, variant: str) -> list[tuple[float, int]]:
    longest = STREAK_MAX_MOVES if mode == PuzzleRun.Mode.STREAK else STORM_MAX_MOVES
    rows = Puzzle.objects.filter(
        status=Puzzle.Status.PUBLISHED, variant=variant, moves_to_win__lte=longest
    )
    return sorted((float(rating), pk) for rating, pk in rows.values_list("rating", "pk"))


def _sequence(candidates: Sequence[tuple[float, int]], rng: random.Random) -> list[int]:
    """Every candidate once, easy to hard: the rating-sorted list cut in ``BUCKETS`` slices
    of nearly equal size (each slice holds at least one puzzle, however few there are), the
    slices in order, the puzzles of a slice shuffled."""
    count = len(candidates)
    buckets = min(BUCKETS, count)
    out: list[int] = []
    for bucket in range(buckets):
        ids = [
            pk
            for _rating, pk in candidates[
                bucket * count // buckets : (bucket + 1) * count // buckets
            ]
        ]
        rng.shuffle(ids)
        out.extend(ids)
    return out


def _day_seed(variant: str, day: date) -> int:
    digest = hashlib.sha256(f"streak:{variant}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def streak_sequence(*, variant: str, day: date) -> list[int]:
    """The day's streak of a variant, the same for everyone: seeded by the variant and date."""
    return _sequence(
        _candidates(PuzzleRun.Mode.STREAK, variant), random.Random(_day_seed(variant, day))
    )


def storm_sequence(*, variant: str, seed: int | None = None) -> list[int]:
    """A storm's puzzles, easy to hard, drawn afresh for each run."""
    return _sequence(_candidates(PuzzleRun.Mode.STORM, variant), random.Random(seed))


# --- Clock ---------------------------------------------------------------------------------


def storm_deadline(run: PuzzleRun) -> datetime:
    seconds = STORM_SECONDS + run.bonus_seconds - run.penalty_seconds
    return run.started_at + timedelta(seconds=seconds)


def run_time_left(run: PuzzleRun, now: datetime | None = None) -> float | None:
    """A storm's seconds left on the server's clock (0 once over); ``None`` for a streak."""
    if run.mode != PuzzleRun.Mode.STORM:
        return None
    if not run.is_open:
        return 0.0
    now = now or timezone.now()
    return max(0.0, (storm_deadline(run) - now).total_seconds())


def _finish(run: PuzzleRun, end: str, now: datetime) -> None:
    run.finished_at = now
    run.end = end
    run.line = []


def _expire(run: PuzzleRun, now: datetime) -> bool:
    """End an open storm whose clock ran out; ``True`` when it did."""
    if run.is_open and run.mode == PuzzleRun.Mode.STORM and now >= storm_deadline(run):
        _finish(run, PuzzleRun.End.TIME, now)
        return True
    return False


# --- Runs ----------------------------------------------------------------------------------


def _open_locked(player: Owner, mode: str, variant: str, now: datetime) -> PuzzleRun | None:
    """Inside a transaction: the player's open run of ``mode`` and ``variant``, locked, or
    ``None`` (a storm whose time ran out is ended on the way)."""
    run = (
        PuzzleRun.objects.select_for_update()
        .filter(player.q(), mode=mode, variant=variant, finished_at__isnull=True)
        .first()
    )
    if run is not None and _expire(run, now):
        run.save()
        return None
    return run


def run_current(*, player: Owner | None, mode: str, variant: str) -> PuzzleRun | None:
    """The player's run in progress in ``mode`` and ``variant``, or ``None``."""
    if player is None:
        return None
    with transaction.atomic():
        return _open_locked(player, mode, variant, timezone.now())


def run_start(*, player: Owner, mode: str, variant: str) -> tuple[PuzzleRun, bool]:
    """The player's run in progress, or a new one (``True``): one open run per owner, mode
    and variant (a database constraint), so a second tab or a reload goes on with it."""
    for _ in range(3):
        now = timezone.now()
        with transaction.atomic():
            run = _open_locked(player, mode, variant, now)
        if run is not None:
            return run, False
        day = timezone.localdate(now)
        if mode == PuzzleRun.Mode.STREAK:
            sequence = streak_sequence(variant=variant, day=day)
        else:
            sequence = storm_sequence(variant=variant)
        if not sequence:
            raise ApplicationError.coded("run.no_puzzles", extra={"field": "variant"})
        try:
            with transaction.atomic():
                run = PuzzleRun.objects.create(
                    **player.fields(),
                    mode=mode,
                    variant=variant,
                    day=day,
                    puzzles=sequence,
                    started_at=now,
                )
                _meet(run)
            return run, True
        except IntegrityError:  # a twin request started one first: go on with it
            continue
    raise ApplicationError.coded("run.start_failed", extra={"field": "run"})


def _run_locked(run_id: int, player: Owner | None) -> PuzzleRun:
    run = PuzzleRun.objects.select_for_update().filter(pk=run_id).first() if player else None
    if run is None or player is None or not player.owns(run):
        raise Http404("No such run.")
    return run


def run_get(*, run_id: int, player: Owner | None) -> PuzzleRun:
    """The player's run as it stands (a storm whose time ran out is ended on the way)."""
    with transaction.atomic():
        run = _run_locked(run_id, player)
        if _expire(run, timezone.now()):
            run.save()
    return run


def _require_open(run: PuzzleRun) -> None:
    if not run.is_open:
        raise ApplicationError.coded(
            "run.over", extra={"field": "run", "code": "run_over", "end": run.end}
        )


def _require_step(run: PuzzleRun, index: int, ply: int | None) -> None:
    """Refuse a request made for another puzzle or another place in the line than the run's:
    a request sent twice, or a second tab's after the first moved on, changes nothing."""
    if index != run.index or (ply is not None and ply != len(run.line)):
        raise ApplicationError.coded(
            "run.out_of_step",
            {"index": run.index + 1, "ply": len(run.line)},
            {"field": "index", "code": "out_of_step", "index": run.index, "ply": len(run.line)},
        )


def _meet(run: PuzzleRun) -> None:
    """Record that the run's owner met the puzzle the run has reached (``PuzzleRunMet``): a
    puzzle met in a run is not rated in the trainer afterwards. The puzzles met are those at
    ``puzzles[0]`` to ``puzzles[index]``: each is shown when the run reaches it, whether it is
    then solved, missed, skipped or left when the run ends."""
    if run.is_open and run.index < len(run.puzzles):
        PuzzleRunMet.objects.bulk_create(
            [PuzzleRunMet(**owner_columns(run), puzzle_id=run.puzzles[run.index])],
            ignore_conflicts=True,
        )


def _next_puzzle(run: PuzzleRun, now: datetime) -> None:
    run.index += 1
    run.line = []
    if run.index >= len(run.puzzles):
        _finish(run, PuzzleRun.End.COMPLETE, now)
    _meet(run)


def run_puzzle(run: PuzzleRun) -> Puzzle | None:
    """The puzzle the run has reached, or ``None`` once it is over."""
    if not run.is_open or run.index >= len(run.puzzles):
        return None
    return Puzzle.objects.filter(pk=run.puzzles[run.index]).first()


def run_position(run: PuzzleRun, puzzle: Puzzle) -> AttemptPosition:
    return puzzle_line_position(puzzle=puzzle, moves=run.line, is_open=run.is_open)


def run_move(
    *, run_id: int, player: Owner | None, move: str, index: int, ply: int | None = None
) -> tuple[PuzzleRun, RunMove]:
    """Play the attacker's ``move`` in puzzle ``index`` of the run, at ``ply`` of its line,
    and judge it with the trainer's judge. A storm move after the clock ran out is refused
    (``run.time_up``) and the run ends. Nothing is rated."""
    timed_out = False
    with transaction.atomic():
        run = _run_locked(run_id, player)
        now = timezone.now()
        if _expire(run, now):
            run.save()
            timed_out = True
        else:
            _require_open(run)
            _require_step(run, index, ply)
            answer = _judge(run, move, now)
            run.save()
    if timed_out:
        raise ApplicationError.coded("run.time_up", extra={"field": "run", "code": "time_up"})
    return run, answer


def _judge(run: PuzzleRun, move: str, now: datetime) -> RunMove:
    puzzle = Puzzle.objects.filter(pk=run.puzzles[run.index]).first()
    if puzzle is None or puzzle.proof is None:  # retired since the run started: pass it
        _next_puzzle(run, now)
        return RunMove(verdict="unknown", move=None, reply=None)
    result = puzzle_judge(puzzle=puzzle, moves=[*run.line, move])
    if result.verdict == "unknown":
        return RunMove(verdict="unknown", move=result.move, reply=None)
    run.moves_played += 1
    assert result.move is not None
    if result.verdict == "continue" and result.reply is not None:
        run.line = [*run.line, result.move.iccs, result.reply.iccs]
        return RunMove(verdict="continue", move=result.move, reply=result.reply)
    storm = run.mode == PuzzleRun.Mode.STORM
    seconds = 0
    if result.verdict == "solved":
        run.score += 1
        run.combo += 1
        run.best_combo = max(run.best_combo, run.combo)
        if storm and run.combo % STORM_COMBO_STEP == 0:
            seconds = STORM_COMBO_SECONDS
            run.bonus_seconds += seconds
        _next_puzzle(run, now)
        return RunMove(verdict="solved", move=result.move, reply=None, seconds=seconds)
    run.combo = 0
    run.missed = [*run.missed, puzzle.pk]
    if storm:
        seconds = -STORM_MISS_SECONDS
        run.penalty_seconds += STORM_MISS_SECONDS
        if not _expire(run, now):
            _next_puzzle(run, now)
    else:
        _finish(run, PuzzleRun.End.WRONG, now)
    return RunMove(verdict="wrong", move=result.move, reply=None, seconds=seconds)


def run_skip(*, run_id: int, player: Owner | None, index: int) -> PuzzleRun:
    """Skip the streak's puzzle ``index`` (once a run); it is neither solved nor missed."""
    with transaction.atomic():
        run = _run_locked(run_id, player)
        _require_open(run)
        _require_step(run, index, None)
        if run.mode != PuzzleRun.Mode.STREAK or run.skip_used:
            raise ApplicationError.coded("run.no_skip", extra={"field": "run", "code": "no_skip"})
        run.skip_used = True
        _next_puzzle(run, timezone.now())
        run.save()
    return run


def run_stop(*, run_id: int, player: Owner | None) -> PuzzleRun:
    """End the run now, with its score as it stands (a run already over is left as it is)."""
    with transaction.atomic():
        run = _run_locked(run_id, player)
        now = timezone.now()
        if run.is_open and not _expire(run, now):
            _finish(run, PuzzleRun.End.STOPPED, now)
        run.save()
    return run


def run_progress_merge(visitor_id: str, user: User) -> None:
    """Hand a visitor's runs to the account they sign in to; a visitor's run in progress is
    stopped when the account has one of the same mode and variant in progress too. The
    puzzles the visitor met in runs become the account's (each once)."""
    met = owner_rows_of_visitor(PuzzleRunMet.objects.all(), visitor_id)
    known = PuzzleRunMet.objects.filter(Owner(user=user).q()).values("puzzle_id")
    met.filter(puzzle_id__in=known).delete()
    owner_transfer(met, user)
    runs = owner_rows_of_visitor(PuzzleRun.objects.all(), visitor_id)
    busy = set(
        PuzzleRun.objects.filter(Owner(user=user).q(), finished_at__isnull=True).values_list(
            "mode", "variant"
        )
    )
    now = timezone.now()
    for run in runs.filter(finished_at__isnull=True):
        if (run.mode, run.variant) in busy:
            _finish(run, PuzzleRun.End.STOPPED, now)
            run.save()
    owner_transfer(runs, user)
