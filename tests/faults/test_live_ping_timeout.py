"""A live game's player whose connection stops answering: the server's WebSocket pings go
unanswered, and the server drops the connection within the ping's timeout.

The site runs as ``scripts/run`` runs it (gunicorn, uvicorn workers of ``config.web_worker``),
with pings every second and a second to answer (``WS_PING_INTERVAL``, ``WS_PING_TIMEOUT``).
Red plays from a process of its own, which the test freezes (SIGSTOP) on Black's turn: its TCP
connection stays open but nothing on it answers, protocol pings included, as with a machine
gone to sleep. The server closes it (the frozen side's kernel sees the close: CLOSE_WAIT) within
the interval and the timeout; meanwhile Black is answered as ever, moves, and its clock is
charged its own thinking only; Red reconnects from a new process and the game goes on where it
stood, Red's clock having run from Black's move only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

import pytest

from tests.faults.live import RemoteSocket, move, new_game, state, state_at, tcp_state
from tests.faults.servers import Site, wait_until

pytestmark = pytest.mark.faults

PING_INTERVAL, PING_TIMEOUT = 1, 1


def test_a_client_that_answers_no_ping_is_dropped_and_its_opponent_plays_on(
    live_site: Site,
) -> None:
    _web, url = live_site.asgi_web(
        WS_PING_INTERVAL=str(PING_INTERVAL), WS_PING_TIMEOUT=str(PING_TIMEOUT)
    )
    slug, red_visitor, black_visitor = new_game(url, minutes=5, increment=3)
    with contextlib.ExitStack() as stack:
        red = RemoteSocket(url, slug, red_visitor, live_site.logs / "red-1.log")
        stack.callback(red.stop)
        black = stack.enter_context(black_visitor.socket(slug))
        assert red.next("state")["you"] == "red" and state(black)["ply"] == 0
        for ply, iccs in enumerate(("h2e2", "h9g7", "h0g2")):
            red_sent = time.monotonic()  # ply 2: before Black's turn begins
            if ply % 2 == 0:
                red.send({"type": "move", "ply": ply, "move": iccs})
            else:
                move(black, ply, iccs)
            assert state(black)["ply"] == ply + 1
            assert red.state_at(ply + 1)["turn"] == ("black" if ply % 2 == 0 else "red")
        time.sleep(PING_INTERVAL * 2)  # a few pings answered: the connection is healthy
        assert tcp_state(red.port) == "ESTABLISHED"

        os.kill(red.popen.pid, signal.SIGSTOP)
        frozen = time.monotonic()
        black.send('{"type": "state"}')  # Black is answered while Red's connection hangs
        seen = state(black)
        assert (seen["ply"], seen["clock"]["running"]) == (3, "black")
        red_ms = seen["clock"]["red_ms"]
        wait_until(
            lambda: tcp_state(red.port) != "ESTABLISHED",
            PING_INTERVAL + PING_TIMEOUT + 5,
            "the server to drop the connection that answers no ping",
        )
        assert tcp_state(red.port) in ("CLOSE_WAIT", None)
        dropped = time.monotonic() - frozen

        black_sent = time.monotonic()
        move(black, 3, "b9c7")
        after = state_at(black, 4)  # (Red's seat shown away may come first)
        black_thought = time.monotonic() - red_sent
        assert after["ply"] == 4 and after["clock"]["running"] == "red"
        assert after["clock"]["red_ms"] <= red_ms  # Red's runs now, from Black's move
        # Black is charged its own turn only (less at most the lag allowance), then gets 3 s
        black_ms = after["clock"]["black_ms"]
        assert 300_000 + 3_000 - int(black_thought * 1000) <= black_ms
        assert black_ms <= 300_000 + 3_000 - int((black_sent - frozen) * 1000) + 500

        os.kill(red.popen.pid, signal.SIGKILL)
        red.stop()
        back = RemoteSocket(url, slug, red_visitor, live_site.logs / "red-2.log")
        stack.callback(back.stop)
        where = back.next("state")
        assert (where["you"], where["game"]["ply"], where["game"]["turn"]) == ("red", 4, "red")
        assert where["game"]["clock"]["black_ms"] == black_ms
        assert [m["iccs"] for m in where["game"]["moves"]] == ["h2e2", "h9g7", "h0g2", "b9c7"]
        back.send({"type": "move", "ply": 4, "move": "b0c2"})
        assert state_at(black, 5)["ply"] == back.state_at(5)["ply"] == 5
    assert dropped <= PING_INTERVAL + PING_TIMEOUT + 5
    assert "Traceback" not in live_site.output(), live_site.output()
