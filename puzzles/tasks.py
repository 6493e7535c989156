"""Celery tasks of the puzzles app. Each takes ids, fetches the rows again and calls a service.

- ``puzzles.score_attempt``: scores one submitted attempt (ratings, plays, replays), once.
- ``puzzles.score_waiting``: sends again the scoring messages of tries waiting too long to be
  scored, their first message lost (scheduled).
- ``puzzles.verify_puzzle``: proves the authored puzzle whose turn it is in the proving queue
  and publishes or rejects it.
- ``puzzles.choose_daily``: picks today's daily puzzle of each variant (scheduled).
- ``puzzles.requeue_verifications``: queues again verifications stuck too long (scheduled).
- ``puzzles.mine_chunk``: mines puzzles from one seed or one slice of the master games
  (``manage.py mine_puzzles --celery`` fans these out over the workers of the ``mining``
  queue), recording the chunk in its run when given one.
- ``puzzles.missed_mates``: looks for the mates missed in one finished game (sent by the games
  app, by name, with the game as plain data) and keeps them as its owner's private puzzles
  (on the ``proving`` queue: seconds of search, nobody waiting on it).
- ``puzzles.sweep_runs``: deletes visitors' Streak and Storm runs in which nothing was played
  for an hour (scheduled, every 15 minutes; ``services.runs.run_sweep_abandoned``).

A deliberate import cycle: the services (``puzzles.services.authoring`` and ``.solving``) queue
these tasks and the tasks run the services. Both sides import the other inside the function
that needs it, never when the module loads, so either module loads first
(tests/core/test_import_cycles.py lists the pairs).
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.utils import timezone

from core.tasks import Retry, idempotent_task

logger = logging.getLogger(__name__)


# Scoring twice is harmless: the second run finds the attempt scored.
@idempotent_task(
    "puzzles.score_attempt",
    limits=(60, 90),
    retry=Retry(times=6, backoff=2, backoff_max=120),
    bind=True,
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


# Sending a scoring message again is harmless: scoring skips an attempt already scored.
@idempotent_task("puzzles.score_waiting", limits=(60, 90), retry=Retry(times=3, backoff=5))
def puzzle_attempts_score_waiting_task() -> list[int]:
    """Send again the scoring messages of tries waiting too long to be scored (scheduled)."""
    from puzzles.services import puzzle_attempts_score_waiting

    return puzzle_attempts_score_waiting()


# The prover's own budget (services.authoring.VERIFY_SECONDS) ends well before these limits.
VERIFY_SOFT_LIMIT = 210
VERIFY_HARD_LIMIT = 240


# Verifying again is harmless: the result is written only while waiting, and a message handed
# back after its worker died goes on with the puzzle it claimed.
@idempotent_task(
    "puzzles.verify_puzzle",
    limits=(VERIFY_SOFT_LIMIT, VERIFY_HARD_LIMIT),
    retry=Retry(times=3, backoff=5, backoff_max=300),
    bind=True,
)
def puzzle_verify_task(self: Any, sent_for: int | None = None) -> dict[str, Any]:
    """Prove the authored puzzle whose turn it is in the proving queue (one per message: every
    submission sends one); publish it when sound and unique, else reject it. ``sent_for``, the
    puzzle id in messages sent before the queue was fair, is not read: they prove the next in
    turn too."""
    from puzzles.models import Puzzle
    from puzzles.rejections import rejection_text
    from puzzles.services import proving_queue_next, puzzle_verify

    puzzle_id = proving_queue_next(task_id=str(self.request.id or ""))
    if puzzle_id is None:
        return {"puzzle": None, "status": "idle"}
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


# Choosing is idempotent: one row per (date, variant).
@idempotent_task("puzzles.choose_daily", limits=(60, 90), retry=Retry(times=5, backoff=5))
def daily_puzzles_choose_task(date: str | None = None) -> dict[str, int]:
    """Choose the daily puzzles of ``date`` (ISO, default: today in the site's time zone)."""
    from puzzles.services import daily_puzzles_choose

    day = datetime.date.fromisoformat(date) if date else timezone.localdate()
    chosen = daily_puzzles_choose(date=day)
    return {daily.variant: daily.puzzle_id for daily in chosen}


# Queueing a verification twice is harmless.
@idempotent_task("puzzles.requeue_verifications", limits=(60, 90), retry=Retry(times=3, backoff=5))
def puzzle_verifications_requeue_task() -> list[int]:
    """Queue again the verifications that have been waiting too long (scheduled)."""
    from puzzles.services import puzzle_verifications_requeue

    return puzzle_verifications_requeue()


# Mining is a pure function of its arguments, and a chunk of a run recorded done is not mined
# again.
@idempotent_task("puzzles.mine_chunk", limits=(60 * 60, 60 * 60 + 120))
def mine_chunk_task(chunk: dict[str, Any], run: str | None = None) -> list[dict[str, Any]]:
    """Mine one chunk (``mining.Chunk.as_json()``); returns bank entries (JSON). With ``run``,
    the chunk is recorded in that run (``MiningChunk``): running, then done with its puzzles."""
    from puzzles.mining import Chunk, mine
    from puzzles.services.mining import mining_chunk_run

    if run:
        return mining_chunk_run(run=run, chunk=Chunk(**chunk))
    return [puzzle.as_entry() for puzzle in mine(Chunk(**chunk))]


# Searching a game again is harmless: a game with a review is skipped, and the review is
# written with the game's puzzles in one transaction under unique constraints.
@idempotent_task(
    "puzzles.missed_mates",
    limits=(120, 150),
    retry=Retry(times=5, backoff=5, backoff_max=300),
)
def missed_mates_task(game: dict[str, Any]) -> dict[str, Any]:
    """Look for the mates missed in the finished ``game`` (``services.missed.FinishedGame``)."""
    from puzzles.services.missed import FinishedGame, missed_mates_review

    try:
        finished = FinishedGame.from_data(game)
    except ValueError as error:
        logger.warning("missed mates: a message that is not a finished game: %s", error)
        return {"game": game.get("id") if isinstance(game, dict) else None, "error": str(error)}
    review = missed_mates_review(game=finished)
    return {"game": review.game, "found": review.found, "seconds": review.seconds}


# Deleting again is harmless: a second run finds fewer abandoned runs, or none.
@idempotent_task("puzzles.sweep_runs", limits=(240, 300))
def run_sweep_task() -> dict[str, int]:
    """Delete visitors' runs in which nothing was played for an hour (scheduled)."""
    from puzzles.services.runs import run_sweep_abandoned

    return {"deleted": run_sweep_abandoned()}
