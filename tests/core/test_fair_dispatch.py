"""Every kind of work the site sends to a worker queue either goes through the games' fair
dispatcher (``games.queueing``: the computer's moves, the analysis board's searches, the
analyses of finished games) or is listed here with the reason it need not.

The tasks are the ones the Celery app knows (every app's ``tasks`` module); the places that
send them are read from the source (``ast``): every ``.apply_async`` / ``.delay`` of a task and
every ``send_task(name)``. A new task, or a new place that sends one, fails here until it is
dispatched fairly or its reason is written down.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from config.settings.queues import TASK_QUEUES
from games.queueing import DISPATCHED_TASKS

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "core", "games", "puzzles", "tutorials", "config", "words")
DISPATCHER = "games/queueing.py"

# Task -> why it need not wait its turn in the fair dispatcher.
EXEMPT = {
    "puzzles.score_attempt": (
        "milliseconds each, one per puzzle attempt ended (attempts opened are throttled, 60 a "
        "minute a client), on the scoring queue of its own"
    ),
    "puzzles.verify_puzzle": (
        "already fair: each message proves the puzzle whose turn it is "
        "(puzzles.selectors.proving_queue_order: authors and addresses take turns), "
        "and the waiting puzzles are capped in all and per address (PROVING_QUEUE_LIMIT, "
        "PROVING_ADDRESS_LIMIT)"
    ),
    "puzzles.missed_mates": (
        "nobody waits for it (the missed mates appear among the owner's puzzles later); one "
        "per finished game with a move, and games started are throttled (30 an hour a "
        "client); seconds of search each, on the proving queue, away from the players' work"
    ),
    "puzzles.mine_chunk": "sent by the operator's mining run (manage.py mine_puzzles), never by a client",
    "puzzles.choose_daily": "Celery beat, once a day",
    "puzzles.requeue_verifications": "Celery beat, at a fixed rate",
    "puzzles.score_waiting": "Celery beat, every five minutes, at most 500 attempts a run",
    "puzzles.sweep_runs": "Celery beat, every 15 minutes, in batches",
    "games.sweep": "Celery beat, every minute; it runs the fair dispatcher itself",
    "games.engine_analysis_sweep": "Celery beat, every hour",
    "live.sweep": "Celery beat, every minute, at most 500 games a run",
    "accounts.reset_mail": (
        "one mail each, milliseconds of work; throttled per address (10 an hour) and per "
        "e-mail address (3 an hour)"
    ),
    "core.health_check": "sent by the operator's monitoring, never by a client; reads only",
}
SENDS = ("apply_async", "delay", "send_task")


def _tasks() -> dict[str, object]:
    from config.celery import app

    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}


def _sources() -> list[Path]:
    files: list[Path] = []
    for app in APPS:
        if (ROOT / app).is_dir():
            files += [p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]
    return sorted(files)


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _send_sites() -> list[tuple[str, int, str | None]]:
    """(file, line, task name or None when it cannot be told) of every place that sends a
    task: ``<task>.apply_async`` / ``<task>.delay`` (called or passed on, as to
    ``functools.partial``) and ``send_task(<name>)``."""
    by_function = {
        getattr(getattr(task, "run", None), "__name__", ""): name for name, task in _tasks().items()
    }
    sites: list[tuple[str, int, str | None]] = []
    for path in _sources():
        relative = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(), relative)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or node.attr not in SENDS:
                continue
            if node.attr == "send_task":
                continue  # the call below names the task
            target = node.value
            name = by_function.get(target.id) if isinstance(target, ast.Name) else None
            sites.append((relative, node.lineno, name))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "send_task"
                and node.args
            ):
                continue
            first = node.args[0]
            name = None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                name = first.value
            elif isinstance(first, ast.Name):
                name = getattr(importlib.import_module(_module(path)), first.id, None)
            sites.append((relative, node.lineno, name))
    return sites


def test_every_task_is_dispatched_fairly_or_says_why_it_need_not() -> None:
    tasks = set(_tasks())
    unexplained = tasks - set(DISPATCHED_TASKS) - set(EXEMPT)
    assert not unexplained, f"dispatch these fairly (games.queueing) or say why not: {unexplained}"
    assert set(DISPATCHED_TASKS) <= tasks and set(EXEMPT) <= tasks, "a listed task is gone"
    assert not set(DISPATCHED_TASKS) & set(EXEMPT)
    assert all(len(reason) > 20 for reason in EXEMPT.values())


def test_the_queues_players_wait_on_hold_only_dispatched_work() -> None:
    """Everything routed to the ``playing`` queues (the computer's moves, the analyses) is
    handed over by the fair dispatcher, and nothing else is routed there."""
    playing = {task for task, kind in TASK_QUEUES.items() if kind in ("playing", "playing_deep")}
    assert playing == set(DISPATCHED_TASKS)


def test_only_the_dispatcher_sends_the_dispatched_tasks() -> None:
    sites = _send_sites()
    unknown = [site for site in sites if site[2] is None and site[0] != DISPATCHER]
    assert not unknown, f"a task sent where this test cannot tell which: {unknown}"
    for path, line, name in sites:
        if name in DISPATCHED_TASKS:
            assert path == DISPATCHER, f"{path}:{line} sends {name} past the fair dispatcher"
        elif name is not None:
            assert name in EXEMPT, (
                f"{path}:{line} sends {name}, which is neither dispatched nor exempt"
            )
    assert any(path == DISPATCHER for path, _, _ in sites)  # the dispatcher's own sends are read
    senders = {name for _, _, name in sites if name}
    assert {"puzzles.verify_puzzle", "puzzles.missed_mates", "accounts.reset_mail"} <= senders


def test_the_tasks_exempt_as_periodic_are_sent_by_celery_beat_alone() -> None:
    from config.celery import app

    periodic = {name for name, reason in EXEMPT.items() if reason.startswith("Celery beat")}
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert periodic == scheduled
    assert not periodic & {name for _, _, name in _send_sites()}
