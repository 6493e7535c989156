"""How the site is served for live games: which channel layer carries their moves (the
process's memory by default: one web process, scripts/run; Redis with CHANNEL_LAYER_URL: any
number of processes), and no database connection kept past its request under ASGI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.base import channel_layer_settings

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_url_the_layer_is_the_process_memory() -> None:
    assert channel_layer_settings(None)["default"]["BACKEND"] == (
        "channels.layers.InMemoryChannelLayer"
    )


def test_a_redis_url_gives_the_redis_layer_on_that_server() -> None:
    layer = channel_layer_settings("redis://cache.internal:6379/2")["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://cache.internal:6379/2"]  # type: ignore[index]


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
