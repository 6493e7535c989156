"""Which channel layer carries the live games' moves: the process's memory by default (one web
process, scripts/run), Redis with CHANNEL_LAYER_URL (any number of processes)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.base import channel_layer_settings


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
