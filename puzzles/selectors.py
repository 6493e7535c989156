"""Reads of the puzzles app: the bank with its filters, the next puzzle for a player, the daily
puzzles, attempts, the dashboard, and the ``access_*`` rules that say who may see what."""

from __future__ import annotations

import datetime
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, Max, Min, OuterRef, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.owners import Owner, owner_filter
from core.diagram import board_svg
from core.masters import simplified
from core.messages import piece_name, reads_chinese
from core.selectors import variant_list, variant_title
from engine import Move, Position, find_variant
from engine.patterns import FAMILIES, PATTERNS, Pattern
from puzzles import proving, tactics
from puzzles.missed import MISSED_MAX_MOVES, MISSED_QUICK_MAX_MOVES
from puzzles.models import (
    DailyPuzzle,
    GameReview,
    GameSource,
    Goal,
    MiningChunk,
    MissedMate,
    ProvingRequest,
    Puzzle,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleReplay,
    PuzzleRun,
    PuzzleTheme,
)
from puzzles.patterns import PatternExample, pattern_examples
from puzzles.themes import themes_of_variant

# Difficulty levels as offsets from the player's rating (as on the big puzzle sites).
DIFFICULTY_OFFSETS = {
    "easiest": -600,
    "easier": -300,
    "normal": 0,
    "harder": 300,
    "hardest": 600,
}
NEXT_SHORTLIST = 8
# In words: the rating offsets behind them mean nothing to a learner.
DIFFICULTY_LABELS = {
    "easiest": gettext_lazy("Much easier than my level"),
    "easier": gettext_lazy("A little easier"),
    "normal": gettext_lazy("At my level"),
    "harder": gettext_lazy("A little harder"),
    "hardest": gettext_lazy("Much harder than my level"),
}


# What the trainer offers: every puzzle, the mates (every goal the prover proves), or the
# tactics (win material).
KIND_ALL, KIND_MATES, KIND_TACTICS = "all", "mates", "tactics"
KINDS = (KIND_ALL, KIND_MATES, KIND_TACTICS)


def _published() -> QuerySet[Puzzle]:
    return Puzzle.objects.filter(status=Puzzle.Status.PUBLISHED)


def puzzle_list(
    *,
    variant: str | None = None,
    themes: Sequence[str] = (),
    goal: str | None = None,
    source: str | None = None,
    rating_min: float | None = None,
    rating_max: float | None = None,
    kind: str = KIND_ALL,
) -> QuerySet[Puzzle]:
    """Published puzzles matching every given filter (all of ``themes``; ``kind``: all, the
    mates, or the tactics), easiest first."""
    rows = _published()
    if variant:
        rows = rows.filter(variant=variant)
    if goal:
        rows = rows.filter(goal=goal)
    if kind == KIND_TACTICS:
        rows = rows.filter(goal=Goal.MATERIAL)
    elif kind == KIND_MATES:
        rows = rows.exclude(goal=Goal.MATERIAL)
    if source:
        rows = rows.filter(source=source)
    if rating_min is not None:
        rows = rows.filter(rating__gte=rating_min)
    if rating_max is not None:
        rows = rows.filter(rating__lte=rating_max)
    if themes:
        rows = rows.filter(pk__in=_with_all_themes(themes))
    return rows.select_related("author").prefetch_related("themes").order_by("rating", "id")


def _with_all_themes(themes: Sequence[str]) -> QuerySet[Any]:
    """The ids of puzzles that have every one of ``themes``: one pass over the puzzle-theme
    table, counted per puzzle. Its cost does not grow with the list, as one join per theme
    did (PostgreSQL's planning of such joins grows steeply with their number)."""
    slugs = list(dict.fromkeys(themes))
    return (
        Puzzle.themes.through.objects.filter(puzzletheme__slug__in=slugs)
        .values("puzzle_id")
        .annotate(found=Count("puzzletheme_id"))
        .filter(found=len(slugs))  # type: ignore[misc]  # the annotation above
        .values("puzzle_id")
    )


def puzzle_get(*, puzzle_id: int, for_display: bool = True) -> Puzzle | None:
    """One puzzle; ``for_display`` brings its themes and author along (one query more)."""
    if not for_display:
        return Puzzle.objects.filter(pk=puzzle_id).first()
    return (
        Puzzle.objects.prefetch_related("themes")
        .select_related("author")
        .filter(pk=puzzle_id)
        .first()
    )


def puzzle_get_by_slug(*, slug: str) -> Puzzle | None:
    return (
        Puzzle.objects.prefetch_related("themes").select_related("author").filter(slug=slug).first()
    )


@dataclass(frozen=True)
class PuzzleOpening:
    """The attacker's first moves (ICCS, sorted) and the point of a general in check."""

    legal_moves: list[str]
    check: str | None


def puzzle_opening(*, puzzle: Puzzle) -> PuzzleOpening:
    position = Position.from_fen(puzzle.variant, puzzle.fen)
    return PuzzleOpening(sorted(m.iccs() for m in position.legal_moves), position.checked_general())


def puzzle_solution(*, puzzle: Puzzle) -> dict[str, Any] | None:
    """The proof's main line in both notations, with the position after each move. Only for
    players allowed to see it (``access_solution_view``)."""
    if puzzle.proof is None:
        return None
    line = proving.main_line(puzzle.proof)
    position = Position.from_fen(puzzle.variant, puzzle.fen)
    moves = []
    for text in line:
        move = Move.from_iccs(text)
        chinese = position.chinese(move)
        position.push(move)
        moves.append({"iccs": move.iccs(), "chinese": chinese, "fen": position.fen()})
    return {"key": line[0] if line else None, "line": moves}


def theme_list(*, variant: str | None = None) -> QuerySet[PuzzleTheme]:
    """The themes with how many published puzzles have each; for a ``variant``, only the
    themes its puzzles can have (``themes.themes_of_variant``), counted in that variant."""
    published = Q(puzzles__status=Puzzle.Status.PUBLISHED)
    rows = PuzzleTheme.objects.all()
    if variant is not None:
        published &= Q(puzzles__variant=variant)
        rows = rows.filter(slug__in=themes_of_variant(variant))
    return rows.annotate(published=Count("puzzles", filter=published)).order_by("order", "slug")


# --- Named kill patterns -------------------------------------------------------------------


def pattern_counts() -> dict[str, dict[str, int]]:
    """How many published puzzles have each kill pattern, per variant (patterns and variants
    without one are absent): one pass over the puzzle-theme table."""
    return theme_counts(slugs=[p.code for p in PATTERNS])


def theme_counts(*, slugs: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
    """How many published puzzles have each theme (or each of ``slugs``), per variant (themes
    and variants without one are absent): one pass over the puzzle-theme table."""
    which = Q() if slugs is None else Q(puzzletheme__slug__in=list(slugs))
    rows = (
        Puzzle.themes.through.objects.filter(which, puzzle__status=Puzzle.Status.PUBLISHED)
        .values_list("puzzletheme__slug", "puzzle__variant")
        .annotate(n=Count("puzzle_id"))
    )
    counts: dict[str, dict[str, int]] = {}
    for slug, variant, n in rows:
        counts.setdefault(slug, {})[variant] = n
    return counts


def pattern_name(pattern: Pattern) -> str:
    """The pattern's name in the reader's language."""
    return pattern.zh if reads_chinese() else pattern.en


def pattern_names(slugs: Sequence[str]) -> list[dict[str, str]]:
    """The kill patterns among ``slugs``, in catalogue order: code, name in the reader's
    language, and the address of its section on the patterns page."""
    page = reverse("pages:patterns")
    return [
        {"code": p.code, "name": pattern_name(p), "url": f"{page}#{p.code}"}
        for p in PATTERNS
        if p.code in slugs
    ]


@dataclass(frozen=True)
class PatternVariant:
    variant: str
    title: str
    published: int


@dataclass(frozen=True)
class PatternCard:
    """One pattern as the patterns page shows it, in the reader's language (``other_name`` in
    the other one), with a picture of its example mate and its puzzles per variant."""

    pattern: Pattern
    name: str
    other_name: str
    other_language: str  # the language of other_name: en or zh-Hans
    summary: str
    definition: str
    example: PatternExample
    diagram: SafeString
    variants: list[PatternVariant]
    lesson: Any = None  # its lesson (url, title), when it has one: set by the page's view

    @property
    def published(self) -> int:
        return sum(v.published for v in self.variants)


@dataclass(frozen=True)
class PatternFamily:
    family: str  # traditional | feidan | xinban
    title: str
    patterns: list[PatternCard]


FAMILY_TITLES = {
    "traditional": gettext_lazy("Classical patterns (all three variants)"),
    "feidan": gettext_lazy("Missile Xiangqi patterns"),
    "xinban": gettext_lazy("New-version Xiangqi patterns"),
}


def pattern_card(pattern: Pattern, counts: dict[str, int]) -> PatternCard:
    chinese = reads_chinese()
    example = pattern_examples()[pattern.code]
    name = pattern_name(pattern)
    label = _("%(pattern)s: an example mate") % {"pattern": name}
    return PatternCard(
        pattern=pattern,
        name=name,
        other_name=pattern.en if chinese else pattern.zh,
        other_language="en" if chinese else "zh-Hans",
        summary=pattern.summary_zh if chinese else pattern.summary_en,
        definition=pattern.definition_zh if chinese else pattern.definition_en,
        example=example,
        diagram=board_svg(
            variant=example.variant,
            fen=example.final_fen,
            label=label,
            orientation=example.attacker,
        ),
        variants=[
            PatternVariant(v, variant_title(find_variant(v)), counts.get(v, 0))
            for v in pattern.variants
        ],
    )


def pattern_families() -> list[PatternFamily]:
    """Every named kill pattern, grouped by family (classical, Missile, New-version), each
    with its published puzzles per variant."""
    counts = pattern_counts()
    return [
        PatternFamily(
            family,
            str(FAMILY_TITLES[family]),
            [pattern_card(p, counts.get(p.code, {})) for p in PATTERNS if p.family == family],
        )
        for family in FAMILIES
    ]


# --- Access ---------------------------------------------------------------------------------


def access_puzzle_view(*, puzzle: Puzzle, user: Any, player: Owner | None = None) -> bool:
    """Published puzzles are public (by id or share link); a mate missed in a game only for
    the owner of its game (``player``, a user or a visitor); others only for their author."""
    if puzzle.status == Puzzle.Status.PUBLISHED:
        return True
    if puzzle.status == Puzzle.Status.PRIVATE:
        return player is not None and MissedMate.objects.filter(player.q(), puzzle=puzzle).exists()
    return bool(user and user.is_authenticated and puzzle.author_id == user.pk)


def access_puzzle_edit(*, puzzle: Puzzle, user: Any) -> bool:
    return bool(user and user.is_authenticated and puzzle.author_id == user.pk)


def access_solution_view(*, puzzle: Puzzle, player: Owner | None) -> bool:
    """The solution is shown once the player has finished a try (solved or given up), and to
    the author of a published puzzle."""
    if puzzle.proof is None or player is None:
        return False
    if player.user is not None and puzzle.author_id == player.user.pk:
        return puzzle.status == Puzzle.Status.PUBLISHED
    return PuzzleAttempt.objects.filter(
        player.q(),
        puzzle=puzzle,
        state__in=[PuzzleAttempt.State.SUBMITTED, PuzzleAttempt.State.SCORED],
    ).exists()


def access_solution_view_many(*, puzzles: Sequence[Puzzle], player: Owner | None) -> set[int]:
    """The ids among ``puzzles`` whose solution the player may see (``access_solution_view``
    for each), in one query: what a list of puzzles needs."""
    if player is None:
        return set()
    shown = {
        p.pk
        for p in puzzles
        if p.proof is not None
        and player.user is not None
        and p.author_id == player.user.pk
        and p.status == Puzzle.Status.PUBLISHED
    }
    others = [p.pk for p in puzzles if p.proof is not None and p.pk not in shown]
    finished = PuzzleAttempt.objects.filter(
        player.q(),
        puzzle_id__in=others,
        state__in=[PuzzleAttempt.State.SUBMITTED, PuzzleAttempt.State.SCORED],
    ).values_list("puzzle_id", flat=True)
    return shown | set(finished)


def access_attempt_view(*, attempt: PuzzleAttempt, player: Owner | None) -> bool:
    return player is not None and player.owns(attempt)


# --- Solving --------------------------------------------------------------------------------


def user_rating_get(*, user: Any, variant: str) -> PuzzleRating | None:
    if not (user and user.is_authenticated):
        return None
    return PuzzleRating.objects.filter(user=user, variant=variant).first()


def player_rating_value(*, player: Owner | None, variant: str) -> float:
    from core.glicko2 import DEFAULT_RATING

    if player is None or player.user is None:
        return DEFAULT_RATING
    row = user_rating_get(user=player.user, variant=variant)
    return row.rating if row else DEFAULT_RATING


# The rating range a difficulty asks for: its target, give or take half a difficulty step.
NEXT_WINDOW = 150


@dataclass(frozen=True)
class NextPick:
    """The next puzzle, and how the choice had to be relaxed to find one: ``rating`` (none
    was left in ``rating_min``..``rating_max``, the range the difficulty asks for, so the
    nearest was taken) and ``tried`` (every matching puzzle has been tried; one is offered
    again)."""

    puzzle: Puzzle
    target: int
    rating_min: int
    rating_max: int
    relaxed: tuple[str, ...]


def puzzle_next_pick(
    *,
    player: Owner | None,
    variant: str,
    themes: Sequence[str] = (),
    difficulty: str = "normal",
    exclude: Sequence[int] = (),
    seed: int | None = None,
    kind: str = KIND_ALL,
) -> NextPick | None:
    """A published puzzle the player has not tried, rated within ``NEXT_WINDOW`` of their
    rating plus the difficulty offset, with all the given themes. Puzzles the player authored
    are skipped. Within the range a puzzle from a game (a master game or an engine game) comes
    before a constructed one. When none is left in that range, the nearest outside it is taken;
    when every matching puzzle has been tried, one is offered again; the pick says which it
    did."""
    target = round(
        player_rating_value(player=player, variant=variant) + DIFFICULTY_OFFSETS.get(difficulty, 0)
    )
    low, high = target - NEXT_WINDOW, target + NEXT_WINDOW
    rows = puzzle_list(variant=variant, themes=themes, kind=kind).exclude(pk__in=list(exclude))
    if player is not None and player.user is not None:
        rows = rows.exclude(author=player.user)
    tried = PuzzleAttempt.objects.filter(owner_filter(player)).values("puzzle_id")
    fresh = rows.exclude(pk__in=tried)
    rng = random.Random(seed)

    def nearest(pool: QuerySet[Puzzle]) -> list[Puzzle]:
        above = list(pool.filter(rating__gte=target).order_by("rating", "id")[:NEXT_SHORTLIST])
        below = list(pool.filter(rating__lt=target).order_by("-rating", "-id")[:NEXT_SHORTLIST])
        return sorted(above + below, key=lambda p: (abs(p.rating - target), p.pk))[
            : NEXT_SHORTLIST // 2
        ]

    for candidates, again in ((fresh, False), (rows, True)):
        # Moments of real games first: a puzzle from a game in the range before any other.
        from_games = [
            p
            for p in nearest(candidates.filter(source=Puzzle.Source.GAME))
            if low <= p.rating <= high
        ]
        near = nearest(candidates)
        if not near:
            continue
        inside = from_games or [p for p in near if low <= p.rating <= high]
        # Outside the range: the nearest, and those about as near (within half a step more).
        shortlist = inside or [
            p for p in near if abs(p.rating - target) <= abs(near[0].rating - target) + 50
        ]
        relaxed = ("tried",) * again + ("rating",) * (not inside)
        return NextPick(rng.choice(shortlist), target, low, high, relaxed)
    return None


def puzzle_next_for(
    *,
    player: Owner | None,
    variant: str,
    themes: Sequence[str] = (),
    difficulty: str = "normal",
    exclude: Sequence[int] = (),
    seed: int | None = None,
    kind: str = KIND_ALL,
) -> Puzzle | None:
    """The puzzle of ``puzzle_next_pick``, without how it was chosen."""
    pick = puzzle_next_pick(
        player=player,
        variant=variant,
        themes=themes,
        difficulty=difficulty,
        exclude=exclude,
        seed=seed,
        kind=kind,
    )
    return pick.puzzle if pick else None


def attempt_get(*, attempt_id: int) -> PuzzleAttempt | None:
    return PuzzleAttempt.objects.select_related("puzzle").filter(pk=attempt_id).first()


def daily_puzzles_for(date: datetime.date | None = None) -> list[DailyPuzzle]:
    """The daily puzzles of ``date`` (default: today in the site's time zone), one per variant
    that has one, in the order xiangqi, feidan, xinban. A puzzle retired since it was chosen
    is not shown (``daily_puzzles_choose`` gives its day another)."""
    date = date or timezone.localdate()
    order = {"xiangqi": 0, "feidan": 1, "xinban": 2}
    rows = DailyPuzzle.objects.filter(
        date=date, puzzle__status=Puzzle.Status.PUBLISHED
    ).select_related("puzzle")
    return sorted(rows, key=lambda d: order.get(d.variant, 9))


GOAL_LABELS = {
    "mate": gettext_lazy("Checkmate"),
    "dead_general": gettext_lazy("Dead general"),
    "win": gettext_lazy("Win"),
    "material": gettext_lazy("Win material"),
}


def daily_cards(dailies: Sequence[DailyPuzzle]) -> list[dict[str, Any]]:
    """Daily puzzles as cards for ``puzzles/_daily_cards.html`` (the home page and the daily
    page): each card has ``daily`` (the DailyPuzzle), ``title`` (the variant's name), ``goal``
    and ``diagram`` (a small picture of the position, side to move at the bottom)."""
    titles = {v.name: variant_title(v) for v in variant_list()}
    cards = []
    for d in dailies:
        title = titles.get(d.variant, d.variant)
        goal = GOAL_LABELS[d.puzzle.goal]
        label = _("%(goal)s in %(n)s") % {"goal": goal, "n": d.puzzle.moves_to_win}
        cards.append(
            {
                "daily": d,
                "title": title,
                "goal": goal,
                "diagram": board_svg(
                    variant=d.puzzle.variant,
                    fen=d.puzzle.fen,
                    label=_("%(variant)s: %(puzzle)s") % {"variant": title, "puzzle": label},
                ),
            }
        )
    return cards


# --- Dashboard ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThemeStat:
    slug: str
    name_en: str
    name_zh: str
    attempts: int
    solved: int

    @property
    def rate(self) -> float:
        return self.solved / self.attempts if self.attempts else 0.0


def rating_history(*, user: Any, variant: str) -> list[tuple[datetime.datetime, float]]:
    """The user's rating in the variant over time, oldest first: the rating before the first
    rated attempt, then the rating after each one."""
    rows = list(
        PuzzleAttempt.objects.filter(
            user=user, rated=True, puzzle__variant=variant, state=PuzzleAttempt.State.SCORED
        )
        .order_by("scored_at", "id")
        .values_list("scored_at", "user_rating_before", "user_rating_after")
    )
    if not rows:
        return []
    first_at, first_before, _ = rows[0]
    points = [(first_at, first_before)] if first_before is not None else []
    points += [(at, after) for at, _, after in rows if after is not None]
    return points  # type: ignore[return-value]  # a scored attempt has scored_at (constraint)


def theme_stats(*, player: Owner) -> list[ThemeStat]:
    """Per theme: how many of the player's scored attempts touched it, and how many succeeded."""
    rows = (
        PuzzleTheme.objects.annotate(
            attempts=Count(
                "puzzles__attempts",
                filter=player.q("puzzles__attempts__")
                & Q(puzzles__attempts__state=PuzzleAttempt.State.SCORED),
            ),
            solved=Count(
                "puzzles__attempts",
                filter=player.q("puzzles__attempts__")
                & Q(puzzles__attempts__state=PuzzleAttempt.State.SCORED)
                & Q(puzzles__attempts__result=PuzzleAttempt.Result.SOLVED),
            ),
        )
        .filter(attempts__gt=0)
        .order_by("order", "slug")
    )
    return [ThemeStat(t.slug, t.name_en, t.name_zh, t.attempts, t.solved) for t in rows]


def replay_list(*, player: Owner, due_only: bool = False) -> QuerySet[PuzzleReplay]:
    """The player's failed puzzles still to be solved, soonest due first."""
    rows = PuzzleReplay.objects.filter(player.q(), solved_at__isnull=True).select_related("puzzle")
    if due_only:
        rows = rows.filter(due_at__lte=timezone.now())
    return rows.order_by("due_at", "id")


def attempt_history(*, player: Owner, limit: int = 50) -> QuerySet[PuzzleAttempt]:
    return (
        PuzzleAttempt.objects.filter(player.q(), state=PuzzleAttempt.State.SCORED)
        .select_related("puzzle")
        .order_by("-scored_at", "-id")[:limit]
    )


def authored_list(*, user: Any) -> QuerySet[Puzzle]:
    return (
        Puzzle.objects.filter(author=user)
        .prefetch_related(Prefetch("themes"))
        .order_by("-updated_at", "-id")
    )


def user_ratings(*, user: Any) -> dict[str, PuzzleRating]:
    return {row.variant: row for row in PuzzleRating.objects.filter(user=user)}


@dataclass(frozen=True)
class VariantRating:
    variant: str
    row: PuzzleRating | None
    history: list[tuple[datetime.datetime, float]]


@dataclass(frozen=True)
class Dashboard:
    """What the dashboard shows (the page and the API): a logged-in player's rating and its
    history per variant, success per theme, the failed puzzles to replay, recent attempts."""

    ratings: list[VariantRating]
    themes: list[ThemeStat]
    replays: list[PuzzleReplay]
    recent: list[PuzzleAttempt]


DASHBOARD_RECENT = 20


def dashboard_get(*, player: Owner | None) -> Dashboard:
    if player is None:
        return Dashboard([], [], [], [])
    ratings = []
    if player.user is not None:
        rows = user_ratings(user=player.user)
        for variant in variant_list():
            ratings.append(
                VariantRating(
                    variant.name,
                    rows.get(variant.name),
                    rating_history(user=player.user, variant=variant.name),
                )
            )
    return Dashboard(
        ratings=ratings,
        themes=theme_stats(player=player),
        replays=list(replay_list(player=player)),
        recent=list(attempt_history(player=player, limit=DASHBOARD_RECENT)),
    )


def puzzle_game(puzzle: Puzzle) -> dict[str, Any] | None:
    """Where a puzzle from a game comes from: the game (``ccpd:<number>``, a master game;
    ``play:<id>``, the player's own, ``kind`` "own"), the plies played before it, the move it
    stands at, a title in the reader's language ("吕钦 – 许银川，2001 年，第 34 回合" / "呂欽 –
    許銀川, 2001, move 34"; "Your game, move 12") and the replay at that ply."""
    own = puzzle.source_game.startswith(("play:", "live:"))
    if own and puzzle.source_ply is not None:
        return _own_game(puzzle)
    if not puzzle.source_game.startswith("ccpd:") or puzzle.source_ply is None:
        return None
    number = int(puzzle.source_game.split(":", 1)[1])
    info = puzzle.source_info or {}
    move = puzzle.source_ply // 2 + 1
    red, black = info.get("red") or "?", info.get("black") or "?"
    year = info.get("year")
    if reads_chinese():
        red, black = simplified(red), simplified(black)
        title = f"{red} – {black}" + (f"，{year} 年" if year else "") + f"，第 {move} 回合"
    else:
        title = f"{red} – {black}" + (f", {year}" if year else "") + f", move {move}"
    url = reverse("games:master-game", kwargs={"game_id": number})
    return {
        "id": puzzle.source_game,
        "ply": puzzle.source_ply,
        "move": move,
        "title": title,
        "url": f"{url}#ply={puzzle.source_ply}",
        "kind": "master",
    }


def _own_game(puzzle: Puzzle) -> dict[str, Any] | None:
    missed = MissedMate.objects.filter(puzzle=puzzle).first()
    if missed is None:
        return None
    url = missed_game_url(missed.source, missed.game)
    return {
        "id": puzzle.source_game,
        "ply": missed.ply,
        "move": missed.move_number,
        "title": _("Your game, move {move}").format(move=missed.move_number),
        "url": f"{url}#ply={missed.ply}",
        "kind": "own",
    }


# --- Mates missed in the player's own games -------------------------------------------------


def missed_game_url(source: str, game: int) -> str:
    """The replay of one of the player's own games: a game against the computer or at one
    board (``play``), or a live game (``live``, shown to its two players only)."""
    if source == GameSource.LIVE:
        return reverse("pages:live-replay", kwargs={"game_id": game})
    return reverse("games:game", kwargs={"game_id": game})


def missed_list(
    *, player: Owner | None, game: int | None = None, source: str = GameSource.PLAY
) -> QuerySet[MissedMate]:
    """The player's missed mates (``solved``: the player has solved its puzzle since), newest
    game first, in the order of the game; only those of ``game`` (an id of the table
    ``source`` names) when given."""
    rows = MissedMate.objects.filter(owner_filter(player)).select_related("puzzle")
    if game is not None:
        rows = rows.filter(source=source, game=game)
    solved = PuzzleAttempt.objects.filter(
        owner_filter(player), puzzle=OuterRef("puzzle"), result=PuzzleAttempt.Result.SOLVED
    )
    return rows.annotate(solved=Exists(solved)).order_by("-game", "ply")


def game_review(
    *, player: Owner | None, game: int, source: str = GameSource.PLAY
) -> GameReview | None:
    """The search for missed mates on ``game`` (an id of the table ``source`` names), a game
    of ``player``'s, once it has run (a live game: the player's own review): for anyone else's
    game ``None``, as for a game that does not exist."""
    return GameReview.objects.filter(owner_filter(player), source=source, game=game).first()


def review_looked(review: GameReview) -> tuple[str | None, str]:
    """Which engine looked for the wins missed in a reviewed game (``fairy-stockfish`` or
    ``ours``; ``None`` when the game could not be replayed) and, in the reader's language, what
    it looked for: "Fairy-Stockfish looked for forced wins of up to 5 moves."; when the judge
    failed on the game, that first, then what the quick searches looked for; when the game
    was too long to look at in the review's time, from which move it was not."""
    looked, text = _review_engine(review)
    move = review.stats.get("unlooked_from_move")
    if looked is not None and move:
        stopped = _(
            "The game was too long to look at whole: moves from {move} on were not looked at."
        ).format(move=move)
        text = ("" if reads_chinese() else " ").join([text, stopped])
    return looked, text


def _review_engine(review: GameReview) -> tuple[str | None, str]:
    looked = review.stats.get("looked")
    if looked == "fairy-stockfish":
        return looked, _("Fairy-Stockfish looked for forced wins of up to {n} moves.").format(
            n=MISSED_MAX_MOVES
        )
    if looked == "ours":
        move = review.stats.get("quick_from_move")
        if move:  # a long game: the judge's budget for it ran out there
            text = _(
                "The site's own engine looked for forced wins of up to {n} moves until move "
                "{move}, and of up to {quick} moves from there on."
            )
            return looked, text.format(n=MISSED_MAX_MOVES, move=move, quick=MISSED_QUICK_MAX_MOVES)
        text = _("The site's own engine looked for forced wins of up to {n} moves.")
        return looked, text.format(n=MISSED_MAX_MOVES)
    if looked == "quick":
        text = _("The site's own engine looked for forced wins of up to {n} moves.").format(
            n=MISSED_QUICK_MAX_MOVES
        )
        if review.stats.get("judge_failed"):
            # reviews from before the site's own engine judged: Fairy-Stockfish had failed
            if review.stats.get("judge", "fairy-stockfish") == "fairy-stockfish":
                failed = _("Fairy-Stockfish failed on this game.")
            else:
                failed = _("The site's own engine's deeper search failed on this game.")
            sep = "" if reads_chinese() else " "
            text = sep.join([failed, text])
        return "ours", text
    return None, ""


def missed_text(missed: MissedMate) -> str:
    """The moment in words, in the reader's language: "At move 24 you had a mate in 3." (a
    dead general in Missile Xiangqi, or there a win that ends in either), "At move 12 you
    could have won a chariot (judged by Fairy-Stockfish)."."""
    n, move, goal = missed.puzzle.moves_to_win, missed.move_number, missed.puzzle.goal
    if goal == "material":
        return _missed_material_text(missed)
    if missed.by_player:
        if goal == "dead_general":
            return _("At move {move} you had a dead general in {n}.").format(move=move, n=n)
        if goal == "win":
            return _("At move {move} you had a forced win in {n}.").format(move=move, n=n)
        return _("At move {move} you had a mate in {n}.").format(move=move, n=n)
    if goal == "dead_general":
        return _(
            "At move {move} the computer let you escape: it had a dead general in {n}."
        ).format(move=move, n=n)
    if goal == "win":
        return _("At move {move} the computer let you escape: it had a forced win in {n}.").format(
            move=move, n=n
        )
    return _("At move {move} the computer let you escape: it had a mate in {n}.").format(
        move=move, n=n
    )


# The engines that judge a missed material win, by name, in the reader's language.
MATERIAL_ENGINES = {
    "fairy-stockfish": "Fairy-Stockfish",
    "ours": gettext_lazy("the site's own engine"),
}
_COUNT_EN = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five"}
_COUNT_ZH = {1: "一", 2: "两", 3: "三", 4: "四", 5: "五"}


def _pieces_text(counts: dict[str, int], colour: str, chinese: bool) -> str:
    """{"chariot": 1, "soldier": 2} as "a chariot and two soldiers" / "一车两卒"."""
    if chinese:
        return "".join(
            f"{_COUNT_ZH.get(n, str(n))}{piece_name(kind, colour, 'zh')}"
            for kind, n in counts.items()
        )
    words = [
        f"{_COUNT_EN.get(n, str(n))} {kind}{'' if n == 1 else 's'}" for kind, n in counts.items()
    ]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def tactic_refutation_text(
    *, reply: str, side: str, won: dict[str, int], lost: dict[str, int]
) -> str:
    """Why a wrong move in a tactics puzzle fails, in the reader's language: the opponent's
    ``reply`` (in Chinese notation, as every move on the page) and what the solver (``side``)
    has won or lost once it is played: "Not the right move: the opponent answers 车二进四, and
    you win nothing." / "不对：对方应以车二进四，你什么也没赢到。"."""
    chinese = reads_chinese()
    other = "black" if side == "red" else "red"
    taken = _pieces_text(won, other, chinese) if won else ""
    given = _pieces_text(lost, side, chinese) if lost else ""
    if taken and given:
        text = _(
            "Not the right move: the opponent answers {move}, and you win {won} but lose {lost}."
        )
    elif given:
        text = _("Not the right move: the opponent answers {move}, and you lose {lost}.")
    elif taken:
        text = _("Not the right move: the opponent answers {move}, and you win only {won}.")
    else:
        text = _("Not the right move: the opponent answers {move}, and you win nothing.")
    return text.format(move=reply, won=taken, lost=given)


def material_won_text(proof: dict[str, Any], side: str) -> str:
    """What a missed material win wins, in the reader's language: "won a chariot", "won a
    chariot for a horse" / "得一车", "用一马换得一车" (``side`` is the winner's)."""
    chinese = reads_chinese()
    other = "black" if side == "red" else "red"
    won = _pieces_text(proof.get("won") or {}, other, chinese)
    lost = _pieces_text(proof.get("lost") or {}, side, chinese) if proof.get("lost") else ""
    if chinese:
        return f"用{lost}换得{won}" if lost else f"得{won}"
    return f"won {won} for {lost}" if lost else f"won {won}"


def material_judge_name(proof: dict[str, Any]) -> str:
    """The engine that judged a material win, in the reader's language: the name and version
    it gave ("Fairy-Stockfish 11.1") or the bank's "Fairy-Stockfish", or "the site's own
    engine"."""
    if proof.get("engine") == "ours":
        return str(MATERIAL_ENGINES["ours"])
    return str(proof.get("judge") or MATERIAL_ENGINES["fairy-stockfish"])


def puzzle_judge_text(*, puzzle: Puzzle) -> str | None:
    """Which engine judged a "win material" puzzle and on what search, and what it decided at
    the first move, in the reader's language: "Checked by Fairy-Stockfish on a search of
    200,000 positions: only the first move of the solution wins material." None for a puzzle
    the prover proved (a mate). It names the answer's kind, so it is for a finished try only
    (``access_solution_view``)."""
    proof = puzzle.proof
    if proof is None or not tactics.is_material(proof):
        return None
    engine = material_judge_name(proof)
    nodes = f"{int(proof.get('nodes') or 0):,}"
    steps = proof.get("steps") or [{}]
    first = len(steps[0].get("accepted") or ())
    if first <= 1:
        checked = _(
            "Checked by {engine} on a search of {nodes} positions: only the first move of the "
            "solution wins material."
        ).format(engine=engine, nodes=nodes)
    else:
        checked = _(
            "Checked by {engine} on a search of {nodes} positions: {n} moves win material here, "
            "each taken as right."
        ).format(engine=engine, nodes=nodes, n=first)
    won = solution_wins_text(proof)
    return ("" if reads_chinese() else " ").join([checked, won]) if won else checked


def solution_wins_text(proof: dict[str, Any]) -> str:
    """What a tactics puzzle's solution wins, in the reader's language: "The solution wins a
    cannon." / "解答得一炮。", "The solution wins a chariot for a horse." / "解答用一马换得一车。";
    empty when it wins no piece the line shows."""
    won, lost = tactics.line_material(proof)
    if not won:
        return ""
    fen = str(proof.get("fen") or "")
    side = "black" if fen.split(" ")[1:2] == ["b"] else "red"
    other = "black" if side == "red" else "red"
    chinese = reads_chinese()
    what = _pieces_text(won, other, chinese)
    given = _pieces_text(lost, side, chinese) if lost else ""
    if chinese:
        return f"解答用{given}换得{what}。" if given else f"解答得{what}。"
    return f"The solution wins {what} for {given}." if given else f"The solution wins {what}."


def _missed_material_text(missed: MissedMate) -> str:
    proof = missed.puzzle.proof or {}
    what = material_won_text(proof, missed.side)
    engine = MATERIAL_ENGINES.get(str(proof.get("engine")), proof.get("judge") or "")
    if missed.by_player:
        return _("At move {move} you could have {what} (judged by {engine}).").format(
            move=missed.move_number, what=what, engine=engine
        )
    return _(
        "At move {move} the computer let you escape: it could have {what} (judged by {engine})."
    ).format(move=missed.move_number, what=what, engine=engine)


def missed_next_for(
    *, player: Owner | None, variant: str, exclude: Sequence[int] = ()
) -> Puzzle | None:
    """The next of the player's own missed mates in ``variant`` for the trainer: one not
    solved yet, newest game first; when all are solved, the oldest again."""
    rows = (
        Puzzle.objects.filter(owner_filter(player, "missed__"), status=Puzzle.Status.PRIVATE)
        .filter(variant=variant)
        .exclude(pk__in=list(exclude))
        .prefetch_related("themes")
    )
    solved = PuzzleAttempt.objects.filter(
        owner_filter(player), result=PuzzleAttempt.Result.SOLVED
    ).values("puzzle_id")
    fresh = rows.exclude(pk__in=solved).order_by("-missed__game", "missed__ply").first()
    return fresh or rows.order_by("missed__game", "missed__ply").first()


@dataclass(frozen=True)
class MiningProgress:
    """How far a mining run got (``manage.py mine_puzzles --status RUN``)."""

    run: str
    total: int  # chunks recorded
    done: int
    running: int
    failed: int
    found: int  # puzzles the finished chunks found
    games: int  # games the finished chunks read
    cpu_seconds: float  # CPU time of the finished chunks

    @property
    def per_cpu_hour(self) -> float:
        return self.found * 3600 / self.cpu_seconds if self.cpu_seconds else 0.0

    def line(self) -> str:
        return (
            f"{self.run}: {self.done}/{self.total} chunks done ({self.running} running, "
            f"{self.failed} failed), {self.games} games, {self.found} puzzles so far, "
            f"{self.cpu_seconds:.0f} CPU seconds, {self.per_cpu_hour:.0f} puzzles per CPU-hour"
        )


def mining_run_progress(*, run: str) -> MiningProgress:
    rows = list(MiningChunk.objects.filter(run=run).values("status", "found", "games", "seconds"))
    done = [r for r in rows if r["status"] == MiningChunk.Status.DONE]
    return MiningProgress(
        run=run,
        total=len(rows),
        done=len(done),
        running=sum(1 for r in rows if r["status"] == MiningChunk.Status.RUNNING),
        failed=sum(1 for r in rows if r["status"] == MiningChunk.Status.FAILED),
        found=sum(r["found"] for r in done),
        games=sum(r["games"] for r in done),
        cpu_seconds=sum(r["seconds"] for r in done),
    )


def mining_run_entries(*, run: str) -> list[dict[str, Any]]:
    """The puzzles (bank entries) of a run's finished chunks, in the order of their games."""
    chunks = MiningChunk.objects.filter(run=run, status=MiningChunk.Status.DONE).order_by("first")
    return [entry for chunk in chunks for entry in chunk.entries]


# --- Puzzle Streak and Storm: leaderboards and bests ----------------------------------------------------------------


# The day's leaderboard of Puzzle Streak and Puzzle Storm lists this many players.
RUN_LEADERBOARD_SIZE = 20


@dataclass(frozen=True)
class BoardRow:
    rank: int
    username: str
    score: int


def run_leaderboard(*, mode: str, variant: str, day: datetime.date) -> list[BoardRow]:
    """The day's best score of each signed-in player (visitors play, but are not listed; nor
    are runs played faster than a person can move, ``too_fast``), highest first; a tie goes to
    who started the run earlier in the day."""
    rows = (
        PuzzleRun.objects.filter(
            mode=mode, variant=variant, day=day, user__isnull=False, score__gt=0, too_fast=False
        )
        .values("user__username")
        .annotate(best=Max("score"), first=Min("started_at"))
        .order_by("-best", "first", "user__username")[:RUN_LEADERBOARD_SIZE]
    )
    return [
        BoardRow(rank=rank, username=row["user__username"], score=row["best"])
        for rank, row in enumerate(rows, start=1)
    ]


def run_bests(
    *, player: Owner | None, day: datetime.date | None = None
) -> dict[str, dict[str, int]]:
    """The player's best score per mode and variant (``{"streak": {"xiangqi": 7}}``), ever or
    on ``day``."""
    out: dict[str, dict[str, int]] = {mode: {} for mode in PuzzleRun.Mode.values}
    if player is None:
        return out
    rows = PuzzleRun.objects.filter(player.q())
    if day is not None:
        rows = rows.filter(day=day)
    for row in rows.values("mode", "variant").annotate(best=Max("score")):
        out[row["mode"]][row["variant"]] = row["best"]
    return out


# -- the proving queue ---------------------------------------------------------------------

# Proofs started within this window count against their author's and address's next turn.
SERVED_WINDOW = datetime.timedelta(hours=1)


def proving_queue_order(*, now: datetime.datetime | None = None) -> list[int]:
    """The puzzles waiting for the prover (not started yet), in the order they will be proved.

    A puzzle's turn is the larger of its author's and its address's: their proofs started in
    the last ``SERVED_WINDOW`` (running ones included) plus their puzzles waiting ahead of it;
    then the earlier submission goes first.
    """
    now = now or timezone.now()
    recent = ProvingRequest.objects.filter(started_at__gte=now - SERVED_WINDOW)
    served: Counter[int | None] = Counter()
    served_from: Counter[str] = Counter()
    for author_id, address in recent.values_list("puzzle__author_id", "address"):
        served[author_id] += 1
        if address:
            served_from[address] += 1
    waiting = (
        Puzzle.objects.filter(status=Puzzle.Status.VERIFYING, proving__started_at__isnull=True)
        .order_by("verify_requested_at", "pk")
        .values_list("pk", "author_id", "proving__address", "verify_requested_at")
    )
    ahead: Counter[int | None] = Counter()
    ahead_from: Counter[str] = Counter()
    turns = []
    for pk, author_id, address, requested_at in waiting:
        turn = served[author_id] + ahead[author_id]
        ahead[author_id] += 1
        if address:
            turn = max(turn, served_from[address] + ahead_from[address])
            ahead_from[address] += 1
        turns.append((turn, requested_at or now, pk))
    return [pk for _turn, _at, pk in sorted(turns)]


@dataclass(frozen=True)
class ProvingState:
    """Where a puzzle being verified is, for its author: ``waiting`` with ``ahead`` puzzles to
    be proved before it, or ``proving`` with the prover's last ``progress`` (empty until the
    first report); ``nodes`` and ``seconds`` are the prover's budget."""

    state: str
    ahead: int
    progress: dict[str, object]
    nodes: int = proving.VERIFY_NODES
    seconds: float = proving.VERIFY_SECONDS


def proving_state(*, puzzle: Puzzle) -> ProvingState | None:
    """Where ``puzzle`` is in the proving queue; ``None`` unless it is being verified."""
    if puzzle.status != Puzzle.Status.VERIFYING:
        return None
    request = ProvingRequest.objects.filter(puzzle=puzzle).first()
    if request is not None and request.started_at is not None:
        return ProvingState(state="proving", ahead=0, progress=dict(request.progress or {}))
    order = proving_queue_order()
    ahead = order.index(puzzle.pk) if puzzle.pk in order else len(order)
    return ProvingState(state="waiting", ahead=ahead, progress={})
