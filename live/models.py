"""A live game: two people playing each other over the network, judged by the server.

A game begins as a challenge (``waiting``): its creator chose the variant, the start, a
colour (or random) and the clock; whoever opens the link and accepts takes the other seat.
A feidan game with a secret setup then waits for both halves (``setting_up``) before it is
played.
A challenge is sent by its link, or offered to anyone as an open seek in the lobby
(``seek``): a seek stays listed while its creator's lobby page keeps it fresh (``seek_seen_at``,
``live.selectors.seek_cutoff``).
A seat is held by an account or by an anonymous visitor's session (``accounts.visitors``).
The clocks are kept here: each side's time left when its turn began (``red_clock_ms`` /
``black_clock_ms``) and when the running turn began (``turn_started_at``); the time left now
is computed on the server (``live.clock``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core import glicko2
from core.models import TimeStampedModel, Variant
from core.starts import start_label


def _seat_user(related_name: str) -> models.ForeignKey[Any, Any]:
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name=related_name,
    )


def _seat_visitor() -> models.CharField[Any, Any]:
    return models.CharField(max_length=64, null=True, blank=True, db_index=True)


class LiveGame(TimeStampedModel):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for the friend")
        SETTING_UP = "setting_up", _("Setting up")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Colour(models.TextChoices):
        RED = "red", _("Red")
        BLACK = "black", _("Black")
        RANDOM = "random", _("Random")

    class Setup(models.TextChoices):
        # the names, in both languages, are core.starts.START_NAMES
        STANDARD = "standard", start_label("standard")
        PLUM_BLOSSOM = "plum_blossom", start_label("plum_blossom")
        FIVE_SOLDIERS = "five_soldiers", start_label("five_soldiers")
        MIDDLE_SOLDIER = "middle_soldier", start_label("middle_soldier")
        XINBAN_NEW = "new", start_label("new")
        XINBAN_TRADITIONAL = "traditional", start_label("traditional")
        XINBAN_RED_NEW = "red-new", start_label("red-new")
        XINBAN_BLACK_NEW = "black-new", start_label("black-new")

    # the game's link, /play/live/<slug>/: the challenge, the game and its spectators' page
    slug = models.CharField(max_length=16, unique=True)
    variant = models.CharField(max_length=16, choices=Variant.choices)
    setup = models.CharField(max_length=16, choices=Setup.choices, default=Setup.STANDARD)
    start_fen = models.CharField(max_length=120)
    # What feidan's setups need besides the start FEN. A plum-blossom start: the hexagram it was
    # drawn with. A secret setup: {"method", "round", "halves": {side: {point: letter}} (each
    # half handed in; never sent to anyone but its own player before the reveal), "void_reveals"
    # (reveals that did not count), "revealed"}.
    setup_info = models.JSONField(default=dict, blank=True)
    # A rated game moves both players' live ratings (``LiveRating``) once it ends with a result;
    # both seats are then accounts. ``rating_changes``: {side: {"before", "after", "deviation"
    # (after), "provisional" (after)}}, written in the same transaction as the result (empty:
    # not rated yet, or never: a casual or aborted game).
    rated = models.BooleanField(default=False)
    rating_changes = models.JSONField(default=dict, blank=True)
    # who made the challenge, and the colour they asked for (the seats are given on accepting)
    creator_user = _seat_user("live_games_created")
    creator_visitor = _seat_visitor()
    colour_choice = models.CharField(max_length=8, choices=Colour.choices, default=Colour.RANDOM)
    # An open seek of the lobby (anyone may accept it there) rather than a challenge sent by
    # link; listed while it waits and its creator's lobby page has refreshed it lately.
    seek = models.BooleanField(default=False)
    seek_seen_at = models.DateTimeField(null=True, blank=True)
    red_user = _seat_user("live_games_red")
    red_visitor = _seat_visitor()
    black_user = _seat_user("live_games_black")
    black_visitor = _seat_visitor()
    # the clock: base time and increment, each side's time left when its running turn began
    # (or, for the side not to move, now), and when that turn began (null: no clock running)
    base_ms = models.PositiveIntegerField()
    increment_ms = models.PositiveIntegerField(default=0)
    red_clock_ms = models.IntegerField()
    black_clock_ms = models.IntegerField()
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # One entry per ply: {"iccs", "chinese", "fen" (after), "effect", "check", "at" (the
    # server's receipt), "spent_ms" (charged), "clock_ms" (the mover's time left after it),
    # "lag_ms" (the lag allowance credited), "lag_quota_ms" (the mover's quota after it)}.
    moves = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    result = models.CharField(max_length=8, blank=True)  # 1-0, 0-1, 1/2-1/2
    winner = models.CharField(max_length=8, blank=True)  # red, black, "" (draw or unfinished)
    termination = models.CharField(max_length=24, blank=True)
    # the side that resigned, aborted, ran out of time (or whose draw offer was accepted)
    ended_by = models.CharField(max_length=8, blank=True)
    # a draw offer standing: the side that made it and the ply it was made at
    draw_offer_by = models.CharField(max_length=8, blank=True)
    draw_offer_ply = models.PositiveIntegerField(null=True, blank=True)
    # A takeback asked for (Lichess's takeback): the side that asked and the ply it asked at
    # (it stands until the opponent answers or a move is played). The offerer's own last move
    # is taken back: one ply if the opponent is to move, two if the opponent has answered.
    takeback_offer_by = models.CharField(max_length=8, blank=True, db_default="")
    takeback_offer_ply = models.PositiveIntegerField(null=True, blank=True)
    # {side: ply}: the ply at which each side's last takeback was declined (not asked again
    # there); emptied when a takeback is made
    takeback_declined = models.JSONField(default=dict, blank=True, db_default={})
    # Each takeback made, in order: {"by" (who asked), "from" and "to" (the plies), "at"}.
    # The clocks are not given time back; a side to move at ply 0 or 1 after one has its first
    # move's window from the latest takeback's "at" (live.selectors.first_move_deadline).
    takebacks = models.JSONField(default=list, blank=True, db_default=[])
    # a rematch offered once the game is over: the side that offered it and its new game (a
    # challenge with the colours swapped, which only the other player may accept)
    rematch_by = models.CharField(max_length=8, blank=True)
    rematch_slug = models.CharField(max_length=16, blank=True)
    # Presence: until when each seat counts as present (with a connection open to the game).
    # Every message, connection and ping of the seat's player pushes it to now +
    # LIVE_PRESENCE_SECONDS; a connection closed pulls it to now + a moment (another open page
    # of the player answers and pushes it back). Null: never connected. A seat away (the time
    # passed) for LIVE_GONE_SECONDS has left the game (``live.selectors.seat_presence``).
    red_present_until = models.DateTimeField(null=True, blank=True)
    black_present_until = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["seek_seen_at"],
                condition=Q(seek=True, status="waiting"),
                name="live_open_seeks",
            )
        ]
        constraints = [
            models.CheckConstraint(
                name="live_creator_user_xor_visitor",
                condition=(Q(creator_user__isnull=False) & Q(creator_visitor__isnull=True))
                | (Q(creator_user__isnull=True) & Q(creator_visitor__isnull=False)),
            ),
            models.CheckConstraint(
                name="live_seated_when_playing",
                condition=Q(status="waiting")
                | (
                    (Q(red_user__isnull=False) | Q(red_visitor__isnull=False))
                    & (Q(black_user__isnull=False) | Q(black_visitor__isnull=False))
                )
                | Q(status="aborted"),
            ),
            models.CheckConstraint(
                name="live_clocks_not_negative",
                condition=Q(red_clock_ms__gte=0, black_clock_ms__gte=0),
            ),
        ]

    def __str__(self) -> str:
        return f"live game {self.slug} ({self.variant}, {self.status})"

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def turn(self) -> str:
        """The side to move now (every start of this site has Red to move first)."""
        first = "black" if self.start_fen.split(" ")[1:2] == ["b"] else "red"
        if self.ply % 2 == 0:
            return first
        return "black" if first == "red" else "red"

    @property
    def iccs_moves(self) -> list[str]:
        return [entry["iccs"] for entry in self.moves]


class LiveRating(TimeStampedModel):
    """An account's Glicko-2 rating in live games of one variant (apart from its puzzle
    ratings): changed only by the end of a rated live game with a result (``live.services``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_ratings"
    )
    variant = models.CharField(max_length=16, choices=Variant.choices)
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    deviation = models.FloatField(default=glicko2.DEFAULT_DEVIATION)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="live_rating_one_per_variant")
        ]

    def __str__(self) -> str:
        return f"live rating of {self.user_id} in {self.variant}: {self.rating:.0f}"

    @property
    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)

    @property
    def provisional(self) -> bool:
        return glicko2.is_provisional(self.deviation)

    def glicko_at(self, now: datetime) -> glicko2.Rating:
        """The rating at ``now``: its deviation grown with the time since its last rated game
        (``glicko2.aged``; the row changes only when a game rates it)."""
        if self.updated_at is None or not self.games:
            return self.glicko
        days = (now - self.updated_at).total_seconds() / 86_400
        return glicko2.aged(self.glicko, days)


class LiveBlock(TimeStampedModel):
    """An account has blocked another: the two are never paired in a live game (neither's
    challenge or seek can be accepted by the other, neither sees the other's seeks in the
    lobby, no rematch between them), whichever of them blocked. Visitors have no lasting
    identity and can neither block nor be blocked."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_blocks_received"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="live_block_once"),
            models.CheckConstraint(
                name="live_block_not_oneself", condition=~Q(blocker=models.F("blocked"))
            ),
        ]

    def __str__(self) -> str:
        return f"live block {self.blocker_id} -> {self.blocked_id}"
