"""Mining runs: chunks of mining work recorded in the database (``MiningChunk``), so that a run
started again skips what it has finished and anyone can see how far it got.

``mining_run_plan`` records a run's chunks (those already recorded are kept as they are);
``mining_chunk_run`` mines one chunk and records what it found (the Celery task
``puzzles.mine_chunk`` and ``manage.py mine_puzzles`` without ``--celery`` both call it); a
chunk already done is not mined again, its recorded puzzles are returned.
"""

from __future__ import annotations

import time
import traceback
from typing import Any

from django.db import transaction
from django.utils import timezone

from puzzles.mining import Chunk, MiningStats, mine
from puzzles.models import MiningChunk


def mining_run_plan(*, run: str, chunks: list[Chunk]) -> list[MiningChunk]:
    """The rows of ``run``'s chunks, created for those not recorded yet (by their first game)."""
    rows = []
    for chunk in chunks:
        row, _created = MiningChunk.objects.get_or_create(
            run=run,
            first=chunk.first,
            defaults={"strategy": chunk.strategy, "games": chunk.games, "chunk": chunk.as_json()},
        )
        rows.append(row)
    return rows


def mining_chunk_run(*, run: str, chunk: Chunk) -> list[dict[str, Any]]:
    """Mine ``chunk`` of ``run`` and record it done with its puzzles (bank entries), or failed
    with the error (then raised again). A chunk recorded done is not mined again."""
    with transaction.atomic():
        row, _created = MiningChunk.objects.select_for_update().get_or_create(
            run=run,
            first=chunk.first,
            defaults={"strategy": chunk.strategy, "games": chunk.games, "chunk": chunk.as_json()},
        )
        if row.status == MiningChunk.Status.DONE:
            return list(row.entries)
        row.status = MiningChunk.Status.RUNNING
        row.error = ""
        row.save(update_fields=["status", "error"])
    stats = MiningStats()
    started = time.process_time()
    try:
        found = mine(chunk, stats=stats)
    except Exception:
        MiningChunk.objects.filter(pk=row.pk).update(
            status=MiningChunk.Status.FAILED, error=traceback.format_exc()[-4000:]
        )
        raise
    entries = [puzzle.as_entry() for puzzle in found]
    MiningChunk.objects.filter(pk=row.pk).update(
        status=MiningChunk.Status.DONE,
        found=len(entries),
        seconds=round(time.process_time() - started, 3),
        stats=stats.as_json(),
        entries=entries,
        finished_at=timezone.now(),
    )
    return entries
