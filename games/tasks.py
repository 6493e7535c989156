"""Celery tasks of the games app, on the ``playing`` queue (config/settings/queues.py).

- ``games.computer_move``: plays the computer's move at one ply of one game, once.

A deliberate import cycle: ``games.services`` queues this task and the task runs the service.
Both sides import the other inside the function that needs it, never when the module loads, so
either module loads first (tests/core/test_import_cycles.py lists the pair).
"""

from __future__ import annotations

from typing import Any

from core.tasks import Retry, idempotent_task


# Playing a ply again is harmless: a ply already played is skipped; a worker that dies
# mid-search hands the ply back.
@idempotent_task(
    "games.computer_move",
    limits=(45, 60),
    retry=Retry(times=5, backoff=1, backoff_max=10),
    bind=True,
)
def game_computer_move_task(self: Any, game_id: int, ply: int) -> dict[str, Any]:
    """Play the computer's move at ``ply`` of game ``game_id``.

    Precondition kept by the service: the move is written under ``select_for_update`` on the
    game row, only if the game still has exactly the moves that were searched; so a
    redelivery, a retry or the same ply queued twice plays it once.
    """
    from games.services import game_computer_move

    return {"game": game_id, "ply": ply, "state": game_computer_move(game_id=game_id, ply=ply)}
