"""Celery tasks of the core app."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError, connection

from core.selectors import database_check

# Database errors worth another try (``autoretry_for`` of the apps' tasks): a dropped
# connection, a deadlock or serialization failure.
TRANSIENT_DB_ERRORS = (OperationalError, InterfaceError)


@dataclass(frozen=True)
class Retry:
    """Another try after a transient database error: at most ``times``, waiting about
    ``backoff`` seconds, doubled each time up to ``backoff_max`` (Celery's default), jittered."""

    times: int
    backoff: int
    backoff_max: int = 600


def idempotent_task(
    name: str, *, limits: tuple[int, int], retry: Retry | None = None, bind: bool = False
) -> Any:
    """A task that may run twice (say why where it is declared): acknowledged once it has run
    and handed back when its worker dies, stopped softly then hard after ``limits`` seconds,
    and with ``retry`` tried again on ``TRANSIENT_DB_ERRORS``."""
    options: dict[str, Any] = {"acks_late": True, "reject_on_worker_lost": True}
    options.update(name=name, bind=bind, soft_time_limit=limits[0], time_limit=limits[1])
    if retry is not None:
        options.update(autoretry_for=TRANSIENT_DB_ERRORS, retry_jitter=True)
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
