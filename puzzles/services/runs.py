"""Puzzle Streak and Puzzle Storm: runs of puzzles judged on the server, unrated.

A run (``PuzzleRun``) holds its sequence of puzzles, the puzzle reached, the line played in
it, the score and, for a storm, its clock. Each move is judged by the trainer's judge
(``solving.puzzle_judge``: any move that keeps the forced win is right, the defender's reply
comes from the proof); nothing here rates anything, and no answer is sent before the move.

- Streak: the day's sequence of a variant for one player (``streak_sequence``, seeded by the
  variant, the date and the player, with the site's secret), from easy to hard; one skip; the
  first wrong move ends the run. The score is the puzzles solved.
- Storm: three minutes on the server's clock; a wrong move costs ``STORM_MISS_SECONDS`` and
  goes on to the next puzzle; every ``STORM_COMBO_STEP`` puzzles solved in a row give
  ``STORM_COMBO_SECONDS`` more, ``STORM_BONUS_MAX_SECONDS`` at most in all. A move that arrives
  after the clock ran out is refused and ends the run. The score is the puzzles solved; the
  missed ones are listed for review.

Why a score cannot be forged: the page only ever sends a move, with the puzzle (``index``) and
the place in its line (``ply``) it is for. The server replays it on the line it holds, judges
it against the proof, and alone counts the score, the combo and the time; a request that is
out of step (sent twice, or from a second tab after the first moved on) is refused without
changing anything, and every move locks the run's row, so two requests are judged one after
the other.

Why the trainer's answers do not help: a run never offers a puzzle whose solution its player
has been shown (``solving.puzzle_solutions_seen``: a try of theirs that ended, a hint, their
own puzzle, or a solution shown from their address in the last day), and a move in a puzzle
whose solution was shown since the run reached it counts as missed (``reason``
``solution_seen``), whatever the move.

Why a bot is not on the leaderboard: a move that arrives less than ``QUICK_MOVE_SECONDS`` after
the server's previous answer in the run (``updated_at``) is quicker than a person sees the
position and moves; a run with ``TOO_FAST_MOVES`` such moves, a ``1/TOO_FAST_SHARE`` of its
moves or more, is ``too_fast`` for good and left off the leaderboard (its owner keeps the
score).

A visitor's run lives in the session; a run of a visitor in which nothing was played for
``SWEEP_UNPLAYED_AFTER`` (a program that dropped its session leaves those) is deleted by
``run_sweep_abandoned`` (Celery beat).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.owners import Owner, owner_columns, owner_rows_of_visitor, owner_transfer
from core.exceptions import ApplicationError
from core.services import PlayedMove
from puzzles.models import Puzzle, PuzzleRun, PuzzleRunMet
from puzzles.services.solving import (
    AttemptPosition,
    puzzle_judge,
    puzzle_line_position,
    puzzle_move_check,
    puzzle_solutions_seen,
)

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
# A storm's bonus time in all: twenty combos. Past it, combos give no more time, so a storm
# ends within STORM_SECONDS + STORM_BONUS_MAX_SECONDS however fast its puzzles are solved.
STORM_BONUS_MAX_SECONDS = 60
# A move sooner than this after the server's previous answer is quicker than a person can see
# the position and move (the page alone shows a reply for 0.25 s before the next move).
QUICK_MOVE_SECONDS = 0.4
# A run with this many quick moves, when they are at least 1/TOO_FAST_SHARE of its moves, is
# left off the leaderboard: a person may move at once now and then, not run after run.
TOO_FAST_MOVES = 5
TOO_FAST_SHARE = 4
# A visitor's run in which nothing was played is deleted after this long without an answer.
SWEEP_UNPLAYED_AFTER = timedelta(hours=1)
SWEEP_BATCH = 500
SWEEP_MAX_BATCHES = 20
# Why a move counts as missed without being judged.
SOLUTION_SEEN = "solution_seen"


@dataclass(frozen=True)
class RunMove:
    """The answer to a move in a run."""

    verdict: str  # continue | solved | wrong | unknown (not judged in time, not played)
    move: PlayedMove | None
    reply: PlayedMove | None
    seconds: int = 0  # a storm's time won (bonus) or lost (miss) by this move
    reason: str = ""  # solution_seen: missed, for its solution was shown to the player
    # A streak's wrong move ends the run: the answer that refutes it, as the trainer shows it
    # (a mate's escaping defence, a tactic's best reply), and why, in words. A storm goes
    # straight on to its next puzzle, and shows none.
    refutation: list[PlayedMove] = field(default_factory=list)
    explanation: str = ""


# --- Sequences -----------------------------------------------------------------------------


def _candidates(mode: str, variant: str) -> list[tuple[float, int]]:
    longest = STREAK_MAX_MOVES if mode == PuzzleRun.Mode.STREAK else STORM_MAX_MOVES
    # The mates and the tactics (``material``) together, in the order of their ratings.
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


def _owner_key(player: Owner) -> str:
    return f"user:{player.user_id}" if player.user is not None else f"visitor:{player.visitor_id}"


def _day_seed(variant: str, day: date, player: Owner) -> int:
    """A seed for the player's streak of the day: keyed with the site's secret, so that no one
    can work out another player's order, or their own before the day."""
    value = f"{variant}:{day.isoformat()}:{_owner_key(player)}"
    digest = salted_hmac("puzzles.runs.streak", value, algorithm="sha256").digest()
    return int.from_bytes(digest[:8], "big")


def streak_sequence(*, variant: str, day: date, player: Owner) -> list[int]:
    """The player's streak of a variant for the day: the same all day (a new run after a
    wrong move meets the same puzzles), another for each player, so that no one can learn
    the order from another account."""
    return _sequence(
        _candidates(PuzzleRun.Mode.STREAK, variant), random.Random(_day_seed(variant, day, player))
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


def run_start(
    *, player: Owner, mode: str, variant: str, address: str = ""
) -> tuple[PuzzleRun, bool]:
    """The player's run in progress, or a new one (``True``): one open run per owner, mode
    and variant (a database constraint), so a second tab or a reload goes on with it. A new
    run leaves out the puzzles whose solution the player, or ``address`` (an
    ``address_key``), has been shown (``puzzle_solutions_seen``)."""
    for _ in range(3):
        now = timezone.now()
        with transaction.atomic():
            run = _open_locked(player, mode, variant, now)
        if run is not None:
            return run, False
        day = timezone.localdate(now)
        if mode == PuzzleRun.Mode.STREAK:
            sequence = streak_sequence(variant=variant, day=day, player=player)
        else:
            sequence = storm_sequence(variant=variant)
        if not sequence:
            raise ApplicationError.coded("run.no_puzzles", extra={"field": "variant"})
        seen = puzzle_solutions_seen(player=player, address=address)
        sequence = [pk for pk in sequence if pk not in seen]
        if not sequence:
            raise ApplicationError.coded("run.all_seen", extra={"field": "variant"})
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
    *,
    run_id: int,
    player: Owner | None,
    move: str,
    index: int,
    ply: int | None = None,
    address: str = "",
) -> tuple[PuzzleRun, RunMove]:
    """Play the attacker's ``move`` in puzzle ``index`` of the run, at ``ply`` of its line,
    and judge it with the trainer's judge; in a puzzle whose solution the player, or
    ``address`` (an ``address_key``), has been shown, the move counts as missed. A storm move
    after the clock ran out is refused (``run.time_up``) and the run ends. Nothing is rated."""
    timed_out = False
    with transaction.atomic():
        run = _run_locked(run_id, player)
        assert player is not None  # the run is the player's
        now = timezone.now()
        if _expire(run, now):
            run.save()
            timed_out = True
        else:
            _require_open(run)
            _require_step(run, index, ply)
            answer = _judge(run, move, now, player, address)
            if answer.move is not None and answer.verdict not in ("unknown", "good"):
                _pace(run, now)
            run.save()
    if timed_out:
        raise ApplicationError.coded("run.time_up", extra={"field": "run", "code": "time_up"})
    return run, answer


def _pace(run: PuzzleRun, now: datetime) -> None:
    """Count a move played now: quick when it came sooner after the server's previous answer
    (the run's last save) than a person can move; too many quick moves make the run
    ``too_fast`` for good."""
    if run.updated_at is not None and (now - run.updated_at).total_seconds() < QUICK_MOVE_SECONDS:
        run.quick_moves += 1
    if run.quick_moves >= TOO_FAST_MOVES and run.quick_moves * TOO_FAST_SHARE >= run.moves_played:
        run.too_fast = True


def _judge(run: PuzzleRun, move: str, now: datetime, player: Owner, address: str) -> RunMove:
    puzzle = Puzzle.objects.filter(pk=run.puzzles[run.index]).first()
    if puzzle is None or puzzle.proof is None:  # retired since the run started: pass it
        _next_puzzle(run, now)
        return RunMove(verdict="unknown", move=None, reply=None)
    if puzzle_solutions_seen(player=player, address=address, puzzle_ids=[puzzle.pk]):
        played = puzzle_move_check(puzzle=puzzle, moves=[*run.line, move])
        run.moves_played += 1
        seconds = _miss(run, puzzle, now)
        return RunMove(
            verdict="wrong", move=played, reply=None, seconds=seconds, reason=SOLUTION_SEEN
        )
    streak = run.mode == PuzzleRun.Mode.STREAK
    result = puzzle_judge(puzzle=puzzle, moves=[*run.line, move], refute=streak)
    if result.verdict in ("unknown", "good"):
        return RunMove(verdict=result.verdict, move=result.move, reply=None)
    run.moves_played += 1
    assert result.move is not None
    if result.verdict == "continue" and result.reply is not None:
        run.line = [*run.line, result.move.iccs, result.reply.iccs]
        return RunMove(verdict="continue", move=result.move, reply=result.reply)
    if result.verdict == "solved":
        run.score += 1
        run.combo += 1
        run.best_combo = max(run.best_combo, run.combo)
        seconds = 0
        if run.mode == PuzzleRun.Mode.STORM and run.combo % STORM_COMBO_STEP == 0:
            seconds = max(0, min(STORM_COMBO_SECONDS, STORM_BONUS_MAX_SECONDS - run.bonus_seconds))
            run.bonus_seconds += seconds
        _next_puzzle(run, now)
        return RunMove(verdict="solved", move=result.move, reply=None, seconds=seconds)
    seconds = _miss(run, puzzle, now)
    if not streak:
        return RunMove(verdict="wrong", move=result.move, reply=None, seconds=seconds)
    return RunMove(
        verdict="wrong", move=result.move, reply=None, seconds=seconds,
        refutation=result.refutation, explanation=result.reason,
    )  # fmt: skip


def _miss(run: PuzzleRun, puzzle: Puzzle, now: datetime) -> int:
    """The run's puzzle is missed: a streak ends, a storm loses ``STORM_MISS_SECONDS`` and goes
    on (unless that ran its clock out). The seconds lost (negative)."""
    run.combo = 0
    run.missed = [*run.missed, puzzle.pk]
    if run.mode != PuzzleRun.Mode.STORM:
        _finish(run, PuzzleRun.End.WRONG, now)
        return 0
    run.penalty_seconds += STORM_MISS_SECONDS
    if not _expire(run, now):
        _next_puzzle(run, now)
    return -STORM_MISS_SECONDS


def run_skip(*, run_id: int, player: Owner | None, index: int) -> PuzzleRun:
    """Skip the streak's puzzle ``index`` (once a run); it is neither solved nor missed."""
    with transaction.atomic():
        run = _run_locked(run_id, player)
        _require_open(run)
        _require_step(run, index, None)
        if run.mode != PuzzleRun.Mode.STREAK or run.skip_used:
            raise ApplicationError.coded("run.no_skip", extra={"field": "run", "code": "no_skip"})
        run.skip_used = True
        run.skipped = [*run.skipped, run.puzzles[run.index]]
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


def run_sweep_abandoned(
    *, now: datetime | None = None, batch: int = SWEEP_BATCH, max_batches: int = SWEEP_MAX_BATCHES
) -> int:
    """Delete visitors' runs in which nothing was played (no move, no skip) and the server has
    not answered for ``SWEEP_UNPLAYED_AFTER``, oldest first, ``batch`` a transaction and at
    most ``max_batches`` batches, with the puzzles those visitors met in runs when no run of
    theirs is left; returns how many runs went. A program that drops the session it is given
    leaves such runs behind (nobody can read them again); a visitor who comes back later to a
    run never played starts a new one. A move arriving at the same moment keeps its run: the
    row is deleted only while it still matches (PostgreSQL reads it again after the move's
    lock)."""
    now = now or timezone.now()
    cutoff = now - SWEEP_UNPLAYED_AFTER
    unplayed = Q(user__isnull=True, moves_played=0, skip_used=False, updated_at__lt=cutoff)
    deleted = 0
    for _ in range(max_batches):
        with transaction.atomic():
            rows = list(
                PuzzleRun.objects.filter(unplayed)
                .order_by("updated_at")
                .values_list("pk", "visitor_id")[:batch]
            )
            if rows:
                ids = [pk for pk, _ in rows]
                _total, by_model = PuzzleRun.objects.filter(unplayed, pk__in=ids).delete()
                deleted += by_model.get(PuzzleRun._meta.label, 0)
                visitors = {visitor for _, visitor in rows if visitor}
                still = PuzzleRun.objects.filter(visitor_id__in=visitors, user__isnull=True)
                gone = visitors - set(still.values_list("visitor_id", flat=True))
                PuzzleRunMet.objects.filter(
                    user__isnull=True, visitor_id__in=gone, created_at__lt=cutoff
                ).delete()
        if len(rows) < batch:
            break
    return deleted
