"""The web server's worker: uvicorn's worker for gunicorn (``scripts/run``), with the
WebSockets' keep-alive set here rather than left to uvicorn's defaults.

Every ``WS_PING_INTERVAL`` seconds (15) the server pings each open WebSocket at the protocol
level; a connection that has not answered within ``WS_PING_TIMEOUT`` seconds (10) is closed, so a
player whose machine went to sleep, or whose network vanished without a word, leaves within
about 25 s instead of holding a dead connection open (a live game's page reconnects by itself
once it can: docs/live.md). Browsers answer pings without any script. Read from the
environment once, when gunicorn loads this class.

    gunicorn config.asgi:application --worker-class config.web_worker.WebWorker
"""

from __future__ import annotations

import os
from typing import Any

from uvicorn_worker import UvicornWorker


def _seconds(name: str, default: float) -> float:
    value = float(os.environ.get(name) or default)
    if value <= 0:
        raise ValueError(f"{name} must be a number of seconds above 0, not {value}")
    return value


class WebWorker(UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "ws_ping_interval": _seconds("WS_PING_INTERVAL", 15),
        "ws_ping_timeout": _seconds("WS_PING_TIMEOUT", 10),
    }
