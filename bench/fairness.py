"""Fairness benchmark: N abusive clients against honest ones, in two floods.

    python bench/fairness.py                  # both floods, N = 0, 10, 30; 60 s each
    python bench/fairness.py --smoke          # both floods, N = 0, 2; 6 s each: the whole path
    python bench/fairness.py --flood analyses --clients 0 30 --seconds 30

Starts the site as deployed (bench/load/run.py's machinery: production settings over plain HTTP
on the loopback, gunicorn, a Celery worker for the quick levels' computer moves and, at a lower
CPU priority, one for the deep levels' and one for the rest, PostgreSQL, RabbitMQ, Redis for the
throttle counters, a database of its own that is dropped at the end), with one trusted proxy so
that each client is seen from its own address (``X-Forwarded-For``).

The moves flood (``--flood moves``). The abusive clients, within the site's own limits (its
throttles and caps are those of production): half anonymous, all from one address, with a new session for each game; half
signed in (one account each), all from a second address, each of which also sends the prover
one heavy puzzle (a "mate in 7" of the start position). Each keeps a level-8 game busy: a move,
a draw offer, then waits for the computer's reply, again; a refused request waits a second.
They run as threads of one process at a low CPU priority (``--flood-nice``, default 19), as
browsers on other machines would, and the requests they sent a second are reported.

The honest player (its own address) plays level-1 games and times each computer reply, from
sending its move to seeing the reply (polling every 50 ms); the honest author (signed in, its
own address) submits a mate in 1 at the start of each round and times its verdict. Each is
reported at every N, as p50/p95 and as a ratio to N = 0; the goal is the honest player's p95
within 2x of N = 0 at N = 30. The time the workers spent on each computer move (from their
log) is reported beside it.

The analysis flood (``--flood analyses``). The abusive clients, half anonymous (one session
each) from one address and half signed in from a second, each own a finished 60-ply game (a
game made through the API and played out in the database before the round: the flood's
requests are the analyses) and ask for its analysis, again when refused, and ask the analysis
board about one new position after another, each deepened as the board does while it is
shown (the next budget each answer names, to the last), polling each answer every 200 ms; a refused
request waits a second. Meanwhile an honest player (its own address) plays level-8 games and
times each computer reply, and an honest visitor (another address) asks the analysis board
about a new position every two seconds and times each answer, from asking to seeing it
(polling every 50 ms). Both are reported at every N as p50/p95 and as a ratio to N = 0; the
goal is both p95s within 2x of N = 0 at N = 30.

Runs against loopback servers only, with at most ``max(clients)`` + 3 clients, and stops by
itself: each round lasts ``--seconds``, then waits at most ``--drain`` seconds for the queue.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import secrets
import shutil
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.run import (  # noqa: E402
    BIN,
    Processes,
    answers,
    delete_queues,
    drop_database,
    free_port,
    percentile,
    query,
    recreate_database,
    say,
    wait_until,
)

GOAL_RATIO = 2.0
FLOODS = ("moves", "analyses")
HONEST_ADDRESS = "10.1.0.1"
AUTHOR_ADDRESS = "10.1.0.2"
BOARD_ADDRESS = "10.1.0.3"
ANONYMOUS_FLOOD = "10.66.0.1"
SIGNED_IN_FLOOD = "10.66.0.2"
# The analysis flood's addresses: the throttles of the moves flood's do not carry over.
ANONYMOUS_ANALYSTS = "10.66.0.3"
SIGNED_IN_ANALYSTS = "10.66.0.4"
# A mate in 1 of the author's (key i0f0), and the abusers' heavy "mate in 7" of the start.
HONEST_PUZZLE = {"variant": "xiangqi", "fen": "5k3/9/9/9/9/9/9/9/9/4K3R w - - 0 1",
                 "goal": "mate", "moves_to_win": 1}  # fmt: skip
HEAVY_PUZZLE = {
    "variant": "xiangqi",
    "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "goal": "mate",
    "moves_to_win": 7,
}
TASK_DONE = re.compile(
    r"Task games\.computer_move\[[0-9a-f-]+\] succeeded in (?P<s>[0-9.]+)s: "
    r"\{'game': (?P<game>\d+)"
)


class Client:
    """One browser: a session with its cookies, seen from ``address``."""

    def __init__(self, url: str, address: str) -> None:
        import requests

        self.url = url
        self.requests = 0  # sent by this client, answered or not
        self.http = requests.Session()
        self.http.headers.update({"X-Forwarded-For": address, "Referer": f"{url}/"})
        self.http.get(f"{url}/play/", timeout=30)  # the CSRF cookie, as the page gets it

    def _token(self) -> dict[str, str]:
        return {"X-CSRFToken": self.http.cookies.get("csrftoken", "")}

    def post(self, path: str, body: Any = None) -> Any:
        self.requests += 1
        return self.http.post(f"{self.url}{path}", json=body or {}, headers=self._token(),
                              timeout=60)  # fmt: skip

    def get(self, path: str) -> Any:
        self.requests += 1
        return self.http.get(f"{self.url}{path}", timeout=60)

    def log_in(self, username: str, password: str) -> bool:
        self.http.get(f"{self.url}/accounts/login/", timeout=30)
        answer = self.http.post(
            f"{self.url}/accounts/login/",
            data={"username": username, "password": password,
                  "csrfmiddlewaretoken": self.http.cookies.get("csrftoken", "")},
            allow_redirects=False, timeout=30,
        )  # fmt: skip
        return bool(answer.status_code == 302)


def wait_reply(
    client: Client,
    game_id: int,
    stop: threading.Event,
    step: float,
    times: list[float] | None = None,
) -> Any:
    """Poll the game until the computer has answered (or the game is over); its state. Each
    poll's time (ms) goes to ``times``."""
    while not stop.is_set():
        asked = time.perf_counter()
        state = client.get(f"/api/games/{game_id}/")
        if times is not None:
            times.append((time.perf_counter() - asked) * 1000)
        if state.status_code == 200 and not state.json()["thinking"]:
            return state.json()
        time.sleep(step)
    return None


@dataclass(eq=False)
class Abuser(threading.Thread):
    url: str
    signed_in: str | None  # the account's name, or None: anonymous, a new session per game
    password: str
    stop: threading.Event
    refused: int = 0
    moves: int = 0
    requests: int = 0

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def run(self) -> None:
        client = None
        if self.signed_in:
            client = Client(self.url, SIGNED_IN_FLOOD)
            client.log_in(self.signed_in, self.password)
            made = client.post("/api/puzzles/authored/", HEAVY_PUZZLE)
            if made.status_code == 201:
                client.post(f"/api/puzzles/authored/{made.json()['id']}/submit/")
        while not self.stop.is_set():
            if not self.signed_in:
                if client is not None:
                    self.requests += client.requests
                client = Client(self.url, ANONYMOUS_FLOOD)
            assert client is not None
            created = client.post("/api/games/", {"variant": "xiangqi", "level": 8, "side": "red"})
            if created.status_code != 201:
                self.refused += 1
                self.stop.wait(1.0)
                continue
            self.play(client, created.json())
        if client is not None:
            self.requests += client.requests

    def play(self, client: Client, game: Any) -> None:
        while not self.stop.is_set() and game["status"] == "playing":
            moves = game["legal_moves"]
            if not moves:
                return
            answer = client.post(f"/api/games/{game['id']}/moves/", {"move": random.choice(moves)})
            if answer.status_code != 200:
                self.refused += 1
                self.stop.wait(1.0)
                again = client.get(f"/api/games/{game['id']}/")
                if again.status_code != 200:  # refused too (a throttle): a new game
                    self.refused += 1
                    return
                game = again.json()
                continue
            self.moves += 1
            client.post(f"/api/games/{game['id']}/draw/")  # each adds a search (when allowed)
            game = wait_reply(client, game["id"], self.stop, 0.2)
            if game is None:
                return


# After a round, an honest client's last request is waited for this long more; one still not
# answered then counts as unanswered, its wait so far among the latencies (a lower bound).
GRACE = 60.0


@dataclass(eq=False)
class Honest(threading.Thread):
    url: str
    stop: threading.Event  # no new move
    abort: threading.Event = field(default_factory=threading.Event)  # no more waiting
    latencies: list[float] = field(default_factory=list)  # ms, move sent -> reply seen
    posts: list[float] = field(default_factory=list)  # ms, move sent -> its answer
    polls: list[float] = field(default_factory=list)  # ms, each poll's answer
    games: list[int] = field(default_factory=list)
    failures: int = 0
    unanswered: int = 0
    level: int = 1

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def run(self) -> None:
        client = Client(self.url, HONEST_ADDRESS)
        while not self.stop.is_set():
            body = {"variant": "xiangqi", "level": self.level, "side": "red"}
            created = client.post("/api/games/", body)
            if created.status_code != 201:
                self.failures += 1
                self.stop.wait(1.0)
                continue
            game = created.json()
            self.games.append(game["id"])
            for _ in range(30):  # thirty moves a game, then a new one
                if self.stop.is_set() or game["status"] != "playing" or not game["legal_moves"]:
                    break
                started = time.perf_counter()
                answer = client.post(f"/api/games/{game['id']}/moves/",
                                     {"move": random.choice(game["legal_moves"])})  # fmt: skip
                self.posts.append((time.perf_counter() - started) * 1000)
                if answer.status_code != 200:
                    self.failures += 1
                    break
                game = wait_reply(client, game["id"], self.abort, 0.05, self.polls)
                self.latencies.append((time.perf_counter() - started) * 1000)
                if game is None:
                    self.unanswered += 1
                    break
                self.stop.wait(0.5)  # a human's pause
            if game is not None and game["status"] == "playing":
                client.post(f"/api/games/{game['id']}/resign/")


def honest_player(url: str, seconds: float, results: Any, level: int = 1) -> None:
    """In a process of its own: play as the honest player (at ``level``) for ``seconds``, its
    last reply waited for at most ``GRACE`` more; put its latencies (ms), games, failures and
    unanswered replies on ``results``."""
    stop = threading.Event()
    player = Honest(url, stop, level=level)
    player.start()
    time.sleep(seconds)
    stop.set()
    player.join(timeout=GRACE)
    player.abort.set()
    player.join(timeout=70)
    results.put((player.latencies, player.games, player.failures, player.posts, player.polls,
                 player.unanswered))  # fmt: skip


# -- the analysis flood ------------------------------------------------------------------------


def random_line(rng: random.Random, plies: int) -> list[dict[str, str]]:
    """``plies`` random legal moves from the xiangqi start, the game never over on the way:
    each as the site keeps a ply (ICCS, Chinese notation, the FEN after it)."""
    from engine import Position

    while True:
        pos = Position.start("xiangqi")
        line: list[dict[str, str]] = []
        for _ in range(plies):
            moves = sorted(pos.legal_moves, key=lambda m: m.iccs())
            if not moves:
                break
            move = rng.choice(moves)
            entry = {"iccs": move.iccs(), "chinese": pos.chinese(move)}
            pos.push(move)
            if pos.outcome() is not None:
                break
            line.append({**entry, "fen": pos.fen(), "effect": "", "check": None, "by": "player"})
        if len(line) == plies:
            return line


def search_answer(
    client: Client, stop: threading.Event, moves: list[str], step: float, nodes: int | None = None
) -> Any:
    """Ask the analysis board about the position after ``moves`` (on ``nodes``, or the first
    budget) and poll until it is answered: the answer (None when refused, failed or stopped),
    and the refusal's status (0: no answer at all, the connection dropped)."""
    import requests

    ask: dict[str, Any] = {"variant": "xiangqi", "moves": moves}
    if nodes is not None:
        ask["nodes"] = nodes
    try:
        asked = client.post("/api/games/analysis/", ask)
        if asked.status_code not in (200, 202):
            return None, asked.status_code
        body = asked.json()
        while body["status"] == "pending" and not stop.is_set():
            stop.wait(step)
            polled = client.get(body["url"])
            if polled.status_code != 200:
                return None, polled.status_code
            body = polled.json()
    except requests.RequestException:
        return None, 0
    return body, asked.status_code


@dataclass(eq=False)
class Analyst(threading.Thread):
    """An abusive client of the analysis flood: its finished game's analysis, asked for until
    accepted, and one board search after another."""

    client: Client
    game: int
    stop: threading.Event
    seed: int
    refused: int = 0
    searches: int = 0
    deep: int = 0  # of the searches, those asked for a deeper budget than the position's first
    analysed: bool = False

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def run(self) -> None:
        import requests

        rng = random.Random(self.seed)
        asked = False
        while not self.stop.is_set():
            try:
                if not asked:
                    answer = self.client.post(f"/api/games/{self.game}/analysis/")
                    asked = answer.status_code in (200, 202)
                    self.refused += 0 if asked else 1
                elif not self.analysed:
                    state = self.client.get(f"/api/games/{self.game}/analysis/")
                    self.analysed = state.status_code == 200 and state.json()["status"] != "pending"
            except requests.RequestException:
                self.refused += 1
            moves = [ply["iccs"] for ply in random_line(rng, rng.randint(6, 16))]
            body, _status = search_answer(self.client, self.stop, moves, 0.2)
            deeper = False  # the first search of a position is the site's first look
            # as the board does while a position is shown: deeper and deeper, to the last budget
            while body is not None and body.get("next_nodes") and not self.stop.is_set():
                self.searches += 1
                self.deep += deeper
                body, _status = search_answer(
                    self.client, self.stop, moves, 0.2, nodes=body["next_nodes"]
                )
                deeper = True
            if body is None:
                self.refused += 1
                self.stop.wait(1.0)
            else:
                self.searches += 1
                self.deep += deeper


def finished_game(client: Client, db: str, plies: int, rng: random.Random) -> int | None:
    """A game of ``client``'s, made through the API (a game for two at one board) and played
    out to ``plies`` random moves and resigned in the database."""
    import psycopg

    made = client.post("/api/games/", {"variant": "xiangqi", "mode": "local"})
    if made.status_code != 201:
        return None
    game = int(made.json()["id"])
    moves = json.dumps(random_line(rng, plies))
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(
            "UPDATE games_game SET moves = %s::jsonb, status = 'finished', result = '0-1', "
            "winner = 'black', termination = 'resignation', ended_by = 'red', "
            "finished_at = now() WHERE id = %s",
            [moves, game],
        )
    return game


def analysis_flood(
    url: str,
    users: list[str],
    password: str,
    clients: int,
    seconds: float,
    nice: int,
    db: str,
    ready: Any,
    results: Any,
) -> None:
    """In a process of its own, at CPU priority ``nice``: ``clients`` analysts (every second
    one signed in as the next of ``users``), each with a finished game made first (then
    ``ready`` is set), for ``seconds``; put their searches, analyses done, refused requests and
    requests sent on ``results``."""
    os.nice(nice)
    stop = threading.Event()
    accounts = iter(users)
    rng = random.Random(clients)
    analysts = []
    for i in range(clients):
        name = next(accounts) if i % 2 else None
        client = Client(url, SIGNED_IN_ANALYSTS if name else ANONYMOUS_ANALYSTS)
        if name:
            client.log_in(name, password)
        game = finished_game(client, db, 60, rng)
        if game is not None:
            analysts.append(Analyst(client, game, stop, seed=os.getpid() * 1000 + i))
    ready.set()
    for analyst in analysts:
        analyst.start()
    time.sleep(seconds)
    stop.set()
    for analyst in analysts:
        analyst.join(timeout=70)
    results.put((sum(a.searches for a in analysts), sum(a.deep for a in analysts),
                 sum(a.analysed for a in analysts), sum(a.refused for a in analysts),
                 sum(a.client.requests for a in analysts), len(analysts)))  # fmt: skip


def honest_board(url: str, seconds: float, results: Any) -> None:
    """In a process of its own: the honest visitor of the analysis board, for ``seconds``: a
    new position two seconds after each answer, each answer timed from asking to seeing it
    (ms), the last one waited for at most ``GRACE`` more; its latencies, failures (refused or
    failed searches) and unanswered searches on ``results``."""
    abort = threading.Event()
    threading.Timer(seconds + GRACE, abort.set).start()
    client = Client(url, BOARD_ADDRESS)
    rng = random.Random(os.getpid())  # new positions each round: none answered from the cache
    latencies: list[float] = []
    failures = unanswered = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        moves = [ply["iccs"] for ply in random_line(rng, rng.randint(6, 16))]
        started = time.perf_counter()
        body, _status = search_answer(client, abort, moves, 0.05)
        if body is not None and body["status"] == "pending":  # still waiting after the grace
            latencies.append((time.perf_counter() - started) * 1000)
            unanswered += 1
            break
        if body is None or body["status"] != "done":
            failures += 1
        else:
            latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(2.0)
    abort.set()
    results.put((latencies, failures, unanswered))


@dataclass
class AnalysisRound:
    clients: int
    replies: list[float]  # the honest level-8 player's, ms
    searches: list[float]  # the honest board visitor's, ms
    failures: int
    unanswered: int  # the honest replies and searches still not seen GRACE after the round
    flood_searches: int
    flood_deep: int  # of the flood's searches, those deeper than a first look
    flood_analysed: int  # the flood's games whose analysis was finished in the round
    flood_positions: int  # positions of the flood's games searched in the round
    refused: int
    flood_rate: float
    analysts: int


def run_analysis_round(
    url: str, seed: Any, clients: int, seconds: float, drain: float, db: str, flood_nice: int
) -> AnalysisRound:
    users = list(seed["users"])
    context = multiprocessing.get_context("spawn")
    warm_up = min(5.0, seconds / 4) if clients else 0.0
    flooded: Any = context.Queue()
    ready: Any = context.Event()
    flooder = context.Process(
        target=analysis_flood,
        args=(url, users[1:], seed["password"], clients, warm_up + seconds, flood_nice, db,
              ready, flooded),
        daemon=True,
    )  # fmt: skip
    if clients:
        flooder.start()
        if not ready.wait(180):
            raise SystemExit("the analysis flood's games were not made within 180 s")
    time.sleep(warm_up)  # the flood gets going
    played: Any = context.Queue()
    player = context.Process(target=honest_player, args=(url, seconds, played, 8), daemon=True)
    searched: Any = context.Queue()
    board = context.Process(target=honest_board, args=(url, seconds, searched), daemon=True)
    player.start()
    board.start()
    replies, _games, player_failures, _posts, _polls, late_replies = played.get(
        timeout=seconds + GRACE + 90
    )
    searches, board_failures, late_searches = searched.get(timeout=seconds + GRACE + 90)
    player.join(timeout=10)
    board.join(timeout=10)
    flood = flooded.get(timeout=90) if clients else (0, 0, 0, 0, 0, 0)
    if clients:
        flooder.join(timeout=10)
    positions = query(db, "SELECT coalesce(sum(jsonb_array_length(evaluations)), 0) "
                          "FROM games_gameanalysis")[0][0]  # fmt: skip
    deadline = time.monotonic() + drain
    waiting = "SELECT count(*) FROM games_game WHERE status = 'playing' AND computer_queued_at IS NOT NULL"
    while query(db, waiting)[0][0] and time.monotonic() < deadline:
        time.sleep(0.5)
    finish_open_games(db)
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:  # the next round starts clean
        for table in ("games_engineanalysis", "games_gameanalysis"):
            conn.execute(f"UPDATE {table} SET status = 'failed' WHERE status = 'pending'")
        conn.execute("DELETE FROM games_gameanalysis")
    searched_flood, deep, analysed, refused, requests, analysts = flood
    return AnalysisRound(
        clients=clients,
        replies=sorted(replies),
        searches=sorted(searches),
        failures=player_failures + board_failures,
        unanswered=late_replies + late_searches,
        flood_searches=searched_flood,
        flood_deep=deep,
        flood_analysed=analysed,
        flood_positions=int(positions),
        refused=refused,
        flood_rate=requests / (warm_up + seconds) if clients else 0.0,
        analysts=analysts,
    )


def author_verdict(url: str, username: str, password: str, limit: float) -> float | None:
    """Seconds from the honest author's submission to its verdict (None: none within limit)."""
    client = Client(url, AUTHOR_ADDRESS)
    client.log_in(username, password)
    made = client.post("/api/puzzles/authored/", HONEST_PUZZLE)
    if made.status_code != 201:
        return None
    puzzle = made.json()["id"]
    started = time.monotonic()
    if client.post(f"/api/puzzles/authored/{puzzle}/submit/").status_code != 202:
        return None
    while time.monotonic() - started < limit:
        status = client.get(f"/api/puzzles/authored/{puzzle}/").json().get("status")
        if status in ("published", "rejected"):
            return time.monotonic() - started
        time.sleep(0.2)
    return None


def worker_seconds(*logs: Path) -> dict[int, list[float]]:
    """Per game, the milliseconds a worker spent on each of its computer moves (their logs)."""
    found: dict[int, list[float]] = {}
    for log in logs:
        for match in TASK_DONE.finditer(log.read_text(errors="replace")):
            found.setdefault(int(match["game"]), []).append(float(match["s"]) * 1000)
    return found


def finish_open_games(db: str) -> None:
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("UPDATE games_game SET status = 'finished', computer_queued_at = NULL "
                     "WHERE status <> 'finished'")  # fmt: skip


@dataclass
class Round:
    clients: int
    latencies: list[float]
    posts: list[float]
    polls: list[float]
    worker_ms: list[float]
    all_worker_ms: list[float]
    verdict: float | None
    abusive_moves: int
    refused: int
    flood_rate: float  # the flood's requests a second
    failures: int


def flood(
    url: str,
    users: list[str],
    password: str,
    clients: int,
    seconds: float,
    nice: int,
    results: Any,
) -> None:
    """In a process of its own, at CPU priority ``nice``: ``clients`` abusive clients (every
    second one signed in as the next of ``users``) for ``seconds``; put their computer moves,
    refused requests and requests sent on ``results``."""
    os.nice(nice)
    stop = threading.Event()
    accounts = iter(users)
    abusers = [
        Abuser(url, next(accounts) if i % 2 else None, password, stop) for i in range(clients)
    ]
    for abuser in abusers:
        abuser.start()
    time.sleep(seconds)
    stop.set()
    for abuser in abusers:
        abuser.join(timeout=70)
    results.put((sum(a.moves for a in abusers), sum(a.refused for a in abusers),
                 sum(a.requests for a in abusers)))  # fmt: skip


def run_round(
    url: str,
    seed: Any,
    clients: int,
    seconds: float,
    drain: float,
    logs: Path,
    db: str,
    flood_nice: int,
) -> Round:
    users = list(seed["users"])
    author = users[0]
    context = multiprocessing.get_context("spawn")
    warm_up = min(5.0, seconds / 4) if clients else 0.0
    # The flood runs in a process of its own at a low CPU priority: its clients stand in for
    # browsers on other machines, and on this machine their HTTP clients' own work would
    # otherwise be taken from the site being measured (the flood's rate is reported).
    flooded: Any = context.Queue()
    flooder = context.Process(
        target=flood,
        args=(url, users[1:], seed["password"], clients, warm_up + seconds, flood_nice, flooded),
        daemon=True,
    )
    if clients:
        flooder.start()
    time.sleep(warm_up)  # the flood gets going
    # The honest player is timed in a process of its own, at normal priority, as a browser
    # on a machine of its own would be.
    results: Any = context.Queue()
    honest = context.Process(target=honest_player, args=(url, seconds, results), daemon=True)
    honest.start()
    verdict: list[float | None] = []
    author_thread = threading.Thread(
        target=lambda: verdict.append(
            author_verdict(url, author, seed["password"], seconds + drain)
        ),
        daemon=True,
    )
    author_thread.start()
    latencies, games, failures, posts, polls, unanswered = results.get(timeout=seconds + GRACE + 90)
    failures += unanswered
    honest.join(timeout=10)
    abusive_moves, refused, requests = flooded.get(timeout=90) if clients else (0, 0, 0)
    if clients:
        flooder.join(timeout=10)
    author_thread.join(timeout=drain + 10)
    deadline = time.monotonic() + drain
    waiting = "SELECT count(*) FROM games_game WHERE status = 'playing' AND computer_queued_at IS NOT NULL"
    while query(db, waiting)[0][0] and time.monotonic() < deadline:
        time.sleep(0.5)
    finish_open_games(db)  # the next round starts clean
    spent = worker_seconds(logs / "worker-playing.log", logs / "worker-deep.log")
    return Round(
        clients=clients,
        latencies=sorted(latencies),
        posts=sorted(posts),
        polls=sorted(polls),
        worker_ms=sorted(ms for g in games for ms in spent.get(g, [])),
        all_worker_ms=sorted(ms for values in spent.values() for ms in values),
        verdict=verdict[0] if verdict else None,
        abusive_moves=abusive_moves,
        refused=refused,
        flood_rate=requests / (warm_up + seconds) if clients else 0.0,
        failures=failures,
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, nargs="+", default=[0, 10, 30])
    parser.add_argument("--flood", nargs="+", choices=FLOODS, default=list(FLOODS),
                        help="which floods to run, each at every N")  # fmt: skip
    parser.add_argument("--analyses-at-once", type=int, default=None,
                        help="ANALYSIS_SEARCHES_AT_ONCE for the site (default: its own)")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=60.0, help="each round's length")
    parser.add_argument("--drain", type=float, default=60.0,
                        help="at most this long after a round for the queue to empty")  # fmt: skip
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument("--playing-concurrency", type=int, default=2,
                        help="worker processes for the computer's moves, per pool")  # fmt: skip
    parser.add_argument("--deep-nice", type=int, default=10,
                        help="CPU priority of the deep levels' and the prover's workers "
                        "(0: as the quick replies', to compare)")  # fmt: skip
    parser.add_argument("--flood-nice", type=int, default=19,
                        help="CPU priority of the flood's clients (0: as the site's, to compare)")  # fmt: skip
    parser.add_argument("--smoke", action="store_true", help="N = 0, 2; 6 s rounds")
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/xiangqi_fairness"
        ),
    )
    parser.add_argument(
        "--broker-url",
        default=os.environ.get("LOAD_BROKER_URL", "amqp://guest:guest@127.0.0.1:5672//"),
    )
    parser.add_argument(
        "--cache-url",
        default=os.environ.get("LOAD_CACHE_URL", "redis://127.0.0.1:6379/2"),
        help="throttle counters and sessions, shared by the web workers (Redis, as deployed)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database and logs")
    args = parser.parse_args()
    if args.smoke:
        args.clients, args.seconds, args.drain, args.web_workers = [0, 2], 6.0, 30.0, 2
    if any(urlsplit(url).hostname not in ("127.0.0.1", "localhost")
           for url in (args.database_url, args.broker_url, args.cache_url)):  # fmt: skip
        raise SystemExit("the fairness benchmark runs against loopback servers only")

    work = ROOT / "var" / "fairness"
    logs = work / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    prefix = f"fair-{os.getpid()}."
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_"))},
        "DJANGO_SETTINGS_MODULE": "bench.load.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": args.database_url,
        "CELERY_BROKER_URL": args.broker_url,
        "CELERY_QUEUE_PREFIX": prefix,
        "CACHE_URL": args.cache_url,
        "CACHE_KEY_PREFIX": prefix,
        "TRUSTED_PROXY_COUNT": "1",  # each client's address from X-Forwarded-For
        # Only the log-ins are lifted (the clients log in at once); every other limit holds.
        "THROTTLE_RATES": "login=100000/min,login_account=100000/min",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        **({"ANALYSIS_SEARCHES_AT_ONCE": str(args.analyses_at_once)}
           if args.analyses_at_once is not None else {}),
    }  # fmt: skip
    processes = Processes(env, logs)
    say(f"Database {args.database_url.rsplit('/', 1)[-1]} (recreated), broker "
        f"{args.broker_url.split('@')[-1]}")  # fmt: skip
    recreate_database(args.database_url)
    rounds: list[Round] = []
    analysis_rounds: list[AnalysisRound] = []
    queues = [
        f"{prefix}{name}" for name in ("celery", "scoring", "proving", "playing", "playing_deep")
    ]
    try:
        processes.run(sys.executable, "manage.py", "migrate", "--noinput", "-v", "0")
        processes.run(sys.executable, "manage.py", "createcachetable")
        processes.run(sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0")
        users = 2 + max(args.clients) * (len(args.clients) * len(args.flood) + 1)
        processes.run(sys.executable, "-m", "bench.load.seed", str(users), "0",
                      str(work / "seed.json"))  # fmt: skip
        seed = json.loads((work / "seed.json").read_text())
        say(f"Starting gunicorn ({args.web_workers} workers), a playing worker for the quick "
            f"levels and one for the deep levels ({args.playing_concurrency} processes each, "
            f"the deep one at nice {args.deep_nice}) and a worker for the rest (nice "
            f"{args.deep_nice})")  # fmt: skip
        for name, queue, nice in (("worker-playing", "playing", 0),
                                  ("worker-deep", "playing_deep", args.deep_nice)):  # fmt: skip
            processes.start(
                name, sys.executable, "-m", "celery", "-A", "config", "worker",
                "--pool", "prefork", "--concurrency", str(args.playing_concurrency),
                "--queues", f"{prefix}{queue}", "--hostname", f"{queue}-{port}@localhost",
                "--without-gossip", "--without-mingle", "--loglevel", "INFO", nice=nice,
            )  # fmt: skip
        processes.start(
            "worker-rest", sys.executable, "-m", "celery", "-A", "config", "worker",
            "--pool", "prefork", "--concurrency", "1",
            "--queues", f"{prefix}celery,{prefix}scoring,{prefix}proving",
            "--hostname", f"rest-{port}@localhost", "--without-gossip", "--without-mingle",
            "--loglevel", "INFO", nice=args.deep_nice,
        )  # fmt: skip
        processes.start(
            "web", str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
            "--workers", str(args.web_workers), "--timeout", "60",
        )  # fmt: skip
        wait_until(lambda: answers(f"{url}/api/variants/"), 90, "the site to answer")
        for name in ("worker-playing", "worker-deep", "worker-rest"):
            wait_until(lambda n=name: " ready." in (logs / f"{n}.log").read_text(errors="replace"),
                       90, f"the {name} to be ready")  # fmt: skip
        for kind, clients in ((kind, n) for kind in args.flood for n in args.clients):
            say(f"Round: the {kind} flood, {clients} abusive clients for {args.seconds:.0f} s")
            # each round takes fresh accounts: the seed has enough for every round
            done = len(rounds) + len(analysis_rounds)
            seed_round = {**seed, "users": seed["users"][done * max(args.clients) + 1 :]}
            seed_round["users"] = [seed["users"][0], *seed_round["users"]]
            if kind == "moves":
                rounds.append(run_round(url, seed_round, clients, args.seconds, args.drain,
                                        logs, args.database_url, args.flood_nice))  # fmt: skip
            else:
                analysis_rounds.append(run_analysis_round(
                    url, seed_round, clients, args.seconds, args.drain, args.database_url,
                    args.flood_nice))  # fmt: skip
    finally:
        processes.stop()
        delete_queues(args.broker_url, queues)
        if not args.keep:
            drop_database(args.database_url)
    codes = []
    if "moves" in args.flood:
        codes.append(report(rounds))
    if "analyses" in args.flood:
        codes.append(report_analyses(analysis_rounds))
    return max(codes)


def report(rounds: list[Round]) -> int:
    if not rounds:
        return 2
    base = rounds[0]
    base_p95 = percentile(base.latencies, 0.95) or 1.0
    base_p50 = percentile(base.latencies, 0.5) or 1.0
    print()
    print(f"{'N':>4}{'replies':>9}{'p50 ms':>9}{'p95 ms':>9}{'p95 ratio':>11}"
          f"{'move p95':>10}{'poll p95':>10}{'worker p95':>12}{'all p95':>9}{'verdict s':>11}"
          f"{'flood moves':>13}{'refused':>9}{'flood req/s':>13}")  # fmt: skip
    for r in rounds:
        p50, p95 = percentile(r.latencies, 0.5), percentile(r.latencies, 0.95)
        verdict = f"{r.verdict:.1f}" if r.verdict is not None else "none"
        print(f"{r.clients:>4}{len(r.latencies):>9}{p50:>9.0f}{p95:>9.0f}{p95 / base_p95:>10.2f}x"
              f"{percentile(r.posts, 0.95):>10.0f}{percentile(r.polls, 0.95):>10.0f}"
              f"{percentile(r.worker_ms, 0.95):>12.0f}{percentile(r.all_worker_ms, 0.95):>9.0f}"
              f"{verdict:>11}{r.abusive_moves:>13}{r.refused:>9}{r.flood_rate:>13.0f}")  # fmt: skip
    print()
    print("p50/p95: the honest player's computer replies as the client sees them (move sent -> "
          "reply seen); move p95 and poll p95: the honest player's move request and each of its polls, "
          "sent -> answered; worker p95: the worker's time on the honest player's moves; all p95: on "
          "every computer move; verdict: the honest author's mate in 1, submission -> verdict; flood "
          "req/s: the requests the flood's clients sent a second")  # fmt: skip
    last = rounds[-1]
    ratio = percentile(last.latencies, 0.95) / base_p95
    p50_ratio = percentile(last.latencies, 0.5) / base_p50
    if base.verdict and last.verdict:
        print(f"honest author at N = {last.clients}: {last.verdict / base.verdict:.2f}x N = 0")
    print(f"honest player at N = {last.clients}: p95 {ratio:.2f}x N = 0 (p50 {p50_ratio:.2f}x); "
          f"goal within {GOAL_RATIO:.0f}x: {'OK' if ratio <= GOAL_RATIO else 'MISSED'}")  # fmt: skip
    failures = sum(r.failures for r in rounds)
    print(f"honest player's refused or failed requests: {failures}")
    return 0 if failures == 0 and all(r.latencies for r in rounds) else 1


def report_analyses(rounds: list[AnalysisRound]) -> int:
    if not rounds:
        return 2
    base = rounds[0]
    base_replies = percentile(base.replies, 0.95) or 1.0
    base_searches = percentile(base.searches, 0.95) or 1.0
    print()
    print("The analysis flood")
    print(f"{'N':>4}{'replies':>9}{'p50 ms':>9}{'p95 ms':>9}{'p95 ratio':>11}"
          f"{'searches':>10}{'p50 ms':>9}{'p95 ms':>9}{'p95 ratio':>11}"
          f"{'unanswered':>12}{'flood searches':>16}{'of them deep':>14}{'flood positions':>17}{'games done':>12}"
          f"{'refused':>9}{'flood req/s':>13}")  # fmt: skip
    for r in rounds:
        print(f"{r.clients:>4}{len(r.replies):>9}{percentile(r.replies, 0.5):>9.0f}"
              f"{percentile(r.replies, 0.95):>9.0f}"
              f"{percentile(r.replies, 0.95) / base_replies:>10.2f}x"
              f"{len(r.searches):>10}{percentile(r.searches, 0.5):>9.0f}"
              f"{percentile(r.searches, 0.95):>9.0f}"
              f"{percentile(r.searches, 0.95) / base_searches:>10.2f}x{r.unanswered:>12}"
              f"{r.flood_searches:>16}{r.flood_deep:>14}{r.flood_positions:>17}"
              f"{f'{r.flood_analysed}/{r.analysts}':>12}{r.refused:>9}{r.flood_rate:>13.0f}")  # fmt: skip
    print()
    print("replies: the honest level-8 player's computer replies (move sent -> reply seen); "
          "searches: the honest visitor's analysis board searches (asked -> answer seen); "
          f"unanswered: the honest replies and searches not seen {GRACE:.0f} s after the round "
          "(their wait until then is counted among the latencies, a lower bound); flood "
          "searches: the flood's board searches answered (of them deep: deeper than a first look, "
          "asked as the board deepens a position it shows); flood positions: positions of the "
          "flood's games analysed; games done: the flood's game analyses finished, of its games; "
          "refused: the flood's requests refused (caps and throttles)")  # fmt: skip
    last = rounds[-1]
    verdicts = []
    for what, values, unloaded in (("honest level-8 player", last.replies, base_replies),
                                   ("honest board search", last.searches, base_searches)):  # fmt: skip
        ratio = percentile(values, 0.95) / unloaded
        verdicts.append(ratio <= GOAL_RATIO)
        print(f"analysis flood: {what} at N = {last.clients}: p95 {ratio:.2f}x N = 0; goal "
              f"within {GOAL_RATIO:.0f}x: {'OK' if ratio <= GOAL_RATIO else 'MISSED'}")  # fmt: skip
    failures = sum(r.failures for r in rounds)
    unanswered = sum(r.unanswered for r in rounds)
    print(f"analysis flood: the honest clients' refused or failed requests: {failures}")
    print(f"analysis flood: the honest clients' requests unanswered {GRACE:.0f} s after the "
          f"round: {unanswered}")  # fmt: skip
    ok = failures == 0 and unanswered == 0 and all(r.replies and r.searches for r in rounds)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
