"""The load mix of a busy evening (run by bench/load/run.py; ``locust -f`` works too).

- Visitors (3 of 6 users): read pages (home, analysis board, puzzles, lessons) and ask the
  position API about short lines in each variant.
- Players (1 of 6 users): log in, then ask the position API, look at puzzles, play attempts
  (open one, sometimes take a hint, then play the winning line move by move through the
  judge, or a wrong move, or show the solution) and look at an attempt's status. Every
  attempt the site ended is written to ``LOAD_ACCEPTED`` at the end, so the run can check that
  each was scored exactly once.
- Gamers (1 of 6 users, visitors): play a game against the computer at level 1 or 2: a move,
  now and then a draw offer, then poll the game until the computer has answered (the time
  from sending the move to seeing the reply is reported as ``computer-reply``); a new game
  when one ends or after 20 moves.
- Runners (1 of 6 users, visitors who loaded the run's page): play Puzzle Storm (two in three)
  or Streak, mostly in xiangqi: start a run, then one move a turn, the right one (the proof's
  main line, from the seed) nine times in ten, else another legal move (a storm goes on, a
  streak ends and a new one starts).
- Analysts (``LOAD_ANALYSTS`` users, visitors): on the analysis board, step a short line
  through the position API with random legal moves, ask the engine about the position
  (``analysis``), and poll the search until it is done; the time from asking to seeing the
  result is reported as ``analysis-result``. Then, as the page does while a position stays
  shown, ask once or twice more with the next budget each answer names, reported as
  ``analysis-deeper`` (asking to seeing the deeper result).

Each simulated user sends its requests at a steady pace (``LOAD_USER_RATE`` requests per
second, set by run.py from the total rate asked for), whatever the answers' latency: the site
is offered the load of the goal, and a slow answer cannot lower the load it is measured under.

Request names group the statistics: ``page``, ``positions``, ``puzzle``, ``attempt`` (opening
one), ``judge``, ``hint``, ``give-up``, ``attempt-status``, ``login``, ``game-new``,
``game-move``, ``draw``, ``game-poll``, ``computer-reply``, ``run-start``, ``run-move``,
``analysis``, ``analysis-poll`` and ``analysis-result``.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

from locust import FastHttpUser, constant_throughput, events, task

SEED = json.loads(Path(os.environ["LOAD_SEED"]).read_text())
ACCEPTED: list[int] = []
USER_RATE = float(os.environ.get("LOAD_USER_RATE", "0.67"))
ANALYSTS = int(os.environ.get("LOAD_ANALYSTS", "1"))
# The proof's main line of every puzzle a run can offer (id -> ICCS moves, the defender's too).
RUN_LINES: dict[int, list[str]] = {int(k): v for k, v in SEED.get("run_lines", {}).items()}
# Where the position API is served: its own pool when run.py starts one (a proxy routes the
# path there in a deployment), else the site itself.
POSITIONS_URL = os.environ.get("LOAD_POSITIONS_URL", "")

PAGES = ["/", "/analysis/", "/puzzles/", "/learn/"]
# Short opening lines (ICCS), legal in each variant's default start.
LINES = {
    "xiangqi": [[], ["h2e2"], ["h2e2", "h9g7"], ["b0c2", "b9c7", "h0g2"], ["c3c4", "g6g5"]],
    "xinban": [[], ["h2e2"], ["h2e2", "h9g7"], ["c3c4"]],
    "feidan": [[]],
}


def cookie(client: Any, name: str) -> str | None:
    for item in client.cookiejar:
        if item.name == name:
            return str(item.value)
    return None


def position_request(client: Any) -> None:
    """As the analysis board does: the CSRF token goes along when the browser has one."""
    variant = random.choice(list(LINES))
    body = {"variant": variant, "moves": random.choice(LINES[variant])}
    token = cookie(client, "csrftoken")
    headers = {"X-CSRFToken": token} if token else {}
    with client.post(
        f"{POSITIONS_URL}/api/positions/",
        json=body,
        headers=headers,
        name="positions",
        catch_response=True,
    ) as r:
        if r.status_code != 200:
            r.failure(f"{r.status_code}: {r.text[:200]}")


class Visitor(FastHttpUser):
    weight = 3
    wait_time = constant_throughput(USER_RATE)

    @task(2)
    def page(self) -> None:
        self.client.get(random.choice(PAGES), name="page")

    @task(5)
    def positions(self) -> None:
        position_request(self.client)


class Player(FastHttpUser):
    weight = 1
    wait_time = constant_throughput(USER_RATE)

    def on_start(self) -> None:
        self.username = random.choice(SEED["users"])
        self.client.get("/accounts/login/", name="page")
        token = cookie(self.client, "csrftoken")
        self.client.post(
            "/accounts/login/",
            data={"username": self.username, "password": SEED["password"],
                  "csrfmiddlewaretoken": token},
            name="login",
            allow_redirects=False,
        )  # fmt: skip
        self.token = cookie(self.client, "csrftoken")  # a new token after logging in
        self.attempts: list[int] = []

    @task(3)
    def positions(self) -> None:
        position_request(self.client)

    @task(2)
    def puzzle(self) -> None:
        puzzle = random.choice(SEED["puzzles"])
        self.client.get(f"/api/puzzles/{puzzle['id']}/", name="puzzle")

    def call(self, path: str, name: str, body: Any = None) -> Any:
        """POST to the puzzles API; the answer's JSON, or ``None`` (counted as a failure)."""
        with self.client.post(
            path, json=body or {}, headers={"X-CSRFToken": self.token}, name=name,
            catch_response=True,
        ) as response:  # fmt: skip
            if response.status_code not in (200, 201):
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return None
            return response.json()

    @task(2)
    def attempt(self) -> None:
        puzzle = random.choice(SEED["puzzles"])
        base = f"/api/puzzles/{puzzle['id']}"
        opened = self.call(f"{base}/attempts/", "attempt")
        if opened is None:
            return
        body = {"attempt": opened["id"]}
        if random.random() < 0.3:
            self.call(f"{base}/hint/", "hint", {**body, "level": random.choice([1, 2])})
        luck = random.random()
        if luck < 0.15:
            ended = self.call(f"{base}/give-up/", "give-up", body)
        elif luck < 0.3:
            judged = self.call(f"{base}/judge/", "judge", {**body, "move": puzzle["wrong"]})
            ended = judged and judged["attempt"]
        else:
            ended = None
            for ply, move in enumerate(puzzle["line"]):
                if ply % 2:
                    continue  # the site's reply
                judged = self.call(f"{base}/judge/", "judge", {**body, "move": move, "ply": ply})
                if judged is None or judged["verdict"] == "unknown":
                    break
                if judged["attempt"]["state"] != "started":
                    ended = judged["attempt"]
                    break
        if ended and ended["state"] != "started":
            self.attempts.append(int(ended["id"]))
            ACCEPTED.append(int(ended["id"]))

    @task(1)
    def attempt_status(self) -> None:
        if self.attempts:
            attempt = random.choice(self.attempts)
            self.client.get(f"/api/puzzles/attempts/{attempt}/", name="attempt-status")


class Gamer(FastHttpUser):
    weight = 1
    wait_time = constant_throughput(USER_RATE)

    def on_start(self) -> None:
        self.client.get("/play/", name="page")
        self.token = cookie(self.client, "csrftoken") or ""
        self.game: dict[str, Any] | None = None
        self.moves = 0

    def call(self, path: str, name: str, body: Any = None, ok: tuple[int, ...] = (200,)) -> Any:
        with self.client.post(
            path, json=body or {}, headers={"X-CSRFToken": self.token}, name=name,
            catch_response=True,
        ) as response:  # fmt: skip
            if response.status_code not in ok:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return None
            # an answer the caller expects (a 400 or 503 of a draw offer too) is a success:
            # unmarked, locust would count every status of 400 or more as a failure
            response.success()
            return response.json()

    @task
    def play(self) -> None:
        if self.game is None or self.game["status"] != "playing" or self.moves >= 20:
            body = {"variant": "xiangqi", "level": random.choice([1, 2]), "side": "red"}
            self.game, self.moves = self.call("/api/games/", "game-new", body, (201,)), 0
            return
        legal = self.game["legal_moves"]
        if not legal:
            self.game = None
            return
        base = f"/api/games/{self.game['id']}"
        started = time.perf_counter()
        if self.call(f"{base}/moves/", "game-move", {"move": random.choice(legal)}) is None:
            self.game = None
            return
        self.moves += 1
        if random.random() < 0.2:
            # 400: already offered, or the game ended meanwhile; 503 with Retry-After: the
            # database's lock wait for web requests ran out while the game row was busy (a
            # refusal the site makes on purpose under load, not a fault)
            self.call(f"{base}/draw/", "draw", ok=(200, 400, 503))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            state = self.client.get(f"{base}/", name="game-poll")
            if state.status_code != 200:
                self.game = None
                return
            if not state.json()["thinking"]:
                self.game = state.json()
                break
            time.sleep(0.1)
        events.request.fire(
            request_type="GAME", name="computer-reply", response_time=(time.perf_counter() - started) * 1000,
            response_length=0, exception=None, context={},
        )  # fmt: skip


class Runner(FastHttpUser):
    weight = 1
    wait_time = constant_throughput(USER_RATE)

    def on_start(self) -> None:
        self.mode = random.choice(["storm", "storm", "streak"])
        self.variant = random.choice(["xiangqi", "xiangqi", "xiangqi", "feidan", "xinban"])
        self.client.get(f"/puzzles/{self.mode}/?variant={self.variant}", name="page")
        self.token = cookie(self.client, "csrftoken") or ""
        self.run: dict[str, Any] | None = None

    def call(self, path: str, name: str, body: Any) -> Any:
        """POST to the runs API; the answer's JSON, or ``None`` (the run is then started
        again). A run that ended meanwhile (a storm's clock) is an answer, not a failure."""
        with self.client.post(
            path, json=body, headers={"X-CSRFToken": self.token}, name=name, catch_response=True,
        ) as response:  # fmt: skip
            code = ""
            if response.status_code == 400:
                code = (response.json().get("error") or {}).get("code") or ""
            if response.status_code in (200, 201):
                return response.json()
            if code in ("run.time_up", "run.over"):
                response.success()
            else:
                response.failure(f"{response.status_code}: {response.text[:200]}")
            return None

    @task
    def play(self) -> None:
        run = self.run
        if run is None or not run["open"] or run["puzzle"] is None:
            body = {"mode": self.mode, "variant": self.variant}
            self.run = self.call("/api/puzzles/runs/", "run-start", body)
            return
        puzzle = run["puzzle"]
        line = RUN_LINES.get(int(puzzle["id"]), [])
        ply = int(run["ply"])
        move = line[ply] if ply < len(line) else random.choice(puzzle["legal_moves"])
        if random.random() < 0.1:
            others = [m for m in puzzle["legal_moves"] if m != move]
            move = random.choice(others or [move])
        body = {"index": run["index"], "ply": ply, "move": move}
        answer = self.call(f"/api/puzzles/runs/{run['id']}/move/", "run-move", body)
        self.run = answer["run"] if answer else None


class Analyst(FastHttpUser):
    fixed_count = ANALYSTS
    wait_time = constant_throughput(USER_RATE)

    def on_start(self) -> None:
        self.client.get("/analysis/", name="page")
        self.token = cookie(self.client, "csrftoken") or ""

    def step(self, variant: str, moves: list[str]) -> dict[str, Any] | None:
        """The analysis board's position API call for ``moves``; its answer."""
        with self.client.post(
            f"{POSITIONS_URL}/api/positions/", json={"variant": variant, "moves": moves},
            headers={"X-CSRFToken": self.token}, name="positions", catch_response=True,
        ) as response:  # fmt: skip
            if response.status_code != 200:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return None
            return dict(response.json())

    def search(self, body: dict[str, Any], name: str) -> dict[str, Any] | None:
        """Ask the engine (``body``) and poll until it answers; the answer, after reporting the
        time from asking to seeing it as ``name`` (None when refused or never answered)."""
        started = time.perf_counter()
        with self.client.post(
            "/api/games/analysis/", json=body, headers={"X-CSRFToken": self.token},
            name="analysis", catch_response=True,
        ) as response:  # fmt: skip
            if response.status_code == 409:  # one of the address's searches is still pending
                response.success()
                return None
            if response.status_code not in (200, 202):
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return None
            search = dict(response.json())
        deadline = time.monotonic() + 60
        while search["status"] == "pending" and time.monotonic() < deadline:
            time.sleep(0.2)
            polled = self.client.get(search["url"], name="analysis-poll")
            if polled.status_code != 200:
                return None
            search = dict(polled.json())
        if search["status"] == "pending":
            return None
        events.request.fire(
            request_type="ANALYSIS", name=name,
            response_time=(time.perf_counter() - started) * 1000, response_length=0,
            exception=None if search["status"] == "done" else Exception(str(search["result"])),
            context={},
        )  # fmt: skip
        return search

    @task
    def analyse(self) -> None:
        variant = random.choice(list(LINES))
        moves = list(random.choice(LINES[variant]))
        for _ in range(random.randint(1, 3)):  # a few moves of one's own on the board
            position = self.step(variant, moves)
            if position is None or not position["legal_moves"]:
                return
            moves.append(random.choice(position["legal_moves"])["iccs"])
        body = {"variant": variant, "moves": moves}
        search = self.search(body, "analysis-result")
        for _ in range(random.randint(1, 2)):  # the page deepens while the position is shown
            if search is None or not search.get("next_nodes"):
                return
            search = self.search({**body, "nodes": search["next_nodes"]}, "analysis-deeper")


@events.test_stop.add_listener
def _write_accepted(**_: Any) -> None:
    target = os.environ.get("LOAD_ACCEPTED")
    if target:
        Path(target).write_text(json.dumps(ACCEPTED))
