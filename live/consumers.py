"""The WebSocket of a live game, ``/ws/live/<slug>/``: players send moves and requests,
everyone connected (players in any number of tabs, spectators) is sent the game's state.

On connect the client is sent the whole state, so a reload or a reconnect goes on where the
game stood. A message is read by ``live.protocol``, carried out by one service (``live.services``),
and the new state is sent to everyone watching the game (a channel-layer group); a refusal goes
back to the sender alone as ``{"type": "error", "code", "message": {zh, en}}`` followed by the
state as it stands, and changes nothing. Every message first looks at the clock. A connection
sends at most ``THROTTLE_RATES["live_messages"]`` messages (live.budget); past it each is
refused.

The consumer is asynchronous: the many idle connections of open games cost no thread, and the
database work of each message (one service and the state it answers with) runs in a thread of
the pool (``thread_sensitive=False``), so that messages for different games are judged side by
side; messages for one game wait for each other on the game's row lock.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import Any, TypeVar

from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.owners import Owner
from accounts.visitors import VISITOR_SESSION_KEY
from core.throttles import throttle_rate
from live import services
from live.broadcast import game_event, group_name
from live.budget import MessageBudget
from live.models import LiveGame
from live.protocol import Command, ProtocolError, parse_message
from live.selectors import live_game_get, live_game_state, own_half, seat_of
from live.services import LiveRefusal
from live.texts import refusal_text

# WebSocket close code for a game that does not exist (4000-4999: the application's own)
CLOSE_NOT_FOUND = 4404

Result = TypeVar("Result")


async def in_pool(function: Callable[[], Result]) -> Result:
    """Run ``function`` (database work) in a thread of the pool, its connection closed after."""
    return await DatabaseSyncToAsync(function, thread_sensitive=False)()


class LiveGameConsumer(AsyncJsonWebsocketConsumer):
    slug: str
    owner: Owner | None
    budget: MessageBudget

    async def connect(self) -> None:
        self.slug = str(self.scope["url_route"]["kwargs"]["slug"])
        rate = throttle_rate("live_messages")
        self.budget = MessageBudget(rate.count, rate.seconds) if rate else MessageBudget(10**9, 1)
        self.owner = await in_pool(self._owner)
        first = await in_pool(self._first_look)
        if first is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self.channel_layer.group_add(group_name(self.slug), self.channel_name)
        event, flagged = first
        if flagged:
            await self.channel_layer.group_send(group_name(self.slug), event)
        else:
            await self.game_state(event)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "slug", None):
            await self.channel_layer.group_discard(group_name(self.slug), self.channel_name)

    def _owner(self) -> Owner | None:
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            return Owner(user=user)
        session = self.scope.get("session")
        visitor = session.get(VISITOR_SESSION_KEY) if session is not None else None
        return Owner(visitor_id=visitor) if visitor else None

    def _first_look(self) -> tuple[dict[str, Any], bool] | None:
        """The game's state event after a look at its clock (None: no such game)."""
        if live_game_get(self.slug) is None:
            return None
        game, flagged = services.live_clock_check(slug=self.slug)
        return game_event(game), flagged

    # -- from the client -------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        wait = self.budget.spend(time.monotonic())
        if wait is not None:
            await self._refuse("too_many_messages", {"seconds": max(1, math.ceil(wait))})
            return
        try:
            command = parse_message(text_data if text_data is not None else bytes_data)
        except ProtocolError as error:
            await self._refuse(error.code, error.params)
            return
        try:
            event = await in_pool(lambda: game_event(self._carry_out(command)))
        except LiveRefusal as refusal:
            extra = refusal.extra
            await self._refuse(
                extra["code"], message=extra["message"], violations=extra.get("violations")
            )
            return
        await self.channel_layer.group_send(group_name(self.slug), event)

    def _carry_out(self, command: Command) -> LiveGame:
        owner, slug = self.owner, self.slug
        if command.type == "move":
            assert command.ply is not None and command.move is not None
            return services.live_move_play(
                slug=slug, owner=owner, ply=command.ply, move=command.move
            )
        if command.type == "resign":
            return services.live_resign(slug=slug, owner=owner)
        if command.type == "abort":
            return services.live_abort(slug=slug, owner=owner)
        if command.type == "draw":
            assert command.action is not None
            return services.live_draw(slug=slug, owner=owner, action=command.action)
        if command.type == "rematch":
            assert command.action is not None
            return services.live_rematch(slug=slug, owner=owner, action=command.action)
        if command.type == "flag":
            return services.live_flag_claim(slug=slug, owner=owner)
        if command.type == "setup":
            assert command.placement is not None
            return services.live_setup_submit(slug=slug, owner=owner, placement=command.placement)
        game, _flagged = services.live_clock_check(slug=slug)  # "state"
        return game

    async def _refuse(
        self,
        code: str,
        params: dict[str, object] | None = None,
        *,
        message: dict[str, str] | None = None,
        violations: list[dict[str, Any]] | None = None,
    ) -> None:
        said = message or refusal_text(code, params).as_dict()
        error: dict[str, Any] = {"type": "error", "code": code, "message": said}
        if violations is not None:  # a secret half's faults, each at its point
            error["violations"] = violations
        await self.send_json(error)
        current = await in_pool(self._current)
        if current is not None:
            await self._send_state(*current)

    def _current(self) -> tuple[dict[str, Any], str | None, dict[str, str] | None] | None:
        game = live_game_get(self.slug)
        if game is None:
            return None
        seat = seat_of(game, self.owner)
        return live_game_state(game), seat, own_half(game, seat)

    # -- to the clients --------------------------------------------------------------------

    async def game_state(self, event: dict[str, Any]) -> None:
        """A change of the game, sent to the group (live.broadcast): the state (JSON text,
        encoded once for every connection) with my seat and, while the game is being set up,
        my own secret half if I have handed it in (the other half is never sent)."""
        seat = self._seat(event["seats"])
        half = event.get("halves", {}).get(seat) if seat is not None else None
        you, mine = json.dumps(seat), json.dumps(half)
        await self.send(
            text_data=f'{{"type":"state","you":{you},"half":{mine},"game":{event["state"]}}}'
        )

    def _seat(self, seats: dict[str, dict[str, Any]]) -> str | None:
        owner = self.owner
        if owner is None:
            return None
        for side, seat in seats.items():
            if owner.user is not None and seat["user"] == owner.user.pk:
                return side
            if owner.user is None and seat["user"] is None and seat["visitor"] == owner.visitor_id:
                return side
        return None

    async def _send_state(
        self, state: dict[str, Any], seat: str | None, half: dict[str, str] | None
    ) -> None:
        await self.send_json({"type": "state", "game": state, "you": seat, "half": half})
