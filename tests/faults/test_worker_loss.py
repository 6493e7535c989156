"""A worker that dies in the middle of a task loses nothing and does nothing twice.

Each test stops the task half-way on purpose: the test holds a lock on a row the task must
lock (``FOR NO KEY UPDATE``, which the site's own reads and inserts pass), starts a worker,
waits until the database shows the task waiting for that lock, and then kills the worker:

- scoring an attempt: the worker's pool process is killed (the task's scoring transaction is
  open). The worker rejects the task as lost, the broker hands it out again, and it is scored
  once.
- verifying an authored puzzle: the whole worker is killed, as when its machine dies (the
  prover has finished, the result not yet written). The broker hands the task to a new worker,
  which proves it again and publishes it once.

Then every count is checked: tasks received and succeeded (from the workers' logs), the
attempt and puzzle states, the player's rated games and the puzzle's plays.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from tests.faults.conftest import Player
from tests.faults.servers import PrivatePostgres, Site, children_of, wait_until

pytestmark = pytest.mark.faults


@contextmanager
def row_locked(url: str, table: str, row_id: int) -> Iterator[None]:
    """Hold ``FOR NO KEY UPDATE`` on one row until the block ends."""
    with psycopg.connect(url) as conn:
        conn.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR NO KEY UPDATE", [row_id])
        try:
            yield
        finally:
            conn.rollback()


def waiting_for_lock(postgres: PrivatePostgres, database: str, table: str) -> bool:
    """Is a statement on ``table`` (or joining it) waiting for a row lock?"""
    rows = postgres.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        f"AND wait_event_type = 'Lock' AND query LIKE 'SELECT %\"{table}%'",
        database,
    )
    return bool(rows[0][0])


def activity(postgres: PrivatePostgres, database: str) -> str:
    rows = postgres.execute(
        "SELECT pid, state, wait_event_type, wait_event, left(query, 200) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()",
        database,
    )
    return "\n".join(map(str, rows))


def scalar(postgres: PrivatePostgres, database: str, sql: str) -> Any:
    return postgres.execute(sql, database)[0][0]


def test_killing_the_pool_process_while_scoring_scores_the_attempt_once(
    site: Site, fault_database: dict[str, Any], fault_postgres: PrivatePostgres
) -> None:
    db, name = fault_database, fault_database["name"]
    puzzle = db["puzzle"]
    _web, url = site.web()
    player = Player(url, db["users"][0], db["password"])
    plays_before = scalar(
        fault_postgres, name, f"SELECT plays FROM puzzles_puzzle WHERE id = {puzzle}"
    )

    # Solved with no worker running: the scoring task waits in the queue.
    opened = player.post(f"/api/puzzles/{puzzle}/attempts/", timeout=30)
    assert opened.status_code == 201, opened.text
    attempt = opened.json()["id"]
    judged = player.post(
        f"/api/puzzles/{puzzle}/judge/", {"attempt": attempt, "move": "a0d0"}, timeout=30
    )
    assert judged.status_code == 200 and judged.json()["verdict"] == "solved", judged.text
    assert site.task_events("puzzles.score_attempt") == {}

    with row_locked(db["url"], "puzzles_puzzle", puzzle):
        worker = site.worker("w1")
        # The task runs, inside its scoring transaction, and waits for the puzzle's row.
        try:
            wait_until(lambda: waiting_for_lock(fault_postgres, name, "puzzles_puzzle"), 50,
                       "the scoring task to wait half-way")  # fmt: skip
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
    state = lambda: scalar(  # noqa: E731
        fault_postgres, name, f"SELECT state FROM puzzles_puzzleattempt WHERE id = {attempt}"
    )
    wait_until(lambda: state() == "scored", 120, "the attempt to be scored")

    events = site.task_events("puzzles.score_attempt")
    assert len(events) == 1, events
    (counts,) = events.values()
    assert counts == {"received": 2, "succeeded": 1}, (counts, site.output())
    user = db["users"][0]
    games = scalar(
        fault_postgres, name,
        "SELECT coalesce(sum(r.games), 0) FROM puzzles_puzzlerating r "
        f"JOIN accounts_user u ON u.id = r.user_id WHERE u.username = '{user}'",
    )  # fmt: skip
    assert games == 1  # rated once
    plays = scalar(fault_postgres, name, f"SELECT plays FROM puzzles_puzzle WHERE id = {puzzle}")
    assert plays == plays_before + 1  # played once
    result = scalar(
        fault_postgres, name, f"SELECT result FROM puzzles_puzzleattempt WHERE id = {attempt}"
    )
    assert result == "solved"


def test_killing_the_whole_worker_while_verifying_publishes_the_puzzle_once(
    site: Site, fault_database: dict[str, Any], fault_postgres: PrivatePostgres
) -> None:
    db, name = fault_database, fault_database["name"]
    _web, url = site.web()
    author = Player(url, db["users"][1], db["password"])
    created = author.post(
        "/api/puzzles/authored/",
        {"variant": "xiangqi", "fen": db["fen"], "goal": "mate", "moves_to_win": 1},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    puzzle = created.json()["id"]
    submitted = author.post(f"/api/puzzles/authored/{puzzle}/submit/", timeout=30)
    assert submitted.status_code == 202 and submitted.json()["status"] == "verifying"

    with row_locked(db["url"], "puzzles_puzzle", puzzle):
        first = site.worker("w1")
        # The prover has finished; the task waits to write the result.
        wait_until(lambda: waiting_for_lock(fault_postgres, name, "puzzles_puzzle"), 120,
                   "the verification to wait half-way")  # fmt: skip
        first.kill_group(signal.SIGKILL)  # the worker's machine dies
        first.popen.wait(timeout=30)
        status = scalar(
            fault_postgres, name, f"SELECT status FROM puzzles_puzzle WHERE id = {puzzle}"
        )
        assert status == "verifying"
        site.worker("w2")
    status = lambda: scalar(  # noqa: E731
        fault_postgres, name, f"SELECT status FROM puzzles_puzzle WHERE id = {puzzle}"
    )
    wait_until(lambda: status() != "verifying", 180, "the puzzle to be verified")
    assert status() == "published"

    events = site.task_events("puzzles.verify_puzzle")
    assert len(events) == 1, events
    (counts,) = events.values()
    assert counts == {"received": 2, "succeeded": 1}, (counts, site.output())
    logs = {log.name: log.read_text(errors="replace") for log in site.logs.glob("worker-*.log")}
    assert "succeeded" not in logs["worker-w1.log"]
    assert "puzzles.verify_puzzle" in logs["worker-w2.log"]
