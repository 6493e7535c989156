"""Visitors' Streak and Storm runs in which nothing was played are swept after an hour (issue
37, finding 5): a program that drops the session it is given leaves them, and nobody can read
them again. Runs with a move or a skip, accounts' runs and recent ones stay; so do the puzzles
a visitor met in runs while any run of theirs is left. Celery beat runs the sweep every 15
minutes, on a real worker."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.owners import Owner
from puzzles.models import PuzzleRun, PuzzleRunMet
from puzzles.services import runs
from puzzles.tasks import run_sweep_task
from tests.puzzles.test_runs import bank, solve_current

HOUR = timedelta(hours=1)


def aged(run: PuzzleRun, age: timedelta) -> int:
    """The server last answered the run ``age`` ago (its met puzzles were met then too)."""
    then = timezone.now() - age
    PuzzleRun.objects.filter(pk=run.pk).update(updated_at=then, started_at=then)
    PuzzleRunMet.objects.filter(
        user_id=run.user_id, visitor_id=run.visitor_id, puzzle_id__in=run.puzzles
    ).update(created_at=then)
    return run.pk


def started(player: Owner, mode: str = "storm") -> PuzzleRun:
    run, created = runs.run_start(player=player, mode=mode, variant="xiangqi")
    assert created
    return run


def met_by(visitor_id: str) -> int:
    return PuzzleRunMet.objects.filter(Owner(visitor_id=visitor_id).q()).count()


@pytest.mark.django_db
def test_the_sweep_deletes_visitors_runs_never_played_and_keeps_the_rest(
    make_puzzle: Any, make_user: Any
) -> None:
    bank(make_puzzle, 3)
    gone_visitor = Owner(visitor_id="gone")
    gone = [aged(started(gone_visitor, mode), HOUR + timedelta(minutes=1)) for mode in runs_modes()]
    # A visitor with an old run never played and a played one: the first goes, the other and
    # the puzzles the visitor met stay.
    mixed = Owner(visitor_id="mixed")
    gone.append(aged(started(mixed, "streak"), 2 * HOUR))
    played = started(mixed, "storm")
    solve_current(played, mixed)
    kept = [aged(played, timedelta(days=30))]
    skipped = started(Owner(visitor_id="skipper"), "streak")
    runs.run_skip(run_id=skipped.pk, player=Owner(visitor_id="skipper"), index=0)
    kept.append(aged(skipped, timedelta(days=3)))
    kept.append(aged(started(Owner(visitor_id="recent")), HOUR - timedelta(minutes=5)))
    kept.append(aged(started(Owner(user=make_user())), timedelta(days=3)))  # an account's
    assert met_by("gone") == 1 and met_by("mixed") == 2

    assert runs.run_sweep_abandoned() == len(gone)
    assert set(PuzzleRun.objects.values_list("pk", flat=True)) == set(kept)
    assert met_by("gone") == 0
    assert met_by("mixed") == 2 and met_by("skipper") == 2 and met_by("recent") == 1
    assert runs.run_sweep_abandoned() == 0  # nothing left to sweep


def runs_modes() -> list[str]:
    return [PuzzleRun.Mode.STORM, PuzzleRun.Mode.STREAK]


@pytest.mark.django_db
def test_the_sweep_goes_in_bounded_batches_oldest_first(make_puzzle: Any) -> None:
    bank(make_puzzle, 2)
    rows = [
        aged(started(Owner(visitor_id=f"v{n}")), HOUR + timedelta(minutes=10 - n)) for n in range(7)
    ]
    assert runs.run_sweep_abandoned(batch=2, max_batches=2) == 4  # a run's bound
    assert set(PuzzleRun.objects.values_list("pk", flat=True)) == set(rows[4:])
    assert runs.run_sweep_abandoned(batch=2, max_batches=5) == 3
    assert not PuzzleRun.objects.exists() and not PuzzleRunMet.objects.exists()


def test_the_sweep_runs_every_quarter_hour_under_celery_beat() -> None:
    from config.celery import app

    entry = app.conf.beat_schedule["puzzles-sweep-runs"]
    assert entry["task"] == run_sweep_task.name == "puzzles.sweep_runs"
    assert entry["schedule"].minute == {7, 22, 37, 52}
    assert entry["schedule"].hour == set(range(24))


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_the_sweep(celery_worker: Any, make_puzzle: Any) -> None:
    bank(make_puzzle, 2)
    aged(started(Owner(visitor_id="gone")), 2 * HOUR)
    kept = aged(started(Owner(visitor_id="recent")), timedelta(minutes=5))
    assert run_sweep_task.delay().get(timeout=60) == {"deleted": 1}
    assert list(PuzzleRun.objects.values_list("pk", flat=True)) == [kept]


def waiting_for_the_row() -> None:
    """Until another session waits for a lock this one holds (the sweep's DELETE). Inside a
    transaction PostgreSQL keeps one snapshot of its statistics: it is cleared each time."""
    with connection.cursor() as cursor:
        for _ in range(300):
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
            )
            row = cursor.fetchone()
            if row and row[0]:
                return
            time.sleep(0.05)
    pytest.fail("the sweep never waited for the run's row")


@pytest.mark.django_db(transaction=True)
def test_a_move_arriving_while_the_sweep_runs_keeps_its_run(make_puzzle: Any) -> None:
    """The visitor's first move comes back after an hour, just as the sweep picked the run:
    the move holds the run's row; the sweep waits for it, reads the row again and leaves it."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    bank(make_puzzle, 2)
    late = Owner(visitor_id="late")
    run = started(late)
    aged(run, 2 * HOUR)
    moving = threading.Event()
    swept: list[int] = []

    def sweep() -> None:
        try:
            moving.wait(30)
            swept.append(runs.run_sweep_abandoned())
        finally:
            connection.close()

    thread = threading.Thread(target=sweep)
    thread.start()
    with transaction.atomic():
        row = PuzzleRun.objects.select_for_update().get(pk=run.pk)
        moving.set()
        waiting_for_the_row()
        assert thread.is_alive()
        row.moves_played = 1
        row.save()
    thread.join(30)
    assert swept == [0]
    assert PuzzleRun.objects.filter(pk=run.pk).exists()
