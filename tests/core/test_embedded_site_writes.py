"""The site as a newcomer starts it (``scripts/run`` with nothing configured: SQLite and the
file broker in the var folder, gunicorn's two web processes and one Celery worker) takes the
web processes and the worker writing at once.

Players open attempts at a puzzle and end them, half by giving up, half by solving, while the
worker scores every ended attempt (each scoring writes the attempt, the player's rating, the
puzzle and a replay). No request may fail ("database is locked" was a 500 when a give-up met
a scoring), and every attempt ends scored, once.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.faults.conftest import Player
from tests.faults.servers import BIN, PYTHON, ROOT, Process, free_port, port_open, wait_until

pytestmark = pytest.mark.slow

PLAYERS = 6
ROUNDS = 12  # each player's attempts: every other one given up, the others solved
SOLUTION = "a0d0"  # of the seeded mate in 1 (tests/faults/seed.py)


def site_environment(var: Path) -> dict[str, str]:
    """As ``scripts/run`` starts the site with nothing configured."""
    unset = ("DATABASE_", "CELERY_", "CACHE_URL", "DJANGO_SETTINGS_MODULE", "PYTEST_", "TEST_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(unset)}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        VAR_DIR=str(var),
        PYTHONUNBUFFERED="1",
        # the players all play from one address, faster than a person: the limits are tested
        # elsewhere (tests/core/test_throttles.py)
        THROTTLE_RATES="attempts=100000/min,puzzle_judge=100000/min,login=1000/min,reads=100000/min",
    )
    return env


@pytest.fixture
def embedded_site(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The migrated, seeded site on SQLite and the file broker: its address, database file,
    seeded ids and processes."""
    var = tmp_path / "var"
    var.mkdir()
    env = site_environment(var)
    for command in (
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
        [PYTHON, "-m", "tests.faults.seed", str(PLAYERS)],
    ):
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr
    seeded = json.loads(done.stdout.strip().splitlines()[-1])
    port = free_port()
    processes = [
        Process(
            "worker",
            [str(BIN / "celery"), "-A", "config", "worker", "--concurrency", "1",
             "--loglevel", "INFO", "--hostname", f"worker-{port}@localhost"],
            env,
            tmp_path / "worker.log",
        ),
        Process(
            "web",
            [str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", "2", "--graceful-timeout", "5"],
            env,
            tmp_path / "web.log",
        ),
    ]  # fmt: skip
    try:
        worker, web = processes
        wait_until(lambda: " ready." in worker.output() or not worker.alive(), 120, "the worker")
        wait_until(lambda: port_open(port) or not web.alive(), 90, "gunicorn to listen")
        assert worker.alive() and web.alive(), worker.output() + web.output()
        yield {
            "url": f"http://127.0.0.1:{port}",
            "database": var / "db.sqlite3",
            "processes": processes,
            **seeded,
        }
    finally:
        for process in processes:
            process.stop()


def attempt_states(database: Path) -> Counter[str]:
    with closing(sqlite3.connect(database, timeout=30)) as conn:
        rows = conn.execute("SELECT state, gave_up FROM puzzles_puzzleattempt").fetchall()
    return Counter(f"{state}{' gave up' if gave_up else ''}" for state, gave_up in rows)


def play(site: dict[str, Any], name: str) -> list[str]:
    """One player's rounds; the requests that failed, in words."""
    player = Player(site["url"], name, site["password"])
    puzzle = site["puzzle"]
    failed = []

    def check(what: str, answer: Any, expected: tuple[int, ...]) -> Any:
        if answer.status_code not in expected:
            failed.append(f"{name} {what}: {answer.status_code} {answer.text[:300]}")
            return None
        return answer.json()

    for round_ in range(ROUNDS):
        opened = check(
            "open", player.post(f"/api/puzzles/{puzzle}/attempts/", timeout=60), (200, 201)
        )
        if opened is None:
            continue
        body = {"attempt": opened["id"]}
        if round_ % 2:
            check(
                "give up", player.post(f"/api/puzzles/{puzzle}/give-up/", body, timeout=60), (200,)
            )
        else:
            body.update(move=SOLUTION, ply=0)
            for _ in range(5):  # "unknown": not judged within the live budget, not played
                judged = check(
                    "move", player.post(f"/api/puzzles/{puzzle}/judge/", body, timeout=60), (200,)
                )
                if judged is None or judged["verdict"] != "unknown":
                    break
            if judged is not None and judged["verdict"] != "solved":
                failed.append(f"{name} move: {judged['verdict']}")
    return failed


def test_the_web_and_the_worker_write_at_once_on_sqlite(embedded_site: dict[str, Any]) -> None:
    site = embedded_site
    with ThreadPoolExecutor(PLAYERS) as pool:
        failed = [f for found in pool.map(lambda n: play(site, n), site["users"]) for f in found]
    worker, web = site["processes"]
    assert not failed, "\n".join(failed[:10]) + "\n" + web.output(3000)

    total = PLAYERS * ROUNDS
    half = total // 2
    expected = Counter({"scored": half, "scored gave up": half})
    wait_until(
        lambda: attempt_states(site["database"]) == expected,
        120,
        f"{total} attempts scored (now {attempt_states(site['database'])})",
    )
    log = worker.output(10**7)
    assert "database is locked" not in log and "database is locked" not in web.output(10**7)
    assert log.count("puzzles.score_attempt") >= total
    with closing(sqlite3.connect(site["database"])) as conn:
        ((games,),) = conn.execute("SELECT coalesce(sum(games), 0) FROM puzzles_puzzlerating")
        ((rated,),) = conn.execute("SELECT count(*) FROM puzzles_puzzleattempt WHERE rated")
        ((plays, solves),) = conn.execute(
            "SELECT plays, solves FROM puzzles_puzzle WHERE id = ?", [site["puzzle"]]
        )
    # each player's first try (solved) alone counts in the puzzle's plays; the rated tries (a
    # first try may be unrated: another player gave up from the same address) each once
    assert (plays, solves) == (PLAYERS, PLAYERS)
    assert games == rated <= PLAYERS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-x", "-q"]))
