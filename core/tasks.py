"""Celery tasks of the core app."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError, connection

from core.selectors import database_check

# Database errors worth another try (``autoretry_for`` of the apps' tasks): a dropped
# connection, a deadlock or serialization failure.
TRANSIENT_DB_ERRORS = (OperationalError, InterfaceError)


@dataclass(frozen=True)
class Retry:
    """Another try after a transient database error: at most ``times``, waiting about
    ``backoff`` seconds, doubled each time up to ``backoff_max`` (Celery's default), less up to
    half of that at random (``backoff_pause``)."""

    times: int
    backoff: int
    backoff_max: int = 600


def backoff_pause(backoff: float, retries: int, maximum: float) -> float:
    """Seconds to wait before the next try, after ``retries`` retries: ``backoff`` doubled each
    time up to ``maximum``, and between half of that and all of it at random (so that the tasks
    of one outage do not all come back at once).

    Never less than half: Celery's own jitter draws each wait between nothing and the whole, so
    that six retries could all come within a few seconds and a task gave up during a database
    restart it was meant to outlast. Here the retries of ``Retry(times, backoff)`` wait at least
    half their whole schedule in all (a minute for six from 2 s)."""
    whole = min(maximum, backoff * 2**retries)
    return random.uniform(whole / 2, whole)


class TransientRetryTask(Task):
    """A task whose retries after ``TRANSIENT_DB_ERRORS`` wait ``backoff_pause``."""

    def retry(
        self,
        args: Any = None,
        kwargs: Any = None,
        exc: BaseException | None = None,
        throw: bool = True,
        eta: Any = None,
        countdown: float | None = None,
        max_retries: int | None = None,
        **options: Any,
    ) -> Any:
        if isinstance(exc, TRANSIENT_DB_ERRORS) and self.retry_backoff and eta is None:
            countdown = backoff_pause(
                float(self.retry_backoff), int(self.request.retries), self.retry_backoff_max
            )
        return super().retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)


def idempotent_task(
    name: str, *, limits: tuple[int, int], retry: Retry | None = None, bind: bool = False
) -> Any:
    """A task that may run twice (say why where it is declared): acknowledged once it has run
    and handed back when its worker dies, stopped softly then hard after ``limits`` seconds,
    and with ``retry`` tried again on ``TRANSIENT_DB_ERRORS`` (waits: ``backoff_pause``)."""
    options: dict[str, Any] = {"acks_late": True, "reject_on_worker_lost": True}
    options.update(name=name, bind=bind, soft_time_limit=limits[0], time_limit=limits[1])
    if retry is not None:
        options.update(base=TransientRetryTask, autoretry_for=TRANSIENT_DB_ERRORS)
        options.update(max_retries=retry.times, retry_backoff=retry.backoff)
        options["retry_backoff_max"] = retry.backoff_max
    return shared_task(**options)


# Reads only, so running it twice is harmless.
@idempotent_task("core.health_check", limits=(20, 30), bind=True)
def health_check(self: Any) -> dict[str, Any]:
    """Prove a worker is alive and reaches the database: answers who ran it and what it saw."""
    database = database_check()
    return {
        "worker": self.request.hostname,
        "database": database.as_dict(),
        "database_name": str(connection.settings_dict["NAME"]),
    }
