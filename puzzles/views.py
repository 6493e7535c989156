"""Pages of the puzzles app: solving (next puzzle, share link, daily), the dashboard, the
editor and the author's list. Pages hand their data to small scripts (puzzles/static/puzzles/)
that talk to the JSON API; the solution is never in a page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.owners import owner_for_request
from core.messages import reads_chinese
from core.selectors import variant_board, variant_list
from engine import Position
from puzzles import selectors, services
from puzzles.editor_checks import position_messages, position_rules
from puzzles.models import MAX_MOVES_TO_WIN, Puzzle, Variant
from puzzles.selectors import DIFFICULTY_OFFSETS, GOAL_LABELS
from puzzles.services.authoring import MAX_AUTHORED_MOVES
from puzzles.themes import PATTERN_SLUGS
from puzzles.themes import SLUGS as THEME_SLUGS
from words.texts import piece_name


def _variants() -> list[dict[str, Any]]:
    return [{**variant_board(v), "start": v.default_start} for v in variant_list()]


# The editor's palette: every piece of every variant, turncoats (xinban) included.
PALETTE_LETTERS = [*"KABNRCPFM", "+R", "+N", "+C"]


def _palette_names() -> dict[str, str]:
    """Each palette letter's name in the reader's language: ``R`` "Red chariot" / "红车"."""
    names = {}
    for letter in [*PALETTE_LETTERS, *(letter.lower() for letter in PALETTE_LETTERS)]:
        name = piece_name(letter).get(get_language())
        names[letter] = name[:1].upper() + name[1:]
    return names


# The theme filter shows how many published puzzles each theme has: a count over the whole
# bank, kept this long in the cache (per language) since every trainer page shows it.
THEMES_SECONDS = 300


def _themes() -> list[dict[str, Any]]:
    # (":2": the rows say whether they are kill patterns; rows cached before that lack it)
    key = f"puzzles:themes:2:{'zh' if reads_chinese() else 'en'}"
    themes: list[dict[str, Any]] | None = cache.get(key)
    if themes is None:
        counts = selectors.pattern_counts()
        themes = [
            {
                "slug": t.slug,
                "name": t.name_zh if reads_chinese() else t.name_en,
                "published": t.published,  # type: ignore[attr-defined]  # annotated by theme_list
                "pattern": t.slug in PATTERN_SLUGS,
                # a kill pattern's chip is shown for the variants that have puzzles with it
                "variants": " ".join(sorted(counts.get(t.slug, {}))),
            }
            for t in selectors.theme_list()
        ]
        cache.set(key, themes, THEMES_SECONDS)
    return themes


def _labels() -> dict[str, Any]:
    return {
        "red": _("Red"),
        "black": _("Black"),
        "to_move": _("to move"),
        "side_goal": _("{side} to move: {goal}"),
        "your_turn": _("Your move: find the best move."),
        "goals": {
            "mate": _("Checkmate in {n}"),
            "dead_general": _("Dead general in {n}"),
            "win": _("Win in {n}"),
        },
        "correct": _("Right! Keep going."),
        "solved": _("Solved!"),
        "wrong": _("Not the right move."),
        "refuted_by": _("The defence {move} escapes."),
        "wrong_refuted": _("Not the right move. The defence {move} escapes."),
        "wrong_reason": _("Not the right move ({reason})."),
        "unknown": _("That move could not be checked in time; take it back and try another."),
        "thinking": _("Checking…"),
        "scoring": _("Recording your result…"),
        "rated": _("Rating {before} → {after} ({delta})"),
        "unrated": _("This try is not rated."),
        "unrated_anonymous": _("Log in to have your tries rated."),
        "hint_piece": _("Hint: move the highlighted piece."),
        "hint_move": _("Hint: the arrow shows the move."),
        "solution": _("Solution"),
        "copied": _("Copied"),
        "no_puzzle": _("No puzzle matches these filters."),
        "no_missed": _(
            "No mate missed in your games in this variant yet: when you miss one, it comes here."
        ),
        "from_own_game": _("From your game:"),
        "puzzle_rating": _("Puzzle rating"),
        "error": _("Something went wrong. Please try again."),
        "checks_only": _("Proved among checking moves: every move must give check."),
        "from_game": _("From a master game:"),
        "patterns": _("Kill pattern:"),
        "game_credit": _(
            "Master games: the Chinese Chess Practical Dataset by Yu-Han Tseng (CC BY 4.0)."
        ),
    }


def _solve_page(request: HttpRequest, *, puzzle: Puzzle | None, mode: str) -> HttpResponse:
    variant = request.GET.get("variant") or (puzzle.variant if puzzle else Variant.XIANGQI)
    if variant not in Variant.values:
        variant = Variant.XIANGQI
    # Known themes, each once: the trainer asks the API for them, which refuses any other.
    asked = (t.strip() for t in request.GET.get("themes", "").split(","))
    themes = [t for t in dict.fromkeys(asked) if t in THEME_SLUGS]
    difficulty = request.GET.get("difficulty", "normal")
    pool = "mine" if request.GET.get("pool") == "mine" else "bank"
    theme_rows = _themes()
    page = {
        "mode": mode,  # next | fixed
        "puzzle_id": puzzle.pk if puzzle else None,
        "variant": variant,
        "themes": themes,
        "difficulty": difficulty if difficulty in DIFFICULTY_OFFSETS else "normal",
        "difficulties": list(DIFFICULTY_OFFSETS),
        "pool": pool,  # bank | mine (the mates missed in my own games)
        "logged_in": request.user.is_authenticated,
        "board_module": static("build/board.js"),
        "api": {
            "detail": reverse("puzzles-api:detail", kwargs={"puzzle_id": 0}),
            "judge": reverse("puzzles-api:judge", kwargs={"puzzle_id": 0}),
            "hint": reverse("puzzles-api:hint", kwargs={"puzzle_id": 0}),
            "open": reverse("puzzles-api:attempt-open", kwargs={"puzzle_id": 0}),
            "give_up": reverse("puzzles-api:give-up", kwargs={"puzzle_id": 0}),
            "next": reverse("puzzles-api:next"),
        },
        "labels": _labels(),
        "theme_names": {t["slug"]: t["name"] for t in theme_rows},
    }
    return render(
        request,
        "puzzles/solve.html",
        {
            "page": page,
            "puzzle": puzzle,
            "variants": _variants(),
            "themes": [t for t in theme_rows if not t["pattern"]],
            "pattern_themes": [t for t in theme_rows if t["pattern"]],
            "difficulties": [(key, DIFFICULTY_LABELS[key]) for key in DIFFICULTY_OFFSETS],
            "selected_variant": variant,
            "selected_themes": themes,
            "selected_difficulty": page["difficulty"],
            "selected_pool": pool,
        },
    )


# The missed mates the dashboard lists (the newest games' first).
DASHBOARD_MISSED = 50


# In words: the rating offsets behind them (DIFFICULTY_OFFSETS) mean nothing to a learner.
DIFFICULTY_LABELS = {
    "easiest": gettext_lazy("Much easier than my level"),
    "easier": gettext_lazy("A little easier"),
    "normal": gettext_lazy("At my level"),
    "harder": gettext_lazy("A little harder"),
    "hardest": gettext_lazy("Much harder than my level"),
}


@require_safe
def solve(request: HttpRequest) -> HttpResponse:
    """The puzzle trainer: the next puzzle near the player's rating, with filters."""
    return _solve_page(request, puzzle=None, mode="next")


@require_safe
def share(request: HttpRequest, slug: str) -> HttpResponse:
    """One puzzle by its share link (drafts only for their author)."""
    puzzle = selectors.puzzle_get_by_slug(slug=slug)
    player = owner_for_request(request, create=False)
    if puzzle is None or not selectors.access_puzzle_view(
        puzzle=puzzle, user=request.user, player=player
    ):
        raise Http404
    return _solve_page(request, puzzle=puzzle, mode="fixed")


def daily_cards(date: Any = None) -> list[dict[str, Any]]:
    """Today's puzzles as cards for ``puzzles/_daily_cards.html``, choosing the day's puzzles
    first if nobody has yet (idempotent; the home page only reads, see pages.views.home)."""
    date = date or timezone.localdate()
    return selectors.daily_cards(services.daily_puzzles_ensure(date=date))


@require_safe
def daily(request: HttpRequest) -> HttpResponse:
    """Today's puzzles, one per variant."""
    today = timezone.localdate()
    return render(request, "puzzles/daily.html", {"cards": daily_cards(today), "today": today})


@require_safe
def daily_variant(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in Variant.values:
        raise Http404
    today = timezone.localdate()
    found = [d for d in services.daily_puzzles_ensure(date=today) if d.variant == variant]
    if not found:
        raise Http404
    return _solve_page(request, puzzle=found[0].puzzle, mode="fixed")


def _chart(points: list[tuple[Any, float]], width: int = 560, height: int = 160) -> dict[str, Any]:
    """An SVG polyline of a rating history (oldest left)."""
    if not points:
        return {"points": "", "min": None, "max": None, "count": 0}
    ratings = [r for _, r in points]
    low, high = min(ratings), max(ratings)
    if high - low < 50:
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    step = width / max(1, len(points) - 1)
    coords = []
    for index, rating in enumerate(ratings):
        x = index * step if len(points) > 1 else width / 2
        y = height - (rating - low) / (high - low) * (height - 10) - 5
        coords.append(f"{x:.1f},{y:.1f}")
    return {
        "points": " ".join(coords),
        "min": round(low),
        "max": round(high),
        "count": len(points),
        "last": round(ratings[-1]),
        "width": width,
        "height": height,
    }


@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    """Ratings and their history per variant, success per theme and per kill pattern, failed
    puzzles to replay."""
    player = owner_for_request(request, create=False)
    board = selectors.dashboard_get(player=player)
    missed = [
        {"row": row, "text": selectors.missed_text(row)}
        for row in selectors.missed_list(player=player)[:DASHBOARD_MISSED]
    ]
    variants = {v["name"]: v for v in _variants()}
    now = timezone.now()
    stats = [
        {
            "stat": s,
            "name": s.name_zh if reads_chinese() else s.name_en,
            "percent": round(100 * s.rate),
            "pattern": s.slug in PATTERN_SLUGS,
        }
        for s in board.themes
    ]
    return render(
        request,
        "puzzles/dashboard.html",
        {
            "ratings": [
                {"variant": variants[r.variant], "row": r.row, "chart": _chart(r.history)}
                for r in board.ratings
            ],
            "theme_stats": [row for row in stats if not row["pattern"]],
            "pattern_stats": [row for row in stats if row["pattern"]],
            "replays": [{"replay": r, "due": r.due_at <= now} for r in board.replays],
            "recent": board.recent,
            "missed": missed,
        },
    )


@require_safe
def patterns(request: HttpRequest) -> HttpResponse:
    """The named kill patterns, by family: what each is, an example mate, how many puzzles
    have it in each variant, and a link that opens the trainer on it."""
    return render(request, "puzzles/patterns.html", {"families": selectors.pattern_families()})


def _editor_initial(request: HttpRequest) -> dict[str, str] | None:
    """The position given by ``?variant=&fen=``, or None when it is missing or not a position."""
    variant, fen = request.GET.get("variant", ""), request.GET.get("fen", "")
    if variant not in Variant.values or not fen:
        return None
    try:
        Position.from_fen(variant, fen)
    except ValueError:
        return None
    return {"variant": variant, "fen": fen}


@login_required
@require_safe
def editor(request: HttpRequest, puzzle_id: int | None = None) -> HttpResponse:
    """The puzzle editor: place pieces, choose variant, side, goal and length, then submit."""
    puzzle = None
    if puzzle_id is not None:
        puzzle = selectors.puzzle_get(puzzle_id=puzzle_id)
        if puzzle is None or not selectors.access_puzzle_edit(puzzle=puzzle, user=request.user):
            raise Http404
        if puzzle.status == Puzzle.Status.PUBLISHED:
            return redirect("puzzles:share", slug=puzzle.slug)
    page = {
        "board_module": static("build/board.js"),
        "variants": _variants(),
        # ?variant=&fen= open a new puzzle on a position (from a game, say); checked as usual.
        "initial": _editor_initial(request) if puzzle is None else None,
        "max_moves": min(MAX_AUTHORED_MOVES, MAX_MOVES_TO_WIN),
        # what the editor tells without asking the server (puzzles/editor_checks.py)
        "rules": position_rules(),
        "puzzle": (
            {
                "id": puzzle.pk,
                "variant": puzzle.variant,
                "fen": puzzle.fen,
                "goal": puzzle.goal,
                "moves_to_win": puzzle.moves_to_win,
                "title": puzzle.title,
                "status": puzzle.status,
            }
            if puzzle
            else None
        ),
        "api": {
            "check": reverse("puzzles-api:position-check"),
            "create": reverse("puzzles-api:authored"),
            "detail": reverse("puzzles-api:authored-detail", kwargs={"puzzle_id": 0}),
            "submit": reverse("puzzles-api:authored-submit", kwargs={"puzzle_id": 0}),
        },
        "labels": {
            "legal": _("Legal position: {turn} to move."),
            "saved": _("Draft saved."),
            "verifying": _("Submitted: the engine is proving your puzzle…"),
            "published": _("Published! Share it with this link:"),
            "rejected": _("Not published: {reason}"),
            "red": _("Red"),
            "black": _("Black"),
            "error": _("Something went wrong. Please try again."),
            "fen_error": _("This FEN cannot be read: {reason} The board is unchanged."),
            "fen_ranks": _("it has {n} rows; a board has 10, separated by “/”."),
            "fen_width": _("row {row} from the top has {n} points; this board has {width}."),
            "fen_piece": _("“{letter}” in row {row} from the top is not a piece of this variant."),
            "fen_side": _("the side to move must be w (Red) or b (Black), not “{side}”."),
            "position": position_messages(),
            "checking": _("Checking…"),
            "copied": _("Copied"),
            "pieces": _palette_names(),
            "eraser": _("Eraser: remove a piece"),
        },
    }
    return render(
        request, "puzzles/editor.html", {"page": page, "puzzle": puzzle, "goals": GOAL_LABELS}
    )


@login_required
@require_safe
def mine(request: HttpRequest) -> HttpResponse:
    """The puzzles I made, with their verification status and share links."""
    return render(
        request,
        "puzzles/mine.html",
        {"puzzles": selectors.authored_list(user=request.user), "goals": GOAL_LABELS},
    )
