"""Time limits of the database sessions, chosen by the kind of process that opens them.

A web request runs short queries and must never hold a worker, a connection or the server's
memory for long, whatever it is asked: its statements are cancelled after
``DATABASE_STATEMENT_TIMEOUT`` and its waits for a lock after ``DATABASE_LOCK_TIMEOUT``
(HTTP 503, try again). Celery workers spend their time in Python (proofs, searches) but may
wait behind a web request's row lock or write more rows at once: they have limits of their
own (``WORKER_DATABASE_*``). Management commands (migrations, imports) have none. The limits
are PostgreSQL settings sent when a connection opens (``options=-c …``), so they cost no query.

SQLite, the embedded database ``scripts/run`` uses when nothing is configured, has one writer
at a time for the whole file, and the web processes and the worker all write: it runs in WAL
mode (readers never wait for the writer, nor the writer for them), every transaction takes the
write lock as it begins (``IMMEDIATE``: a transaction that read first and then wanted to write
would fail at once with "database is locked" when another had written meanwhile, whatever the
wait allowed), and a process waits up to ``SQLITE_BUSY_SECONDS`` for the lock instead of failing.
The site's write transactions are a few milliseconds long.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

Role = Literal["web", "worker", "command"]
ROLES: tuple[Role, ...] = ("web", "worker", "command")


# How long a SQLite connection waits for another process's write transaction to end.
SQLITE_BUSY_SECONDS = 20
SQLITE_OPTIONS: dict[str, Any] = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": SQLITE_BUSY_SECONDS,
}


def apply_sqlite(database: Any) -> None:
    """Give the SQLite ``database`` settings (one entry of ``DATABASES``) the options that let
    several processes write to it at once; other databases are left as they are."""
    if database.get("ENGINE", "").endswith("sqlite3"):
        database.setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)


def session_options(role: str, *, statement_ms: int, lock_ms: int) -> str:
    """The libpq ``options`` that set both limits (0: none) and name the session after the
    role (``application_name``, as ``pg_stat_activity`` shows it)."""
    return (
        f"-c statement_timeout={statement_ms} -c lock_timeout={lock_ms}"
        f" -c application_name=xiangqi-school-{role}"
    )


def apply_role(database: Any, role: str, limits: Mapping[str, int]) -> None:
    """Give the PostgreSQL ``database`` settings (one entry of ``DATABASES``) the ``limits``
    (``statement_ms`` and ``lock_ms``) of ``role`` for the sessions it opens; other databases
    are left as they are."""
    if not database.get("ENGINE", "").endswith("postgresql"):
        return
    database.setdefault("OPTIONS", {})["options"] = session_options(
        role, statement_ms=limits["statement_ms"], lock_ms=limits["lock_ms"]
    )


def use_role(role: Role) -> None:
    """From now on this process opens its database sessions with ``role``'s limits
    (``settings.DATABASE_TIMEOUTS``); sessions already open are closed first. A Celery worker
    calls this as it starts, before its pool's processes are made."""
    from django.conf import settings
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
    for alias in settings.DATABASES:
        apply_role(settings.DATABASES[alias], role, settings.DATABASE_TIMEOUTS[role])
