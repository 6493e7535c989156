"""The Redis cache degrades while Redis is away (core/cache.py): against a private Redis
server (tests/faults/servers.py) that the tests stop, freeze and start again.

The whole site under a Redis outage, with gunicorn and a worker, is
tests/faults/test_cache_restart.py; these tests show each rule on its own."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import pytest
from django.core.cache import cache as default_cache
from django.test import Client, override_settings

from accounts.models import User
from core import cache as resilient
from core.cache import CacheUnavailable, ResilientRedisCache
from core.throttles import throttle_hit
from tests.faults.servers import PrivateRedis


@pytest.fixture
def redis_server() -> Iterator[PrivateRedis]:
    try:
        server = PrivateRedis()
    except RuntimeError as error:
        pytest.skip(str(error))
    server.start()
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture
def fast_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Try Redis again after 0.2 s instead of 2 s, so the tests need not wait."""
    monkeypatch.setattr(resilient, "RETRY_SECONDS", 0.2)


def cache_on(server: PrivateRedis) -> ResilientRedisCache:
    return ResilientRedisCache(server.url(2), {"KEY_PREFIX": "t"})


def keys_in(server: PrivateRedis, database: int) -> int:
    import redis

    return int(redis.Redis.from_url(server.url(database)).dbsize())


def wait_for_retry() -> None:
    time.sleep(resilient.RETRY_SECONDS + 0.05)


def timed(call: object) -> float:
    started = time.perf_counter()
    call()  # type: ignore[operator]
    return time.perf_counter() - started


@pytest.mark.usefixtures("fast_retry")
def test_a_stopped_redis_reads_as_a_miss_and_writes_are_dropped(
    redis_server: PrivateRedis,
) -> None:
    cache = cache_on(redis_server)
    cache.set("a", 1)
    assert cache.get("a") == 1 and cache.available
    redis_server.stop()
    assert cache.get("a", "gone") == "gone"  # fails, and marks Redis away
    assert not cache.available
    cache.set("b", 2)
    assert cache.get_many(["a", "b"]) == {}
    assert cache.has_key("a") is False
    assert cache.add("c", 3) is False
    assert cache.delete("a") is False
    cache.delete_many(["a", "b"])
    assert cache.get_or_set("d", 4) == 4  # computed, not kept
    with pytest.raises(CacheUnavailable):
        cache.incr("counter")
    # While Redis is away, calls do not wait for a connection to fail.
    assert timed(lambda: [cache.get("a") for _ in range(100)]) < 0.1
    # Redis comes back (empty, as a restarted server is): the cache is used again.
    redis_server.start()
    wait_for_retry()
    assert cache.get("a") is None
    cache.set("a", 5)
    assert cache.get("a") == 5 and cache.available
    assert cache.add("n", 0) is True and cache.incr("n") == 1


@pytest.mark.usefixtures("fast_retry")
def test_what_changed_while_redis_was_frozen_is_not_served_stale(
    redis_server: PrivateRedis,
) -> None:
    """A Redis that hangs and comes back with its data: the keys written or deleted meanwhile
    (a session logged out, a session changed) are deleted before anything else is read."""
    cache = cache_on(redis_server)
    cache.set("logged-out-session", "signed in")
    cache.set("changed-session", "old")
    cache.set("untouched", "kept")
    assert redis_server.process is not None
    redis_server.process.kill_group(signal.SIGSTOP)
    try:
        # A frozen server accepts connections and never answers: each call waits at most
        # SOCKET_TIMEOUT once, then Redis is left alone.
        assert timed(lambda: cache.delete("logged-out-session")) < resilient.SOCKET_TIMEOUT * 3
        cache.set("changed-session", "new")
        assert cache.get("changed-session") is None
    finally:
        redis_server.process.kill_group(signal.SIGCONT)
    wait_for_retry()
    assert cache.get("untouched") == "kept"  # the first call back deletes the stale keys
    assert cache.get("logged-out-session") is None
    assert cache.get("changed-session") is None  # read from the database again, then cached


@pytest.mark.django_db
@pytest.mark.usefixtures("fast_retry")
def test_throttles_count_in_the_process_while_redis_is_down(redis_server: PrivateRedis) -> None:
    caches = {"default": {"BACKEND": "core.cache.ResilientRedisCache",
                          "LOCATION": redis_server.url(3)}}  # fmt: skip
    with override_settings(CACHES=caches, THROTTLE_RATES={"login": "3/day"}):
        assert [throttle_hit("login", "addr-1") for _ in range(2)] == [None, None]
        redis_server.stop()
        # Not refused for the cache's sake, and still limited: counted in this process.
        assert throttle_hit("login", "addr-1") is None
        assert [throttle_hit("login", "addr-2") for _ in range(3)] == [None, None, None]
        assert throttle_hit("login", "addr-2") is not None
        assert throttle_hit("login", "addr-3") is None
        redis_server.start()
        wait_for_retry()
        # Back on Redis (empty after its restart), counted where all the processes count.
        assert [throttle_hit("login", "addr-2") for _ in range(3)] == [None, None, None]
        assert throttle_hit("login", "addr-2") is not None
        assert keys_in(redis_server, 3) > 0
        default_cache.clear()


@pytest.mark.django_db
@pytest.mark.usefixtures("fast_retry")
def test_pages_and_sign_in_answer_while_redis_is_down(redis_server: PrivateRedis) -> None:
    caches = {"default": {"BACKEND": "core.cache.ResilientRedisCache",
                          "LOCATION": redis_server.url(4)}}  # fmt: skip
    session = "django.contrib.sessions.backends.cached_db"
    User.objects.create_user(username="steady", password="a-long-pass-phrase-42")
    with override_settings(CACHES=caches, SESSION_ENGINE=session):
        before = Client()
        login = {"username": "steady", "password": "a-long-pass-phrase-42"}
        assert before.post("/accounts/login/", login).status_code == 302
        assert before.get("/puzzles/dashboard/").status_code == 200
        redis_server.stop()
        assert before.get("/puzzles/dashboard/").status_code == 200  # still signed in
        assert before.get("/").status_code == 200
        assert before.get("/puzzles/").status_code == 200
        during = Client()
        assert during.get("/accounts/login/").status_code == 200
        assert during.post("/accounts/login/", login).status_code == 302
        assert during.get("/puzzles/dashboard/").status_code == 200
        assert Client().get("/").status_code == 200  # a new visitor
        redis_server.start()
        wait_for_retry()
        assert during.get("/puzzles/dashboard/").status_code == 200
        assert before.get("/puzzles/dashboard/").status_code == 200
        default_cache.clear()
