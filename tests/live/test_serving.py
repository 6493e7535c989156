"""How the site is served for live games: which channel layer carries their moves (the
process's memory by default: one web process, scripts/run; Redis with CHANNEL_LAYER_URL: any
number of processes), and no database connection kept past its request under ASGI."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from config.settings.base import channel_layer_settings

ROOT = Path(__file__).resolve().parents[2]
# How long a test waits for a call that must not hang before it calls it hung.
HANG_GUARD_SECONDS = 120


def test_without_a_url_the_layer_is_the_process_memory() -> None:
    assert channel_layer_settings(None)["default"]["BACKEND"] == (
        "channels.layers.InMemoryChannelLayer"
    )


def test_a_redis_url_gives_the_redis_layer_on_that_server() -> None:
    layer = channel_layer_settings("redis://cache.internal:6379/2")["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["hosts"] == [  # type: ignore[index]
        {
            "address": "redis://cache.internal:6379/2",
            "socket_connect_timeout": 3.0,
            "socket_timeout": 10.0,
        }
    ]


def test_a_reply_limit_at_or_under_the_layers_own_wait_is_refused_at_start() -> None:
    from channels_redis.core import RedisChannelLayer

    from config.settings.base import CHANNEL_LAYER_READ_WAIT

    # the layer's blocking read for a message is no hang: the limit must stay above it
    assert RedisChannelLayer.brpop_timeout == CHANNEL_LAYER_READ_WAIT
    with pytest.raises(ImproperlyConfigured, match="CHANNEL_LAYER_SOCKET_TIMEOUT"):
        channel_layer_settings("redis://cache.internal:6379/2", socket_timeout=5)


@pytest.mark.django_db
def test_a_hung_redis_fails_an_announcement_instead_of_holding_the_page(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A server on a free loopback port that takes connections and never answers (a Redis
    that hangs): the announcement from a page gives up at the reply's limit, logged, instead of
    holding the request for good."""
    from channels.layers import channel_layers

    from live.broadcast import live_lobby_announce

    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(8)  # accepted by the kernel, never read, never answered
    url = f"redis://127.0.0.1:{hung.getsockname()[1]}/0"
    settings.CHANNEL_LAYERS = channel_layer_settings(url, connect_timeout=1, socket_timeout=6)
    channel_layers.backends.clear()
    answers: list[bool] = []

    def announce() -> None:
        try:
            answers.append(live_lobby_announce())
        finally:
            connection.close()  # this thread's own

    try:
        with caplog.at_level(logging.WARNING, logger="live.broadcast"):
            # a guard against a hang, not a measure of speed: the limit is 6 s
            worker = threading.Thread(target=announce, daemon=True)
            worker.start()
            worker.join(HANG_GUARD_SECONDS)
            assert not worker.is_alive(), "the announcement still waits on a hung Redis"
    finally:
        channel_layers.backends.clear()
        hung.close()
    assert answers == [False]
    assert "not announced: the channel layer cannot be reached" in caplog.text


def test_any_other_url_is_refused_at_start_with_the_reason() -> None:
    with pytest.raises(ImproperlyConfigured, match="redis://"):
        channel_layer_settings("amqp://guest@localhost//")


PROBE = """
import os, sys
if sys.argv[1] == "asgi":
    import config.asgi
else:
    import django
    django.setup()
from django.conf import settings
database = settings.DATABASES["default"]
print(database["CONN_MAX_AGE"], "pool" in database.get("OPTIONS", {}))
"""


@pytest.mark.parametrize(("entry", "kept"), [("asgi", "0"), ("plain", "60")])
def test_under_asgi_no_database_connection_outlives_its_request(entry: str, kept: str) -> None:
    """Django's advice: under ASGI each request runs in a thread of its own, whose kept
    connection would never be closed: a pool per process holds them instead (PostgreSQL);
    the Celery workers (and WSGI) keep theirs a minute."""
    env = {key: value for key, value in os.environ.items() if key != "ASGI_SERVER"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    env.pop("DATABASE_CONN_MAX_AGE", None)
    result = subprocess.run(
        [sys.executable, "-c", PROBE, entry],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    postgres = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
    pooled = entry == "asgi" and postgres
    assert result.stdout.strip().splitlines()[-1] == f"{kept} {pooled}"
