"""Reads: the variants the engine knows, and the health of the site's services."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.utils import Error as DatabaseError
from django.utils.translation import get_language

from core.exceptions import ApplicationError
from engine import VARIANTS, UnknownVariantError, Variant, find_variant

# How long /healthz waits for the broker and for workers to answer.
HEALTH_TIMEOUT_SECONDS = 2.0


def variant_list() -> list[Variant]:
    """Every variant, in the engine's order."""
    return list(VARIANTS.values())


def variant_get(*, name: str) -> Variant:
    try:
        return find_variant(name)
    except UnknownVariantError as error:
        raise ApplicationError.from_engine(error, {"field": "variant", "variant": name}) from None


def variant_title(variant: Variant, language: str | None = None) -> str:
    """The variant's name in the given (or the current) language."""
    language = language or get_language() or settings.LANGUAGE_CODE
    return variant.title_zh if language.lower().startswith("zh") else variant.title_en


@dataclass
class Check:
    ok: bool
    detail: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail, **self.data}


def database_check() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return Check(ok=False, detail=f"{type(error).__name__}: {error}")
    return Check(ok=True, detail=connection.vendor)


def broker_check(*, timeout: float = HEALTH_TIMEOUT_SECONDS) -> Check:
    from config.celery import app

    transport = str(app.conf.broker_url).split("://", 1)[0]
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as error:  # noqa: BLE001 - any failure means "unreachable"; it is reported
        return Check(
            ok=False, detail=f"{type(error).__name__}: {error}", data={"transport": transport}
        )
    return Check(ok=True, detail=transport, data={"transport": transport})


def worker_check(*, timeout: float = HEALTH_TIMEOUT_SECONDS) -> Check:
    """Ask every worker to answer a ping; reachable when at least one answers in time."""
    from config.celery import app

    try:
        replies = app.control.ping(timeout=timeout) or []
    except Exception as error:  # noqa: BLE001 - any failure means "unreachable"; it is reported
        return Check(ok=False, detail=f"{type(error).__name__}: {error}", data={"workers": []})
    workers = sorted(name for reply in replies for name in reply)
    if not workers:
        return Check(ok=False, detail="no worker answered", data={"workers": []})
    return Check(ok=True, detail=f"{len(workers)} worker(s)", data={"workers": workers})


def health_report() -> dict[str, Any]:
    """The state of the database, the broker and the workers, for /healthz."""
    database = database_check()
    broker = broker_check()
    worker = worker_check() if broker.ok else Check(ok=False, detail="broker unreachable")
    ok = database.ok and broker.ok and worker.ok
    return {
        "status": "ok" if ok else "error",
        "database": database.as_dict(),
        "broker": broker.as_dict(),
        "worker": worker.as_dict(),
    }
