"""Load benchmark: the site under the load of a busy evening, on this machine.

    python bench/load/run.py               # 60 s, 240 simulated users, 160 requests/s (make load)
    python bench/load/run.py --smoke       # 8 s, 20 users, 15 requests/s: checks the whole path

Starts the site as deployed (production settings over plain HTTP on the loopback: gunicorn,
a Celery worker, PostgreSQL and RabbitMQ; see bench/load/settings.py) against a database of its
own, with the site's content (lessons, puzzle bank) and seeded players and puzzles, and drives
it with locust (bench/load/locustfile.py): page views, position API calls, puzzle views,
attempts played through the judge (with hints and shown solutions), games against the
computer (moves, draw offers, polls until the computer's reply), Puzzle Streak and Storm runs
(starts and moves) and the analysis board's engine searches (asked for, polled until done). As
docs/deployment.md advises, the position API has a pool of its own (threaded, keep-alive,
ahead of the rest on the CPU), the worker runs behind the web requests (nice 10) and a second
worker takes the deep searches (``playing_deep``: the analysis board's) behind it (nice 15).
Then it waits until the worker has scored every accepted attempt and checks that each was
scored exactly once.

Prints requests per second, median and 95th-percentile latency per kind of request as clients
see it (the judge, hints, game moves, draw offers, the computer's replies, run moves and
analysis searches beside the position API) and inside the workers (the web workers' time per
request from their access logs; the computer's moves and the analysis searches as the Celery
workers spent them), the error count and the attempt counts, each against the goal (150
requests/s; position API p95 under 100 ms; no error; no attempt lost or scored twice). Exits
non-zero when an attempt is lost or scored twice, or a request failed.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import http.client
import json
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
GOAL_RPS = 150.0
GOAL_POSITIONS_P95_MS = 100.0
TASK_LINE = re.compile(
    r"Task puzzles\.score_attempt\[(?P<id>[0-9a-f-]+)\] (?P<event>received|succeeded)"
)


def say(text: str) -> None:
    print(f"==> {text}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {seconds:.0f}s waiting for {what}")
        time.sleep(0.3)


def database_admin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/postgres")), parts.path.lstrip("/")


def recreate_database(url: str) -> None:
    import psycopg

    admin, name = database_admin(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    admin, name = database_admin(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


class Processes:
    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env = env
        self.logs = logs
        self.running: list[subprocess.Popen[bytes]] = []

    def run(self, *command: str) -> None:
        result = subprocess.run(command, cwd=ROOT, env=self.env, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")

    def start(self, name: str, *command: str, nice: int = 0) -> subprocess.Popen[bytes]:
        with (self.logs / f"{name}.log").open("wb") as log:
            process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=(lambda: priority(nice)) if nice else None,
            )  # fmt: skip
        self.running.append(process)
        return process

    def stop(self) -> None:
        for process in self.running:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.running:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


SERVICES = {"postgres": "PostgreSQL", "beam.smp": "RabbitMQ", "redis-server": "Redis"}


def cpu_snapshot(sessions: dict[int, str]) -> dict[int, tuple[str, int]]:
    """Per process: (what it is, CPU ticks so far) for the site's sessions and the services."""
    snapshot = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, _, rest = stat.read_text().rpartition(")")
        except OSError:
            continue
        fields, comm = rest.split(), head.partition("(")[2]
        what = sessions.get(int(fields[3])) or SERVICES.get(comm)
        if what:
            snapshot[int(stat.parent.name)] = (what, int(fields[11]) + int(fields[12]))
    return snapshot


def cpu_spent(
    before: dict[int, tuple[str, int]], after: dict[int, tuple[str, int]]
) -> dict[str, float]:
    """CPU seconds each kind of process spent between two snapshots (processes that started in
    between count from zero; those that ended are missed, which undercounts PostgreSQL's
    short-lived backends only)."""
    spent: dict[str, float] = {}
    for pid, (what, ticks) in after.items():
        earlier = before.get(pid, (what, 0))[1]
        spent[what] = spent.get(what, 0.0) + (ticks - earlier) / CLOCK_TICKS
    return spent


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=3).ping())
    except redis.RedisError:
        return False


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except OSError:
        return False


def read_stats(prefix: Path) -> dict[str, dict[str, float]]:
    stats = {}
    with (prefix.parent / f"{prefix.name}_stats.csv").open() as handle:
        for row in csv.DictReader(handle):
            stats[row["Name"]] = {
                "requests": float(row["Request Count"]),
                "failures": float(row["Failure Count"]),
                "median": float(row["Median Response Time"] or 0),
                "p95": float(row["95%"] or 0),
                "p99": float(row["99%"] or 0),
                "rps": float(row["Requests/s"] or 0),
            }
    return stats


# Method, path, status and the seconds gunicorn's worker spent on the request (from reading it
# to writing the answer; time waiting for a free worker is not in it).
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(L)s"
METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
SERVER_KINDS = [
    ("positions", re.compile(r"^POST /api/positions/$")),
    ("judge", re.compile(r"^POST /api/puzzles/\d+/judge/$")),
    ("hint", re.compile(r"^POST /api/puzzles/\d+/hint/$")),
    ("game-move", re.compile(r"^POST /api/games/\d+/moves/$")),
    ("draw", re.compile(r"^POST /api/games/\d+/draw/$")),
    ("run-start", re.compile(r"^POST /api/puzzles/runs/$")),
    ("run-move", re.compile(r"^POST /api/puzzles/runs/\d+/move/$")),
    ("analysis", re.compile(r"^POST /api/games/analysis/$")),
    ("analysis-poll", re.compile(r"^GET /api/games/analysis/\d+/$")),
]
COMPUTER_TASK = re.compile(r"Task games\.computer_move\[[0-9a-f-]+\] succeeded in (?P<s>[0-9.]+)s")
# The queues the benchmark's workers read (deleted afterwards).
QUEUES = ("celery", "scoring", "proving", "playing", "playing_deep")
ANALYSIS_TASK = re.compile(
    r"Task games\.engine_analysis\[[0-9a-f-]+\] succeeded in (?P<s>[0-9.]+)s"
)


def task_times(pattern: re.Pattern[str], logs: list[Path]) -> list[float]:
    """Milliseconds each run of a task took in the workers (their logs), sorted."""
    return sorted(
        float(m["s"]) * 1000
        for log in logs
        if log.exists()
        for m in pattern.finditer(log.read_text(errors="replace"))
    )


def server_times(logs: Any) -> dict[str, list[float]]:
    """Milliseconds per request kind, from the access logs, sorted."""
    times: dict[str, list[float]] = {name: [] for name, _ in SERVER_KINDS}
    times["all"] = []
    for line in (line for log in logs for line in log.read_text(errors="replace").splitlines()):
        parts = line.split()
        if len(parts) != 4 or parts[0] not in METHODS:
            continue
        try:
            ms = float(parts[3]) * 1000
        except ValueError:
            continue
        times["all"].append(ms)
        for name, pattern in SERVER_KINDS:
            if pattern.match(f"{parts[0]} {parts[1]}"):
                times[name].append(ms)
    return {name: sorted(values) for name, values in times.items()}


def percentile(values: list[float], fraction: float) -> float:
    return values[min(len(values) - 1, int(fraction * len(values)))] if values else 0.0


# The load generator runs beside the site at the same CPU priority by default: ahead of it
# (negative nice) it took the CPU in bursts and made every figure worse, its own included.
GENERATOR_NICE = int(os.environ.get("LOAD_GENERATOR_NICE", "0"))


def priority(nice: int) -> None:
    """Change the calling process's CPU priority (negative: ahead of others; needs root)."""
    with contextlib.suppress(OSError):
        os.nice(nice)


class Probe(threading.Thread):
    """A second, independent measurement: ten position API calls a second from this process
    (a new connection each, like a browser's first call), timed from connecting to the last
    byte read. It loads the site with 10 requests/s more and shows whether the load
    generator's own figures include time the generator spent waiting for the CPU."""

    def __init__(self, url: str, seconds: float) -> None:
        super().__init__(daemon=True)
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.seconds = seconds
        self.times: list[float] = []
        self.series: list[tuple[float, float]] = []  # (seconds into the run, milliseconds)
        self.failures = 0

    def run(self) -> None:
        body = json.dumps({"variant": "xiangqi", "moves": ["h2e2", "h9g7"]})
        begun = time.monotonic()
        deadline = begun + self.seconds
        next_at = begun
        while next_at < deadline:
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at += 0.1
            started = time.perf_counter()
            try:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                conn.request("POST", "/api/positions/", body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                conn.close()
                if response.status != 200:
                    self.failures += 1
                    continue
            except OSError:
                self.failures += 1
                continue
            self.times.append((time.perf_counter() - started) * 1000)
            self.series.append((round(time.monotonic() - begun, 2), round(self.times[-1], 1)))
        self.times.sort()


class JudgeHammer(threading.Thread):
    """A visitor who plays puzzles as fast as the site answers (the throttles are lifted for
    the run): open an attempt, send a wrong move (the try ends), again. Several of them show
    what a handful of clients hammering the judge costs everyone else."""

    def __init__(self, url: str, puzzles: list[dict[str, Any]], seconds: float) -> None:
        super().__init__(daemon=True)
        self.url, self.puzzles, self.seconds = url, puzzles, seconds
        self.times: list[float] = []  # milliseconds per judge call
        self.ended: list[int] = []  # attempts it finished (scored like the rest)
        self.failures = 0

    def run(self) -> None:
        import requests

        http = requests.Session()
        deadline = time.monotonic() + self.seconds
        try:
            http.get(f"{self.url}/puzzles/", timeout=30)  # the CSRF cookie, as the page gets it
        except requests.RequestException:
            self.failures += 1
            return
        headers = {"X-CSRFToken": http.cookies.get("csrftoken", "")}
        turn = 0
        while time.monotonic() < deadline:
            puzzle = self.puzzles[turn % len(self.puzzles)]
            turn += 1
            base = f"{self.url}/api/puzzles/{puzzle['id']}"
            try:
                opened = http.post(f"{base}/attempts/", json={}, headers=headers, timeout=30)
                if opened.status_code not in (200, 201):
                    self.failures += 1
                    continue
                body = {"attempt": opened.json()["id"], "move": puzzle["wrong"]}
                started = time.perf_counter()
                judged = http.post(f"{base}/judge/", json=body, headers=headers, timeout=30)
                self.times.append((time.perf_counter() - started) * 1000)
            except requests.RequestException:
                self.failures += 1
                continue
            if judged.status_code != 200:
                self.failures += 1
            elif judged.json()["attempt"]["state"] != "started":
                self.ended.append(int(judged.json()["attempt"]["id"]))


def attempt_events(log: Path) -> dict[str, dict[str, int]]:
    events: dict[str, dict[str, int]] = {}
    for match in TASK_LINE.finditer(log.read_text(errors="replace")):
        counts = events.setdefault(match["id"], {"received": 0, "succeeded": 0})
        counts[match["event"]] += 1
    return events


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--users", type=int, default=240)
    parser.add_argument(
        "--rate", type=float, default=160.0, help="requests per second offered, all users together"
    )
    parser.add_argument("--spawn-rate", type=float, default=40)
    parser.add_argument("--web-workers", type=int, default=4)
    parser.add_argument(
        "--positions-workers",
        type=int,
        default=2,
        help="web workers of the position API's own pool (0: it shares the site's workers)",
    )
    parser.add_argument(
        "--positions-nice",
        type=int,
        default=-5,
        help="CPU priority of the position pool (negative: ahead of the site's other work; "
        "needs root, else it stays at 0)",
    )
    parser.add_argument(
        "--positions-threads",
        type=int,
        default=4,
        help="threads per worker of the position pool (more than 1: gthread with keep-alive)",
    )
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=10,
        help="CPU priority of the Celery worker (positive: behind the web requests, as a "
        "deployment runs background work)",
    )
    parser.add_argument(
        "--deep-worker-nice",
        type=int,
        default=15,
        help="CPU priority of the Celery worker of the deep searches (playing_deep: the "
        "analysis board's), behind the other worker as a deployment runs it",
    )
    parser.add_argument(
        "--analysts",
        type=int,
        default=None,
        help="users on the analysis board asking the engine (default: one in 60 users, at "
        "least one)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per web worker (more than 1: gthread)"
    )
    parser.add_argument("--smoke", action="store_true", help="8 s, 20 users")
    parser.add_argument(
        "--judge-clients",
        type=int,
        default=0,
        help="visitors besides the mix who play puzzles through the judge as fast as it answers",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/xiangqi_load"
        ),
    )
    parser.add_argument(
        "--broker-url",
        default=os.environ.get("LOAD_BROKER_URL", "amqp://guest:guest@127.0.0.1:5672//"),
    )
    parser.add_argument(
        "--cache-url",
        default=os.environ.get("LOAD_CACHE_URL", "redis://127.0.0.1:6379/2"),
        help="throttle counters and sessions, as docs/deployment.md advises; 'db://' for the "
        "database table",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database and logs")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.users, args.spawn_rate, args.web_workers = 8, 20, 20, 2
        args.rate, args.positions_workers = 15.0, 1
    if args.analysts is None:
        args.analysts = max(1, args.users // 60)

    if args.cache_url.startswith(("redis://", "rediss://")) and not redis_answers(args.cache_url):
        say(f"Redis at {args.cache_url} does not answer: throttles and sessions go to PostgreSQL")
        args.cache_url = "db://"
    work = ROOT / "var" / "load"
    logs = work / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    prefix = f"load-{os.getpid()}."
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
        # One address sends every simulated user's requests: lift the per-address limits.
        "THROTTLE_RATES": "login=100000/min,login_account=100000/min,attempts=100000/min,"
        "puzzle_judge=100000/min,puzzle_hints=100000/min,games=100000/min,"
        "game_moves=100000/min,game_draws=100000/min,positions=100000/min,reads=1000000/min,"
        "puzzle_runs=100000/min,puzzle_run_moves=100000/min,engine_analysis=100000/min",
        "GAMES_OPEN_PER_ADDRESS": "100000",
        "COMPUTER_PENDING_PER_ADDRESS": "100000",
        # the gamers are visitors on one address: let the workers have as many of their moves
        "COMPUTER_SEARCHES_PER_ADDRESS": "100",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        "LOAD_SEED": str(work / "seed.json"),
        "LOAD_ACCEPTED": str(work / "accepted.json"),
        "LOAD_USER_RATE": f"{args.rate / args.users:.6f}",
        "LOAD_ANALYSTS": str(args.analysts),
    }
    processes = Processes(env, logs)
    say(
        f"Database {args.database_url.rsplit('/', 1)[-1]} (recreated), broker "
        f"{args.broker_url.split('@')[-1]}, cache {args.cache_url}"
    )
    recreate_database(args.database_url)
    try:
        processes.run(sys.executable, "manage.py", "migrate", "--noinput", "-v", "0")
        processes.run(sys.executable, "manage.py", "createcachetable")
        processes.run(sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0")
        # The site's own content (lessons, the puzzle bank, today's puzzles), as deployed.
        processes.run(sys.executable, "manage.py", "load_content")
        processes.run(sys.executable, "-m", "bench.load.seed", str(max(args.users, 40)), "24",
                      str(work / "seed.json"))  # fmt: skip
        say(f"Starting gunicorn ({args.web_workers} workers) and two Celery workers")
        worker = processes.start(
            "worker", sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
            "--concurrency", "1", "--queues", f"{prefix}celery,{prefix}scoring,{prefix}proving,{prefix}playing",
            "--hostname", f"load-{port}@localhost", "--without-gossip", "--without-mingle",
            "--loglevel", "INFO", nice=args.worker_nice,
        )  # fmt: skip
        deep = processes.start(
            "worker-deep", sys.executable, "-m", "celery", "-A", "config", "worker", "--pool",
            "prefork", "--concurrency", "1", "--queues", f"{prefix}playing_deep",
            "--hostname", f"load-deep-{port}@localhost", "--without-gossip", "--without-mingle",
            "--loglevel", "INFO", nice=args.deep_worker_nice,
        )  # fmt: skip
        threads = (
            ["--worker-class", "gthread", "--threads", str(args.threads)]
            if args.threads > 1
            else []
        )
        web = processes.start(
            "web", str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
            "--workers", str(args.web_workers), "--timeout", "60", *threads,
            "--access-logfile", str(logs / "access.log"), "--access-logformat", ACCESS_FORMAT,
        )  # fmt: skip
        positions_url = url
        pool = None
        positions_threads = (
            ["--worker-class", "gthread", "--threads", str(args.positions_threads),
             "--keep-alive", "5"]
            if args.positions_threads > 1
            else []
        )  # fmt: skip
        if args.positions_workers > 0:
            # As the proxy does in a deployment (docs/deployment.md): the position API has a
            # pool of its own, so its 2 ms calls never wait behind attempts and pages.
            positions_port = free_port()
            positions_url = f"http://127.0.0.1:{positions_port}"
            pool = processes.start(
                "positions", str(BIN / "gunicorn"), "config.wsgi:application",
                "--bind", f"127.0.0.1:{positions_port}",
                "--workers", str(args.positions_workers), "--timeout", "60",
                *positions_threads, "--access-logfile", str(logs / "access-positions.log"),
                "--access-logformat", ACCESS_FORMAT, nice=args.positions_nice,
            )  # fmt: skip
            wait_until(lambda: answers(f"{positions_url}/api/variants/"), 90, "the position pool")
        env["LOAD_POSITIONS_URL"] = positions_url  # read by the load generator
        wait_until(lambda: answers(f"{url}/api/variants/"), 90, "the site to answer")
        for log in (logs / "worker.log", logs / "worker-deep.log"):
            wait_until(lambda log=log: " ready." in log.read_text(errors="replace"), 90,
                       f"the worker of {log.stem} to be ready")  # fmt: skip

        say(f"Load: {args.users} users, {args.rate:.0f} requests/s together, for {args.seconds} s "
            f"against {url}")  # fmt: skip
        stats_prefix = work / "locust"
        sessions = {
            web.pid: "web (gunicorn)",
            worker.pid: "Celery worker",
            deep.pid: "Celery worker, deep",
        }
        if pool is not None:
            sessions[pool.pid] = "web, position pool"
        cpu_before, children_before = (
            cpu_snapshot(sessions),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        started = time.monotonic()
        probe = Probe(positions_url, args.seconds)
        probe.start()
        seeded = json.loads((work / "seed.json").read_text())["puzzles"]
        hammers = [JudgeHammer(url, seeded, args.seconds) for _ in range(args.judge_clients)]
        for hammer in hammers:
            hammer.start()
        locust = subprocess.run(
            [str(BIN / "locust"), "-f", str(Path(__file__).with_name("locustfile.py")),
             "--headless", "--users", str(args.users), "--spawn-rate", str(args.spawn_rate),
             "--run-time", f"{args.seconds}s", "--host", url, "--csv", str(stats_prefix),
             "--only-summary", "--stop-timeout", "10", "--loglevel", "WARNING"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=args.seconds + 300,
            preexec_fn=lambda: priority(GENERATOR_NICE),
        )  # fmt: skip
        elapsed = time.monotonic() - started
        probe.join()
        for hammer in hammers:
            hammer.join()
        (logs / "probe.json").write_text(json.dumps(probe.series))
        cpu = cpu_spent(cpu_before, cpu_snapshot(sessions))
        web_cpu = cpu.get("web (gunicorn)", 0.0) + cpu.get("web, position pool", 0.0)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu["load generator (locust)"] = (children.ru_utime + children.ru_stime) - (
            children_before.ru_utime + children_before.ru_stime
        )
        (logs / "locust.log").write_text(locust.stdout + locust.stderr)
        stats = read_stats(stats_prefix)
        accepted = json.loads((work / "accepted.json").read_text())
        accepted += [attempt for hammer in hammers for attempt in hammer.ended]

        say("Waiting for the worker to score every accepted attempt")
        ids = ",".join(map(str, accepted)) or "0"

        def unscored() -> int:
            return int(query(args.database_url,
                f"SELECT count(*) FROM puzzles_puzzleattempt WHERE id IN ({ids}) AND state <> 'scored'")[0][0])  # fmt: skip

        deadline = time.monotonic() + 180
        while unscored() and time.monotonic() < deadline:
            time.sleep(0.5)
        (scored, rated) = query(args.database_url,
            "SELECT count(*) FILTER (WHERE state = 'scored'), count(*) FILTER (WHERE rated) "
            "FROM puzzles_puzzleattempt")[0]  # fmt: skip
        games = query(
            args.database_url, "SELECT coalesce(sum(games), 0) FROM puzzles_puzzlerating"
        )[0][0]
        # Attempts a simulated user opened and had not finished when the run stopped are
        # still open: only finished tries are scored.
        in_database = query(args.database_url,
            "SELECT count(*) FROM puzzles_puzzleattempt WHERE state <> 'started'")[0][0]  # fmt: skip
        events = attempt_events(logs / "worker.log")
        twice = sum(1 for e in events.values() if e["succeeded"] > 1)
    finally:
        processes.stop()
        delete_queues(
            args.broker_url,
            [f"{prefix}{queue}" for queue in QUEUES],
        )
        if not args.keep:
            drop_database(args.database_url)

    total = stats.get("Aggregated", {})
    rps = total.get("requests", 0) / max(elapsed, 1) if not total.get("rps") else total["rps"]
    errors = int(total.get("failures", 0))
    print()
    print(
        f"{'request':<16}{'count':>8}{'req/s':>9}{'median ms':>11}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}"
    )
    for name, row in sorted(stats.items(), key=lambda item: item[0] == "Aggregated"):
        print(f"{name:<16}{row['requests']:>8.0f}{row['rps']:>9.1f}{row['median']:>11.0f}"
              f"{row['p95']:>9.0f}{row['p99']:>9.0f}{row['failures']:>8.0f}")  # fmt: skip
    positions = stats.get("positions", {"p95": 0.0})
    print()
    for name in ("positions", "judge", "hint", "game-move", "draw", "computer-reply",
                 "run-start", "run-move", "analysis", "analysis-result", "analysis-deeper"):  # fmt: skip
        row = stats.get(name, {"median": 0.0, "p95": 0.0, "requests": 0.0})
        print(f"{name} p95: {row['p95']:.0f} ms (median {row['median']:.0f} ms, "
              f"{row['requests']:.0f} requests)")  # fmt: skip
    print(f"throughput: {rps:.1f} requests/s = {rps / GOAL_RPS:.2f} x the goal of {GOAL_RPS:.0f}")
    print(f"position API p95: {positions['p95']:.0f} ms = {positions['p95'] / GOAL_POSITIONS_P95_MS:.2f} "
          f"x the goal of {GOAL_POSITIONS_P95_MS:.0f} ms (lower is better)")  # fmt: skip
    served = total.get("requests", 0)
    if served:
        per_request = web_cpu / served * 1000
        print(f"web CPU: {web_cpu:.1f} s for {served:.0f} requests = {per_request:.1f} ms per request "
              f"-> one core serves about {1000 / per_request:.0f} requests/s "
              f"(load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")  # fmt: skip
    print(f"position API seen by the probe (10 requests/s from the benchmark's own process): "
          f"median {percentile(probe.times, 0.5):.0f} ms, p95 {percentile(probe.times, 0.95):.0f} ms, "
          f"{len(probe.times)} answered, {probe.failures} failed")  # fmt: skip
    inside = server_times(logs.glob("access*.log"))
    for name, values in inside.items():
        print(f"time inside the web worker, {name}: median {percentile(values, 0.5):.0f} ms, "
              f"p95 {percentile(values, 0.95):.0f} ms ({len(values)} requests)")  # fmt: skip
    worker_logs = [logs / "worker.log", logs / "worker-deep.log"]
    searches = task_times(COMPUTER_TASK, worker_logs)
    print(f"computer's moves inside the worker (task run time): median "
          f"{percentile(searches, 0.5):.0f} ms, p95 {percentile(searches, 0.95):.0f} ms "
          f"({len(searches)} moves); as players see them (move sent -> reply seen): "
          f"computer-reply above")  # fmt: skip
    analyses = task_times(ANALYSIS_TASK, worker_logs)
    print(f"analysis board searches inside the worker (task run time): median "
          f"{percentile(analyses, 0.5):.0f} ms, p95 {percentile(analyses, 0.95):.0f} ms "
          f"({len(analyses)} searches); as players see them (asked -> result seen): "
          f"analysis-result above")  # fmt: skip
    print(f"CPU during the run ({elapsed:.0f} s, {os.cpu_count()} cores = "
          f"{elapsed * (os.cpu_count() or 1):.0f} core-seconds):")  # fmt: skip
    for what, seconds in sorted(cpu.items(), key=lambda item: -item[1]):
        print(f"  {what:<26}{seconds:>7.1f} s")
    if hammers:
        hammered = sorted(t for hammer in hammers for t in hammer.times)
        failed = sum(hammer.failures for hammer in hammers)
        print(f"{len(hammers)} clients hammering the judge: {len(hammered)} judged, "
              f"median {percentile(hammered, 0.5):.0f} ms, p95 {percentile(hammered, 0.95):.0f} ms, "
              f"{failed} failed")  # fmt: skip
        errors += failed
    print(f"errors: {errors}")
    print(f"attempts: {len(accepted)} accepted, {in_database} in the database, {scored} scored, "
          f"{rated} rated = {games} rated games; scoring tasks: {len(events)}, "
          f"run twice: {twice}")  # fmt: skip
    lost = len(accepted) - scored
    ok = (
        lost == 0 and in_database == len(accepted) and twice == 0 and rated == games and errors == 0
    )
    print(f"lost attempts: {lost}; {'OK' if ok else 'FAILED'}")
    if locust.returncode not in (0, 1):  # 1: some requests failed (counted above)
        print(locust.stdout[-3000:], locust.stderr[-3000:], file=sys.stderr)
        return 2
    return 0 if ok else 1


def delete_queues(broker_url: str, names: list[str]) -> None:
    from kombu import Connection

    try:
        with Connection(broker_url, connect_timeout=5) as conn:
            channel = conn.channel()
            for name in names:
                channel.queue_delete(name)
                channel.exchange_delete(name)
    except Exception as error:  # noqa: BLE001 - cleanup only; reported
        print(f"could not delete the load queues: {error}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
