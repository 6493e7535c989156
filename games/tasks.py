"""Celery tasks of the games app, on the ``playing`` queues (config/settings/queues.py).

The first three are sent by the games' fair queue alone (``games.queueing``), each when its
turn has come; each, once done, runs the queue's dispatcher again (its lanes are free).

- ``games.computer_move``: plays the computer's move at one ply of one game, once; the deep
  levels' moves come on ``playing_deep``, the others on ``playing``.
- ``games.engine_analysis``: the analysis board's engine searches one position (on
  ``playing_deep``: ``games.analysis``).
- ``games.game_analysis``: one chunk of the computer's analysis of a finished game, about a
  second of searches; the next chunk waits its turn (on ``playing_deep``:
  ``games.game_analysis``).
- ``games.sweep`` (Celery beat, every minute): finishes idle games and games whose clock has
  run out, and hands over the work whose turn has come or whose message was lost.
- ``games.engine_analysis_sweep`` (Celery beat, hourly): deletes the analysis board's old
  searches (``games.analysis.engine_analysis_sweep``).

Deliberate import cycles: ``games.queueing`` (under ``games.services``, ``games.analysis`` and
``games.game_analysis``) sends these tasks, and the tasks run those services and the
dispatcher. Both sides import the other inside the function that needs it, never when the
module loads, so either module loads first (tests/core/test_import_cycles.py lists the pairs).
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
    from games.queueing import dispatch_moves
    from games.services import game_computer_move

    state = game_computer_move(game_id=game_id, ply=ply)
    dispatch_moves()  # this game's lanes are free again
    queue = (self.request.delivery_info or {}).get("routing_key")
    return {"game": game_id, "ply": ply, "state": state, "queue": queue}


@idempotent_task("games.sweep", limits=(50, 60))
def games_sweep_task() -> dict[str, int]:
    """Finish idle games and games out of time; hand over the work due."""
    from games.queueing import dispatch
    from games.services import games_idle_finish

    return {"finished": games_idle_finish(), "dispatched": len(dispatch())}


# Searching again is harmless: a run writes its result only while the row is still pending.
@idempotent_task(
    "games.engine_analysis",
    limits=(30, 40),
    retry=Retry(times=3, backoff=1, backoff_max=10),
)
def engine_analysis_task(analysis_id: int) -> dict[str, Any]:
    """Search the analysis board's position ``analysis_id`` (games.analysis)."""
    from games.analysis import engine_analysis_run
    from games.queueing import dispatch_analyses

    state = engine_analysis_run(analysis_id=analysis_id)
    dispatch_analyses()  # this search's lanes are free again
    return {"analysis": analysis_id, "state": state}


# Running again is harmless: each position's search is kept only if it is the one the row is
# missing, and a worker that dies mid-run hands the message back; the next run carries on.
@idempotent_task(
    "games.game_analysis",
    limits=(30, 40),
    retry=Retry(times=3, backoff=1, backoff_max=10),
)
def game_analysis_task(analysis_id: int) -> dict[str, Any]:
    """Analyse one more chunk of the finished game of ``analysis_id`` (games.game_analysis);
    the next chunk, if any, waits its turn in the fair queue.

    Precondition kept by the service: each search is written under ``select_for_update`` on
    the analysis row, only while the row is pending and lacks exactly that position; so a
    redelivery, a retry or a second message running alongside writes nothing twice."""
    from games.game_analysis import game_analysis_run
    from games.queueing import dispatch_analyses

    state = game_analysis_run(analysis_id=analysis_id)
    dispatch_analyses()  # this analysis's lanes are free again (its next chunk waits its turn)
    return {"analysis": analysis_id, "state": state}


# Deleting again is harmless: a second run finds fewer old rows, or none.
@idempotent_task("games.engine_analysis_sweep", limits=(240, 300))
def engine_analysis_sweep_task() -> dict[str, int]:
    """Delete the analysis board's old searches (games.analysis)."""
    from games.analysis import engine_analysis_sweep

    return {"deleted": engine_analysis_sweep()}
