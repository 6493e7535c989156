"""Reads: the variants the engine knows, and the health of the site's services.

The broker and worker checks use ``celery.current_app``: the site's Celery app (``config.celery``),
which is loaded with the settings, so the core app does not import ``config``, the floor above
every app (docs/architecture.md)."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import Error as DatabaseError
from django.utils.translation import get_language

from core.exceptions import ApplicationError
from engine import VARIANTS, UnknownVariantError, Variant, find_variant
from judge import FAIRY_STOCKFISH, OURS, JudgeError, fairy_stockfish_path
from judge.fairy import probe

logger = logging.getLogger(__name__)

# How long the full health check waits for the broker and for workers to answer.
HEALTH_TIMEOUT_SECONDS = 1.0


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


def variant_board(variant: Variant) -> dict[str, Any]:
    """What a page's board needs to know of a variant: its name, title and size."""
    return {
        "name": variant.name,
        "title": variant_title(variant),
        "width": variant.width,
        "height": variant.height,
    }


def variant_cards() -> list[dict[str, Any]]:
    """Every variant's board, with the names of the starts it can begin from."""
    return [
        {**variant_board(variant), "starts": [name for name, _fen in variant.starts]}
        for variant in variant_list()
    ]


@dataclass
class Check:
    """One service's state. ``detail`` is a fixed word or count, never an error's text: the
    text (hosts, ports, user names) goes to the log only."""

    ok: bool
    detail: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "detail": self.detail, **self.data}


UNREACHABLE = "unreachable"


def _unreachable(service: str, error: BaseException, **data: Any) -> Check:
    logger.warning("health: %s unreachable: %s: %s", service, type(error).__name__, error)
    return Check(ok=False, detail=UNREACHABLE, data=data)


def database_check(conn: BaseDatabaseWrapper | None = None) -> Check:
    conn = conn or connection
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return _unreachable("database", error)
    return Check(ok=True, detail=conn.vendor)


def cache_check() -> Check:
    """Write and read back one key in the default cache (throttle counters, sessions)."""
    from django.core.cache import cache

    backend = type(cache).__name__
    key, value = f"health:{uuid.uuid4().hex}", "ok"
    try:
        cache.set(key, value, timeout=10)
        ok = cache.get(key) == value
        cache.delete(key)
    except Exception as error:  # noqa: BLE001 - any failure means "unreachable"; it is logged
        return _unreachable("cache", error, backend=backend)
    return Check(ok=ok, detail=backend if ok else UNREACHABLE, data={"backend": backend})


def broker_check(*, url: str | None = None, timeout: float = HEALTH_TIMEOUT_SECONDS) -> Check:
    """Connect to the broker (the site's, or ``url``)."""
    url = url or str(current_app.conf.broker_url)
    transport = url.split("://", 1)[0]
    try:
        with current_app.connection_for_write(url) as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
    except Exception as error:  # noqa: BLE001 - any failure means "unreachable"; it is logged
        return _unreachable("broker", error, transport=transport)
    return Check(ok=True, detail=transport, data={"transport": transport})


def site_queues() -> list[str]:
    """The queues this site's tasks go to that a worker must always read
    (``CELERY_QUEUE_PREFIX`` included): every queue but ``mining``, read only during a run."""
    required = set(settings.CELERY_REQUIRED_QUEUES)
    return [queue.name for queue in settings.CELERY_TASK_QUEUES if queue.name in required]


def worker_check(
    *, queues: list[str] | None = None, timeout: float = HEALTH_TIMEOUT_SECONDS
) -> Check:
    """Which workers consume each of this site's queues; ok when every queue has one.

    Workers on the same broker that read other queues (another site, another prefix) are not
    counted: they would never run this site's tasks."""
    queues = queues or site_queues()
    try:
        replies = current_app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception as error:  # noqa: BLE001 - any failure means "unreachable"; it is logged
        return _unreachable("workers", error, queues={name: [] for name in queues})
    consumers: dict[str, list[str]] = {name: [] for name in queues}
    for worker, consumed in sorted(replies.items()):
        for queue in consumed or []:
            if queue.get("name") in consumers:
                consumers[queue["name"]].append(worker)
    missing = [name for name, workers in consumers.items() if not workers]
    workers = sorted({worker for names in consumers.values() for worker in names})
    data = {"queues": consumers, "workers": workers}
    if missing:
        return Check(ok=False, detail=f"no worker reads {', '.join(missing)}", data=data)
    return Check(ok=True, detail=f"{len(workers)} worker(s)", data=data)


def judge_check(*, timeout: float = HEALTH_TIMEOUT_SECONDS * 5) -> Check:
    """Which engine judges traditional xiangqi (``judge``): Fairy-Stockfish, found and
    answering a UCI handshake (``fairy-stockfish``, with the version it gives), or, where it
    is not installed, the site's own engine (``absent``: the site works without it, and the
    analysis page says so). Installed but not answering is ``broken``, not ok: traditional
    xiangqi's analyses would fail."""
    path = fairy_stockfish_path()
    if path is None:
        return Check(ok=True, detail="absent", data={"xiangqi": OURS})
    try:
        version = probe(path, seconds=timeout)
    except JudgeError as error:
        logger.warning("health: Fairy-Stockfish at %s does not work: %s", path, error)
        return Check(ok=False, detail="broken", data={"xiangqi": FAIRY_STOCKFISH})
    return Check(
        ok=True, detail=FAIRY_STOCKFISH, data={"xiangqi": FAIRY_STOCKFISH, "version": version}
    )


def health_report() -> dict[str, Any]:
    """The state of the database, the cache, the broker, the workers and the judge of
    traditional xiangqi (/healthz/full)."""
    database = database_check()
    cache = cache_check()
    broker = broker_check()
    worker = worker_check() if broker.ok else Check(ok=False, detail="broker unreachable")
    judge = judge_check()
    ok = database.ok and cache.ok and broker.ok and worker.ok and judge.ok
    return {
        "status": "ok" if ok else "error",
        "database": database.as_dict(),
        "cache": cache.as_dict(),
        "broker": broker.as_dict(),
        "worker": worker.as_dict(),
        "judge": judge.as_dict(),
    }


class HealthReportCache:
    """The latest full report of this process, kept ``seconds``; one check runs at a time, and
    callers that arrive meanwhile get its result."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._report: dict[str, Any] | None = None
        self._checked = 0.0

    def get(self, *, seconds: float) -> dict[str, Any]:
        with self._lock:
            now = time.monotonic()
            if self._report is None or now - self._checked >= seconds:
                report = health_report()
                self._checked = time.monotonic()
                report["checked_at"] = time.time()
                self._report = report
            return {**self._report, "age": round(time.monotonic() - self._checked, 3)}

    def clear(self) -> None:
        with self._lock:
            self._report = None


HEALTH_REPORTS = HealthReportCache()


def health_report_cached() -> dict[str, Any]:
    return HEALTH_REPORTS.get(seconds=settings.HEALTH_CACHE_SECONDS)
