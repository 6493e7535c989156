"""A worker that dies in the middle of the search for missed mates loses nothing and writes
nothing twice.

A game with a missed mate in 1 ends (played through the site, no worker running: the search
waits in the queue). The test then holds the game's review row half-inserted (an INSERT of the
same game, not committed: the task's own INSERT waits on the unique index), starts a worker,
waits until the database shows the task waiting there, with its puzzle already written in its
open transaction, and kills the worker's pool process. The broker hands the task out again;
once the test lets go, the search runs to its end: one review, one missed mate, one puzzle.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import psycopg
import pytest

from tests.faults.conftest import Player
from tests.faults.servers import PrivatePostgres, Site, children_of, wait_until
from tests.faults.test_worker_loss import activity, scalar

pytestmark = pytest.mark.faults

START = "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1"  # Red mates in 1 (a0a9)


def inserting_review(postgres: PrivatePostgres, database: str) -> bool:
    rows = postgres.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO \"puzzles_gamereview\"%'",
        database,
    )
    return bool(rows[0][0])


def test_killing_the_pool_process_mid_search_keeps_one_set_of_puzzles(
    site: Site, fault_database: dict[str, Any], fault_postgres: PrivatePostgres
) -> None:
    db, name = fault_database, fault_database["name"]
    _web, url = site.web()
    player = Player(url, db["users"][37], db["password"])
    body = {"variant": "xiangqi", "setup": "standard", "mode": "local"}
    created = player.post("/api/games/", body, timeout=30)
    assert created.status_code == 201, created.text
    game = created.json()["id"]
    with psycopg.connect(db["url"]) as conn:
        conn.execute("UPDATE games_game SET start_fen = %s, moves = '[]' WHERE id = %s",
                     [START, game])  # fmt: skip
    for move in ("a0a1", "e9f9"):  # Red misses the mate; Black steps aside
        played = player.post(f"/api/games/{game}/moves/", {"move": move}, timeout=30)
        assert played.status_code == 200, played.text
    resigned = player.post(f"/api/games/{game}/resign/", {"color": "red"}, timeout=30)
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished"
    assert site.task_events("puzzles.missed_mates") == {}

    with psycopg.connect(db["url"]) as blocker:
        blocker.execute(
            "INSERT INTO puzzles_gamereview (game, found, seconds, stats, created_at, "
            "updated_at, visitor_id) VALUES (%s, 0, 0, '{}', now(), now(), 'blocker')",
            [game],
        )
        worker = site.worker("w1")
        try:
            wait_until(lambda: inserting_review(fault_postgres, name), 90,
                       "the search to wait half-way")  # fmt: skip
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
        blocker.rollback()

    site.wait_succeeded("puzzles.missed_mates", 1, timeout=120)
    events = site.task_events("puzzles.missed_mates")
    assert len(events) == 1, events
    (counts,) = events.values()
    assert counts == {"received": 2, "succeeded": 1}, (counts, site.output())
    count = lambda sql: scalar(fault_postgres, name, sql)  # noqa: E731
    assert count(f"SELECT count(*) FROM puzzles_gamereview WHERE game = {game}") == 1
    assert count(f"SELECT found FROM puzzles_gamereview WHERE game = {game}") == 1
    assert count(f"SELECT count(*) FROM puzzles_missedmate WHERE game = {game}") == 1
    puzzles = f"SELECT count(*) FROM puzzles_puzzle WHERE source_game = 'play:{game}'"
    assert count(puzzles) == 1
    mine = player.get(f"/api/puzzles/missed/?game={game}", timeout=30).json()
    assert mine["reviewed"] is True and len(mine["results"]) == 1
