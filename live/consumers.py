"""The WebSocket of a live game, ``/ws/live/<slug>/``: players send moves and requests,
everyone connected (players in any number of tabs, spectators) is sent the game's state. And
the lobby's, ``/ws/live/lobby/`` (``LiveLobbyConsumer``): open seeks made, cancelled and
accepted, the list sent to every lobby page after each change.

On connect the client is sent the whole state, so a reload or a reconnect goes on where the
game stood. A message is read by ``live.protocol``, carried out by one service (``live.services``),
and the new state is sent to everyone watching the game (a channel-layer group); a refusal goes
back to the sender alone as ``{"type": "error", "code", "message": {zh, en}}`` followed by the
state as it stands, and changes nothing. Every message first looks at the clock. A connection
sends at most ``THROTTLE_RATES["live_messages"]`` messages (live.budget); past it each is
refused.

The lag allowance: every ``LIVE_LAG_PROBE_SECONDS`` a player's connection sends its page a probe
(``{"type": "probe", "id"}``, a random id), which the page sends straight back; the server
times the round trip on its own monotonic clock and keeps a smoothed estimate for the
connection (``live.clock.smoothed_rtt``), which a move sent on it is credited back, capped
(``live.services``). Only the answer to the probe outstanding counts (a late, early or made-up
answer is ignored), and it costs no budget: the server sends the probes.

When the channel layer cannot be reached (Redis stopped), a game's connection cannot be told
of the others' moves: it is sent the game as it stands in the database (a move it has just had
played included) and closed with ``CLOSE_TRY_AGAIN`` (1013), and the page reconnects by itself
until the layer is back; a connection opened meanwhile is closed the same way. Nothing is lost:
the game and its clock are in the database.

The consumer is asynchronous: the many idle connections of open games cost no thread, and the
database work of each message (one service and the state it answers with) runs in a thread of
the pool (``thread_sensitive=False``), so that messages for different games are judged side by
side; messages for one game wait for each other on the game's row lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.urls import reverse

from accounts.owners import Owner
from accounts.visitors import VISITOR_SESSION_KEY
from core.throttles import throttle_hit, throttle_rate
from live import services
from live.broadcast import (
    LAYER_ERRORS,
    LOBBY_GROUP,
    game_event,
    group_name,
    lobby_event,
    lobby_started_event,
)
from live.budget import MessageBudget
from live.clock import smoothed_rtt
from live.models import LiveGame
from live.protocol import Command, ProtocolError, parse_lobby_message, parse_message
from live.selectors import (
    blocked_user_ids,
    live_game_get,
    live_game_state,
    own_half,
    presence_counts,
    rematch_possible,
    seat_of,
)
from live.services import ChallengeOptions, LiveRefusal
from live.texts import refusal_text

# WebSocket close code for a game that does not exist (4000-4999: the application's own)
CLOSE_NOT_FOUND = 4404
# WebSocket close code "try again later": the channel layer cannot be reached
CLOSE_TRY_AGAIN = 1013

logger = logging.getLogger(__name__)
# How long the server took over each move, from its receipt to the mover's new state sent on
# the same connection (DEBUG: one line a move; bench/live_bench.py reads them).
timing = logging.getLogger("live.timing")

Result = TypeVar("Result")


async def in_pool(function: Callable[[], Result]) -> Result:
    """Run ``function`` (database work) in a thread of the pool, its connection closed after."""
    return await DatabaseSyncToAsync(function, thread_sensitive=False)()


def scope_owner(scope: dict[str, Any]) -> Owner | None:
    """The connection's player: its account, or its session's visitor (None: neither)."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return Owner(user=user)
    session = scope.get("session")
    visitor = session.get(VISITOR_SESSION_KEY) if session is not None else None
    return Owner(visitor_id=visitor) if visitor else None


def holds(owner: Owner | None, key: dict[str, Any]) -> bool:
    """Whether ``key`` ({"user", "visitor"}: a seat or a seek's creator) is ``owner``'s."""
    if owner is None:
        return False
    if owner.user is not None:
        return bool(key["user"] == owner.user.pk)
    return key["user"] is None and key["visitor"] == owner.visitor_id


def message_budget() -> MessageBudget:
    rate = throttle_rate("live_messages")
    return MessageBudget(rate.count, rate.seconds) if rate else MessageBudget(10**9, 1)


class LiveGameConsumer(AsyncJsonWebsocketConsumer):
    slug: str
    owner: Owner | None
    budget: MessageBudget
    side: str | None = None  # the seat this connection's player holds (None: watching)
    heartbeat: asyncio.Task[None] | None = None
    rtt_ms: int | None = None  # the connection's round trip, smoothed (None: not yet measured)
    probe: tuple[str, float] | None = None  # the probe outstanding: its id, when it was sent
    prober: asyncio.Task[None] | None = None
    opened = False
    move_at: float | None = None  # when this connection's move arrived (live.timing)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        except LAYER_ERRORS as error:
            await self._layer_lost(error)

    async def _layer_lost(self, error: Exception) -> None:
        """The channel layer failed (joining the group, passing a move on, or waiting for the
        group's messages): send the game as it stands, then close, so that the page reconnects
        (and joins the group again) once the layer is back."""
        logger.warning(
            "live game %s: channel layer lost (%r), closing", getattr(self, "slug", "?"), error
        )
        await self._stop_probes()
        if self.heartbeat is not None:  # the seat goes away by itself once no beat refreshes it
            self.heartbeat.cancel()
        with contextlib.suppress(Exception):  # the client may be gone already
            if self.opened:
                current = await in_pool(self._current)
                if current is not None:
                    await self._send_state(*current)
            await self.close(code=CLOSE_TRY_AGAIN)

    async def connect(self) -> None:
        self.slug = str(self.scope["url_route"]["kwargs"]["slug"])
        self.budget = message_budget()
        self.owner = await in_pool(lambda: scope_owner(self.scope))
        first = await in_pool(self._first_look)
        if first is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        self.opened = True
        await self.channel_layer.group_add(group_name(self.slug), self.channel_name)
        event, flagged = first
        if flagged:
            await self.channel_layer.group_send(group_name(self.slug), event)
        else:
            await self.game_state(event)
        self.heartbeat = asyncio.create_task(self._beat())

    def _start_probes(self) -> None:
        """Begin timing round trips, once the connection is a player's (a spectator has no
        clock; a challenger's page is a player's once the friend accepts)."""
        if self.prober is None and settings.LIVE_LAG_PROBE_SECONDS > 0:
            self.prober = asyncio.create_task(self._probes(float(settings.LIVE_LAG_PROBE_SECONDS)))

    async def _probes(self, interval: float) -> None:
        """Time a round trip to the page every ``interval`` seconds (the lag allowance)."""
        while True:
            probe = secrets.token_urlsafe(12)
            self.probe = (probe, time.monotonic())
            await self.send_json({"type": "probe", "id": probe})
            await asyncio.sleep(interval)

    def _probe_answered(self, command: Command) -> bool:
        """Whether ``command`` answers the probe outstanding: then the round trip is measured
        now, on the server's own clock, and the connection's estimate moves toward it."""
        if command.type != "probe" or self.probe is None or command.probe != self.probe[0]:
            return False
        sample = int((time.monotonic() - self.probe[1]) * 1000)
        self.rtt_ms, self.probe = smoothed_rtt(self.rtt_ms, sample), None
        return True

    async def _stop_probes(self) -> None:
        if self.prober is not None:
            self.prober.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.prober

    async def disconnect(self, code: int) -> None:
        await self._stop_probes()
        if getattr(self, "slug", None):
            await self.channel_layer.group_discard(group_name(self.slug), self.channel_name)
            await self._leave()

    def _first_look(self) -> tuple[dict[str, Any], bool] | None:
        """The game's state event after a look at its clock (None: no such game), and whether
        everyone is to be sent it (the clock ended the game, or a player who had left is back)."""
        found = live_game_get(self.slug)
        if found is None:
            return None
        self.side = seat_of(found, self.owner)
        back = self.side is not None and (
            services.live_presence_refresh(slug=self.slug, side=self.side).was_away
        )
        game, flagged = services.live_clock_check(slug=self.slug)
        return game_event(game), flagged or back

    # -- from the client -------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            command: Command | ProtocolError = parse_message(
                text_data if text_data is not None else bytes_data
            )
        except ProtocolError as error:
            command = error
        if isinstance(command, Command) and self._probe_answered(command):
            return
        wait = self.budget.spend(time.monotonic())
        if wait is not None:
            await self._refuse("too_many_messages", {"seconds": max(1, math.ceil(wait))})
            return
        if isinstance(command, ProtocolError):
            await self._refuse(command.code, command.params)
            return
        if command.type == "probe":  # not the probe outstanding (late, or made up): ignored
            return
        if command.type == "move" and timing.isEnabledFor(logging.DEBUG):
            self.move_at = time.perf_counter()
        try:
            event, lobby = await in_pool(lambda: self._events(self._carry_out(command)))
        except LiveRefusal as refusal:
            self.move_at = None
            extra = refusal.extra
            await self._refuse(
                extra["code"], message=extra["message"], violations=extra.get("violations")
            )
            return
        await self.channel_layer.group_send(group_name(self.slug), event)
        if lobby is not None:
            await self.channel_layer.group_send(LOBBY_GROUP, lobby)

    @staticmethod
    def _events(game: LiveGame) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The game's new state and, for a seek called off on its game's page, the lobby's
        new list."""
        called_off = game.seek and game.status == LiveGame.Status.ABORTED and not game.started_at
        return game_event(game), lobby_event() if called_off else None

    def _carry_out(self, command: Command) -> LiveGame:
        owner, slug = self.owner, self.slug
        if command.type == "move":
            assert command.ply is not None and command.move is not None
            return services.live_move_play(
                slug=slug, owner=owner, ply=command.ply, move=command.move, rtt_ms=self.rtt_ms
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
        if command.type == "takeback":
            assert command.action is not None
            return services.live_takeback(slug=slug, owner=owner, action=command.action)
        if command.type == "flag":
            return services.live_flag_claim(slug=slug, owner=owner)
        if command.type == "claim" and command.action == "attack_power":
            return services.live_attack_power_claim(slug=slug, owner=owner)
        if command.type == "claim":
            assert command.action is not None
            return services.live_leave_claim(slug=slug, owner=owner, action=command.action)
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

    def _current(self) -> tuple[dict[str, Any], str | None, dict[str, str] | None, bool] | None:
        game = live_game_get(self.slug)
        if game is None:
            return None
        seat = seat_of(game, self.owner)
        rematch = seat is not None and rematch_possible(game)
        return live_game_state(game), seat, own_half(game, seat), rematch

    # -- to the clients --------------------------------------------------------------------

    async def game_state(self, event: dict[str, Any]) -> None:
        """A change of the game, sent to the group (live.broadcast): the state (JSON text,
        encoded once for every connection) with my seat, while the game is being set up my own
        secret half if I have handed it in (the other half is never sent), and for a player
        whether a rematch may be offered (``rematch_allowed``; null for a spectator)."""
        seat = self._seat(event["seats"])
        self.side = seat
        half = event.get("halves", {}).get(seat) if seat is not None else None
        rematch = bool(event.get("rematch_allowed")) if seat is not None else None
        you, mine, allowed = json.dumps(seat), json.dumps(half), json.dumps(rematch)
        await self.send(
            text_data=f'{{"type":"state","you":{you},"half":{mine},"rematch_allowed":{allowed},'
            f'"game":{event["state"]}}}'
        )
        if self.move_at is not None:
            timing.debug("move %.1f ms", (time.perf_counter() - self.move_at) * 1000)
            self.move_at = None
        if seat is not None:
            self._start_probes()
        if seat is not None and seat in event.get("away", ()):
            await self._present()  # told my seat is away while I am here: I am not

    def _seat(self, seats: dict[str, dict[str, Any]]) -> str | None:
        for side, seat in seats.items():
            if holds(self.owner, seat):
                return side
        return None

    async def _send_state(
        self, state: dict[str, Any], seat: str | None, half: dict[str, str] | None, rematch: bool
    ) -> None:
        await self.send_json(
            {
                "type": "state",
                "game": state,
                "you": seat,
                "half": half,
                "rematch_allowed": rematch if seat is not None else None,
            }
        )

    # -- presence: who is here -------------------------------------------------------------

    async def _beat(self) -> None:
        """While the connection is open, its process refreshes its player's seat every
        ``LIVE_PING_SECONDS`` (a heartbeat kept by the server, not by the page: a hidden tab's
        timers may be slowed, its socket is not). Each beat also looks at the opponent's seat:
        one newly away (its process killed, its network gone) is told to everyone."""
        told = None
        while True:
            await asyncio.sleep(int(settings.LIVE_PING_SECONDS))
            side = self.side
            if side is None:
                continue
            refresh = partial(services.live_presence_refresh, slug=self.slug, side=side)
            found = await in_pool(refresh)
            if found.over:
                return
            opponent_left = found.opponent_away_since not in (None, told)
            told = found.opponent_away_since
            if found.was_away or opponent_left:
                await self._announce()

    async def _present(self) -> None:
        """Refresh my seat now; if it was shown away, tell everyone it is back."""
        side = self.side
        if side is None:
            return
        found = await in_pool(lambda: services.live_presence_refresh(slug=self.slug, side=side))
        if found.was_away:
            await self._announce()

    async def _announce(self) -> None:
        """Send everyone watching the game its state as it stands."""

        def current() -> dict[str, Any] | None:
            game = live_game_get(self.slug)
            return game_event(game) if game is not None else None

        event = await in_pool(current)
        if event is not None:
            await self.channel_layer.group_send(group_name(self.slug), event)

    async def _leave(self) -> None:
        """This connection has closed: its seat is away now, and everyone is told (another
        open page of the same player answers by refreshing it: ``game_state``)."""
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        side = self.side
        if side is None:
            return

        def leave() -> dict[str, Any] | None:
            services.live_presence_leave(slug=self.slug, side=side)
            game = live_game_get(self.slug)
            return game_event(game) if game is not None and presence_counts(game) else None

        event = await in_pool(leave)
        if event is not None:
            await self.channel_layer.group_send(group_name(self.slug), event)


def scope_address(scope: dict[str, Any]) -> str:
    """The connection's client address: the peer's, or the one ``TRUSTED_PROXY_COUNT``
    proxies vouch for (as ``core.throttles.client_address`` reads a request's)."""
    client = scope.get("client") or ("", 0)
    proxies = int(settings.TRUSTED_PROXY_COUNT)
    headers = dict(scope.get("headers") or [])
    forwarded = headers.get(b"x-forwarded-for", b"").decode("latin-1")
    addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
    if proxies > 0 and addresses:
        return addresses[-min(proxies, len(addresses))]
    return str(client[0])


class LiveLobbyConsumer(AsyncJsonWebsocketConsumer):
    """The lobby: on connect (and on each ``ping``, every 30 s from an open page) the player's
    own open seeks are refreshed (``live.services.live_seeks_refresh``) and the list is sent;
    a seek made, cancelled or accepted sends the new list to every lobby page (one group on
    the channel layer, so it reaches the pages on every web process), and an accepted seek
    sends its two players to the game. A refusal goes back to the sender alone as
    ``{"type": "error", "code", "message": {zh, en}}`` and changes nothing. Seeks made are
    throttled (``THROTTLE_RATES["live_seeks"]``, per account, per address for visitors), and
    every message is counted by the connection's budget, as a game's. When the channel layer
    cannot be reached the connection is closed with ``CLOSE_TRY_AGAIN``, as a game's is."""

    owner: Owner | None
    budget: MessageBudget
    # the accounts this connection's player is never paired with (blocked either way): their
    # seeks are not listed here; read on connect and on each ping
    hidden: frozenset[int] = frozenset()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        except LAYER_ERRORS as error:  # as a game's: closed, and the page reconnects
            logger.warning("live lobby: channel layer lost (%r), closing", error)
            with contextlib.suppress(Exception):  # the client may be gone already
                await self.close(code=CLOSE_TRY_AGAIN)

    async def connect(self) -> None:
        self.budget = message_budget()
        self.owner = await in_pool(lambda: scope_owner(self.scope))
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.lobby_seeks(await in_pool(self._refreshed))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    def _refreshed(self) -> dict[str, Any]:
        if self.owner is not None:
            services.live_seeks_refresh(owner=self.owner)
            user = self.owner.user
            self.hidden = blocked_user_ids(user.pk if user is not None else None)
        return lobby_event()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        wait = self.budget.spend(time.monotonic())
        if wait is not None:
            await self._refuse("too_many_messages", {"seconds": max(1, math.ceil(wait))})
            return
        try:
            kind, data = parse_lobby_message(text_data if text_data is not None else bytes_data)
        except ProtocolError as error:
            await self._refuse(error.code, error.params)
            return
        if kind == "ping":
            await self.lobby_seeks(await in_pool(self._refreshed))
            return
        if self.owner is None:
            await self._refuse("no_player")
            return
        if kind == "seek":
            key = f"user-{self.owner.user.pk}" if self.owner.user else self._address_key()
            wait_seconds = throttle_hit("live_seeks", key)
            if wait_seconds is not None:
                await self._refuse("seeks_too_fast", {"seconds": math.ceil(wait_seconds)})
                return
        try:
            events = await in_pool(lambda: self._carry_out(kind, data))
        except LiveRefusal as refusal:
            await self._refuse(refusal.extra["code"], message=refusal.extra["message"])
            return
        for group, event in events:
            await self.channel_layer.group_send(group, event)

    def _address_key(self) -> str:
        return f"addr-{scope_address(self.scope)}"

    def _carry_out(self, kind: str, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Carry out a seek, cancel or accept: the group messages it sends (the lobby's new
        list; an accepted seek also begins its game for its players and its page)."""
        owner = self.owner
        assert owner is not None
        if kind == "seek":
            options = ChallengeOptions(
                variant=data["variant"],
                setup=data["setup"],
                colour=data["colour"],
                base_minutes=data["minutes"],
                increment_seconds=data["increment"],
                rated=data["rated"],
            )
            services.live_seek_create(owner=owner, options=options)
            return [(LOBBY_GROUP, lobby_event())]
        if kind == "cancel":
            services.live_seek_cancel(slug=data["slug"], owner=owner)
            return [(LOBBY_GROUP, lobby_event())]
        game = services.live_challenge_accept(slug=data["slug"], owner=owner)  # "accept"
        return [
            (LOBBY_GROUP, lobby_started_event(game)),
            (group_name(game.slug), game_event(game)),
            (LOBBY_GROUP, lobby_event()),
        ]

    async def _refuse(
        self,
        code: str,
        params: dict[str, object] | None = None,
        *,
        message: dict[str, str] | None = None,
    ) -> None:
        said = message or refusal_text(code, params).as_dict()
        await self.send_json({"type": "error", "code": code, "message": said})

    # -- to the clients --------------------------------------------------------------------

    async def lobby_seeks(self, event: dict[str, Any]) -> None:
        """The lobby's list (live.broadcast, encoded once), with the slugs of my own seeks."""
        mine = json.dumps(sorted(s for s, key in event["owners"].items() if holds(self.owner, key)))
        seeks = event["seeks"]
        hidden = {s for s, key in event["owners"].items() if key["user"] in self.hidden}
        if hidden:  # a blocked account's seeks: this page alone is sent the list without them
            shown = [seek for seek in json.loads(seeks) if seek["slug"] not in hidden]
            seeks = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
        await self.send(text_data=f'{{"type":"seeks","mine":{mine},"seeks":{seeks}}}')

    async def lobby_started(self, event: dict[str, Any]) -> None:
        """A game has begun: its players' lobby pages go to it."""
        if any(holds(self.owner, key) for key in event["players"]):
            url = reverse("live:game", args=[event["slug"]])
            await self.send_json({"type": "started", "slug": event["slug"], "url": url})
