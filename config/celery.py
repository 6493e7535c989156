"""The Celery application.

Configuration comes from Django's settings (names starting with ``CELERY_``); tasks are found in
each installed app's ``tasks`` module. Start a worker with ``celery -A config worker``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("xiangqi_school")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _beat_schedule() -> dict[str, Any]:
    """The periodic tasks of every app that has them."""
    from games.schedule import BEAT_SCHEDULE as GAMES
    from live.schedule import BEAT_SCHEDULE as LIVE
    from puzzles.schedule import BEAT_SCHEDULE as PUZZLES

    return {**PUZZLES, **GAMES, **LIVE}


app.conf.beat_schedule = _beat_schedule()


def ensure_file_broker_folders() -> None:
    """Create the folders of the file broker and file result backend, when those are in use."""
    options: dict[str, Any] = app.conf.broker_transport_options or {}
    if str(app.conf.broker_url).startswith("filesystem://"):
        for key in ("data_folder_in", "data_folder_out", "control_folder", "processed_folder"):
            if options.get(key):
                Path(options[key]).mkdir(parents=True, exist_ok=True)
    backend = str(app.conf.result_backend or "")
    if backend.startswith("file://"):
        Path(backend.removeprefix("file://")).mkdir(parents=True, exist_ok=True)


@app.on_after_configure.connect
def _on_after_configure(**_: object) -> None:
    ensure_file_broker_folders()


@worker_init.connect
def _on_worker_init(**_: object) -> None:
    """A worker's database sessions have the worker's time limits (config/database.py)."""
    from config.database import use_role

    use_role("worker")
