"""The live benchmark's peer: the least a live-game server can do, as an ASGI application.

    uvicorn bench.live_floor:app        (bench/live_bench.py starts it; ``LIVE_FLOOR_SIZES``)

It speaks the site's live-game WebSocket to the benchmark's bots, and nothing else: no
Django, no database, no rules, no clocks, no channel layer. On a connection it sends the
game's state; on a move it makes the next state and sends it, encoded once, to every
connection of that game (the players and the spectators), as the site's broadcast does. Its
states have the size the site's had at the same ply in the same benchmark run
(``LIVE_FLOOR_SIZES``: a JSON list, index = ply), so both move the same bytes.

Run by the same uvicorn on the same cores against the same bots, it gives the round trip that
the machine, the ASGI server and the clients cost on their own: the site's figures divided by
this one's say what the site's own work adds.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

# a position's legal moves as the site sends them (the start position's 44)
LEGAL = [
    f"{a}{b}" for a in ("a0", "b0", "b2", "c0", "c3", "e3", "g0", "g3", "h0", "h2", "i0")
    for b in ("a1", "a2", "b1", "c2", "c4", "d1")
][:44]  # fmt: skip
SIZES: list[int] = json.loads(os.environ.get("LIVE_FLOOR_SIZES", "[]")) or [2000]

games: dict[str, dict[str, Any]] = defaultdict(lambda: {"ply": 0, "sends": []})


def state_text(ply: int) -> str:
    """The state at ``ply``, padded to the size the site's state had there."""
    state: dict[str, Any] = {
        "ply": ply,
        "status": "playing",
        "turn": "red" if ply % 2 == 0 else "black",
        "legal_moves": LEGAL,
        "pad": "",
    }
    text = json.dumps({"type": "state", "you": None, "half": None, "game": state})
    want = SIZES[min(ply, len(SIZES) - 1)]
    if len(text) < want:
        state["pad"] = "x" * (want - len(text))
        text = json.dumps({"type": "state", "you": None, "half": None, "game": state})
    return text


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http":  # the benchmark's health check
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if scope["type"] != "websocket":
        return
    slug = scope["path"].rstrip("/").rsplit("/", 1)[-1]
    game = games[slug]
    while True:
        event = await receive()
        if event["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            game["sends"].append(send)
            await send({"type": "websocket.send", "text": state_text(game["ply"])})
        elif event["type"] == "websocket.receive":
            message = json.loads(event.get("text") or "{}")
            if message.get("type") == "move" and message.get("ply") == game["ply"]:
                game["ply"] += 1
                text = state_text(game["ply"])
                for other in list(game["sends"]):
                    await other({"type": "websocket.send", "text": text})
        elif event["type"] == "websocket.disconnect":
            if send in game["sends"]:
                game["sends"].remove(send)
            return
