"""Telling everyone watching a live game that it changed: one message to the game's group on
the channel layer, which each connection (live.consumers) turns into the state it sends."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from live.models import LiveGame
from live.selectors import live_game_state, own_half


def group_name(slug: str) -> str:
    return f"live-{slug}"


def game_event(game: LiveGame) -> dict[str, Any]:
    """The group message for ``game``'s new state, encoded once as JSON text (the layer copies
    a text for each connection at no cost, and no connection encodes it again); it also
    carries who holds each seat and, while the game is being set up, each secret half handed in
    (neither is sent on as such: each connection adds its own player's half to its own message,
    ``live.consumers``), so that each connection knows its own without a query."""
    seats = {
        side: {
            "user": getattr(game, f"{side}_user_id"),
            "visitor": getattr(game, f"{side}_visitor"),
        }
        for side in ("red", "black")
    }
    state = json.dumps(live_game_state(game), ensure_ascii=False, separators=(",", ":"))
    halves = {side: own_half(game, side) for side in ("red", "black")}
    return {"type": "game.state", "state": state, "seats": seats, "halves": halves}


def live_game_announce(game: LiveGame) -> None:
    """Send ``game``'s new state to its group, from synchronous code (a page view)."""
    async_to_sync(get_channel_layer().group_send)(group_name(game.slug), game_event(game))
