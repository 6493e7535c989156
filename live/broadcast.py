"""Telling everyone watching a live game that it changed: one message to the game's group on
the channel layer, which each connection (live.consumers) turns into the state it sends; and
everyone in the lobby that its seeks changed, or that a game of theirs has begun.

From synchronous code (a page view, a task) an announcement comes after the change is in the
database, and it is a courtesy to the pages open: when the channel layer cannot be reached
(Redis stopped) the failure is logged and the caller goes on, the change standing. The pages
lose their sockets then too, and each is sent the game as it stands when it reconnects (or is
reloaded)."""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from redis.exceptions import RedisError

from live.models import LiveGame
from live.selectors import live_game_state, live_lobby_seeks, own_half, rematch_possible

# The lobby's group on the channel layer: every open lobby page.
LOBBY_GROUP = "live-lobby"
# What the channel layer raises when it cannot be reached (Redis stopped, its connection cut).
LAYER_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)

logger = logging.getLogger(__name__)


def group_name(slug: str) -> str:
    return f"live-{slug}"


def game_event(game: LiveGame) -> dict[str, Any]:
    """The group message for ``game``'s new state, encoded once as JSON text (the layer copies
    a text for each connection at no cost, and no connection encodes it again); it also
    carries who holds each seat and, while the game is being set up, each secret half handed in
    (neither is sent on as such: each connection adds its own player's half to its own message,
    ``live.consumers``), so that each connection knows its own without a query; and whether a
    rematch may be offered (``rematch_possible``), which each connection passes on to a
    player's page alone (``rematch_allowed``: a spectator is not told that a pair cannot
    meet)."""
    seats = {
        side: {
            "user": getattr(game, f"{side}_user_id"),
            "visitor": getattr(game, f"{side}_visitor"),
        }
        for side in ("red", "black")
    }
    shown = live_game_state(game)
    state = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
    halves = {side: own_half(game, side) for side in ("red", "black")}
    # the seats shown as left: an open page of that player answers by refreshing its seat
    away = sorted(shown["away"])
    return {
        "type": "game.state",
        "state": state,
        "seats": seats,
        "halves": halves,
        "away": away,
        "rematch_allowed": rematch_possible(game),
    }


def _group_send(group: str, event: dict[str, Any], what: str) -> bool:
    """Send ``event`` to ``group`` from synchronous code; False (and the failure logged) when
    the channel layer cannot be reached."""
    try:
        async_to_sync(get_channel_layer().group_send)(group, event)
    except LAYER_ERRORS as error:
        logger.warning("%s not announced: the channel layer cannot be reached (%r)", what, error)
        return False
    return True


def live_game_announce(game: LiveGame) -> bool:
    """Send ``game``'s new state to its group, from synchronous code (a page view, a task),
    once the change is in the database. Returns whether it was sent: when the channel layer
    cannot be reached the failure is logged and nothing else happens (the pages catch up
    when their sockets reconnect)."""
    return _group_send(group_name(game.slug), game_event(game), f"live game {game.slug}")


def _seat_keys(game: LiveGame) -> list[dict[str, Any]]:
    return [
        {"user": getattr(game, f"{side}_user_id"), "visitor": getattr(game, f"{side}_visitor")}
        for side in ("red", "black")
    ]


def lobby_event() -> dict[str, Any]:
    """The lobby's message: its open seeks now (``live_lobby_seeks``), encoded once as JSON
    text without their owners, and each seek's owner apart (each connection marks its own:
    ``live.consumers``; no client is told who else is behind a seek)."""
    seeks = live_lobby_seeks()
    owners = {seek["slug"]: seek.pop("owner") for seek in seeks}
    text = json.dumps(seeks, ensure_ascii=False, separators=(",", ":"))
    return {"type": "lobby.seeks", "seeks": text, "owners": owners}


def lobby_started_event(game: LiveGame) -> dict[str, Any]:
    """The lobby's message that ``game`` has begun: its two players' pages go to it."""
    return {"type": "lobby.started", "slug": game.slug, "players": _seat_keys(game)}


def live_lobby_announce(game: LiveGame | None = None) -> bool:
    """Tell the lobby, from synchronous code (a page view), that its seeks changed and, with
    ``game``, that ``game`` has begun (a challenge accepted closes its players' seeks).
    Returns whether it was told: as ``live_game_announce``, a channel layer that cannot be
    reached is logged, and the lobby's pages read the list again when they reconnect."""
    if game is not None and not _group_send(
        LOBBY_GROUP, lobby_started_event(game), f"live game {game.slug} begun"
    ):
        return False
    return _group_send(LOBBY_GROUP, lobby_event(), "the lobby's seeks")
