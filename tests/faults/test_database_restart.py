"""Restarting PostgreSQL while the site serves: requests fail cleanly (503 with Retry-After)
during the outage, and the site recovers by itself afterwards; no accepted attempt is lost.

One thread keeps a steady mix of requests going (a puzzle from the API, the home page, a dozen
players each opening an attempt and playing its mate in one, both retried until accepted, the
server going on with the open attempt and answering a move sent again the same way) while
the test stops the database, waits, and starts it again. Every answer is counted by phase.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import Counter
from typing import Any

import pytest
import requests

from puzzles.tasks import puzzle_attempt_score_task
from tests.faults.conftest import Player
from tests.faults.servers import HEALTH_TOKEN, PrivatePostgres, Site, wait_until

pytestmark = pytest.mark.faults

PLAYERS = slice(12, 24)
# The worker's line of a scoring task's retry.
RETRY_LINE = re.compile(r"Task puzzles\.score_attempt\[([0-9a-f-]+)\] retry: Retry in ([0-9.]+)s")


class Traffic(threading.Thread):
    def __init__(self, url: str, puzzle: int, players: list[Player]) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.puzzle = puzzle
        self.players = players
        self.pending = {id(p): str(uuid.uuid4()) for p in players}  # attempt ids to submit
        self.accepted: dict[str, int] = {}  # attempt id -> attempt row id
        self.phase = "before"
        self.log: list[tuple[str, str, int | str, float]] = []  # phase, what, status, time
        self.stopping = threading.Event()
        self.anonymous = requests.Session()
        self.health: list[tuple[str, str, int, str]] = []  # phase, path, status, body

    def record(self, what: str, call: Any) -> requests.Response | None:
        """Make one request; count its answer in the phase in which the answer came."""
        try:
            response: requests.Response = call()
        except requests.RequestException as error:
            self.log.append((self.phase, what, type(error).__name__, time.monotonic()))
            return None
        self.log.append((self.phase, what, response.status_code, time.monotonic()))
        if response.status_code == 503:
            assert response.headers.get("Retry-After"), (what, response.headers)
        return response

    def run(self) -> None:
        turn = 0
        while not self.stopping.is_set():
            turn += 1
            self.record("api", lambda: self.anonymous.get(
                f"{self.url}/api/puzzles/{self.puzzle}/", timeout=30))  # fmt: skip
            self.record("page", lambda: self.anonymous.get(f"{self.url}/", timeout=30))
            if turn % 5 == 0:
                self.check_health()
            player = self.players[turn % len(self.players)]
            attempt_id = self.pending.get(id(player))
            if attempt_id is not None:
                # Open (or go on with) the player's attempt, then play the mate in one at
                # ply 0: both are safe to send again until the try is accepted. A 503 means
                # nothing was played (the answer is made before the move is committed), so
                # opening again after one goes on with the same try; a second attempt here is
                # a move kept by a request that answered 503.
                url = f"/api/puzzles/{self.puzzle}/attempts/"
                opened = self.record(
                    "attempt", lambda player=player, url=url: player.post(url, timeout=30)
                )
                if opened is not None and opened.status_code in (200, 201):
                    body = {"attempt": opened.json()["id"], "move": "a0d0", "ply": 0}
                    url = f"/api/puzzles/{self.puzzle}/judge/"
                    response = self.record(
                        "attempt",
                        lambda player=player, body=body, url=url: player.post(
                            url, body, timeout=30
                        ),
                    )
                    if response is not None and response.status_code == 200:
                        self.accepted[attempt_id] = int(response.json()["attempt"]["id"])
                        del self.pending[id(player)]
            time.sleep(0.05)

    def check_health(self) -> None:
        """The public answer and the full check (with the token), kept apart from the mix."""
        for path, headers in (
            ("/healthz", {}),
            ("/healthz/full", {"Authorization": f"Bearer {HEALTH_TOKEN}"}),
        ):
            phase = self.phase
            try:
                response = self.anonymous.get(f"{self.url}{path}", headers=headers, timeout=30)
            except requests.RequestException as error:
                self.health.append((phase, path, 0, type(error).__name__))
                continue
            self.health.append((phase, path, response.status_code, response.text))

    def count(self, phase: str) -> Counter[int | str]:
        return Counter(status for p, _what, status, _t in self.log if p == phase)

    def tail_ok(self, n: int) -> bool:
        after = [status for p, _w, status, _t in self.log if p == "after"]
        return len(after) >= n and all(s in (200, 201) for s in after[-n:])


def test_a_database_restart_fails_requests_cleanly_and_the_site_recovers(
    site: Site, fault_database: dict[str, Any], fault_postgres: PrivatePostgres
) -> None:
    db, name = fault_database, fault_database["name"]
    site.env["HEALTH_CACHE_SECONDS"] = "1"  # the outage lasts a few seconds
    _web, url = site.web(workers=2)
    site.worker("w1")
    players = [Player(url, user, db["password"]) for user in db["users"][PLAYERS]]
    traffic = Traffic(url, db["puzzle"], players)
    traffic.start()
    try:
        wait_until(lambda: sum(traffic.count("before").values()) >= 30, 120, "traffic to flow")
        traffic.phase = "outage"
        fault_postgres.stop("fast")
        outage_started = time.monotonic()
        wait_until(
            lambda: sum(traffic.count("outage").values()) >= 20
            and time.monotonic() - outage_started > 3
            and ("outage", "/healthz/full", 503) in {h[:3] for h in traffic.health},
            120, "requests during the outage",
        )  # fmt: skip
        fault_postgres.start()
        traffic.phase = "after"
        wait_until(lambda: traffic.tail_ok(30) and not traffic.pending, 180,
                   "the site to recover and every attempt to be accepted")  # fmt: skip
    finally:
        traffic.stopping.set()
        traffic.join(timeout=60)
        if not fault_postgres.ready():
            fault_postgres.start()  # a failure above must not leave the next tests without it

    before, outage, after = (traffic.count(p) for p in ("before", "outage", "after"))
    print(
        f"\nrequests before {dict(before)}, during the outage {dict(outage)}, after {dict(after)}"
    )
    # Before: all served. During: served or refused cleanly, never a crash or a hang.
    assert set(before) <= {200, 201}
    assert set(outage) <= {200, 201, 503} and outage[503] >= 10
    # After: a few requests may still meet the outage's end; then everything is served.
    assert set(after) <= {200, 201, 503}
    assert traffic.tail_ok(30)

    # The public health answer stays "ok" and cheap; the full check says the database is
    # unreachable during the outage, without the error's text (host, port).
    public = {(phase, status, body) for phase, path, status, body in traffic.health
              if path == "/healthz"}  # fmt: skip
    assert {(status, body) for _phase, status, body in public} == {(200, '{"status": "ok"}')}
    full_outage = [(status, body) for phase, path, status, body in traffic.health
                   if path == "/healthz/full" and phase == "outage"]  # fmt: skip
    assert any(status == 503 for status, _body in full_outage), full_outage
    for status, body in full_outage:
        if status == 503:
            report = json.loads(body)
            assert report["database"] == {"ok": False, "detail": "unreachable"}, report
        assert str(fault_postgres.port) not in body and "127.0.0.1" not in body, body

    # A scoring task that met the outage waited at least half its doubled backoff before each
    # retry (``core.tasks.backoff_pause``): its six retries outlast a minute of outage, where
    # Celery's own jitter could spend them in a few seconds.
    retries: dict[str, list[float]] = {}
    for task_id, wait in RETRY_LINE.findall((site.logs / "worker-w1.log").read_text()):
        retries.setdefault(task_id, []).append(float(wait))
    for task_id, waits in retries.items():
        for n, wait in enumerate(waits):
            assert wait >= puzzle_attempt_score_task.retry_backoff * 2**n / 2, (task_id, waits)

    # Every accepted attempt is there once and scored once.
    accepted = sorted(traffic.accepted.values())
    assert len(accepted) == len(players)
    wait_until(
        lambda: {row[0] for row in fault_postgres.execute(
            "SELECT state FROM puzzles_puzzleattempt WHERE id IN "
            f"({','.join(map(str, accepted))})", name)} == {"scored"},
        180, "every accepted attempt to be scored",
    )  # fmt: skip
    usernames = ",".join(repr(u) for u in db["users"][PLAYERS])
    rows = fault_postgres.execute(
        "SELECT u.username, count(a.id), coalesce(max(r.games), 0) FROM accounts_user u "
        "LEFT JOIN puzzles_puzzleattempt a ON a.user_id = u.id "
        "LEFT JOIN puzzles_puzzlerating r ON r.user_id = u.id "
        f"WHERE u.username IN ({usernames}) GROUP BY u.username",
        name,
    )
    assert {(attempts, games) for _user, attempts, games in rows} == {(1, 1)}, rows
