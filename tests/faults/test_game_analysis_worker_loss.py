"""A worker that dies in the middle of a game's analysis loses at most the position it was
searching: the analysis of a short finished game is asked for with no worker up, the test holds
a lock on the analysis row (so the task, its first search done, waits to write it), starts a
worker, waits until the database shows the task waiting, and kills the worker's pool process.
The broker hands the task out again; the analysis is finished once, with one search a position
(none written twice) and every move judged. The game is short: its analysis takes a chunk or
two (games.game_analysis), each a message of its own."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from tests.faults.conftest import Player
from tests.faults.servers import PrivatePostgres, Site, children_of, wait_until
from tests.faults.test_worker_loss import activity, row_locked, scalar, waiting_for_lock

pytestmark = pytest.mark.faults

MOVES = ["h2e2", "h9g7", "h0g2", "h7h0", "g2h0"]


def test_killing_the_pool_process_mid_analysis_finishes_it_once(
    site: Site, fault_database: dict[str, Any], fault_postgres: PrivatePostgres
) -> None:
    db, name = fault_database, fault_database["name"]
    _web, url = site.web()
    player = Player(url, db["users"][3], db["password"])
    created = player.post("/api/games/", {"variant": "xiangqi", "mode": "local"}, timeout=30)
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    for move in MOVES:
        played = player.post(f"/api/games/{game}/moves/", {"move": move}, timeout=30)
        assert played.status_code == 200 and played.json().get("legal", True), played.text
    assert player.post(f"/api/games/{game}/resign/", timeout=30).json()["status"] == "finished"
    asked = player.post(f"/api/games/{game}/analysis/", timeout=30)
    assert asked.status_code == 202, asked.text
    row = scalar(fault_postgres, name, f"SELECT id FROM games_gameanalysis WHERE game_id = {game}")
    searched = lambda: scalar(  # noqa: E731
        fault_postgres,
        name,
        f"SELECT jsonb_array_length(evaluations) FROM games_gameanalysis WHERE id = {row}",
    )

    with row_locked(db["url"], "games_gameanalysis", row):
        worker = site.worker("w1")
        try:
            wait_until(lambda: waiting_for_lock(fault_postgres, name, "games_gameanalysis"), 90,
                       "the analysis to wait for its row")  # fmt: skip
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
        assert searched() == 0
    done = f"SELECT status = 'done' FROM games_gameanalysis WHERE id = {row}"
    wait_until(lambda: scalar(fault_postgres, name, done), 120, "the analysis to be done")

    # every message handed out has been done (the one that finished the analysis logs its
    # success a moment after its commit)
    wait_until(
        lambda: all(c["succeeded"] for c in site.task_events("games.game_analysis").values()),
        60,
        "every chunk of the analysis to be done",
    )
    events = site.task_events("games.game_analysis")
    # the killed chunk's message was handed out again and done once; the rest of the game
    # may take another chunk (a message of its own, sent when its turn came)
    counts = sorted(events.values(), key=lambda c: -c["received"])
    assert counts[0] == {"received": 2, "succeeded": 1}, (events, site.output())
    assert all(c == {"received": 1, "succeeded": 1} for c in counts[1:]), events
    assert searched() == len(MOVES) + 1
    body = player.get(f"/api/games/{game}/analysis/", timeout=30).json()
    assert body["status"] == "done" and body["searched"] == len(MOVES) + 1
    assert [p["iccs"] for p in body["result"]["plies"]] == MOVES
