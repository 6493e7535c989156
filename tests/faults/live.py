"""Live games against the site's real processes, for the fault tests: two visitors make and
accept a challenge over HTTP, and play over the game's WebSocket with the ``websockets``
client, answering the server's probes as a page does; or from a process of their own
(``RemoteSocket``, ``python -m tests.faults.live_client``) that a test can freeze."""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from scripts.live_check import Visitor
from tests.faults.servers import ROOT


def new_game(base: str, minutes: int = 5, increment: int = 3) -> tuple[str, Visitor, Visitor]:
    """A challenge made by one visitor (Red) and accepted by another (Black): its link."""
    red, black = Visitor(base), Visitor(base)
    red.page("/play/live/")
    url, _body = red.page(
        "/play/live/",
        {"game": "xiangqi:standard", "colour": "red", "time": f"{minutes}+{increment}"},
    )
    found = re.search(r"/play/live/([a-z0-9]+)/$", url)
    assert found, url
    slug = found.group(1)
    black.page(f"/play/live/{slug}/")
    black.page(f"/play/live/{slug}/accept/", {})
    return slug, red, black


def cookies(visitor: Visitor) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in visitor.jar)


def lobby_socket(visitor: Visitor) -> ClientConnection:
    """The lobby's WebSocket of ``visitor``'s lobby page."""
    ws = "ws" + visitor.base.removeprefix("http")
    return connect(
        f"{ws}/ws/live/lobby/", origin=visitor.base,
        additional_headers={"Cookie": cookies(visitor)}, open_timeout=30,
    )  # fmt: skip


def receive(ws: ClientConnection, timeout: float = 30) -> dict[str, Any]:
    """The next message but probes, which are answered at once (as the page answers them)."""
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        if message["type"] != "probe":
            return dict(message)
        ws.send(json.dumps({"type": "probe", "id": message["id"]}))


def state(ws: ClientConnection, timeout: float = 30) -> dict[str, Any]:
    message = receive(ws, timeout)
    assert message["type"] == "state", message
    return dict(message["game"])


def state_at(ws: ClientConnection, ply: int, timeout: float = 30) -> dict[str, Any]:
    """The first state at ``ply`` or later, the states before it passed over (a player's
    presence changing sends everyone the game as it stands)."""
    deadline = time.monotonic() + timeout
    while True:
        found = state(ws, max(0.1, deadline - time.monotonic()))
        if found["ply"] >= ply:
            return found


def move(ws: ClientConnection, ply: int, iccs: str) -> None:
    ws.send(json.dumps({"type": "move", "ply": ply, "move": iccs}))


def connect_when_possible(visitor: Visitor, slug: str, seconds: float) -> ClientConnection:
    """Connect as the page does when its socket is lost: again and again (every half second)
    until the site takes the connection and sends the state; the socket is returned with
    that first state read (``first``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            ws = visitor.socket(slug).__enter__()  # the caller closes it (with, or ExitStack)
            ws.first = state(ws)  # type: ignore[attr-defined]
            return ws
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


class RemoteSocket:
    """A player's WebSocket held by a process of its own (``tests.faults.live_client``): the
    test sends it messages on its standard input and reads what it receives on its output.
    Freezing the process (SIGSTOP) freezes the connection: nothing is read or answered,
    protocol pings included, while the connection itself stays open."""

    def __init__(self, base: str, slug: str, visitor: Visitor, log: Path) -> None:
        self.log = log.open("w")
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "tests.faults.live_client", base, slug, cookies(visitor)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True,
        )  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.port = int(self.next("connected", 60)["port"])

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line)

    def next(self, kind: str, timeout: float = 30) -> dict[str, Any]:
        """The next message of ``kind`` the process received (others are passed over)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            message = json.loads(line)
            if message["type"] == kind:
                return dict(message)

    def state_at(self, ply: int, timeout: float = 30) -> dict[str, Any]:
        """The game as received once it reached ``ply`` (the states before passed over)."""
        while True:
            game = self.next("state", timeout)["game"]
            if game["ply"] >= ply:
                return dict(game)

    def send(self, message: dict[str, Any]) -> None:
        assert self.popen.stdin is not None
        self.popen.stdin.write(json.dumps(message) + "\n")
        self.popen.stdin.flush()

    def stop(self) -> None:
        self.popen.kill()
        self.popen.wait(10)
        self.log.close()


def tcp_state(local_port: int) -> str | None:
    """The state of this machine's TCP connection from ``local_port`` (``/proc/net/tcp``):
    "ESTABLISHED", "CLOSE_WAIT" (the other end has closed it), … or None (none)."""
    names = {"01": "ESTABLISHED", "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT"}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == local_port:
            return names.get(fields[3], fields[3])
    return None
