"""Live games over their real WebSocket: channels' WebsocketCommunicator against the site's
ASGI application (config.asgi: origin check, session, routing), on the real test database.

A test is plain synchronous code; each player or spectator is a ``Socket`` whose calls run on
one event loop kept for the test (asgiref's ``ApplicationCommunicator`` speaking the ASGI
WebSocket messages, as channels' ``WebsocketCommunicator`` does, without its import of daphne) (the consumers reach the database from their own threads,
so the tests that use sockets are transactional)."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.layers import channel_layers
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, connections

from accounts.owners import Owner
from accounts.visitors import VISITOR_SESSION_KEY
from live.models import LiveGame
from live.services import (
    ChallengeOptions,
    LiveRefusal,
    live_challenge_accept,
    live_challenge_create,
)

ORIGIN = b"http://testserver"


class Socket:
    """One WebSocket connection to a live game, driven from synchronous test code."""

    def __init__(self, loop: asyncio.AbstractEventLoop, slug: str, session_key: str | None):
        from config.asgi import application

        headers = [(b"origin", ORIGIN), (b"host", b"testserver")]
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        self.loop = loop
        self.texts: list[str] = []  # every message received, as sent (but probes)
        self.probes: list[str] = []  # the ids of the server's probes not yet answered
        self.pending: list[str] = []  # messages read while looking for a probe
        scope = {
            "type": "websocket",
            "path": f"/ws/live/{slug}/",
            "raw_path": f"/ws/live/{slug}/".encode(),
            "query_string": b"",
            "headers": headers,
            "subprotocols": [],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.communicator = ApplicationCommunicator(application, scope)
        self.run(self.communicator.send_input({"type": "websocket.connect"}))
        answer = self.run(self.communicator.receive_output(10))
        self.connected = answer["type"] == "websocket.accept"
        self.close_code = answer.get("code")

    def run(self, coroutine: Any) -> Any:
        return on_loop(self.loop, coroutine)

    def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        self.run(self.communicator.send_input({"type": "websocket.receive", "text": text}))

    def _output(self, timeout: float = 10) -> str | None:
        """The next message sent to the client; a probe of the lag allowance is kept aside in
        ``probes`` (None then): the page answers it at once, a test when it chooses."""
        output = self.run(self.communicator.receive_output(timeout))
        assert output["type"] == "websocket.send", output
        text = str(output["text"])
        message = json.loads(text)
        if isinstance(message, dict) and message.get("type") == "probe":
            self.probes.append(message["id"])
            return None
        return text

    def receive_text(self) -> str:
        """The next message as the client receives it (its text, every byte), probes aside."""
        text = self.pending.pop(0) if self.pending else None
        while text is None:
            text = self._output()
        self.texts.append(text)
        return text

    def probe(self) -> str:
        """The id of the server's latest probe, waiting for one if none has come."""
        while not self.probes:
            text = self._output()
            if text is not None:
                self.pending.append(text)
        return self.probes.pop()

    def receive(self) -> dict[str, Any]:
        return dict(json.loads(self.receive_text()))

    def state(self) -> dict[str, Any]:
        """The next state message (anything else first fails the test)."""
        message = self.receive()
        assert message["type"] == "state", message
        return message

    def error(self) -> dict[str, Any]:
        """A refusal: the error, then the state as it stands (returned with it)."""
        message = self.receive()
        assert message["type"] == "error", message
        message["state"] = self.state()
        return message

    def silent(self) -> bool:
        """Whether nothing but probes comes for a moment."""
        if self.pending:
            return False
        while not self.run(self.communicator.receive_nothing(timeout=0.2)):
            text = self._output()
            if text is not None:
                self.pending.append(text)
                return False
        return True

    def close(self) -> None:
        if self.connected:
            self.run(self.communicator.send_input({"type": "websocket.disconnect", "code": 1000}))
        self.run(self.communicator.wait(5))


def visitor_session() -> tuple[str, Owner]:
    """A browser session with a visitor id, as the site makes one (its key and the owner)."""
    session = SessionStore()
    visitor = uuid.uuid4().hex
    session[VISITOR_SESSION_KEY] = visitor
    session.create()
    assert session.session_key is not None
    return session.session_key, Owner(visitor_id=visitor)


def on_loop(loop: asyncio.AbstractEventLoop, coroutine: Any) -> Any:
    """Run ``coroutine`` on the test's loop (in its own thread) and wait for its result."""
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result()


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """The test's event loop, running in a thread of its own: the test's thread may already
    have a running loop (Playwright's synchronous API leaves one there after a browser test
    in the same process), and one thread cannot run two."""
    channel_layers.backends.clear()  # an in-memory layer of its own for each test's loop
    # As under ASGI (config/asgi.py): the consumers' threads keep no connection after a message
    kept = connections.settings["default"]["CONN_MAX_AGE"]
    connections.settings["default"]["CONN_MAX_AGE"] = 0
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, name="live-test-loop", daemon=True)
    runner.start()
    yield loop
    connections.settings["default"]["CONN_MAX_AGE"] = kept
    # the consumers' database connection lives in asgiref's thread for sync code: close it
    on_loop(loop, sync_to_async(connections.close_all)())
    loop.call_soon_threadsafe(loop.stop)
    runner.join(10)
    loop.close()
    channel_layers.backends.clear()


@pytest.fixture
def sockets(
    loop: asyncio.AbstractEventLoop, transactional_db: None
) -> Iterator[Callable[..., Socket]]:
    opened: list[Socket] = []

    def open_socket(slug: str, session_key: str | None = None) -> Socket:
        socket = Socket(loop, slug, session_key)
        opened.append(socket)
        return socket

    yield open_socket
    for socket in opened:
        socket.close()


def challenge(
    creator: Owner, *, variant: str = "xiangqi", setup: str = "standard", colour: str = "red",
    minutes: int = 5, increment: int = 3,
) -> LiveGame:  # fmt: skip
    options = ChallengeOptions(variant, setup, colour, minutes, increment)
    return live_challenge_create(owner=creator, options=options)


@pytest.fixture
def started(transactional_db: None) -> Callable[..., tuple[LiveGame, str, str]]:
    """A game accepted by a friend: (game, Red's session key, Black's session key)."""

    def make(**options: Any) -> tuple[LiveGame, str, str]:
        red_key, red = visitor_session()
        black_key, black = visitor_session()
        game = challenge(red, colour="red", **options)
        game = live_challenge_accept(slug=game.slug, owner=black)
        return game, red_key, black_key

    return make


def race(requests: list[Any]) -> list[str]:
    """Run ``requests`` at once, each in a thread with its own database connection: what each
    came to ("done", or the refusal's code)."""
    start = threading.Barrier(len(requests))
    outcomes: list[str] = []

    def run(request: Any) -> None:
        try:
            start.wait()
            request()
            outcomes.append("done")
        except LiveRefusal as refusal:
            outcomes.append(refusal.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(request,)) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return sorted(outcomes)
