"""The puzzle bank, attempts, ratings, the daily puzzle and replays of failed puzzles.

Invariants live in the database: a published puzzle has a proof, a dead-general puzzle is a
Missile Xiangqi puzzle, an attempt belongs to exactly one user or anonymous visitor, a player
has at most one open attempt and at most one first try per puzzle, a scored attempt has its
scoring time, one daily puzzle per variant and day, a puzzle is never the daily puzzle twice,
and a line of a puzzle is judged (searched) once.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.owners import OwnerScopedModel, owner_check, owner_unique, owner_user_field
from core import glicko2
from core.models import TimeStampedModel, Variant, new_share_slug

if TYPE_CHECKING:
    from puzzles.proving import Problem

MAX_MOVES_TO_WIN = 30


class Goal(models.TextChoices):
    MATE = "mate", _("Checkmate")
    DEAD_GENERAL = "dead_general", _("Dead general")
    WIN = "win", _("Win")
    # Win material with the only move: a tactics puzzle, judged by Fairy-Stockfish when it was
    # mined (``puzzles.tactics``), never by the prover.
    MATERIAL = "material", _("Win material")


# The goals the prover proves: an author chooses among them.
PROVED_GOALS = (Goal.MATE, Goal.DEAD_GENERAL, Goal.WIN)


class PuzzleTheme(models.Model):
    """A tag that says what a puzzle is about (mate in 2, dead general, defection …)."""

    slug = models.SlugField(max_length=40, unique=True)
    name_en = models.CharField(max_length=80)
    name_zh = models.CharField(max_length=80)
    description_en = models.CharField(max_length=300, blank=True)
    description_zh = models.CharField(max_length=300, blank=True)
    order = models.PositiveSmallIntegerField(default=100)

    class Meta:
        ordering = ["order", "slug"]

    def __str__(self) -> str:
        return self.slug


class Puzzle(TimeStampedModel):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        VERIFYING = "verifying", _("Being verified")
        PUBLISHED = "published", _("Published")
        REJECTED = "rejected", _("Rejected")
        # A mate missed in a player's own game (``MissedMate``): proved, but only for its
        # owner, never in the bank, the rated stream, the daily puzzle or anyone's lists.
        PRIVATE = "private", _("Private")

    class Source(models.TextChoices):
        MINED = "mined", _("Found by the engine")
        CLASSIC = "classic", _("Classical collection")
        AUTHORED = "authored", _("Made by a user")
        GAME = "game", _("From a master game")
        MISSED = "missed", _("From your own game")

    variant = models.CharField(max_length=16, choices=Variant.choices)
    fen = models.CharField(max_length=200)
    goal = models.CharField(max_length=16, choices=Goal.choices, default=Goal.MATE)
    moves_to_win = models.PositiveSmallIntegerField()
    # The prover's proof (engine.solver Proof.to_json()); set once the puzzle is proved sound.
    proof = models.JSONField(null=True, blank=True)
    # ``full`` or ``checks_only`` (连将杀: every attacking move gives check): how the puzzle is
    # proved and judged; an author's draft holds the mode it is to be proved in.
    proof_mode = models.CharField(max_length=16, blank=True)

    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    rating_deviation = models.FloatField(default=glicko2.DEFAULT_DEVIATION)
    rating_volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    plays = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)
    themes = models.ManyToManyField(PuzzleTheme, related_name="puzzles", blank=True)

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    # Why verification refused it, for the author; ``rejection`` holds the details for programs
    # (kind: cooked / shorter / no_win / budget_exhausted / invalid, the second key, ...).
    rejection_reason = models.TextField(blank=True)
    rejection = models.JSONField(default=dict, blank=True)
    verify_requested_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)

    source = models.CharField(max_length=16, choices=Source.choices, default=Source.AUTHORED)
    # Stable key of a shipped puzzle, so that loading the bank again updates instead of adding.
    source_key = models.CharField(max_length=64, unique=True, null=True, blank=True)
    title = models.CharField(max_length=120, blank=True)
    collection = models.CharField(max_length=120, blank=True)
    # A puzzle from a game: the game (``ccpd:<number>``), the plies played before the puzzle's
    # position, and the game's players, event and year as the record writes them.
    source_game = models.CharField(max_length=32, blank=True)
    source_ply = models.PositiveIntegerField(null=True, blank=True)
    source_info = models.JSONField(default=dict, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="authored_puzzles",
    )
    slug = models.CharField(max_length=16, unique=True, default=new_share_slug)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(
                fields=["status", "variant", "rating"], name="puzzle_status_variant_rating"
            ),
            models.Index(fields=["author", "status"], name="puzzle_author_status"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(moves_to_win__gte=1) & Q(moves_to_win__lte=MAX_MOVES_TO_WIN),
                name="puzzle_moves_to_win_range",
            ),
            models.CheckConstraint(
                condition=~Q(goal="dead_general") | Q(variant="feidan"),
                name="puzzle_dead_general_only_feidan",
            ),
            models.CheckConstraint(
                condition=~Q(status="published") | Q(proof__isnull=False),
                name="puzzle_published_has_proof",
            ),
            models.CheckConstraint(
                condition=~Q(status="rejected") | ~Q(rejection_reason=""),
                name="puzzle_rejected_has_reason",
            ),
            models.CheckConstraint(
                condition=~Q(status="private") | (Q(proof__isnull=False) & Q(source="missed")),
                name="puzzle_private_is_a_proved_missed_mate",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.goal} in {self.moves_to_win} ({self.slug})"

    @property
    def rejection_text(self) -> str:
        """Why verification refused it, in the reader's language."""
        from puzzles.rejections import rejection_text

        return rejection_text(self.rejection or {}, self.rejection_reason)

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    @property
    def problem(self) -> Problem:
        """What it asks, as the prover takes it (``proving.prove(**puzzle.problem, ...)``)."""
        return {"variant": self.variant, "fen": self.fen, "goal": self.goal}

    @property
    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rating_deviation, self.rating_volatility)


class ProvingRequest(models.Model):
    """A puzzle's place in the proving queue (``services.authoring``), kept apart from the
    puzzle's row so that claiming it never waits on the puzzle.

    ``address`` is where it was sent from (a keyed hash, ``core.addresses``; forgotten an hour
    after its proof started); ``asked_at`` when a verification message was last sent for it;
    ``started_at`` and ``task`` when the prover started on it and which task message claimed it
    (a message delivered again after its worker died goes on with it). A puzzle waiting
    (``verifying``) with no row waits with no address, in the order of its
    ``verify_requested_at``."""

    puzzle = models.OneToOneField(Puzzle, on_delete=models.CASCADE, related_name="proving")
    address = models.CharField(max_length=32, blank=True, default="")
    asked_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True, db_index=True)
    task = models.CharField(max_length=64, blank=True, default="")
    # How far the proof has come (``engine.solver.Progress`` as data: stage, done, total,
    # nodes, seconds), written by the proving worker about once a second while it works.
    progress = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"proving {self.puzzle_id}"


class UnratedReason(models.TextChoices):
    """Why a finished try is not rated, said to the player with the try."""

    VISITOR = "visitor", _("Tries made without signing in are not rated.")
    NOT_FIRST_TRY = "not_first_try", _("Only the first try at a puzzle is rated.")
    REPLAY = "replay", _("A failed puzzle that comes back is not rated.")
    HINTS = "hints", _("A hint was taken in this try.")
    GAVE_UP = "gave_up", _("The solution was shown in this try.")
    OWN_PUZZLE = "own_puzzle", _("Your own puzzles are not rated for you.")
    NOT_PUBLISHED = "not_published", _("The puzzle is not published.")
    MISSED = "missed", _("Puzzles from your own games are not rated.")
    SEEN_NEARBY = (
        "seen_nearby",
        _("The solution of this puzzle was shown from your address in the last 24 hours."),
    )
    PACE = (
        "pace",
        _("Too many rated tries in the last minute: this one counts, but it is not rated."),
    )
    MET_IN_RUN = "met_in_run", _("You met this puzzle in Puzzle Streak or Storm.")


class PuzzleAttempt(OwnerScopedModel):
    """One try at a puzzle by a user or an anonymous visitor, played on the server.

    The server opens the attempt (its id is the row's id), holds the line played so far in
    ``moves`` and judges each move as it arrives; the first wrong move, the goal reached or the
    solution shown ends the try (``submitted``), and a Celery task scores it once from what the
    server judged: ``scored_at`` is set in the same transaction that updates the ratings,
    under a row lock on this attempt. ``first_try`` is decided when the attempt is opened: the
    player's first attempt at the puzzle, the only one that can be rated.
    """

    class State(models.TextChoices):
        STARTED = "started", _("Started")  # open: being played
        SUBMITTED = "submitted", _("Waiting to be scored")
        SCORED = "scored", _("Scored")
        # Closed unfinished (an open try that another open try of the same player replaced).
        ABANDONED = "abandoned", _("Abandoned")

    class Result(models.TextChoices):
        PENDING = "pending", _("Pending")
        SOLVED = "solved", _("Solved")
        FAILED = "failed", _("Failed")

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    user = owner_user_field("puzzle_attempts")
    client_id = models.UUIDField(default=uuid.uuid4)

    # The line as the server judged it: the attacker's moves and the defender's replies (ICCS).
    moves = models.JSONField(default=list, blank=True)
    first_try = models.BooleanField(default=False)
    gave_up = models.BooleanField(default=False)
    hints_used = models.PositiveSmallIntegerField(default=0)
    seconds = models.PositiveIntegerField(default=0)
    is_replay = models.BooleanField(default=False)

    state = models.CharField(max_length=16, choices=State.choices, default=State.STARTED)
    result = models.CharField(max_length=16, choices=Result.choices, default=Result.PENDING)
    rated = models.BooleanField(default=False)
    # Why it is not rated: decided when the try ends, from the player who ended it (a visitor,
    # a solution seen from the same address, too many rated tries a minute), and completed
    # when it is scored; empty for a rated try.
    unrated_reason = models.CharField(
        max_length=16, choices=UnratedReason.choices, blank=True, default=""
    )
    user_rating_before = models.FloatField(null=True, blank=True)
    user_rating_after = models.FloatField(null=True, blank=True)
    puzzle_rating_before = models.FloatField(null=True, blank=True)
    puzzle_rating_after = models.FloatField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta(OwnerScopedModel.Meta):
        indexes = [
            models.Index(fields=["user", "puzzle"], name="attempt_user_puzzle"),
            models.Index(fields=["user", "scored_at"], name="attempt_user_scored"),
            models.Index(fields=["user", "submitted_at"], name="attempt_user_submitted"),
            # The tries waiting to be scored, oldest first (``puzzle_attempts_score_waiting``).
            models.Index(
                fields=["submitted_at"], condition=Q(state="submitted"), name="attempt_waiting"
            ),
        ]
        constraints = [
            owner_check("attempt_one_owner"),
            *owner_unique("attempt_unique_{owner}_client_id", "puzzle", "client_id"),
            *owner_unique("attempt_one_open_per_{owner}", "puzzle", when={"state": "started"}),
            *owner_unique("attempt_one_first_try_per_{owner}", "puzzle", when={"first_try": True}),
            models.CheckConstraint(
                condition=(Q(state="scored") & Q(scored_at__isnull=False))
                | (~Q(state="scored") & Q(scored_at__isnull=True)),
                name="attempt_scored_at_iff_scored",
            ),
            models.CheckConstraint(
                condition=~Q(state="scored") | ~Q(result="pending"),
                name="attempt_scored_has_result",
            ),
            models.CheckConstraint(
                condition=~Q(rated=True) | (Q(user__isnull=False) & Q(first_try=True)),
                name="attempt_rated_needs_user_first_try",
            ),
        ]

    def __str__(self) -> str:
        return f"attempt {self.pk} on {self.puzzle_id}: {self.result}"

    @property
    def is_open(self) -> bool:
        return self.state == self.State.STARTED

    @property
    def is_finished(self) -> bool:
        return self.state in (self.State.SUBMITTED, self.State.SCORED)


class PuzzleSolutionSeen(models.Model):
    """A solution shown (given up, a wrong move refuted, a hint) from one address: for a day,
    a try at the same puzzle by an account from that address is not rated. ``address`` is a
    keyed hash of the client's address (``core.addresses.address_key``), never the address."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")
    address = models.CharField(max_length=32)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["puzzle", "address", "seen_at"], name="seen_puzzle_address"),
            models.Index(fields=["seen_at"], name="seen_at"),
            # what an address has seen, for a run's start (services.runs)
            models.Index(fields=["address", "seen_at"], name="seen_address"),
        ]

    def __str__(self) -> str:
        return f"{self.puzzle_id} seen at {self.seen_at:%Y-%m-%d %H:%M}"


class PuzzleRating(TimeStampedModel):
    """A user's puzzle rating in one variant."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_ratings"
    )
    variant = models.CharField(max_length=16, choices=Variant.choices)
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    deviation = models.FloatField(default=glicko2.DEFAULT_DEVIATION)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="puzzle_rating_user_variant"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant} {self.rating:.0f}"

    @property
    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)


class DailyPuzzle(models.Model):
    """Today's puzzle of one variant. A puzzle is the daily puzzle at most once."""

    date = models.DateField()
    variant = models.CharField(max_length=16, choices=Variant.choices)
    puzzle = models.OneToOneField(Puzzle, on_delete=models.CASCADE, related_name="daily")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "variant"]
        constraints = [
            models.UniqueConstraint(fields=["date", "variant"], name="daily_puzzle_date_variant"),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.variant}: {self.puzzle_id}"


class PuzzleReplay(OwnerScopedModel):
    """A failed puzzle that comes back: after 1, then 3, then 7 days, until it is solved."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="replays")
    user = owner_user_field("puzzle_replays")
    # How many times it has been failed since it was first failed (0 = once).
    step = models.PositiveSmallIntegerField(default=0)
    due_at = models.DateTimeField()
    solved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due_at", "id"]
        constraints = [
            owner_check("replay_one_owner"),
            *owner_unique("replay_{owner}_puzzle", "puzzle"),
        ]

    def __str__(self) -> str:
        return f"replay {self.puzzle_id} due {self.due_at:%Y-%m-%d}"


class PuzzleLineResult(models.Model):
    """What the judge (or the hint) answered for one line of a puzzle, kept so that the same
    line is never searched twice. ``line`` is the moves in ICCS joined by spaces; ``proof``
    names the proof it was judged against (a re-proved puzzle is judged afresh)."""

    class Kind(models.TextChoices):
        JUDGE = "judge", "judge"
        HINT = "hint", "hint"
        REFUTATION = "refute", "refutation"  # a tactics puzzle's wrong move: the engine's reply

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="line_results")
    proof = models.CharField(max_length=16)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    line = models.TextField(blank=True)
    answer = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["puzzle", "proof", "kind", "line"], name="line_result_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.puzzle_id} [{self.line}]"


class MiningChunk(models.Model):
    """One chunk of a mining run (``manage.py mine_puzzles --run NAME``): which games it reads,
    whether it is done, what it found. A run started again skips its finished chunks and takes
    their puzzles from here; ``--status NAME`` reports the run's progress from these rows.

    ``chunk`` is the work as sent to a worker (``mining.Chunk.as_json()``); ``entries`` the bank
    entries the chunk found (before the run's own filters: lengths, mates in 1, duplicates);
    ``stats`` where its CPU time went (``mining.MiningStats``)."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    run = models.CharField(max_length=64)
    strategy = models.CharField(max_length=16)
    first = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    chunk = models.JSONField(default=dict)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    found = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)  # CPU seconds the chunk took
    stats = models.JSONField(default=dict, blank=True)
    entries = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "first"], name="mining_chunk_unique"),
        ]
        indexes = [models.Index(fields=["run", "status"])]

    def __str__(self) -> str:
        return f"{self.run} {self.strategy} {self.first}+{self.games} {self.status}"


class PuzzleRun(OwnerScopedModel):
    """One run of Puzzle Streak or Puzzle Storm (``services.runs``), played on the server.

    The server holds everything a score is made of: the sequence of puzzles (``puzzles``,
    ids), the puzzle reached (``index``) and the line played in it (``line``), the puzzles
    solved (``score``), the solves in a row (``combo``, ``best_combo``), the puzzles missed and
    the skip. A storm's clock is the server's: it ends at ``started_at`` + 180 s +
    ``bonus_seconds`` (at most 60 s in all) − ``penalty_seconds``; a move that arrives later is
    refused. Every move locks the row, so two tabs of one run are judged one after the other,
    and each move names the puzzle and the ply it is for, so a request sent twice never counts
    twice. Runs are unrated: no rating, of a puzzle or a player, changes.

    ``updated_at`` is when the server last answered the run (started it, judged a move, skipped
    a puzzle); ``quick_moves`` counts the moves that arrived sooner after the answer before them
    than a person can move, and ``too_fast`` is set for good once they are too many: such a run
    is not on the leaderboard (``services.runs``).
    """

    class Mode(models.TextChoices):
        STREAK = "streak", _("Puzzle Streak")
        STORM = "storm", _("Puzzle Storm")

    class End(models.TextChoices):
        WRONG = "wrong", _("A wrong move")  # a streak's end
        TIME = "time", _("Time is up")  # a storm's end
        COMPLETE = "complete", _("Every puzzle of the run was played")
        STOPPED = "stopped", _("Stopped")

    user = owner_user_field("puzzle_runs")
    mode = models.CharField(max_length=8, choices=Mode.choices)
    variant = models.CharField(max_length=16, choices=Variant.choices)
    day = models.DateField()  # the site's date when it started: the leaderboard it counts for
    puzzles = models.JSONField(default=list)
    index = models.PositiveIntegerField(default=0)
    line = models.JSONField(default=list, blank=True)
    score = models.PositiveIntegerField(default=0)
    combo = models.PositiveIntegerField(default=0)
    best_combo = models.PositiveIntegerField(default=0)
    moves_played = models.PositiveIntegerField(default=0)
    skip_used = models.BooleanField(default=False)
    missed = models.JSONField(default=list, blank=True)
    skipped = models.JSONField(default=list, blank=True)  # the puzzle skipped (a streak's one)
    started_at = models.DateTimeField()
    bonus_seconds = models.PositiveIntegerField(default=0)
    penalty_seconds = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    end = models.CharField(max_length=8, choices=End.choices, blank=True, default="")
    quick_moves = models.PositiveIntegerField(default=0)
    too_fast = models.BooleanField(default=False)

    class Meta(OwnerScopedModel.Meta):
        indexes = [
            models.Index(fields=["mode", "variant", "day", "-score"], name="run_board"),
            models.Index(fields=["user", "mode", "variant", "-score"], name="run_user_best"),
            # the sweep's: visitors' runs in which nothing was played, by their last answer
            models.Index(
                fields=["updated_at"],
                condition=Q(user__isnull=True, moves_played=0, skip_used=False),
                name="run_visitor_unplayed",
            ),
        ]
        constraints = [
            owner_check("run_one_owner"),
            *owner_unique(
                "run_one_open_per_{owner}", "mode", "variant", when={"finished_at__isnull": True}
            ),
            models.CheckConstraint(
                condition=(Q(finished_at__isnull=True) & Q(end=""))
                | (Q(finished_at__isnull=False) & ~Q(end="")),
                name="run_finished_has_end",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.mode} {self.variant} run {self.pk}: {self.score}"

    @property
    def is_open(self) -> bool:
        return self.finished_at is None


class PuzzleRunMet(OwnerScopedModel):
    """A puzzle its owner met in a run of Puzzle Streak or Storm: one row per owner and
    puzzle, written when a run shows the puzzle (the first one when the run starts, the next
    one each time the run moves on), in the transaction that moves the run. A puzzle met in
    a run is not rated in the trainer afterwards (``UnratedReason.MET_IN_RUN``): a run shows
    the puzzles it reaches, and a wrong move in one tells what the right move was not.

    ``puzzle`` has no database constraint: a run may still name a puzzle removed since it
    started; the row of a puzzle deleted later goes with it."""

    user = owner_user_field("puzzles_met_in_runs")
    puzzle = models.ForeignKey(
        Puzzle, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )

    class Meta(OwnerScopedModel.Meta):
        constraints = [
            owner_check("run_met_one_owner"),
            *owner_unique("run_met_once_per_{owner}", "puzzle"),
        ]

    def __str__(self) -> str:
        return f"{self.puzzle_id} met in a run"


class GameSource(models.TextChoices):
    """The two tables a player's own games live in: their ids are apart, so a missed win and a
    review name both the table and the id."""

    PLAY = "play", "games.Game"
    LIVE = "live", "live.LiveGame"


class MissedMate(OwnerScopedModel):
    """A forced win missed in a game of its owner (``game`` is the game's id in the table
    ``source`` names: games.Game or live.LiveGame): the
    position ``ply`` plies into the game, where ``side`` (red or black) had a mate (or a dead
    general) in ``puzzle.moves_to_win``, or a decisive material win (``puzzle.goal``
    ``material``, what it wins in ``puzzle.proof``), and played ``played`` instead. ``by_player``: the
    owner's side missed it; else the computer did ("the computer let you escape here").

    Its puzzle is ``private`` (``Puzzle.Status.PRIVATE``): seen, tried and judged by its owner
    only, never rated. It follows a visitor's games into the account on sign-up."""

    user = owner_user_field("missed_mates")
    puzzle = models.OneToOneField(Puzzle, on_delete=models.CASCADE, related_name="missed")
    # Which table ``game`` is an id of: a game against the computer or at one board (``play``,
    # games.Game) or a live game between two people (``live``, live.LiveGame). The database's
    # own default too, so a row written by code that does not know the column (a worker of the
    # release before it, during a deploy) is a game of the games app.
    source = models.CharField(
        max_length=8, choices=GameSource.choices, default=GameSource.PLAY, db_default="play"
    )
    game = models.PositiveBigIntegerField()
    ply = models.PositiveIntegerField()
    move_number = models.PositiveIntegerField()
    side = models.CharField(max_length=8)
    by_player = models.BooleanField(default=True)
    played = models.CharField(max_length=8)
    played_chinese = models.CharField(max_length=16, blank=True)

    class Meta(OwnerScopedModel.Meta):
        ordering = ["-game", "ply"]
        constraints = [
            owner_check("missed_one_owner"),
            models.UniqueConstraint(
                fields=["source", "game", "ply"], name="missed_source_game_ply_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"missed in game {self.game} at ply {self.ply}"


class GameReview(OwnerScopedModel):
    """The search for missed mates in one finished game ran to its end (``found`` moments):
    one row per game, written with the game's missed mates in one transaction, so a task that
    finds it does nothing, and a task that died before it is simply run again.

    It belongs to the game's owner, like the game's missed mates (and follows a visitor into
    the account with them): only the owner is told that the game has been searched."""

    user = owner_user_field("game_reviews")
    # (with database defaults, as ``MissedMate.source``)
    source = models.CharField(
        max_length=8, choices=GameSource.choices, default=GameSource.PLAY, db_default="play"
    )
    game = models.PositiveBigIntegerField()
    # A live game is reviewed once per player: the side of the player it belongs to ("" for a
    # game of one owner, which has one review).
    side = models.CharField(max_length=8, blank=True, default="", db_default="")
    found = models.PositiveSmallIntegerField(default=0)
    seconds = models.FloatField(default=0.0)  # CPU seconds the search took
    stats = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            owner_check("review_one_owner"),
            models.UniqueConstraint(
                fields=["source", "game", "side"], name="review_source_game_side_unique"
            ),
        ]

    def __str__(self) -> str:
        side = f" ({self.side})" if self.side else ""
        return f"review of {self.source} game {self.game}{side}: {self.found}"


class MergedVisitor(models.Model):
    """A visitor whose progress went to an account: a missed-mate search that finishes after
    the sign-up gives the account, not the visitor, what it found."""

    # The visitor's id (not an owner column: this row belongs to nobody, it records a merge).
    visitor = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.visitor} -> {self.user_id}"
