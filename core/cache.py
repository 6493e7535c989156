"""A Redis cache that degrades instead of failing while Redis cannot be reached.

The site keeps three things in the cache (``CACHE_URL``): throttle counters, a copy of the
sessions in front of the database (``cached_db``), and page fragments it can compute again.
None of them needs Redis to be up, so an outage must not turn into server errors:

- reads answer "not there" (a session is then read from the database, a fragment recomputed);
- writes and deletes are dropped; the keys they touched are remembered and deleted as soon as
  Redis answers again, so that what was cached before the outage (a session since logged out
  or changed) is not served stale afterwards;
- ``incr`` has no answer without Redis and raises ``CacheUnavailable``: the throttles then count
  in the web process's own memory (``core.throttles``);
- after a failure Redis is left alone for ``RETRY_SECONDS``, so that requests during an outage
  do not each wait for a connection to fail. Connections time out after ``SOCKET_TIMEOUT``.

Each web process keeps its own list of keys to delete (at most ``STALE_KEYS_MAX``); a process
deletes them at its first successful call after the outage.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Seconds a process leaves Redis alone after a failed call.
RETRY_SECONDS = 2.0
# Seconds to connect, and to wait for an answer (a healthy Redis answers in well under 1 ms).
SOCKET_TIMEOUT = 0.5
# Keys written or deleted during an outage that a process remembers to delete afterwards.
STALE_KEYS_MAX = 100_000


class CacheUnavailable(Exception):
    """The cache cannot be reached; raised only where no fallback answer exists (``incr``)."""


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, degrading as described in the module's docstring."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        super().__init__(server, {**params, "OPTIONS": options})
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._stale: set[str] = set()  # keys (as given, before make_key) to delete on return
        self._stale_dropped = 0

    # --- state ---------------------------------------------------------------------------

    @property
    def available(self) -> bool:
        """False while this process is leaving Redis alone after a failure."""
        return time.monotonic() >= self._down_until

    def _failed(self, operation: str, error: Exception) -> None:
        with self._lock:
            first = self.available
            self._down_until = time.monotonic() + RETRY_SECONDS
        if first:
            logger.warning("cache unavailable (%s): %s: %s", operation, type(error).__name__, error)

    def _remember(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                if len(self._stale) >= STALE_KEYS_MAX:
                    self._stale_dropped += 1
                else:
                    self._stale.add(key)

    def _delete_stale(self) -> None:
        """After an outage: delete what this process wrote or deleted while Redis was away."""
        with self._lock:
            keys, self._stale = self._stale, set()
            dropped, self._stale_dropped = self._stale_dropped, 0
        if not keys:
            return
        try:
            super().delete_many(list(keys))
        except RedisError:
            self._remember(keys)
            raise
        logger.warning(
            "cache back: deleted %d key(s) changed during the outage%s",
            len(keys),
            f" ({dropped} more were not remembered)" if dropped else "",
        )

    def _call(
        self,
        operation: str,
        method: Callable[..., T],
        args: tuple[Any, ...],
        fallback: T,
        touched: Iterable[str] = (),
    ) -> T:
        """``method(*args)`` on Redis, or ``fallback`` (remembering ``touched``) without it."""
        if not self.available:
            self._remember(touched)
            return fallback
        try:
            if self._stale:
                self._delete_stale()
            return method(*args)
        except RedisError as error:
            self._failed(operation, error)
            self._remember(touched)
            return fallback

    # --- the cache API -------------------------------------------------------------------
    # Reads fall back to a miss; writes and deletes to nothing (their keys are remembered);
    # ``add`` to "not added" (an add never replaces a value, so nothing goes stale).

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        return self._call("get", super().get, (key, default, version), default)

    def get_many(self, keys: Iterable[str], version: int | None = None) -> dict[str, Any]:
        return self._call("get_many", super().get_many, (list(keys), version), {})

    def has_key(self, key: str, version: int | None = None) -> bool:
        return self._call("has_key", super().has_key, (key, version), False)

    def set(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        self._call("set", super().set, (key, value, timeout, version), None, [key])

    def set_many(
        self,
        data: dict[str, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> list[str]:
        keys = list(data)
        return self._call("set_many", super().set_many, (data, timeout, version), keys, keys)

    def add(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        return self._call("add", super().add, (key, value, timeout, version), False)

    def touch(
        self, key: str, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._call("touch", super().touch, (key, timeout, version), False, [key])

    def delete(self, key: str, version: int | None = None) -> bool:
        return self._call("delete", super().delete, (key, version), False, [key])

    def delete_many(self, keys: Iterable[str], version: int | None = None) -> None:
        keys = list(keys)
        self._call("delete_many", super().delete_many, (keys, version), None, keys)

    def clear(self) -> None:
        self._call("clear", super().clear, (), None)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        """Raises ``CacheUnavailable`` without Redis (there is no count to answer)."""
        if self.available:
            try:
                if self._stale:
                    self._delete_stale()
                return int(super().incr(key, delta, version))
            except RedisError as error:
                self._failed("incr", error)
        raise CacheUnavailable("the cache cannot be reached")
