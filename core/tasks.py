"""Celery tasks of the core app."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError, connection

from core.selectors import database_check

# Database errors worth another try (``autoretry_for`` of the apps' tasks): a dropped
# connection, a deadlock or serialization failure.
TRANSIENT_DB_ERRORS = (OperationalError, InterfaceError)


@shared_task(
    bind=True,
    name="core.health_check",
    acks_late=True,  # reads only, so running it twice is harmless
    reject_on_worker_lost=True,
    soft_time_limit=20,
    time_limit=30,
)
def health_check(self: Any) -> dict[str, Any]:
    """Prove a worker is alive and reaches the database: answers who ran it and what it saw."""
    database = database_check()
    return {
        "worker": self.request.hostname,
        "database": database.as_dict(),
        "database_name": str(connection.settings_dict["NAME"]),
    }
