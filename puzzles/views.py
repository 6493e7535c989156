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
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.owners import owner_for_request
from core.messages import reads_chinese
from core.selectors import variant_board, variant_get, variant_list
from engine import Position
from puzzles import selectors, services
from puzzles.editor_checks import position_messages, position_rules
from puzzles.models import MAX_MOVES_TO_WIN, PROVED_GOALS, Puzzle, PuzzleRun, Variant
from puzzles.selectors import DIFFICULTY_LABELS, DIFFICULTY_OFFSETS, GOAL_LABELS
from puzzles.services import runs
from puzzles.services.authoring import MAX_AUTHORED_MOVES
from puzzles.themes import PATTERN_SLUGS, THEME_VARIANTS, themes_of_variant
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
    # (":3": the rows name the variants they are offered in; rows cached before that lack it)
    key = f"puzzles:themes:3:{'zh' if reads_chinese() else 'en'}"
    themes: list[dict[str, Any]] | None = cache.get(key)
    if themes is None:
        counts = selectors.theme_counts()
        themes = [
            {
                "slug": t.slug,
                "name": t.name_zh if reads_chinese() else t.name_en,
                "published": t.published,  # type: ignore[attr-defined]  # annotated by theme_list
                "pattern": t.slug in PATTERN_SLUGS,
                # the variants that can have the theme, and those of them with puzzles with it
                # (its chip is offered in those)
                "occurs": sorted(THEME_VARIANTS.get(t.slug, ())),
                "variants": sorted(
                    v for v in counts.get(t.slug, {}) if v in THEME_VARIANTS.get(t.slug, ())
                ),
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
            "material": _("Win material: find the only move that does"),
            "material_own": _("Win material: find a move that does"),
        },
        "also_good": _("Also good, but not the best: find the strongest move."),
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
        "unrated_hint": _("This try is no longer rated: a hint was taken."),
        "unrated_anonymous": _("Log in to have your tries rated."),
        "hint_piece": _("Hint: move the highlighted piece."),
        "hint_move": _("Hint: the arrow shows the move."),
        "solution": _("Solution"),
        "copied": _("Copied"),
        "no_puzzle": _("No puzzle matches these filters."),
        "no_missed": _(
            "No win missed in your games in this variant yet: when you miss one, it comes here."
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
    # Known themes of the variant, each once: the trainer asks the API for them, which
    # refuses any other.
    asked = (t.strip() for t in request.GET.get("themes", "").split(","))
    offered = themes_of_variant(variant)
    themes = [t for t in dict.fromkeys(asked) if t in offered]
    difficulty = request.GET.get("difficulty", "normal")
    pool = "mine" if request.GET.get("pool") == "mine" else "bank"
    kind = request.GET.get("kind", selectors.KIND_ALL)
    kind = kind if kind in selectors.KINDS else selectors.KIND_ALL
    theme_rows = _themes()
    page = {
        "mode": mode,  # next | fixed
        "puzzle_id": puzzle.pk if puzzle else None,
        "variant": variant,
        "themes": themes,
        "difficulty": difficulty if difficulty in DIFFICULTY_OFFSETS else "normal",
        "difficulties": list(DIFFICULTY_OFFSETS),
        "pool": pool,  # bank | mine (the mates missed in my own games)
        "kind": kind,  # all | mates | tactics
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
            "kinds": [
                (selectors.KIND_ALL, _("Mates and tactics")),
                (selectors.KIND_MATES, _("Mates")),
                (selectors.KIND_TACTICS, _("Tactics: win material")),
            ],
            "selected_kind": kind,
        },
    )


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
                "mode": puzzle.proof_mode or "full",
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
            "waiting": _("Waiting for the prover: {n} puzzles ahead of yours."),
            "waiting_next": _("Waiting for the prover: yours is next."),
            "stages": {
                "start": _("The prover has started on your puzzle…"),
                "win": _("Looking for a forced win in {n}…"),
                "shorter": _("A forced win is found; making sure there is none shorter…"),
                "unique": _("Making sure no other first move wins: {done} of {total} tried…"),
                "tree": _("Every first move is decided; writing down the solution…"),
            },
            "work": _("{nodes} positions searched in {seconds} s (it stops at {limit} s)."),
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
        request, "puzzles/editor.html", {"page": page, "puzzle": puzzle, "goals": PROVED_LABELS}
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


# The goals an author can choose: those the prover proves.
PROVED_LABELS = {goal: label for goal, label in GOAL_LABELS.items() if goal in PROVED_GOALS}


def _run_labels(mode: str) -> dict[str, Any]:
    labels: dict[str, Any] = {
        "red": _("Red"),
        "black": _("Black"),
        "side_goal": _("{side} to move: {goal}"),
        "goals": {
            "mate": _("Checkmate in {n}"),
            "dead_general": _("Dead general in {n}"),
            "win": _("Win in {n}"),
            "material": _("Win material: find the only move that does"),
        },
        "also_good": _("Also good, but not the best: find the strongest move."),
        "puzzle_rating": _("Puzzle rating"),
        "your_turn": _("Your move: find the best move."),
        "correct": _("Right! Keep going."),
        "solved": _("Solved!"),
        "thinking": _("Checking…"),
        "unknown": _("That move could not be checked in time; take it back and try another."),
        "error": _("Something went wrong. Please try again."),
        "puzzle_of": _("Puzzle {n} of {total}"),
        "start": _("Start"),
        "again": _("Play again"),
        "played_none": _("No puzzle was played to its end."),
        "results": {
            "solved": _("Solved"),
            "missed": _("Missed"),
            "skipped": _("Skipped"),
        },
        # {score} stays a placeholder for the page's script to fill in
        "best_today": _("Your best today: %(score)s") % {"score": "{score}"},
        "board_empty": _("Nobody on the board yet today."),
        "final": _("Score: {score}"),
        "best_combo": _("Best combo: {n}"),
    }
    labels["too_fast"] = _(
        "Many moves of this run came faster than a person can move: it is not on the leaderboard."
    )
    if mode == PuzzleRun.Mode.STREAK:
        labels["wrong"] = _("Not the right move: the streak ends here.")
        # the answer that refutes the move, played on the board: a mate's escaping defence,
        # or a tactic's best reply with what it wins or saves ({reason}, a whole sentence)
        labels["wrong_refuted"] = _(
            "Not the right move: the defence {move} escapes. The streak ends here."
        )
        labels["wrong_explained"] = _("{reason} The streak ends here.")
        labels["seen"] = _(
            "You have seen this puzzle's solution: it counts as a miss, and the streak ends here."
        )
        labels["skipped"] = _("Puzzle skipped. No skip is left in this run.")
    else:
        labels["wrong"] = _("Not the right move: {seconds} seconds lost.")
        labels["seen"] = _(
            "You have seen this puzzle's solution: it counts as a miss, {seconds} seconds lost."
        )
        labels["bonus"] = _("{n} in a row: {seconds} seconds more!")
        labels["time_up"] = _("Time is up!")
    return labels


def _run_page(request: HttpRequest, mode: str) -> HttpResponse:
    variant = request.GET.get("variant") or Variant.XIANGQI
    if variant not in Variant.values:
        variant = Variant.XIANGQI
    player = owner_for_request(request, create=False)
    today = timezone.localdate()
    page = {
        "mode": mode,
        "variant": variant,
        # shown, still, until a run starts: the variant's board at its first start
        "start_fen": variant_get(name=variant).starts[0][1],
        "logged_in": request.user.is_authenticated,
        "board_module": static("build/board.js"),
        "api": {
            "runs": reverse("puzzles-api:runs"),
            "run": reverse("puzzles-api:run", kwargs={"run_id": 0}),
            "move": reverse("puzzles-api:run-move", kwargs={"run_id": 0}),
            "skip": reverse("puzzles-api:run-skip", kwargs={"run_id": 0}),
            "stop": reverse("puzzles-api:run-stop", kwargs={"run_id": 0}),
            "leaderboard": reverse("puzzles-api:run-leaderboard"),
        },
        "storm": {
            "seconds": runs.STORM_SECONDS,
            "miss": runs.STORM_MISS_SECONDS,
            "combo_step": runs.STORM_COMBO_STEP,
            "combo_seconds": runs.STORM_COMBO_SECONDS,
            "bonus_max": runs.STORM_BONUS_MAX_SECONDS,
        },
        "labels": _run_labels(mode),
    }
    bests = selectors.run_bests(player=player)[mode]
    today_bests = selectors.run_bests(player=player, day=today)[mode]
    return render(
        request,
        "puzzles/run.html",
        {
            "page": page,
            "mode": mode,
            "variants": _variants(),
            "selected_variant": variant,
            "best": bests.get(variant),
            "best_today": today_bests.get(variant),
            "leaderboard": selectors.run_leaderboard(mode=mode, variant=variant, day=today),
            "today": today,
            "storm": page["storm"],
        },
    )


@require_safe
def streak(request: HttpRequest) -> HttpResponse:
    """Puzzle Streak: the day's puzzles of a variant, easy to hard, until a wrong move."""
    return _run_page(request, PuzzleRun.Mode.STREAK)


@require_safe
def storm(request: HttpRequest) -> HttpResponse:
    """Puzzle Storm: as many puzzles as possible in three minutes."""
    return _run_page(request, PuzzleRun.Mode.STORM)
