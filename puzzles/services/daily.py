"""The daily puzzle: one per variant per day, chosen from well-rated puzzles never used before;
a variant with tactics puzzles (``material``) alternates: a tactic on odd days (by the date's
ordinal), a mate on even ones, and the other kind when one has no puzzle left."""

from __future__ import annotations

import datetime
import random

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from puzzles.models import DailyPuzzle, Goal, Puzzle, Variant

# Candidates: published, two to five moves (never a one-mover), never used before. Well-rated
# ones (played often enough that the rating is known: small deviation) come first; the pick
# among them is seeded by the date, so choosing again on the same day picks the same puzzle.
MIN_MOVES = 2
MAX_MOVES = 5
WELL_RATED_DEVIATION = 120.0
WELL_RATED_PLAYS = 20
SHORTLIST = 50


def _unused(variants: list[str]) -> QuerySet[Puzzle]:
    return Puzzle.objects.filter(
        variant__in=variants,
        status=Puzzle.Status.PUBLISHED,
        moves_to_win__gte=MIN_MOVES,
        daily__isnull=True,
    )


def tactics_day(date: datetime.date) -> bool:
    """Whether ``date``'s daily puzzle is a tactic, where its variant has one left."""
    return date.toordinal() % 2 == 1


# The home page and the daily pages show the day's puzzles on every view; once chosen they
# change only in their rating, so the list is kept this long in the cache.
ENSURED_SECONDS = 60


def daily_puzzles_ensure(*, date: datetime.date) -> list[DailyPuzzle]:
    """The daily puzzles of ``date`` with their puzzles, in the order of ``Variant``; chooses
    first when a variant without one has a candidate. The pages call this on every view: the
    answer is kept in the cache for ``ENSURED_SECONDS`` (a puzzle published meanwhile in a
    variant that had none becomes its daily puzzle after that at the latest)."""
    from puzzles.selectors import daily_puzzles_for  # the selectors import this package

    key = f"puzzles:daily:{date.isoformat()}"
    cached = cache.get(key)
    if cached is not None:
        return list(cached)
    dailies = daily_puzzles_for(date)
    missing = sorted(set(Variant.values) - {d.variant for d in dailies})
    if missing and _unused(missing).exists():
        daily_puzzles_choose(date=date)
        dailies = daily_puzzles_for(date)
    cache.set(key, dailies, ENSURED_SECONDS)
    return dailies


def _candidates(variant: str, date: datetime.date) -> list[int]:
    unused = _unused([variant])
    tactics = unused.filter(goal=Goal.MATERIAL)
    mates = unused.exclude(goal=Goal.MATERIAL)
    kinds = (tactics, mates) if tactics_day(date) else (mates, tactics)
    for base in kinds:
        short = base.filter(moves_to_win__lte=MAX_MOVES)
        well_rated = short.filter(
            rating_deviation__lte=WELL_RATED_DEVIATION, plays__gte=WELL_RATED_PLAYS
        )
        for rows in (well_rated, short, base):
            ids = list(
                rows.order_by("-plays", "rating_deviation", "id").values_list("id", flat=True)[
                    :SHORTLIST
                ]
            )
            if ids:
                return ids
    return []


def _replace(daily: DailyPuzzle, *, date: datetime.date) -> DailyPuzzle | None:
    """Give ``daily`` another published puzzle of its variant; None when there is none."""
    candidates = _candidates(daily.variant, date)
    if not candidates:
        return None
    rng = random.Random(f"{date.isoformat()}:{daily.variant}:again")
    try:
        with transaction.atomic():
            DailyPuzzle.objects.filter(pk=daily.pk, puzzle_id=daily.puzzle_id).update(
                puzzle_id=rng.choice(candidates)
            )
    except IntegrityError:
        pass  # chosen meanwhile by a concurrent caller: read what it chose
    return DailyPuzzle.objects.filter(pk=daily.pk).select_related("puzzle").first()


def daily_puzzles_choose(*, date: datetime.date) -> list[DailyPuzzle]:
    """Make sure each variant has its daily puzzle for ``date``; return them (idempotent).

    Safe to run concurrently (the scheduled task and a page view): the database allows one row
    per (date, variant) and uses each puzzle once; a lost race reads the winner's row.
    """
    chosen = []
    existing = {
        d.variant: d for d in DailyPuzzle.objects.filter(date=date).select_related("puzzle")
    }
    for variant in Variant.values:
        daily = existing.get(variant)
        if daily is not None and daily.puzzle.status != Puzzle.Status.PUBLISHED:
            # Its puzzle left the bank (retired) since it was chosen: the day gets another.
            daily = _replace(daily, date=date)
            if daily is None:
                continue
        if daily is None:
            candidates = _candidates(variant, date)
            if not candidates:
                continue
            rng = random.Random(f"{date.isoformat()}:{variant}")
            try:
                with transaction.atomic():
                    daily = DailyPuzzle.objects.create(
                        date=date, variant=variant, puzzle_id=rng.choice(candidates)
                    )
            except IntegrityError:
                daily = DailyPuzzle.objects.filter(date=date, variant=variant).first()
                if daily is None:
                    continue
        chosen.append(daily)
    return chosen
