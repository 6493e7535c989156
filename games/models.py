"""A game: against the computer or two players at one board, in any variant and start.

The moves are kept in order with what the site shows for each (Chinese notation, the FEN
after it, what the move did); the start FEN and the seed make every game replayable.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.owners import (
    OwnerScopedModel,
    owner_check,
    owner_indexes,
    owner_unique,
    owner_user_field,
)
from core.models import Variant
from core.starts import start_label

LEVELS = range(1, 9)
TAKEBACK_MAX_LEVEL = 3


class Game(OwnerScopedModel):
    class Mode(models.TextChoices):
        COMPUTER = "computer", _("Against the computer")
        LOCAL = "local", _("Two players, one board")

    class Status(models.TextChoices):
        SETTING_UP = "setting_up", _("Setting up")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

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

    class Side(models.TextChoices):
        RED = "red", _("Red")
        BLACK = "black", _("Black")

    user = owner_user_field("games")
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.COMPUTER)
    variant = models.CharField(max_length=16, choices=Variant.choices)
    setup = models.CharField(max_length=16, choices=Setup.choices, default=Setup.STANDARD)
    # What the setup needs besides the start FEN: the hexagram of a plum-blossom start; the
    # halves, void reveals and (until the reveal, never sent) the computer's secret half.
    setup_info = models.JSONField(default=dict, blank=True)
    start_fen = models.CharField(max_length=120, blank=True)
    # One entry per ply: {"iccs", "chinese", "fen" (after), "effect", "check", "by", "at" (when
    # it was played), "spent_ms" (the mover's time on it), "clock_ms" (the mover's clock
    # after it, with clocks)}; the computer's also keep its search ("score", "mate" ...).
    moves = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    result = models.CharField(max_length=8, blank=True)  # 1-0, 0-1, 1/2-1/2
    winner = models.CharField(max_length=8, blank=True)  # red, black, "" (draw or unfinished)
    termination = models.CharField(max_length=24, blank=True)
    # The side that resigned, claimed the attack-power draw or ran out of time.
    ended_by = models.CharField(max_length=8, blank=True)
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    human_side = models.CharField(max_length=8, choices=Side.choices, blank=True)
    seed = models.BigIntegerField(default=0)
    # The draw offers, in order: {"ply", "by": "player" | "computer" (none: the player),
    # "accepted": true | false | null, "answered_ply"}.
    draw_offers = models.JSONField(default=list, blank=True)
    # Why the computer resigned: {"reason": "mate" | "lost", "moves", "mate", "score"}.
    end_reason = models.JSONField(default=dict, blank=True)
    # Optional clocks: milliseconds left for each side, and when the running one started.
    clock_initial_ms = models.PositiveIntegerField(null=True, blank=True)
    clock_increment_ms = models.PositiveIntegerField(default=0)
    red_clock_ms = models.IntegerField(null=True, blank=True)
    black_clock_ms = models.IntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # When the computer's move was asked for (set until it is played), and when it was handed
    # to the workers' queue (null while it waits for its turn: games.queueing).
    computer_queued_at = models.DateTimeField(null=True, blank=True)
    computer_dispatched_at = models.DateTimeField(null=True, blank=True)
    # The address the game is played from (its creation, then each of the player's moves):
    # open games and the computer's moves are limited per address as well as per owner.
    address = models.CharField(max_length=64, blank=True, default="")
    finished_at = models.DateTimeField(null=True, blank=True)
    # The random part of the game's share link (``/play/g/<slug>/``), set when its owner
    # shares the finished game and cleared when they stop: no link, no public page.
    share_slug = models.CharField(max_length=16, unique=True, null=True, blank=True)

    class Meta(OwnerScopedModel.Meta):
        indexes = [
            *owner_indexes("-created_at"),
            models.Index(
                fields=["computer_queued_at"],
                condition=Q(computer_queued_at__isnull=False),
                name="game_computer_waiting",
            ),
            models.Index(
                fields=["address", "status"],
                condition=~Q(status="finished"),
                name="game_open_by_address",
            ),
            models.Index(
                fields=["updated_at"], condition=~Q(status="finished"), name="game_open_by_update"
            ),
        ]
        constraints = [
            owner_check("game_owner_user_xor_visitor"),
            models.CheckConstraint(
                name="game_level_1_to_8",
                condition=Q(level__isnull=True) | Q(level__gte=1, level__lte=8),
            ),
            models.CheckConstraint(
                name="game_computer_has_level_and_side",
                condition=Q(mode="local") | (Q(level__isnull=False) & ~Q(human_side="")),
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} ({self.variant}, {self.setup}, {self.status})"

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def move_count(self) -> int:
        """Moves as players count them: Red's ply and Black's answer are one move (from a
        start with Black to move, Black's first ply is move 1 alone)."""
        black_first = self.start_fen.split(" ")[1:2] == ["b"]
        return (self.ply + (1 if black_first else 0) + 1) // 2

    @property
    def iccs_moves(self) -> list[str]:
        return [entry["iccs"] for entry in self.moves]

    @property
    def turn(self) -> str:
        """The side to move now (Red moves first from every start of this site)."""
        first = "black" if self.start_fen.split(" ")[1:2] == ["b"] else "red"
        if self.ply % 2 == 0:
            return first
        return "black" if first == "red" else "red"

    @property
    def computer_side(self) -> str | None:
        if self.mode != self.Mode.COMPUTER:
            return None
        return "black" if self.human_side == "red" else "red"

    @property
    def computer_to_move(self) -> bool:
        return self.status == self.Status.PLAYING and self.turn == self.computer_side


class MasterGame(models.Model):
    """A game of the master games collection (traditional xiangqi), as the site ships it
    (core/data/master-games/master-games.jsonl.gz, read by core.masters). Read-only on the site: it is
    replaced whole by the content loader whenever the shipped file changes."""

    class Result(models.TextChoices):
        RED = "1-0", _("Red won")
        BLACK = "0-1", _("Black won")
        DRAW = "1/2-1/2", _("Draw")
        UNKNOWN = "*", _("Result not recorded")

    id = models.PositiveIntegerField(primary_key=True)  # the collection's own number
    event = models.CharField(max_length=200, blank=True)
    # in one form, YYYY-MM-DD, YYYY-MM or YYYY; blank when unknown (games.record_clean)
    date = models.CharField(max_length=64, blank=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    site = models.CharField(max_length=200, blank=True)
    red = models.CharField(max_length=100, blank=True, db_index=True)
    black = models.CharField(max_length=100, blank=True, db_index=True)
    result = models.CharField(max_length=8, choices=Result.choices)
    ecco = models.CharField(max_length=8, blank=True)
    moves = models.TextField(blank=True)  # ICCS, space-separated: every move that could be read
    plies = models.PositiveIntegerField()
    record_plies = models.PositiveIntegerField()  # how many moves the record writes
    stop_ply = models.PositiveIntegerField(null=True, blank=True)  # first move not readable
    stop_text = models.CharField(max_length=64, blank=True)
    stop_reason = models.CharField(max_length=300, blank=True)
    # the names and the event in simplified characters: what a search matches, and what
    # Chinese pages show (the record writes traditional characters)
    red_simplified = models.CharField(max_length=100, blank=True)
    black_simplified = models.CharField(max_length=100, blank=True)
    event_simplified = models.CharField(max_length=200, blank=True)
    # the names in pinyin, each reading a space apart, as a search in Latin letters compares
    red_pinyin = models.CharField(max_length=200, blank=True)
    black_pinyin = models.CharField(max_length=200, blank=True)
    digest = models.CharField(max_length=16)  # of the shipped entry: a change reloads the row

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(plies__lte=models.F("record_plies")), name="master_game_plies_read"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.red} – {self.black} ({self.date or '?'})"

    @property
    def complete(self) -> bool:
        return self.stop_ply is None


class EngineAnalysis(OwnerScopedModel):
    """The engine asked about one position of the analysis board (games.analysis): the
    request (variant, start FEN, moves in ICCS, the budget in nodes), and, once a worker has
    searched it, what the engine found (``result``: its lines, the score, mate, forced ...).
    An owner has at most one pending at a time (the database says so); an address
    ``ANALYSIS_PENDING_PER_ADDRESS``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Thinking")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    user = owner_user_field("engine_analyses")
    variant = models.CharField(max_length=16, choices=Variant.choices)
    fen = models.CharField(max_length=300)  # the start of the line
    moves = models.JSONField(default=list, blank=True)  # ICCS, played from ``fen``
    # What asks about the same position is the same: variant, FEN and moves (games.analysis).
    key = models.CharField(max_length=64, db_index=True)
    # The search's budget: the board asks again with a larger one while a position is shown.
    nodes = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    result = models.JSONField(default=dict, blank=True)
    address = models.CharField(max_length=64, blank=True, default="")
    # When the search was handed to the workers (null while it waits its turn: games.queueing);
    # kept once searched, so that the fair queue knows whose turn came lately.
    dispatched_at = models.DateTimeField(null=True, blank=True)
    # When a worker was done with it: null while one may still be searching it (also once its
    # owner has asked about another position, until the worker has stopped).
    finished_at = models.DateTimeField(null=True, blank=True)
    # Done before its budget was spent: a deep search stopped to let another visitor's first
    # look go first (games.analysis). Its lines are kept; it is never answered again in place
    # of a search on its budget, and the board asks for that budget again.
    cut_short = models.BooleanField(default=False)

    class Meta(OwnerScopedModel.Meta):
        indexes = [
            *owner_indexes("-created_at"),
            models.Index(
                fields=["address"], condition=Q(status="pending"), name="analysis_pending_address"
            ),
            models.Index(fields=["created_at"], name="analysis_created"),  # the sweep
            models.Index(
                fields=["created_at"], condition=Q(status="pending"), name="analysis_waiting"
            ),
            models.Index(fields=["dispatched_at"], name="analysis_dispatched"),
        ]
        constraints = [
            owner_check("analysis_owner_user_xor_visitor"),
            *owner_unique("analysis_one_pending_per_{owner}", when={"status": "pending"}),
        ]

    def __str__(self) -> str:
        return f"analysis {self.pk} ({self.variant}, {self.status})"


class GameAnalysis(OwnerScopedModel):
    """The computer's analysis of a finished game (games.game_analysis): one a game and
    ``version`` (the budget and thresholds it was made with), owned by whoever asked for it
    (the game's owner; for a live game, one a player, owned by that player). ``evaluations`` grows one search a position as the workers go (the
    position before ply 1 first), so a run cut short carries on where it stopped; ``result``
    is the judged moves once the last position is in. An owner has at most one pending, an
    address ``GAME_ANALYSIS_PENDING_PER_ADDRESS``. The work is done a chunk at a time, each
    waiting its turn in the fair queue (games.queueing)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Analysing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    user = owner_user_field("game_analyses")
    # The game analysed: one of this app's (``game``), or a live game (``live_game``, a
    # live.LiveGame's id; ``side``, the side of the player it is for; ``record``, the game as
    # plain data: variant, start_fen, moves [{iccs, chinese}], handed over when asked for).
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="analyses"
    )
    live_game = models.PositiveBigIntegerField(null=True, blank=True)
    side = models.CharField(max_length=8, blank=True, default="")
    record = models.JSONField(default=dict, blank=True)
    version = models.PositiveSmallIntegerField()
    plies = models.PositiveIntegerField()  # the plies analysed: the game's, up to the cap
    nodes = models.PositiveIntegerField()  # the budget a position
    # The judge that searches it (judge.FAIRY_STOCKFISH or judge.OURS), chosen when asked.
    engine = models.CharField(max_length=32, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    evaluations = models.JSONField(default=list, blank=True)
    # Every legal move weighed at each mistake and blunder, by ply (for "Learn from your
    # mistakes"), filled after the evaluations.
    rankings = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True)
    # The address it was asked from: the analyses of one address take turns (games.queueing).
    address = models.CharField(max_length=64, blank=True, default="")
    # When the next chunk was asked for, and when it was handed to the workers (null while it
    # waits its turn); when a chunk was last handed over (kept: whose turn came lately).
    queued_at = models.DateTimeField(null=True, blank=True)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    served_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta(OwnerScopedModel.Meta):
        indexes = [
            *owner_indexes("-created_at"),
            models.Index(
                fields=["queued_at"], condition=Q(status="pending"), name="game_analysis_waiting"
            ),
            models.Index(
                fields=["address"],
                condition=Q(status="pending"),
                name="game_analysis_pending_address",
            ),
            models.Index(fields=["served_at"], name="game_analysis_served"),
        ]
        constraints = [
            owner_check("game_analysis_owner_user_xor_visitor"),
            models.UniqueConstraint(fields=["game", "version"], name="game_analysis_one_a_version"),
            models.UniqueConstraint(
                fields=["live_game", "side", "version"],
                condition=Q(live_game__isnull=False),
                name="game_analysis_live_one_a_player_and_version",
            ),
            models.CheckConstraint(
                name="game_analysis_of_one_game",
                condition=Q(game__isnull=False, live_game__isnull=True)
                | Q(game__isnull=True, live_game__isnull=False),
            ),
            *owner_unique("game_analysis_one_pending_per_{owner}", when={"status": "pending"}),
        ]

    def __str__(self) -> str:
        game = f"game {self.game_id}" if self.game_id else f"live game {self.live_game}"
        return f"game analysis {self.pk} ({game}, {self.status})"
