"""Fairness benchmark: N abusive clients against one honest player and one honest author.

    python bench/fairness.py                  # N = 0, 10, 30; 60 s each
    python bench/fairness.py --smoke          # N = 0, 2; 12 s each: checks the whole path
    python bench/fairness.py --clients 0 5 10 --seconds 30

Starts the site as deployed (bench/load/run.py's machinery: production settings over plain HTTP
on the loopback, gunicorn, a Celery worker for the quick levels' computer moves and, at a lower
CPU priority, one for the deep levels' and one for the rest, PostgreSQL, RabbitMQ, Redis for the
throttle counters, a database of its own that is dropped at the end), with one trusted proxy so
that each client is seen from its own address (``X-Forwarded-For``).

The abusive clients, within the site's own limits (its throttles and caps are those of
production): half anonymous, all from one address, with a new session for each game; half
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

Runs against loopback servers only, with at most ``max(clients)`` + 2 clients, and stops by
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
HONEST_ADDRESS = "10.1.0.1"
AUTHOR_ADDRESS = "10.1.0.2"
ANONYMOUS_FLOOD = "10.66.0.1"
SIGNED_IN_FLOOD = "10.66.0.2"
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
                game = client.get(f"/api/games/{game['id']}/").json()
                continue
            self.moves += 1
            client.post(f"/api/games/{game['id']}/draw/")  # each adds a search (when allowed)
            game = wait_reply(client, game["id"], self.stop, 0.2)
            if game is None:
                return


@dataclass(eq=False)
class Honest(threading.Thread):
    url: str
    stop: threading.Event
    latencies: list[float] = field(default_factory=list)  # ms, move sent -> reply seen
    posts: list[float] = field(default_factory=list)  # ms, move sent -> its answer
    polls: list[float] = field(default_factory=list)  # ms, each poll's answer
    games: list[int] = field(default_factory=list)
    failures: int = 0

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def run(self) -> None:
        client = Client(self.url, HONEST_ADDRESS)
        while not self.stop.is_set():
            created = client.post("/api/games/", {"variant": "xiangqi", "level": 1, "side": "red"})
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
                game = wait_reply(client, game["id"], self.stop, 0.05, self.polls)
                if game is None:
                    break
                self.latencies.append((time.perf_counter() - started) * 1000)
                self.stop.wait(0.5)  # a human's pause
            if game is not None and game["status"] == "playing":
                client.post(f"/api/games/{game['id']}/resign/")


def honest_player(url: str, seconds: float, results: Any) -> None:
    """In a process of its own: play as the honest player for ``seconds``; put its latencies
    (ms), games and failures on ``results``."""
    stop = threading.Event()
    player = Honest(url, stop)
    player.start()
    time.sleep(seconds)
    stop.set()
    player.join(timeout=70)
    results.put((player.latencies, player.games, player.failures, player.posts, player.polls))


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
    latencies, games, failures, posts, polls = results.get(timeout=seconds + 90)
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
    parser.add_argument("--smoke", action="store_true", help="N = 0, 2; 12 s rounds")
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
        args.clients, args.seconds, args.drain, args.web_workers = [0, 2], 12.0, 30.0, 2
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
    }
    processes = Processes(env, logs)
    say(f"Database {args.database_url.rsplit('/', 1)[-1]} (recreated), broker "
        f"{args.broker_url.split('@')[-1]}")  # fmt: skip
    recreate_database(args.database_url)
    rounds: list[Round] = []
    queues = [
        f"{prefix}{name}" for name in ("celery", "scoring", "proving", "playing", "playing_deep")
    ]
    try:
        processes.run(sys.executable, "manage.py", "migrate", "--noinput", "-v", "0")
        processes.run(sys.executable, "manage.py", "createcachetable")
        processes.run(sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0")
        users = 2 + max(args.clients) * (len(args.clients) + 1)
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
        for clients in args.clients:
            say(f"Round: {clients} abusive clients for {args.seconds:.0f} s")
            # each round takes fresh accounts: the seed has enough for every round
            seed_round = {**seed, "users": seed["users"][len(rounds) * max(args.clients) + 1 :]}
            seed_round["users"] = [seed["users"][0], *seed_round["users"]]
            rounds.append(run_round(url, seed_round, clients, args.seconds, args.drain,
                                    logs, args.database_url, args.flood_nice))  # fmt: skip
    finally:
        processes.stop()
        delete_queues(args.broker_url, queues)
        if not args.keep:
            drop_database(args.database_url)
    return report(rounds)


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


if __name__ == "__main__":
    sys.exit(main())
