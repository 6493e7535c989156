"""Celery tasks of the puzzles app. Each takes ids, fetches the rows again and calls a service.

- ``puzzles.score_attempt``: scores one submitted attempt (ratings, plays, replays), once.
- ``puzzles.verify_puzzle``: proves an authored puzzle and publishes or rejects it.
- ``puzzles.choose_daily``: picks today's daily puzzle of each variant (scheduled).
- ``puzzles.requeue_verifications``: queues again verifications stuck too long (scheduled).
- ``puzzles.mine_chunk``: mines puzzles from one seed (``manage.py mine_puzzles --celery``
  fans these out over the workers).

A deliberate import cycle: the services (``puzzles.services.authoring`` and ``.solving``) queue
these tasks and the tasks run the services. Both sides import the other inside the function
that needs it, never when the module loads, so either module loads first
(tests/core/test_import_cycles.py lists the pairs).
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.utils import timezone

from core.tasks import TRANSIENT_DB_ERRORS

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="puzzles.score_attempt",
    acks_late=True,  # scoring twice is harmless: the second run finds the attempt scored
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT_DB_ERRORS,
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=6,
    soft_time_limit=60,
    time_limit=90,
)
def puzzle_attempt_score_task(self: Any, attempt_id: int) -> dict[str, Any]:
    """Score attempt ``attempt_id``.

    Precondition kept by the service: the attempt row is locked with ``select_for_update`` for
    the whole scoring transaction and an attempt already scored is skipped, so a retry, a
    redelivery after a lost worker, or two workers racing all score it exactly once.
    """
    from puzzles.services import puzzle_attempt_score

    attempt = puzzle_attempt_score(attempt_id=attempt_id)
    if attempt is None:
        return {"attempt": attempt_id, "state": "missing"}
    return {
        "attempt": attempt.pk,
        "state": attempt.state,
        "result": attempt.result,
        "rated": attempt.rated,
    }


# The prover's own budget (services.authoring.VERIFY_SECONDS) ends well before these limits.
VERIFY_SOFT_LIMIT = 210
VERIFY_HARD_LIMIT = 240


@shared_task(
    bind=True,
    name="puzzles.verify_puzzle",
    acks_late=True,  # verifying again is harmless: the result is written only while waiting
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT_DB_ERRORS,
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=3,
    soft_time_limit=VERIFY_SOFT_LIMIT,
    time_limit=VERIFY_HARD_LIMIT,
)
def puzzle_verify_task(self: Any, puzzle_id: int) -> dict[str, Any]:
    """Prove authored puzzle ``puzzle_id``; publish it when sound and unique, else reject it."""
    from puzzles.models import Puzzle
    from puzzles.rejections import rejection_text
    from puzzles.services import puzzle_verify

    try:
        puzzle = puzzle_verify(puzzle_id=puzzle_id)
    except SoftTimeLimitExceeded:
        with transaction.atomic():
            puzzle = Puzzle.objects.select_for_update().filter(pk=puzzle_id).first()
            if puzzle is not None and puzzle.status == Puzzle.Status.VERIFYING:
                puzzle.status = Puzzle.Status.REJECTED
                puzzle.rejection = {"kind": "budget_exhausted", "seconds": VERIFY_SOFT_LIMIT}
                puzzle.rejection_reason = rejection_text(puzzle.rejection, "", "en")
                puzzle.save()
    if puzzle is None:
        return {"puzzle": puzzle_id, "status": "missing"}
    return {"puzzle": puzzle.pk, "status": puzzle.status, "reason": puzzle.rejection_reason}


@shared_task(
    name="puzzles.choose_daily",
    acks_late=True,  # choosing is idempotent: one row per (date, variant)
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT_DB_ERRORS,
    retry_backoff=5,
    max_retries=5,
    soft_time_limit=60,
    time_limit=90,
)
def daily_puzzles_choose_task(date: str | None = None) -> dict[str, int]:
    """Choose the daily puzzles of ``date`` (ISO, default: today in the site's time zone)."""
    from puzzles.services import daily_puzzles_choose

    day = datetime.date.fromisoformat(date) if date else timezone.localdate()
    chosen = daily_puzzles_choose(date=day)
    return {daily.variant: daily.puzzle_id for daily in chosen}


@shared_task(
    name="puzzles.requeue_verifications",
    acks_late=True,  # queueing a verification twice is harmless
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT_DB_ERRORS,
    retry_backoff=5,
    max_retries=3,
    soft_time_limit=60,
    time_limit=90,
)
def puzzle_verifications_requeue_task() -> list[int]:
    """Queue again the verifications that have been waiting too long (scheduled)."""
    from puzzles.services import puzzle_verifications_requeue

    return puzzle_verifications_requeue()


@shared_task(
    name="puzzles.mine_chunk",
    acks_late=True,  # mining is a pure function of its arguments
    reject_on_worker_lost=True,
    soft_time_limit=60 * 60,
    time_limit=60 * 60 + 120,
)
def mine_chunk_task(
    variant: str,
    strategy: str,
    seed: int,
    count: int,
    max_moves: int = 3,
    seconds: float | None = None,
    want_theme: str | None = None,
) -> list[dict[str, Any]]:
    """Mine up to ``count`` puzzles from one seed; returns bank entries (JSON)."""
    from puzzles.mining import mine

    found = mine(
        variant=variant,
        strategy=strategy,
        seed=seed,
        count=count,
        max_moves=max_moves,
        seconds=seconds,
        wanted=(lambda p: want_theme in p.themes) if want_theme else None,
    )
    return [puzzle.as_entry() for puzzle in found]
