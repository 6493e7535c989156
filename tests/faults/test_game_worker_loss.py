"""A worker that dies while the computer is choosing its move loses the move and plays it
once: the computer's move is queued with no worker up, the test holds a lock on the game's row
(so the task, its search done, waits to write the move), starts a worker, waits until the
database shows the task waiting, and kills the worker's pool process. The broker hands the
task out again; the game gets exactly one computer move, and the next ply is the player's."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from tests.faults.conftest import Player
from tests.faults.servers import PrivatePostgres, Site, children_of, wait_until
from tests.faults.test_worker_loss import activity, row_locked, scalar, waiting_for_lock

pytestmark = pytest.mark.faults


def test_killing_the_pool_process_mid_move_plays_the_move_once(
    site: Site, fault_database: dict[str, Any], fault_postgres: PrivatePostgres
) -> None:
    db, name = fault_database, fault_database["name"]
    _web, url = site.web()
    player = Player(url, db["users"][2], db["password"])

    # The computer has Red: its first move is queued at once, and waits for a worker.
    created = player.post(
        "/api/games/", {"variant": "feidan", "level": 3, "side": "black"}, timeout=30
    )
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    assert created.json()["thinking"] is True
    plies = lambda: scalar(  # noqa: E731
        fault_postgres, name, f"SELECT jsonb_array_length(moves) FROM games_game WHERE id = {game}"
    )

    with row_locked(db["url"], "games_game", game):
        worker = site.worker("w1")
        try:
            wait_until(lambda: waiting_for_lock(fault_postgres, name, "games_game"), 90,
                       "the computer's move to wait for the game's row")  # fmt: skip
        except TimeoutError:
            raise AssertionError(activity(fault_postgres, name)) from None
        pool = children_of(worker.pid)
        assert pool, "the worker has no pool process"
        for pid in pool:
            os.kill(pid, signal.SIGKILL)
        wait_until(
            lambda: "WorkerLostError" in worker.output(20000)
            or "exited with 'signal 9" in worker.output(20000),
            60,
            "the worker to notice its pool process died",
        )
        assert plies() == 0
    wait_until(lambda: plies() == 1, 120, "the computer's move to be played")

    site.wait_succeeded("games.computer_move", 1)
    events = site.task_events("games.computer_move")
    assert len(events) == 1, events
    (counts,) = events.values()
    assert counts == {"received": 2, "succeeded": 1}, (counts, site.output())
    state = player.get(f"/api/games/{game}/", timeout=30).json()
    assert state["plies"] == 1 and state["turn"] == "black" and state["thinking"] is False
    assert state["moves"][0]["by"] == "computer"
    assert len(state["legal_moves"]) > 0
