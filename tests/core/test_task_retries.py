"""The waits of a task's retries after a transient database error (``core.tasks``).

A scoring task met a database restart, drew six waits near nothing from Celery's own jitter and
gave up within seconds: the attempt stayed unscored until the scheduled sweep. The waits are now
between half and all of the doubled backoff. The fault test of a database restart
(tests/faults/test_database_restart.py) reads them in a real worker's log.
"""

from __future__ import annotations

import random

from config.celery import app
from core.tasks import TRANSIENT_DB_ERRORS, TransientRetryTask, backoff_pause


def test_a_retry_waits_between_half_and_all_of_the_doubled_backoff() -> None:
    random.seed(7)
    for retries in range(8):
        whole = min(120, 2 * 2**retries)
        waits = [backoff_pause(2, retries, 120) for _ in range(500)]
        assert whole / 2 <= min(waits) and max(waits) <= whole
        assert max(waits) - min(waits) > whole / 4  # spread out, not all at once


def test_six_retries_outlast_a_minute_whatever_is_drawn() -> None:
    """The least the six retries of the scoring task (backoff 2 s, at most 120 s) can wait."""
    least = sum(min(120, 2 * 2**n) / 2 for n in range(6))
    assert least >= 60
    random.seed(11)
    for _ in range(200):
        assert sum(backoff_pause(2, n, 120) for n in range(6)) >= least


def test_every_task_that_retries_database_errors_waits_the_project_s_pauses() -> None:
    app.loader.import_default_modules()
    retrying = {
        name: task
        for name, task in app.tasks.items()
        if set(getattr(task, "autoretry_for", ())) & set(TRANSIENT_DB_ERRORS)
    }
    assert "puzzles.score_attempt" in retrying and "puzzles.verify_puzzle" in retrying
    for name, task in retrying.items():
        assert isinstance(task, TransientRetryTask), name
        assert task.retry_backoff, name
