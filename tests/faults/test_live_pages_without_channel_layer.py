"""The pages that change a live game and then tell its open pages over the channel layer
(accepting a challenge, blocking the opponent of a finished game) while the channel layer (a
private Redis) is down: the change stands and the page answers as usual, the failure is logged
(no traceback), and the players' pages catch up when their sockets reconnect.

The site is served as deployed (gunicorn, uvicorn workers, ``CHANNEL_LAYER_URL`` on the test's
own Redis, which is stopped and started again; the machine's Redis is never touched).
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection

from scripts.live_check import Visitor
from tests.faults.live import receive, state
from tests.faults.servers import PrivatePostgres, PrivateRedis, Site

pytestmark = pytest.mark.faults

NOT_ANNOUNCED = "not announced: the channel layer cannot be reached"


def challenge(creator: Visitor) -> str:
    """A casual traditional game challenged by ``creator`` (Red): its link's slug."""
    creator.page("/play/live/")
    url, _body = creator.page(
        "/play/live/", {"game": "xiangqi:standard", "colour": "red", "time": "5+3"}
    )
    found = re.search(r"/play/live/([a-z0-9]+)/$", url)
    assert found, url
    return found.group(1)


def signed_in(base: str, name: str, password: str) -> Visitor:
    player = Visitor(base)
    player.page("/accounts/login/")
    player.page("/accounts/login/", {"username": name, "password": password})
    assert player.cookie("sessionid"), f"{name} is not signed in"
    return player


def first_message(player: Visitor, slug: str, seconds: float) -> tuple[ClientConnection, Any]:
    """Connect as the page does once its socket was lost, again every half second until the
    site takes it: the socket and the first message it is sent (the state)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            ws = player.socket(slug).__enter__()  # the caller closes it
            return ws, receive(ws)
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_accepting_and_blocking_stand_and_answer_while_the_channel_layer_is_down(
    live_site: Site,
    fault_redis: PrivateRedis,
    fault_postgres: PrivatePostgres,
    fault_database: dict[str, Any],
) -> None:
    _process, base = live_site.asgi_web()

    def row(sql: str) -> tuple[Any, ...]:
        [found] = fault_postgres.execute(sql, database=fault_database["name"])
        return found

    # A challenge between two visitors, its creator's page open on it, waiting
    red, black = Visitor(base), Visitor(base)
    waiting = challenge(red)
    black.page(f"/play/live/{waiting}/")
    sockets = contextlib.ExitStack()
    red_page = sockets.enter_context(red.socket(waiting))
    assert state(red_page)["status"] == "waiting"
    # A game between two accounts, over (its loser resigned), the loser's page open on it
    password = fault_database["password"]
    ming, hua = (signed_in(base, name, password) for name in fault_database["users"][-2:])
    over = challenge(ming)
    hua.page(f"/play/live/{over}/accept/", {})
    with ming.socket(over) as ws:
        assert state(ws)["status"] == "playing"
        ws.send('{"type": "resign"}')
        assert state(ws)["status"] == "finished"
    hua_page = sockets.enter_context(hua.socket(over))
    assert receive(hua_page)["rematch_allowed"] is True

    fault_redis.stop()
    began = time.monotonic()
    url, _body = black.page(f"/play/live/{waiting}/accept/", {})  # a 500 would raise here
    accept_seconds = time.monotonic() - began
    assert url.endswith(f"/play/live/{waiting}/")
    began = time.monotonic()
    url, body = ming.page(f"/play/live/{over}/block/", {})
    block_seconds = time.monotonic() - began
    assert url.endswith(f"/play/live/{over}/") and 'data-testid="live-blocked"' in body
    print(f"during the outage: accept {accept_seconds:.3f} s, block {block_seconds:.3f} s")
    # the changes stand
    accepted = (
        f"SELECT status, black_visitor IS NOT NULL FROM live_livegame WHERE slug = '{waiting}'"
    )
    assert row(accepted) == ("playing", True)
    assert row(
        "SELECT count(*) FROM live_liveblock b JOIN live_livegame g ON g.slug = "
        f"'{over}' AND b.blocker_id = g.red_user_id AND b.blocked_id = g.black_user_id"
    ) == (1,)
    # the open pages lose their sockets ("try again later"), as in any outage
    for ws in (red_page, hua_page):
        with contextlib.suppress(ConnectionClosed):
            while True:
                receive(ws, timeout=30)
        assert ws.close_code == 1013, ws.close_code
    sockets.close()
    logged = live_site.output()
    for slug in (waiting, over):
        assert f"live game {slug} {NOT_ANNOUNCED}" in logged, logged

    # Redis back: each page, reconnecting, is sent the game as it now stands
    fault_redis.start()
    red_page, message = first_message(red, waiting, 60)
    with red_page:
        assert (message["you"], message["game"]["status"]) == ("red", "playing")
    hua_page, message = first_message(hua, over, 60)
    with hua_page:
        assert message["you"] == "black" and message["rematch_allowed"] is False
    # the session database is shared by the fault tests: the pair may meet again after this one
    (hua_id,) = row(f"SELECT black_user_id FROM live_livegame WHERE slug = '{over}'")
    ming.page(f"/play/live/blocks/{hua_id}/unblock/", {})
    assert row("SELECT count(*) FROM live_liveblock") == (0,)
    assert "Traceback" not in live_site.output(), live_site.output()
