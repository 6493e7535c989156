"""Restarting the broker loses no queued verification or scoring (RabbitMQ: durable queues,
persistent messages, publisher confirms), and workers and web processes reconnect by themselves.

1. With no worker running, players submit attempts and authors submit puzzles through the
   site: the tasks wait in the ``scoring`` and ``proving`` queues.
2. The broker is stopped and started again; the queues hold the same messages.
3. A worker starts and does every task exactly once.
4. With the worker and the web server still running, the broker restarts once more; new
   attempts are then submitted and scored: nobody had to restart anything.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.faults.conftest import Player
from tests.faults.servers import PrivatePostgres, PrivateRabbit, Site, wait_until

pytestmark = pytest.mark.faults

ATTEMPTS = 8
PUZZLES = 4


def submit_attempt(player: Player, puzzle: int) -> int:
    """Open an attempt and play the mate in one: the try ends and its scoring is queued."""
    opened = player.post(f"/api/puzzles/{puzzle}/attempts/", timeout=60)
    assert opened.status_code == 201, opened.text
    attempt = int(opened.json()["id"])
    judged = player.post(
        f"/api/puzzles/{puzzle}/judge/", {"attempt": attempt, "move": "a0d0"}, timeout=60
    )
    assert judged.status_code == 200 and judged.json()["verdict"] == "solved", judged.text
    return attempt


def submit_puzzle(author: Player, fen: str) -> int:
    created = author.post(
        "/api/puzzles/authored/",
        {"variant": "xiangqi", "fen": fen, "goal": "mate", "moves_to_win": 1},
        timeout=60,
    )
    assert created.status_code == 201, created.text
    puzzle = int(created.json()["id"])
    submitted = author.post(f"/api/puzzles/authored/{puzzle}/submit/", timeout=60)
    assert submitted.status_code == 202, submitted.text
    return puzzle


def column(postgres: PrivatePostgres, database: str, sql: str) -> list[Any]:
    return [row[0] for row in postgres.execute(sql, database)]


def ids(values: list[int]) -> str:
    return ",".join(map(str, values))


def test_a_broker_restart_loses_no_queued_task(
    site: Site,
    fault_database: dict[str, Any],
    fault_postgres: PrivatePostgres,
    fault_rabbit: PrivateRabbit,
) -> None:
    db, name = fault_database, fault_database["name"]
    puzzle = db["puzzle"]
    _web, url = site.web()
    # Players 3..10 try the seeded puzzle for the first time; four of them author a puzzle each
    # (an author's puzzles are proved one at a time).
    players = [Player(url, user, db["password"]) for user in db["users"][2 : 2 + ATTEMPTS]]
    plays_before = column(
        fault_postgres, name, f"SELECT plays FROM puzzles_puzzle WHERE id = {puzzle}"
    )[0]

    # 1. Queued, with no worker to take them.
    attempts = [submit_attempt(player, puzzle) for player in players]
    authored = [submit_puzzle(author, db["fen"]) for author in players[:PUZZLES]]
    _celery, proving, scoring, _playing, _deep, _mining = site.queue_names
    queued = fault_rabbit.queue_depths([proving, scoring])
    assert queued == {proving: PUZZLES, scoring: ATTEMPTS}

    # 2. The broker restarts; every message is still there.
    fault_rabbit.restart()
    assert fault_rabbit.queue_depths([proving, scoring]) == queued

    # 3. A worker does each task once.
    site.worker("w1")
    wait_until(
        lambda: set(column(fault_postgres, name,
                           f"SELECT state FROM puzzles_puzzleattempt WHERE id IN ({ids(attempts)})"))
        == {"scored"},
        180, "every queued attempt to be scored",
    )  # fmt: skip
    wait_until(
        lambda: set(column(fault_postgres, name,
                           f"SELECT status FROM puzzles_puzzle WHERE id IN ({ids(authored)})"))
        == {"published"},
        180, "every queued puzzle to be verified",
    )  # fmt: skip
    site.wait_succeeded("puzzles.score_attempt", ATTEMPTS)
    site.wait_succeeded("puzzles.verify_puzzle", PUZZLES)
    scoring_events = site.task_events("puzzles.score_attempt")
    verify_events = site.task_events("puzzles.verify_puzzle")
    assert len(scoring_events) == ATTEMPTS and len(verify_events) == PUZZLES
    for counts in [*scoring_events.values(), *verify_events.values()]:
        assert counts == {"received": 1, "succeeded": 1}
    games = column(
        fault_postgres, name,
        "SELECT r.games FROM puzzles_puzzlerating r JOIN accounts_user u ON u.id = r.user_id "
        f"WHERE u.username IN ({','.join(repr(u) for u in db['users'][2 : 2 + ATTEMPTS])})",
    )  # fmt: skip
    assert games == [1] * ATTEMPTS  # each player rated once
    plays = column(fault_postgres, name, f"SELECT plays FROM puzzles_puzzle WHERE id = {puzzle}")[0]
    assert plays == plays_before + ATTEMPTS
    assert fault_rabbit.queue_depths([proving, scoring]) == {proving: 0, scoring: 0}

    # 4. Restart under running processes: both reconnect and go on.
    fault_rabbit.restart()
    later = [submit_attempt(player, puzzle) for player in players[:3]]
    wait_until(
        lambda: set(column(fault_postgres, name,
                           f"SELECT state FROM puzzles_puzzleattempt WHERE id IN ({ids(later)})"))
        == {"scored"},
        180, "attempts submitted after the restart to be scored",
    )  # fmt: skip
    assert len(site.task_events("puzzles.score_attempt")) == ATTEMPTS + 3
