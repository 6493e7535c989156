"""A live game's first moves against a running site, as `scripts/run --check` makes them: one
visitor makes a challenge (Play a friend), a second opens its link and accepts, both connect to
the game's WebSocket, Red plays a move that both see, a move out of turn is refused,
and a spectator who connects is sent the game as it stands. Exits non-zero, saying which step
failed.

    python scripts/live_check.py http://127.0.0.1:8000/

Uses the site's virtualenv for the WebSocket client (``websockets``, a dependency of the site).
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import sys
import urllib.parse
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect


class Visitor:
    """A browser without a browser: one cookie jar, Django's CSRF token sent back."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def page(self, path: str, form: dict[str, str] | None = None) -> tuple[str, str]:
        """(final address, body) of a GET, or of a form POSTed (redirects followed)."""
        headers = {"Referer": self.base + "/", "Accept-Language": "en"}
        data = None
        if form is not None:
            fields = {**form, "csrfmiddlewaretoken": self.cookie("csrftoken")}
            data = urllib.parse.urlencode(fields).encode()
            headers["X-CSRFToken"] = self.cookie("csrftoken")
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        with self.opener.open(request, timeout=30) as response:
            return response.url, response.read().decode()

    def socket(self, slug: str) -> ClientConnection:
        ws = "ws" + self.base.removeprefix("http")
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        headers = {"Cookie": cookies} if cookies else {}
        return connect(
            f"{ws}/ws/live/{slug}/", origin=self.base, additional_headers=headers, open_timeout=30
        )


def fail(step: str) -> None:
    sys.exit(f"live check: {step}")


def receive(socket: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (others are skipped)."""
    for _ in range(10):
        message = json.loads(socket.recv(timeout=30))
        if message["type"] == kind:
            return dict(message)
    fail(f"no {kind!r} message came")
    return {}


def check(base: str) -> None:
    red, black, spectator = Visitor(base), Visitor(base), Visitor(base)
    red.page("/play/live/")
    url, _body = red.page(
        "/play/live/", {"game": "xiangqi:standard", "colour": "red", "time": "5+3"}
    )
    found = re.search(r"/play/live/([a-z0-9]+)/$", url)
    if not found:
        fail(f"making a challenge led to {url}, not a game's page")
    slug = found.group(1) if found else ""
    black.page(f"/play/live/{slug}/")
    black.page(f"/play/live/{slug}/accept/", {})
    print(f"  a challenge made and accepted: /play/live/{slug}/")

    with red.socket(slug) as red_ws, black.socket(slug) as black_ws:
        first = receive(red_ws, "state")
        if first["you"] != "red" or first["game"]["status"] != "playing":
            fail(f"the challenger was sent {first['you']!r}, {first['game']['status']!r}")
        if receive(black_ws, "state")["you"] != "black":
            fail("the friend who accepted does not play Black")
        red_ws.send(json.dumps({"type": "move", "ply": 0, "move": "h2e2"}))
        for who, socket in (("Red", red_ws), ("Black", black_ws)):
            state = receive(socket, "state")["game"]
            if state["ply"] != 1 or state["moves"][0]["iccs"] != "h2e2":
                fail(f"{who} was not sent Red's move")
        red_ws.send(json.dumps({"type": "move", "ply": 1, "move": "b0c2"}))
        refused = receive(red_ws, "error")
        if refused["code"] != "not_your_turn":
            fail(f"a move out of turn was answered {refused}")
        print(
            "  Red's move reached both players over the WebSocket; a move out of turn was refused"
        )
        with spectator.socket(slug) as watching:
            seen = receive(watching, "state")
            if seen["you"] is not None or seen["game"]["ply"] != 1:
                fail(f"a spectator was sent {seen['you']!r} at ply {seen['game']['ply']}")
        print("  a spectator was sent the game as it stands")


if __name__ == "__main__":
    check(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/")
