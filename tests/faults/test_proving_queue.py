"""A full proving queue holds up nothing else: attempts are scored while the prover is busy.

As deployed (docs/deployment.md), proving and scoring have queues and workers of their own.
Authors fill the proving queue with the hardest draft there is — the start position as a
"mate in 7", which uses the prover's whole budget — until the site refuses more (503 with
Retry-After) and refuses a second proof of an author still waiting for the first; meanwhile
players submit attempts, and every one is scored within seconds by the scoring worker.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.faults.conftest import Player
from tests.faults.servers import PrivatePostgres, PrivateRabbit, Site, wait_until

pytestmark = pytest.mark.faults

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
QUEUE_LIMIT = 3
AUTHORS = slice(24, 28)  # seeded users of this test alone
PLAYERS = slice(28, 34)


def create_draft(author: Player) -> int:
    created = author.post(
        "/api/puzzles/authored/",
        {"variant": "xiangqi", "fen": START, "goal": "mate", "moves_to_win": 7},
        timeout=60,
    )
    assert created.status_code == 201, created.text
    return int(created.json()["id"])


def submit(author: Player, puzzle: int) -> Any:
    return author.post(
        f"/api/puzzles/authored/{puzzle}/submit/", headers={"Accept-Language": "en"}, timeout=60
    )


def test_scoring_completes_while_the_proving_queue_is_full(
    site: Site,
    fault_database: dict[str, Any],
    fault_postgres: PrivatePostgres,
    fault_rabbit: PrivateRabbit,
) -> None:
    db, name = fault_database, fault_database["name"]
    site.env["PROVING_QUEUE_LIMIT"] = str(QUEUE_LIMIT)
    _web, url = site.web()
    _celery, proving, scoring, _playing, _deep, _mining = site.queue_names
    site.worker("prover", queues=[proving])
    site.worker("scorer", queues=[scoring])
    authors = [Player(url, user, db["password"]) for user in db["users"][AUTHORS]]
    players = [Player(url, user, db["password"]) for user in db["users"][PLAYERS]]
    drafts = [create_draft(author) for author in authors]
    try:
        # The queue fills: one proof running, the others waiting behind it.
        for author, draft in zip(authors[:QUEUE_LIMIT], drafts[:QUEUE_LIMIT], strict=True):
            answer = submit(author, draft)
            assert answer.status_code == 202, answer.text
        wait_until(lambda: site.task_events("puzzles.verify_puzzle"), 60, "the prover to start")
        assert fault_rabbit.queue_depths([proving]) == {proving: QUEUE_LIMIT - 1}

        # Full: the next author is told to come back later; the draft stays a draft.
        refused = submit(authors[QUEUE_LIMIT], drafts[QUEUE_LIMIT])
        assert refused.status_code == 503, refused.text
        assert int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["error"]["extra"]["code"] == "proving_queue_full"
        # An author whose proof is running cannot queue another one.
        second = create_draft(authors[0])
        busy = submit(authors[0], second)
        assert busy.status_code == 400, busy.text
        assert busy.json()["error"]["extra"] == {"code": "author_verifying", "puzzle": drafts[0]}
        statuses = dict(fault_postgres.execute(
            f"SELECT id, status FROM puzzles_puzzle WHERE id IN "
            f"({','.join(map(str, [*drafts, second]))})", name))  # fmt: skip
        assert sorted(statuses.values()) == ["draft"] * 2 + ["verifying"] * QUEUE_LIMIT

        # Meanwhile, attempts are scored as usual.
        submitted_at = time.monotonic()
        attempts = []
        for player in players:
            opened = player.post(f"/api/puzzles/{db['puzzle']}/attempts/", timeout=60)
            assert opened.status_code == 201, opened.text
            answer = player.post(
                f"/api/puzzles/{db['puzzle']}/judge/",
                {"attempt": opened.json()["id"], "move": "a0d0"},
                timeout=60,
            )
            assert answer.status_code == 200 and answer.json()["verdict"] == "solved", answer.text
            attempts.append(int(answer.json()["attempt"]["id"]))
        wait_until(
            lambda: {row[0] for row in fault_postgres.execute(
                "SELECT state FROM puzzles_puzzleattempt WHERE id IN "
                f"({','.join(map(str, attempts))})", name)} == {"scored"},
            30, "every attempt to be scored while the prover is busy",
        )  # fmt: skip
        seconds = time.monotonic() - submitted_at
        print(f"\n{len(attempts)} attempts scored in {seconds:.1f} s, proving queue full")
        # The prover was busy all along: the first proof is still running, the rest wait.
        assert fault_rabbit.queue_depths([proving]) == {proving: QUEUE_LIMIT - 1}
        assert not any(e["succeeded"] for e in site.task_events("puzzles.verify_puzzle").values())
    finally:
        site.stop()
        # The shared fault database must not keep a full queue for the tests after this one.
        fault_postgres.execute(
            "UPDATE puzzles_puzzle SET status = 'draft' WHERE status = 'verifying' AND id IN "
            f"({','.join(map(str, drafts))})",
            name,
        )
