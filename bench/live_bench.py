"""Live-games benchmark: bots playing live games over the site's WebSockets, with spectators.

    python bench/live_bench.py                      # 200 games, a move every 2 s, 1 spectator
                                                    # each, 60 s (issue 42's target)
    python bench/live_bench.py --smoke              # 4 games, 8 s: checks the whole path
    python bench/live_bench.py --games 50 --seconds 30 --web-workers 2 \\
        --channel-layer-url redis://127.0.0.1:6379/3

Starts the site as deployed (production settings over plain HTTP on the loopback, as
bench/load/run.py does: gunicorn with uvicorn workers serving config.asgi, PostgreSQL, the
database cache) against a database of its own, dropped at the end. With one web worker the
channel layer is the process's memory (the embedded default); with more it must be Redis.
Every game is made as people make it: one visitor's challenge over HTTP, a second visitor's
accept; then both players and the spectators connect to the game's WebSocket. Each player
moves ``--move-every`` seconds (jittered) after its turn begins, a move drawn from the legal
moves the server sent, with the ply it is for.

Prints each move's time inside the server (from its receipt to the mover's new state sent, as
the web processes log it: ``live.timing``) and, as the clients see them on the loopback (this
process runs every client, on the same 2 cores as the server): the move's round trip (from
sending it to the mover's receiving the new state), its delivery to the opponent and to the spectators, as p50 / p95 / max against the goal
(p95 <= 100 ms); the moves played and refused; the server's CPU per move; and its memory per open
connection (resident memory of the web processes after every connection is open, less before,
divided by the connections). Then the same bots play against the peer, ``bench.live_floor``
(uvicorn and the WebSocket alone, no site), and the site's figures are given as a ratio of the
peer's. Exits non-zero when a move was refused or a connection failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import json
import os
import random
import re
import secrets
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.run import (  # noqa: E402
    BIN,
    Processes,
    drop_database,
    free_port,
    percentile,
    recreate_database,
    say,
    wait_until,
)

GOAL_P95_MS = 100.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# -- making games over HTTP ----------------------------------------------------------------


class Visitor:
    """A browser without a browser: one cookie jar, Django's CSRF token sent back."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def page(self, path: str, form: dict[str, str] | None = None) -> str:
        headers = {"Referer": self.base + "/"}
        data = None
        if form is not None:
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": self.cookie("csrftoken")})
            headers["X-CSRFToken"] = self.cookie("csrftoken")
        request = urllib.request.Request(
            self.base + path, data=data.encode() if data else None, headers=headers
        )
        with self.opener.open(request, timeout=60) as response:
            return str(response.url)

    def cookies(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def make_game(base: str, minutes: int) -> tuple[str, str, str]:
    """A challenge made and accepted: (link, Red's cookies, Black's cookies)."""
    red, black = Visitor(base), Visitor(base)
    red.page("/play/live/")
    url = red.page(
        "/play/live/", {"game": "xiangqi:standard", "colour": "red", "time": f"{minutes}+0"}
    )
    found = re.search(r"/play/live/([a-z0-9]+)/$", url)
    if not found:
        raise SystemExit(f"a challenge led to {url}")
    slug = found.group(1)
    black.page(f"/play/live/{slug}/")
    black.page(f"/play/live/{slug}/accept/", {})
    return slug, red.cookies(), black.cookies()


# -- the bots ------------------------------------------------------------------------------


@dataclass
class Figures:
    round_trip: list[float] = field(default_factory=list)
    to_opponent: list[float] = field(default_factory=list)
    to_spectators: list[float] = field(default_factory=list)
    moves: int = 0
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    connected: int = 0
    finished: int = 0
    sizes: dict[int, list[int]] = field(default_factory=dict)  # ply -> the states' lengths
    cpu: float = 0.0  # the server's CPU seconds while the moves were played


@dataclass
class Game:
    slug: str
    sent: dict[int, float] = field(default_factory=dict)  # ply -> when its move was sent


async def connection(
    url: str, game: Game, cookies: str | None, role: str, figures: Figures, args: Any,
    ready: asyncio.Event, stop: asyncio.Event, opened: list[int],
) -> None:  # fmt: skip
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookies} if cookies else {}
    origin = url.replace("ws://", "http://").split("/ws/")[0]
    rng = random.Random(f"{game.slug}-{role}")
    try:
        async with connect(
            url,
            origin=origin,
            additional_headers=headers,
            open_timeout=60,  # type: ignore[arg-type]
        ) as socket:
            figures.connected += 1
            opened[0] += 1
            await ready.wait()
            pending: asyncio.Task[None] | None = None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(socket.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                message = json.loads(text)
                if message["type"] == "probe":  # the lag allowance's: answered as a page does
                    await socket.send(json.dumps({"type": "probe", "id": message["id"]}))
                    continue
                if message["type"] == "error":
                    figures.refused.append(f"{role}: {message['code']}")
                    continue
                state = message["game"]
                ply = state["ply"]
                figures.sizes.setdefault(ply, []).append(len(text))
                if ply - 1 in game.sent:
                    spent = (now - game.sent[ply - 1]) * 1000
                    mover = "red" if (ply - 1) % 2 == 0 else "black"
                    if role == mover:
                        figures.round_trip.append(spent)
                        figures.moves += 1
                    elif role in ("red", "black"):
                        figures.to_opponent.append(spent)
                    else:
                        figures.to_spectators.append(spent)
                if state["status"] != "playing":
                    if role == "red":
                        figures.finished += 1
                    continue
                if role == state["turn"] and ply not in game.sent and pending is None:

                    async def move(ply: int = ply, legal: list[str] = state["legal_moves"]) -> None:
                        await asyncio.sleep(args.move_every * rng.uniform(0.5, 1.5))
                        if stop.is_set():
                            return
                        game.sent[ply] = time.perf_counter()
                        await socket.send(
                            json.dumps({"type": "move", "ply": ply, "move": rng.choice(legal)})
                        )

                    pending = asyncio.create_task(move())
                    pending.add_done_callback(lambda _task: None)
                if pending is not None and pending.done():
                    pending = None
            if pending is not None:
                pending.cancel()
    except Exception as error:  # a connection that failed is reported, not hidden
        figures.failed.append(f"{role} {game.slug}: {error!r}")


async def play(base: str, games: list[tuple[str, str, str]], args: Any, server: Any) -> Figures:
    figures = Figures()
    ready, stop = asyncio.Event(), asyncio.Event()
    opened = [0]
    ws = base.replace("http://", "ws://")
    tasks = []
    for slug, red, black in games:
        game = Game(slug)
        url = f"{ws}/ws/live/{slug}/"
        roles = [("red", red), ("black", black)]
        roles += [(f"spectator{i}", None) for i in range(args.spectators)]
        for role, cookies in roles:
            tasks.append(
                asyncio.create_task(
                    connection(url, game, cookies, role, figures, args, ready, stop, opened)
                )
            )
    expected = len(tasks)
    deadline = time.monotonic() + 120
    while opened[0] + len(figures.failed) < expected and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    server["rss_open"] = server["rss"]()
    server["cpu_start"] = server["cpu"]()
    say(f"{opened[0]} connections open ({len(figures.failed)} failed); playing {args.seconds} s")
    # the moves start now: each player's first turn begins when the game's state comes
    ready.set()
    await asyncio.sleep(args.seconds)
    server["cpu_end"] = server["cpu"]()
    figures.cpu = server["cpu_end"] - server["cpu_start"]
    stop.set()
    await asyncio.gather(*tasks)
    return figures


INSIDE = re.compile(r"live\.timing: move ([0-9.]+) ms")


def inside_ms(logs: Path) -> list[float]:
    """Each move's time inside the site's server, as its web processes logged it
    (``live.timing``, ``LIVE_TIMING_LOG_LEVEL=DEBUG``)."""
    text = (logs / "web.log").read_text(encoding="utf-8", errors="replace")
    return [float(found) for found in INSIDE.findall(text)]


def floor_sizes(figures: Figures) -> list[int]:
    """The mean length of the site's states at each ply of the run (for ``bench.live_floor``)."""
    sizes: list[int] = []
    for ply in range(max(figures.sizes, default=0) + 1):
        seen = figures.sizes.get(ply) or [sizes[-1] if sizes else 2000]
        sizes.append(round(sum(seen) / len(seen)))
    return sizes


def run_floor(args: Any, env: dict[str, str], logs: Path, sizes: list[int]) -> Figures:
    """The same bots against the peer (``bench.live_floor``) under the same uvicorn, one
    worker: the round trip of the transport alone."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    floor_env = {**env, "LIVE_FLOOR_SIZES": json.dumps(sizes)}
    processes = Processes(floor_env, logs)
    say("Starting the peer: bench.live_floor under uvicorn, one worker, no site")
    try:
        floor = processes.start(
            "floor", sys.executable, "-m", "uvicorn", "bench.live_floor:app", "--host",
            "127.0.0.1", "--port", str(port), "--log-level", "warning",
        )  # fmt: skip

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                    return True
            except OSError:
                return False

        wait_until(answers, 60, "the peer")
        server: dict[str, Any] = {
            "rss": lambda: rss_bytes([floor.pid]),
            "cpu": lambda: cpu_seconds([floor.pid]),
        }
        games = [(f"floor{i}", "", "") for i in range(args.games)]
        return asyncio.run(play(base, games, args, server))
    finally:
        processes.stop()


def ratio_line(name: str, ours: list[float], floor: list[float]) -> str:
    if not ours or not floor:
        return f"{name}: no samples"
    a, b = sorted(ours), sorted(floor)
    p50, p95 = percentile(a, 0.5) / percentile(b, 0.5), percentile(a, 0.95) / percentile(b, 0.95)
    return f"{name}: the site / the peer = {p50:.1f}x at p50, {p95:.1f}x at p95"


# -- the server's processes ----------------------------------------------------------------


def web_pids(master: int) -> list[int]:
    result = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True, text=True, check=False
    )
    return [int(pid) for pid in result.stdout.split()] + [master]


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):  # a process just gone
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_SIZE
    return total


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):  # a process just gone
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no samples"
    values = sorted(values)
    p95 = percentile(values, 0.95)
    verdict = "within" if p95 <= GOAL_P95_MS else "OVER"
    return (
        f"{name}: p50 {percentile(values, 0.5):.1f} ms, p95 {p95:.1f} ms, max {max(values):.1f} ms"
        f" ({len(values)} samples; {verdict} the goal of p95 <= {GOAL_P95_MS:.0f} ms)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=1, help="per game")
    parser.add_argument("--move-every", type=float, default=2.0, help="seconds, jittered")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--web-workers", type=int, default=1)
    parser.add_argument("--channel-layer-url", default="", help="redis://… (needed for 2+)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "LIVE_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/xiangqi_live_bench"
        ),
    )
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument(
        "--no-peer", action="store_true", help="skip the peer's run (bench.live_floor)"
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.seconds, args.move_every = 4, 8, 0.5
    if args.web_workers > 1 and not args.channel_layer_url:
        parser.error("two or more web workers need --channel-layer-url (Redis)")

    work = ROOT / "var" / "live-bench"
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_"))},
        "DJANGO_SETTINGS_MODULE": "bench.load.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": args.database_url,
        "CELERY_BROKER_URL": "memory://",  # live games send no task
        "CHANNEL_LAYER_URL": args.channel_layer_url,
        "CHANNEL_LAYER_PREFIX": f"live-bench-{os.getpid()}",
        # every visitor comes from one address: lift the per-address limits
        "THROTTLE_RATES": "live_challenges=1000000/hour,reads=1000000/min",
        # every game is made before any is played: no game may be aborted for a first move
        # not made while the others are still being made and connected
        "LIVE_FIRST_MOVE_SECONDS": "3600",
        "LOG_LEVEL": "WARNING",
        "LIVE_TIMING_LOG_LEVEL": "DEBUG",  # each move's time inside the server, in web.log
        "PYTHONPATH": str(ROOT),
    }
    if not args.channel_layer_url:
        env.pop("CHANNEL_LAYER_URL")
    processes = Processes(env, logs)
    say(f"Database {args.database_url.rsplit('/', 1)[-1]} (recreated)")
    recreate_database(args.database_url)
    try:
        processes.run(sys.executable, "manage.py", "migrate", "--noinput", "-v", "0")
        processes.run(sys.executable, "manage.py", "createcachetable")
        processes.run(sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0")
        layer = args.channel_layer_url or "memory"
        say(f"Starting gunicorn with {args.web_workers} uvicorn worker(s), channel layer {layer}")
        web = processes.start(
            "web", str(BIN / "gunicorn"), "config.asgi:application", "--worker-class",
            "config.web_worker.WebWorker", "--bind", f"127.0.0.1:{port}",
            "--workers", str(args.web_workers), "--timeout", "60",
        )  # fmt: skip

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                    return True
            except OSError:
                return False

        wait_until(answers, 90, "the web server")
        pids = web_pids(web.pid)
        rss_idle = rss_bytes(pids)
        say(f"Making {args.games} games over HTTP (a challenge, an accept)")
        with ThreadPoolExecutor(8) as pool:
            games = list(pool.map(lambda _i: make_game(base, 30), range(args.games)))
        server: dict[str, Any] = {
            "rss": lambda: rss_bytes(web_pids(web.pid)),
            "cpu": lambda: cpu_seconds(web_pids(web.pid)),
        }
        rss_made = rss_bytes(web_pids(web.pid))
        figures = asyncio.run(play(base, games, args, server))
    finally:
        processes.stop()
        drop_database(args.database_url)
    floor = None if args.no_peer else run_floor(args, env, logs, floor_sizes(figures))

    connections = args.games * (2 + args.spectators)
    per_connection = (server["rss_open"] - rss_made) / max(1, figures.connected)
    cpu = figures.cpu
    print()
    print(f"games {args.games}, connections {figures.connected} of {connections} "
          f"({args.spectators} spectator(s) a game), a move every {args.move_every:g} s, "
          f"{args.seconds} s, {args.web_workers} web worker(s)")  # fmt: skip
    print(f"moves played: {figures.moves} ({figures.moves / args.seconds:.1f} a second); games "
          f"finished: {figures.finished}; refused: {len(figures.refused)}; "
          f"failed connections: {len(figures.failed)}")  # fmt: skip
    print(line("move inside the server (receipt to the mover's state sent)", inside_ms(logs)))
    print(line("move round trip (mover)", figures.round_trip))
    print(line("delivery to the opponent", figures.to_opponent))
    print(line("delivery to spectators", figures.to_spectators))
    per_move = cpu * 1000 / max(1, figures.moves)
    print(f"server CPU: {cpu:.1f} s over the run, {per_move:.1f} ms per move (all deliveries)")
    print(f"server memory: {rss_idle / 2**20:.0f} MiB idle, "
          f"{server['rss_open'] / 2**20:.0f} MiB with every connection open: "
          f"{per_connection / 1024:.0f} KiB per open connection")  # fmt: skip
    if floor is not None:
        print(f"the peer (bench.live_floor: the same bots and uvicorn, no site): moves played "
              f"{floor.moves}, CPU {floor.cpu * 1000 / max(1, floor.moves):.1f} ms "
              f"per move")  # fmt: skip
        print("  " + line("move round trip (mover)", floor.round_trip))
        print("  " + line("delivery to spectators", floor.to_spectators))
        print(ratio_line("move round trip", figures.round_trip, floor.round_trip))
        print(ratio_line("delivery to spectators", figures.to_spectators, floor.to_spectators))
    for problem in (figures.refused + figures.failed)[:10]:
        print(f"  {problem}", file=sys.stderr)
    return 1 if figures.refused or figures.failed or not figures.moves else 0


if __name__ == "__main__":
    sys.exit(main())
