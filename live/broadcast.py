"""Telling everyone watching a live game that it changed: one message to the game's group on
the channel layer, which each connection (live.consumers) turns into the state it sends."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from live.models import LiveGame
from live.selectors import live_game_state


def group_name(slug: str) -> str:
    return f"live-{slug}"


def live_game_announce(game: LiveGame) -> None:
    """Send ``game``'s new state to its group; the event also carries who holds each seat
    (never sent on to a client), so that each connection knows its own without a query."""
    seats = {
        side: {
            "user": getattr(game, f"{side}_user_id"),
            "visitor": getattr(game, f"{side}_visitor"),
        }
        for side in ("red", "black")
    }
    layer = get_channel_layer()
    async_to_sync(layer.group_send)(
        group_name(game.slug),
        {"type": "game.state", "state": live_game_state(game), "seats": seats},
    )
