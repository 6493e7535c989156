"""Celery tasks of the games app, on the ``playing`` queue (config/settings/queues.py).

- ``games.computer_move``: plays the computer's move at one ply of one game, once.

A deliberate import cycle: ``games.services`` queues this task and the task runs the service.
Both sides import the other inside the function that needs it, never when the module loads, so
either module loads first (tests/core/test_import_cycles.py lists the pair).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from core.tasks import TRANSIENT_DB_ERRORS


@shared_task(
    bind=True,
    name="games.computer_move",
    acks_late=True,  # playing a ply again is harmless: a ply already played is skipped
    reject_on_worker_lost=True,  # a worker that dies mid-search hands the ply back
    autoretry_for=TRANSIENT_DB_ERRORS,
    retry_backoff=1,
    retry_backoff_max=10,
    max_retries=5,
    soft_time_limit=45,
    time_limit=60,
)
def game_computer_move_task(self: Any, game_id: int, ply: int) -> dict[str, Any]:
    """Play the computer's move at ``ply`` of game ``game_id``.

    Precondition kept by the service: the move is written under ``select_for_update`` on the
    game row, only if the game still has exactly the moves that were searched; so a
    redelivery, a retry or the same ply queued twice plays it once.
    """
    from games.services import game_computer_move

    return {"game": game_id, "ply": ply, "state": game_computer_move(game_id=game_id, ply=ply)}
