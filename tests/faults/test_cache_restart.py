"""Stopping the cache (Redis) while the site serves: nothing fails, and the site goes back to
the cache by itself when it returns.

The site runs as deployed with ``CACHE_URL`` on a private Redis (throttle counters, the cache
in front of the sessions, cached page fragments). One thread keeps a mix going — the home page,
the puzzles page, new visitors opening attempts and playing them, a signed-in player's dashboard and
attempts, and new sign-ins each followed by a signed-in page — while the test stops Redis,
waits, and starts it again (empty, as a restarted cache server is), then freezes it (SIGSTOP:
connections hang, as with a Redis stuck or cut off) and wakes it up with its data. Every answer
is counted by phase; none may fail, none may hang; every accepted attempt is scored once.
"""

from __future__ import annotations

import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import requests

from tests.faults.conftest import Player
from tests.faults.servers import PrivatePostgres, PrivateRedis, Site, wait_until

pytestmark = pytest.mark.faults

PLAYER = 34  # seeded users of this test alone
SIGN_INS = slice(35, 40)
OK = {200, 201, 302}


class Traffic(threading.Thread):
    def __init__(self, url: str, puzzle: int, player: Player, users: list[str], password: str):
        super().__init__(daemon=True)
        self.url = url
        self.puzzle = puzzle
        self.player = player
        self.users = users
        self.password = password
        self.phase = "before"
        self.log: list[tuple[str, str, int | str]] = []  # phase, what, status
        self.slowest: dict[str, float] = {}  # phase -> the longest answer, seconds
        self.accepted: list[int] = []  # attempt rows
        self.stopping = threading.Event()
        self.anonymous = requests.Session()

    def record(self, what: str, call: Callable[[], requests.Response]) -> requests.Response | None:
        phase = self.phase
        started = time.monotonic()
        try:
            response = call()
        except requests.RequestException as error:
            self.log.append((phase, what, type(error).__name__))
            return None
        self.log.append((phase, what, response.status_code))
        elapsed = time.monotonic() - started
        self.slowest[phase] = max(self.slowest.get(phase, 0.0), elapsed)
        return response

    def attempt(self, what: str, http: requests.Session, headers: dict[str, str]) -> None:
        """As the puzzle page does: open an attempt, then play its mate in one (the try ends
        and is scored). A new visitor first gets the page, which gives the CSRF cookie that
        the move needs once the visitor has a session."""
        base = f"{self.url}/api/puzzles/{self.puzzle}"
        if "csrftoken" not in http.cookies and "X-CSRFToken" not in http.headers:
            self.record(what, lambda: http.get(f"{self.url}/puzzles/", timeout=30))
        token = http.cookies.get("csrftoken")
        headers = {**headers, **({"X-CSRFToken": token} if token else {})}
        opened = self.record(
            what, lambda: http.post(f"{base}/attempts/", json={}, headers=headers, timeout=30)
        )
        if opened is None or opened.status_code not in (200, 201):
            return
        body = {"attempt": opened.json()["id"], "move": "a0d0", "ply": 0}
        judged = self.record(
            what, lambda: http.post(f"{base}/judge/", json=body, headers=headers, timeout=30)
        )
        if judged is not None and judged.status_code == 200:
            self.accepted.append(int(judged.json()["attempt"]["id"]))

    def sign_in(self, username: str) -> None:
        """Open the log-in page, log in, then open a page only a signed-in player sees."""
        http = requests.Session()
        page = self.record(
            "login-page", lambda: http.get(f"{self.url}/accounts/login/", timeout=30)
        )
        if page is None or "csrftoken" not in http.cookies:
            return
        form = {"username": username, "password": self.password,
                "csrfmiddlewaretoken": http.cookies["csrftoken"]}  # fmt: skip
        self.record("login", lambda: http.post(f"{self.url}/accounts/login/", data=form,
                                               allow_redirects=False, timeout=30))  # fmt: skip
        self.record("signed-in-page", lambda: http.get(
            f"{self.url}/puzzles/dashboard/", allow_redirects=False, timeout=30))  # fmt: skip

    def run(self) -> None:
        turn = 0
        player = self.player
        while not self.stopping.is_set():
            turn += 1
            self.record("home", lambda: self.anonymous.get(f"{self.url}/", timeout=30))
            self.record("puzzles-page", lambda: self.anonymous.get(f"{self.url}/puzzles/",
                                                                   timeout=30))  # fmt: skip
            self.attempt("visitor-attempt", requests.Session(), {})  # a new visitor each time
            self.record("dashboard", lambda: player.http.get(
                f"{self.url}/puzzles/dashboard/", allow_redirects=False, timeout=30))  # fmt: skip
            self.record("dashboard-api", lambda: player.get("/api/puzzles/dashboard/", timeout=30))
            self.attempt("player-attempt", player.http, {})
            if turn % 3 == 0:
                self.sign_in(self.users[turn % len(self.users)])
            time.sleep(0.05)

    def count(self, phase: str) -> Counter[int | str]:
        return Counter(status for p, _what, status in self.log if p == phase)

    def kinds(self, phase: str) -> set[str]:
        return {what for p, what, _status in self.log if p == phase}

    def bad(self, phase: str) -> list[tuple[str, int | str]]:
        return [(what, status) for p, what, status in self.log if p == phase and status not in OK]


def test_a_cache_outage_degrades_and_the_site_recovers(
    site: Site,
    fault_database: dict[str, Any],
    fault_postgres: PrivatePostgres,
    fault_redis: PrivateRedis,
) -> None:
    db, name = fault_database, fault_database["name"]
    site.env["TEST_CACHE_URL"] = fault_redis.url(1)
    _web, url = site.web(workers=2)
    site.worker("w1")
    player = Player(url, db["users"][PLAYER], db["password"])
    traffic = Traffic(url, db["puzzle"], player, db["users"][SIGN_INS], db["password"])
    every_kind = {"home", "puzzles-page", "visitor-attempt", "dashboard", "dashboard-api",
                  "player-attempt", "login-page", "login", "signed-in-page"}  # fmt: skip
    traffic.start()
    try:
        wait_until(lambda: traffic.kinds("before") == every_kind, 120, "traffic to flow")
        traffic.phase = "outage"
        fault_redis.stop()
        outage_started = time.monotonic()
        wait_until(
            lambda: traffic.kinds("outage") == every_kind
            and sum(traffic.count("outage").values()) >= 60
            and time.monotonic() - outage_started > 5,
            180, "requests of every kind during the outage",
        )  # fmt: skip
        fault_redis.start()
        traffic.phase = "after"
        wait_until(lambda: traffic.kinds("after") == every_kind
                   and sum(traffic.count("after").values()) >= 60,
                   180, "requests of every kind after the outage")  # fmt: skip
        # Redis hangs (accepts connections, never answers), then wakes up with its data.
        assert fault_redis.process is not None
        traffic.phase = "frozen"
        fault_redis.process.kill_group(signal.SIGSTOP)
        frozen_at = time.monotonic()
        try:
            wait_until(lambda: traffic.kinds("frozen") == every_kind
                       and time.monotonic() - frozen_at > 5,
                       180, "requests of every kind while Redis hangs")  # fmt: skip
        finally:
            fault_redis.process.kill_group(signal.SIGCONT)
        traffic.phase = "thawed"
        wait_until(lambda: traffic.kinds("thawed") == every_kind
                   and sum(traffic.count("thawed").values()) >= 30,
                   180, "requests of every kind after Redis wakes up")  # fmt: skip
    finally:
        traffic.stopping.set()
        traffic.join(timeout=60)

    phases = ("before", "outage", "after", "frozen", "thawed")
    for phase in phases:
        print(f"\n{phase}: {dict(traffic.count(phase))}, slowest {traffic.slowest[phase]:.2f} s")
    for phase in phases:
        assert traffic.bad(phase) == [], (phase, traffic.bad(phase)[:20])
    # A hanging Redis costs a request at most a few of its 0.5 s timeouts (core/cache.py).
    assert traffic.slowest["frozen"] < 5, traffic.slowest
    # The player signed in before the outage stayed signed in throughout (sessions are kept in
    # the database as well as the cache).
    signed_in = [s for _p, what, s in traffic.log if what == "dashboard"]
    assert set(signed_in) == {200}
    # Back on Redis: the site writes to the cache again.
    import redis

    assert redis.Redis.from_url(fault_redis.url(1)).dbsize() > 0

    # Every accepted attempt is stored once and scored once.
    accepted = traffic.accepted
    assert len(accepted) == len(set(accepted))
    wait_until(
        lambda: {row[0] for row in fault_postgres.execute(
            "SELECT state FROM puzzles_puzzleattempt WHERE id IN "
            f"({','.join(map(str, accepted))})", name)} == {"scored"},
        180, "every accepted attempt to be scored",
    )  # fmt: skip
