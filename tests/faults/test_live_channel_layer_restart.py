"""The channel layer (Redis) stopped for ten seconds in the middle of a live game.

Two web processes serve the site as deployed (gunicorn, uvicorn workers, ``CHANNEL_LAYER_URL``
on a private Redis), Red's WebSocket on one and Black's on the other, so every move crosses
Redis; Red's lobby page is open too. Mid-game, on Black's turn, Redis stops (every socket, the
lobby's too, is closed with "try again later"); Black tries to move while it is down; Redis comes
back (empty, as a restarted server is). The move is either played and shown to both or
refused clearly, never lost silently nor played twice; both players reconnect as the page does
and play on; and the clocks are right: Black's (the side to move) ran through the outage, Red's
did not move.
"""

from __future__ import annotations

import contextlib
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.faults.live import (
    connect_when_possible,
    lobby_socket,
    move,
    new_game,
    receive,
    state,
)
from tests.faults.servers import PrivateRedis, Site

pytestmark = pytest.mark.faults

OUTAGE_SECONDS = 10


def test_a_live_game_goes_on_after_the_channel_layer_is_stopped_for_ten_seconds(
    live_site: Site, fault_redis: PrivateRedis
) -> None:
    _first, red_url = live_site.asgi_web()
    _second, black_url = live_site.asgi_web()
    slug, red_visitor, black_visitor = new_game(red_url, minutes=5, increment=3)
    black_visitor.base = black_url  # Black's page, socket and all, on the other process
    sockets = contextlib.ExitStack()
    red = sockets.enter_context(red_visitor.socket(slug))
    black = sockets.enter_context(black_visitor.socket(slug))
    lobby = sockets.enter_context(lobby_socket(red_visitor))  # Red's lobby page, left open
    assert receive(lobby)["type"] == "seeks"
    assert state(red)["turn"] == state(black)["turn"] == "red"
    for ply, (mover, iccs) in enumerate(((red, "h2e2"), (black, "h9g7"), (red, "h0g2"))):
        move(mover, ply, iccs)
        seen = state(red), state(black)
        assert seen[0]["ply"] == seen[1]["ply"] == ply + 1
    clock = seen[1]["clock"]
    red_ms = clock["red_ms"]  # Red's time after its move: it must not change until Black moves
    assert clock["running"] == "black"

    fault_redis.stop()
    stopped = time.monotonic()
    # Black moves while Redis is down, on its socket if it is still open; then both sockets are
    # read to their end: each is sent the game as it stands and closed, "try again later"
    with contextlib.suppress(ConnectionClosed):
        move(black, 3, "b9c7")
    plies = []
    for ws in (red, black, lobby):
        with contextlib.suppress(ConnectionClosed):
            while True:
                message = receive(ws, timeout=OUTAGE_SECONDS)
                assert message["type"] in ("state", "error", "seeks"), message
                if message["type"] == "state":
                    plies.append(message["game"]["ply"])
        assert ws.close_code == 1013, ws.close_code
    outcome = "played" if 4 in plies else "refused"
    closes = []
    while time.monotonic() - stopped < OUTAGE_SECONDS - 1:
        # the page reconnecting while Redis is down: sent the game as it stands, then closed
        # with "try again later"; a move on it is never played
        try:
            with black_visitor.socket(slug) as again:
                assert state(again)["ply"] == (4 if outcome == "played" else 3)
                with contextlib.suppress(ConnectionClosed):
                    move(again, 3, "b9c7")
                    receive(again, timeout=OUTAGE_SECONDS)
                closes.append(again.close_code)
        except (ConnectionClosed, InvalidHandshake) as error:
            closes.append(str(error))
        time.sleep(1)
    assert closes and set(closes) == {1013}, closes
    time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped)))
    fault_redis.start()
    outage = time.monotonic() - stopped

    sockets.close()
    red = sockets.enter_context(connect_when_possible(red_visitor, slug, 60))
    black = sockets.enter_context(connect_when_possible(black_visitor, slug, 60))
    now_red, now_black = red.first, black.first  # type: ignore[attr-defined]
    assert now_red["ply"] == now_black["ply"] == (4 if outcome == "played" else 3)
    assert now_red["status"] == "playing"
    if outcome == "played":  # Black's move came through: Red's clock runs from its receipt
        assert now_red["clock"]["running"] == "red" and now_red["clock"]["red_ms"] <= red_ms
    else:
        assert now_red["clock"]["red_ms"] == red_ms  # Red's clock stood still through it all
    if outcome == "refused":
        # Black's clock ran through the outage, as the side to move's does
        assert now_black["clock"]["running"] == "black"
        assert now_black["clock"]["black_ms"] <= 300_000 - int(outage * 1000)
        move(black, 3, "b9c7")
        assert state(red)["ply"] == state(black)["ply"] == 4
    # the game goes on, every move once, across both processes
    move(red, 4, "b0c2")
    after = state(red), state(black)
    assert after[0]["ply"] == after[1]["ply"] == 5
    assert [m["iccs"] for m in after[1]["moves"]] == ["h2e2", "h9g7", "h0g2", "b9c7", "b0c2"]
    sockets.close()
    assert "Traceback" not in live_site.output(), live_site.output()
