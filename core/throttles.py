"""Throttles: at most N requests of one kind per window, per user or per client address.

Rates are named scopes in ``settings.THROTTLE_RATES`` (``"10/min"``; periods s, min, hour,
day), read at each request so they can be changed in tests. Counters are fixed windows kept in
the default cache: with Redis (``CACHE_URL``) every web process shares them. While Redis cannot
be reached (``core.cache.CacheUnavailable``) each web process counts in its own memory: the
limits still hold per process, and nobody is refused for the cache's sake.

- API views: ``ScopedThrottle`` (the default throttle class) throttles the unsafe methods of a
  view that sets ``throttle_scope`` or whose URL name is in ``THROTTLE_SCOPES_BY_URL_NAME``.
- API reads: ``core.middleware.ReadThrottleMiddleware`` counts every API read (GET, HEAD) in
  the scope ``reads`` per client address, signed in or not: however many sessions or accounts
  one address polls with, it gets one budget, and a refused read is answered before any view
  runs, so a flood of polls cannot fill the web workers that everyone else's requests wait for.
- Page views: ``core.middleware.PageThrottleMiddleware`` throttles the unsafe methods of a
  page whose URL name is in ``THROTTLE_SCOPES_BY_URL_NAME``; the log-in, sign-up and
  password-reset views count their own with ``throttle_hit(scope, key)`` (their scopes are
  listed in ``THROTTLE_SCOPES_COUNTED_BY_VIEW``); events counted apart from the request that
  asks (failed log-ins) with ``throttle_count`` and ``throttle_over``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from core.cache import CacheUnavailable

PERIODS = {"s": 1, "sec": 1, "min": 60, "m": 60, "hour": 3600, "h": 3600, "day": 86400, "d": 86400}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
READS = "reads"  # the scope of every API read, counted per client address


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """``"10/min"`` -> Rate(10, 60); ``"5/2hour"`` is not a rate (one unit per period)."""
    count, _, period = text.partition("/")
    if period not in PERIODS or not count.isdigit():
        raise ValueError(f"not a throttle rate: {text!r} (say '10/min')")
    return Rate(int(count), PERIODS[period])


def throttle_rate(scope: str) -> Rate | None:
    text = settings.THROTTLE_RATES.get(scope)
    return parse_rate(text) if text else None


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or the one ``TRUSTED_PROXY_COUNT`` proxies vouch for."""
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))]
    return str(request.META.get("REMOTE_ADDR", ""))


# Where the counters go while the shared cache cannot be reached: this process's memory.
LOCAL_COUNTERS = LocMemCache(
    "throttles-while-the-cache-is-down", {"OPTIONS": {"MAX_ENTRIES": 50_000}}
)


def _count(counters: BaseCache, name: str, timeout: int) -> int:
    counters.add(name, 0, timeout=timeout)
    try:
        return int(counters.incr(name))
    except ValueError:  # expired between add and incr
        counters.add(name, 1, timeout=timeout)
        return 1


def throttle_hit(scope: str, key: str, *, now: float | None = None) -> float | None:
    """Count one request of ``scope`` by ``key``; ``None`` if allowed, else seconds to wait."""
    rate = throttle_rate(scope)
    if rate is None:
        return None
    now = time.time() if now is None else now
    window = int(now // rate.seconds)
    name = f"throttle:{scope}:{key}:{window}"
    try:
        count = _count(cache, name, rate.seconds + 1)
    except CacheUnavailable:
        count = _count(LOCAL_COUNTERS, name, rate.seconds + 1)
    if count <= rate.count:
        return None
    return max(1.0, (window + 1) * rate.seconds - now)


def _window_name(scope: str, key: str, rate: Rate, now: float) -> tuple[str, int]:
    window = int(now // rate.seconds)
    return f"throttle:{scope}:{key}:{window}", window


def throttle_count(scope: str, key: str, *, now: float | None = None) -> None:
    """Count one event of ``scope`` by ``key`` (a failed log-in ...) without asking whether
    the rate allows it; ``throttle_over`` tells later whether the count is at its rate."""
    rate = throttle_rate(scope)
    if rate is None:
        return
    name, _ = _window_name(scope, key, rate, time.time() if now is None else now)
    try:
        _count(cache, name, rate.seconds + 1)
    except CacheUnavailable:
        _count(LOCAL_COUNTERS, name, rate.seconds + 1)


def throttle_over(scope: str, key: str, *, now: float | None = None) -> float | None:
    """Whether ``key`` has counted as many events of ``scope`` as its rate allows in this
    window (``None`` if not, else the seconds until the window ends); counts nothing."""
    rate = throttle_rate(scope)
    if rate is None:
        return None
    now = time.time() if now is None else now
    name, window = _window_name(scope, key, rate, now)
    try:
        count = cache.get(name, 0)
    except CacheUnavailable:
        count = LOCAL_COUNTERS.get(name, 0)
    if int(count) < rate.count:
        return None
    return max(1.0, (window + 1) * rate.seconds - now)


def request_scope(request: Request, view: Any) -> str | None:
    scope = getattr(view, "throttle_scope", None)
    if scope:
        return str(scope)
    match = getattr(request, "resolver_match", None)
    if match is None:
        return None
    return settings.THROTTLE_SCOPES_BY_URL_NAME.get(match.view_name)


def request_key(request: HttpRequest, user: Any = None) -> str:
    """Whom a request is counted for: its user (``user``, else the request's), or its client
    address for a visitor."""
    user = user if user is not None else getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user-{user.pk}"
    return f"addr-{client_address(request)}"


def view_scopes(view_name: str, view: Any) -> list[str]:
    """The throttle scopes that count a view's unsafe requests: its own ``throttle_scope``
    (API views), its URL name's (``THROTTLE_SCOPES_BY_URL_NAME``), and the scope of a page view
    that counts its requests itself (``THROTTLE_SCOPES_COUNTED_BY_VIEW``)."""
    found = [getattr(view, "throttle_scope", None)]
    found.append(settings.THROTTLE_SCOPES_BY_URL_NAME.get(view_name))
    found.append(settings.THROTTLE_SCOPES_COUNTED_BY_VIEW.get(view_name))
    return [str(scope) for scope in found if scope]


class ScopedThrottle(BaseThrottle):
    """Throttle a view's unsafe requests by its scope, per user or per client address."""

    def __init__(self) -> None:
        self.wait_seconds: float | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        scope = request_scope(request, view)
        if scope is None:
            return True
        self.wait_seconds = throttle_hit(
            scope, request_key(request._request, getattr(request, "user", None))
        )
        return self.wait_seconds is None

    def wait(self) -> float | None:
        return self.wait_seconds
