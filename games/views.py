"""The play pages: a new game (/play/), one game (/play/<id>/: set up, play, replay), my games
(/play/games/). The pages hold no rule: every move goes to the API and the engine."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from accounts.owners import Owner, owner_for_request
from core.selectors import variant_title
from core.starts import START_DESCRIPTIONS, start_name
from engine import VARIANTS
from games import library, selectors
from games.game_analysis import (
    GAME_ANALYSIS_MAX_PLIES,
    AnalysedGame,
    analysis_plan,
    game_analysis_get,
    game_record,
    learn_from_mistakes,
    player_sides,
)
from games.models import LEVELS, Game, GameAnalysis, MasterGame
from games.services import SETUPS_BY_VARIANT
from words.endings import ENDINGS


def _variant_title(name: str) -> str:
    return variant_title(VARIANTS[name])


def _setup_choice(setup: str) -> dict[str, str]:
    description = START_DESCRIPTIONS.get(setup)
    return {
        "name": setup,
        "label": start_name(setup),
        "description": description.get(get_language()) if description else "",
    }


def _termination_labels() -> dict[str, str]:
    """The short name of every ending, in the request's language."""
    language = get_language()
    return {key: ending.name.get(language) for key, ending in ENDINGS.items()}


@require_safe
def play(request: HttpRequest) -> HttpResponse:
    """Start a game: variant, start, side, level, clock; or two players at one board."""
    page = {
        "api": {"create": reverse("games-api:list")},
        "variants": [
            {
                "name": name,
                "title": _variant_title(name),
                "setups": [_setup_choice(s) for s in SETUPS_BY_VARIANT[name]],
            }
            for name in SETUPS_BY_VARIANT
        ],
        "labels": {"error": _("Something went wrong. Please try again.")},
    }
    return render(request, "games/play.html", {"page": page, "levels": list(LEVELS)})


def _page_labels() -> dict[str, Any]:
    return {
        "red": _("Red"),
        "black": _("Black"),
        "your_turn": _("Your move."),
        "to_move": _("{side} to move."),
        "thinking": _("The computer is thinking…"),
        "check_your_turn": _("Check! Your move."),
        "check_to_move": _("Check! {side} to move."),
        "draw_declined": _("The computer declines the draw."),
        "draw_offered": _("You offered a draw: the computer answers before its next move."),
        "draw_offered_thinking": _(
            "You offered a draw: the computer answers once it has made the move it is "
            "thinking about."
        ),
        "error": _("Something went wrong. Please try again."),
        "setup_title": _("Arrange your pieces"),
        "setup_help": _(
            "Drag your pieces to arrange your half. Drop a piece on another of yours to swap "
            "them. The computer arranges its half unseen; both are revealed when you are ready."
        ),
        "setup_status": _("Set up your half, then reveal it."),
        "setup_status_local": _("{side} sets up."),
        "setup_help_local": _(
            "{side} arranges its half while the other player looks away; then the other side "
            "does the same. Both halves are revealed together."
        ),
        "setup_help_local_second": _(
            "{side} arranges its half while the other player looks away. Then both halves are "
            "revealed together."
        ),
        "setup_hand_over": _("Done: {side} sets up next"),
        "setup_legal": _("Your setup is legal."),
        "setup_ready": _("Reveal"),
        "plum_title": _("Plum-blossom setup"),
        "plum_why": _(
            "The moment the game started ({moment}, China time) reads on the Chinese calendar as "
            "{lunar}: year branch Y = {y}, lunar month M = {m}, lunar day D = {d}, hour branch "
            "H = {h}. Upper trigram (Y+M+D) mod 8 = {u} ({ut}), lower trigram (Y+M+D+H) mod 8 = "
            "{l} ({lt}), moving line (Y+M+D+H) mod 6 = {x} (a remainder of 0 counts as 8 or 6). "
            "Hexagram {hex} ({gloss}); number S = {s} picks arrangement {a} of the 2520 ways "
            "to place the chariots, horses, cannons and fighters. Black mirrors Red."
        ),
        "ply": _("Move {n}, {side}"),
        "replaying": _("Replay: {where} (ply {ply} of {total})."),
        "resign_confirm": _("Click again to resign"),
        "draw_agree_confirm": _("Click again: both agree to a draw"),
        "start": _("Starting position"),
        "analyse": _("Analyse from here"),
        "puzzle": _("Make a puzzle from this position"),
        "result_line": _("Result: {ending}"),
        "copied": _("Copied"),
        "terminations": _termination_labels(),
        "effects": {
            "collision": _("collision"),
            "self_destruct": _("self-destruct"),
            "cannon_takes_missile": _("cannon takes missile"),
            "defection": _("defection"),
        },
        "attack_power": _("Attack power: Red {red}, Black {black}"),
        "attack_power_rule": _(
            "When both are below 10, the side with more (either side, if they are equal) may "
            "declare a draw."
        ),
        "clock_red": _("Red clock"),
        "clock_black": _("Black clock"),
        "board": _("board"),
        "missed_looking": _("Looking for wins you missed in this game…"),
        "missed_none": _("No missed win in this game."),
        "missed_try": _("Try it"),
        "missed_show": _("Show the moment"),
        "missed_played_you": _("You played {move}."),
        "missed_played_computer": _("It played {move}."),
    }


def _analysis_labels() -> dict[str, Any]:
    """What the computer's analysis of a finished game says (games/static/games/analysis.js)."""
    return {
        "pending": _("The computer is analysing the game: {done} of {total} positions searched."),
        "failed": _("The analysis failed: {reason}"),
        "error": _("Something went wrong. Please try again."),
        "graph_title": _("Evaluation graph: Red's chances after each move"),
        "graph_desc": _(
            "Up is better for Red, down for Black; the middle line is an even game. Marked "
            "moves are dots. Click a point to go to that move."
        ),
        "verdicts": {
            "inaccuracy": _("inaccuracy"),
            "mistake": _("mistake"),
            "blunder": _("blunder"),
        },
        "better": _("The engine prefers {move}."),
        "seen_mate": _("The engine saw a mate in {n} here (its opinion, not a proof)."),
        "missed_win": _("(a winning position let slip)"),
        "missed_wins": _("{side} let a winning position slip {n} times."),
        "missed_wins_one": _("{side} let a winning position slip once."),
        "summary": _("{side}: {blunders} ??, {mistakes} ?, {inaccuracies} ?!"),
        "no_marks": _("The engine marks no move of this game."),
        "partial": _("The analysis covers the first {n} plies of the game."),
        "numbers": _("The numbers"),
        "caption": _("The evaluation after each move (from Red's side)"),
        "col_move": _("Move"),
        "col_eval": _("Evaluation"),
        "col_chance": _("Red's chances"),
        "start": _("Starting position"),
        "red": _("Red"),
        "black": _("Black"),
        "ply": _("Move {n}, {side}"),
        "judged": _(
            "Judged by {engine} at {nodes} nodes a position; its searches reached depth {depth} (the middle of the game's)."
        ),
        "judged_no_depth": _("Judged by {engine} at {nodes} nodes a position."),
        "settled_one": _(
            "One close call was searched again at {nodes} nodes before it was marked or passed."
        ),
        "settled": _(
            "{n} close calls were searched again at {nodes} nodes before they were marked or passed."
        ),
        "ours": _("the site's own engine"),
        "learn": _("Learn from your mistakes ({n})"),
        "weighing": _("The computer is weighing every move at the marked positions."),
    }


def _analysis_judge(variant: str) -> dict[str, Any]:
    """Which engine would judge the game, with its budget, as the page says it."""
    plan = analysis_plan(variant)
    return {
        "engine_label": plan["label"],
        "nodes": f"{plan['nodes']:,}",
        "fairy": plan["fairy"],
        "agreement": _agreement(plan["agreement"]),
    }


def _agreement(measured: dict[str, int] | None) -> dict[str, str] | None:
    """The measured agreement of the marks with a longer search, as the page says it."""
    if not measured:
        return None
    return {key: f"{value:,}" for key, value in measured.items()}


@never_cache  # the page carries the game as it stands: never shown stale from a cache
@require_safe
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """One game: its setup, play against the computer or at one board, and its replay."""
    owner = owner_for_request(request, create=False)
    found = selectors.game_get(owner=owner, game_id=game_id)
    if found is None:
        raise Http404
    base = f"/api/games/{found.pk}/"
    api = {
        "detail": base,
        "move": base + "moves/",
        "setup": base + "setup/",
        "setup_check": reverse("games-api:setup-check"),
        "resign": base + "resign/",
        "draw": base + "draw/",
        "draw_answer": base + "draw/answer/",
        "claim": base + "claim/",
        "takeback": base + "takeback/",
        "share": base + "share/",
        "analysis": base + "analysis/",
        # the mates missed in this game: the puzzles app's list, for this game's owner only
        "missed": f"{reverse('puzzles-api:missed')}?game={found.pk}",
    }
    return _game_page(request, found, api=api, shared=False)


@never_cache  # a link taken back stops working at once
@require_safe
def shared(request: HttpRequest, slug: str) -> HttpResponse:
    """A finished game its owner shared: the replay, for anyone with the link. The page
    calls no API: the game is over and nothing on it can be changed."""
    found = selectors.game_get_shared(slug=slug)
    if found is None:
        raise Http404
    return _game_page(request, found, api={}, shared=True)


def _game_page(
    request: HttpRequest, found: Game, *, api: dict[str, str], shared: bool
) -> HttpResponse:
    state = selectors.game_state(found)
    players = None
    if shared:  # what only the owner uses: their page's address and the link they gave
        state.update({"url": None, "share_url": None})
        # told to someone else: the side that won, not "you"
        result = selectors.game_result(found, by_the_player=False)
        state.update(
            {
                "outcome": result[0] if result else None,
                "headline": result[1].as_dict() if result else None,
            }
        )
        players = selectors.game_players(found).get(get_language())
    page = _page_data(state, shared=shared, api=api)
    title = _variant_title(found.variant)
    return render(
        request,
        "games/game.html",
        {
            "page": page,
            "game": found,
            "shared": shared,
            "variant_title": title,
            "setup_label": start_name(found.setup),
            "players": players,
            "analysis_page": None
            if shared
            else {
                "labels": _analysis_labels(),
                **_analysis_judge(found.variant),
                "max_plies": GAME_ANALYSIS_MAX_PLIES,
                "learn_url": reverse("games:learn", args=[found.pk]),
                "my_sides": player_sides(found),
                # read by analysis.js: a game never analysed is not polled (its GET is a 404)
                "asked": game_analysis_get(game=found) is not None,
            },
        },
    )


def _learn_labels() -> dict[str, str]:
    """What "Learn from your mistakes" says (games/static/games/learn.js)."""
    return {
        "progress": _("Mistake {n} of {total}"),
        "prompt": _("Move {n}: {side} played {played} {symbol}. Find a better move for {side}."),
        "prompt_win": _(
            "Move {n}: {side} played {played} {symbol} and let a winning position slip. Find the winning move for {side}."
        ),
        "good": _("{move}: well found. It is about as good as the judge's best move here, {best}."),
        "best": _("{move}: the judge's own best move here. Well found."),
        "same": _("That is the move played in the game. Look for another."),
        "not_better": _(
            "{move} is not better: it leaves {side} {chance} chances, where {best_chance} were there to be had. Try again."
        ),
        "shown": _("The judge's best move here: {best}."),
        "show": _("Show the best move"),
        "retry": _("Try again"),
        "next": _("Next mistake"),
        "finish": _("See how you did"),
        "done": _("You found a better move at {found} of {total} mistakes."),
        "red": _("Red"),
        "black": _("Black"),
    }


@never_cache
@require_safe
def learn(request: HttpRequest, game_id: int) -> HttpResponse:
    """Learn from your mistakes: each of the player's mistakes and blunders of an analysed game
    as a position to find a better move in (the judge weighed every move there)."""
    owner = owner_for_request(request, create=False)
    found = selectors.game_get(owner=owner, game_id=game_id)
    if found is None:
        raise Http404
    return learn_page(
        request,
        record=game_record(found),
        analysis=game_analysis_get(game=found),
        orientation=found.human_side or "red",
        local=found.mode == Game.Mode.LOCAL,
        game_url=reverse("games:game", args=[found.pk]),
        name=str(found.pk),
    )


def learn_page(
    request: HttpRequest,
    *,
    record: AnalysedGame,
    analysis: GameAnalysis | None,
    orientation: str,
    local: bool,
    game_url: str,
    name: str,
) -> HttpResponse:
    """The page of "Learn from your mistakes" for a game (this app's, or a live game's as plain
    data), whose reader the caller has checked; ``name`` names the game in the title."""
    steps = learn_from_mistakes(game=record, analysis=analysis)
    page = {
        "variant": record.variant,
        "orientation": orientation,
        "black_first": record.start_fen.split(" ")[1:2] == ["b"],
        "local": local,
        "steps": steps or [],
        "labels": _learn_labels(),
        "board_module": static("build/board.js"),
        "game_url": game_url,
    }
    return render(
        request,
        "games/learn.html",
        {
            "page": page,
            "name": name,
            "game_url": game_url,
            "analysed": steps is not None,
            "count": len(steps or []),
            "variant_title": _variant_title(record.variant),
        },
    )


def game_rows(owner: Owner | None) -> list[dict[str, Any]]:
    """The rows of "My games" for ``owner``'s games of this app (``games_list_page``), newest
    first, each with its result from the player's side ("You won — checkmate")."""
    language = get_language()
    rows = []
    for g in selectors.game_list(owner=owner, limit=200):
        result = selectors.game_result(g)
        finished = g.status == Game.Status.FINISHED
        rows.append(
            {
                "kind": "computer" if g.level else "local",
                "created_at": g.created_at,
                "variant": _variant_title(g.variant),
                "setup": start_name(g.setup),
                "level": g.level,
                "side": g.human_side,
                "moves": g.move_count,
                "status": g.status,
                "outcome": result[0] if result else "",
                "result": result[1].get(language) if result else "",
                "url": reverse("games:game", args=[g.pk]),
                "continue": not finished,
                "share_url": reverse("games:shared", args=[g.share_slug]) if g.share_slug else "",
            }
        )
    return rows


def games_list_page(request: HttpRequest, rows: list[dict[str, Any]]) -> HttpResponse:
    """My games: ``rows`` (this app's, ``game_rows``, and any others of the same shape: a live
    game's, ``kind`` "live", with ``opponent``), newest first."""
    ordered = sorted(rows, key=lambda row: row["created_at"], reverse=True)
    return render(request, "games/mine.html", {"rows": ordered, "Status": Game.Status})


def _master_result(game: MasterGame) -> dict[str, str]:
    """The result the record gives, in both languages (the collection does not say how a game
    ended, only who won)."""
    texts = {
        MasterGame.Result.RED: ("Red won (the record's result)", "红方胜（棋谱所记）"),
        MasterGame.Result.BLACK: ("Black won (the record's result)", "黑方胜（棋谱所记）"),
        MasterGame.Result.DRAW: ("Draw (the record's result)", "和棋（棋谱所记）"),
        MasterGame.Result.UNKNOWN: ("The record gives no result", "棋谱未记结果"),
    }
    en, zh = texts[MasterGame.Result(game.result)]
    return {"en": en, "zh": zh}


def _record_names(game: MasterGame) -> dict[str, str]:
    """The players and the event as a reader of the page's language expects them: simplified
    characters on Chinese pages, as the record writes them elsewhere."""
    if (get_language() or "").startswith("zh"):
        red, black, event = game.red_simplified, game.black_simplified, game.event_simplified
    else:
        red, black, event = game.red, game.black, game.event
    return {"red": red or "?", "black": black or "?", "event": event}


@require_safe
def masters(request: HttpRequest) -> HttpResponse:
    """The master games library: search by player, event, year and result; 50 a page."""
    search, ignored = library.master_game_filter_parse(request.GET)
    paginator = Paginator(library.master_game_list(search), library.PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    searched = bool(search.query or search.year is not None or search.result)
    total = (
        library.master_game_list(library.MasterGameFilter()).count()
        if searched
        else paginator.count
    )
    return render(
        request,
        "games/masters.html",
        {
            "page": page,
            "searched": searched,
            "total": total,
            "rows": [{"game": g, **_record_names(g)} for g in page.object_list],
            "search": search,
            "ignored": ignored,
            "results": MasterGame.Result.choices,
            "query": query.urlencode(),
        },
    )


def record_state(
    *,
    variant: str,
    setup: str,
    start_fen: str,
    moves: list[dict[str, Any]],
    result: str,
    winner: str | None,
    ending: dict[str, str] | None,
    termination: str | None = None,
    headline: dict[str, str] | None = None,
    mode: str = Game.Mode.LOCAL,
    human_side: str | None = None,
    created_at: str | None = None,
) -> dict[str, Any]:
    """What the game's page (game.js) is given of a finished game that is not one of this
    app's, to replay it: a master game's record, or a live game. ``moves``: one entry a ply,
    {iccs, chinese, fen (after), check}; ``ending``: how it ended, in both languages;
    ``headline``: the result as its reader reads it first (a player's "You won")."""
    outcome = {"1-0": "red_won", "0-1": "black_won", "1/2-1/2": "draw"}.get(result)
    if headline is not None and human_side and winner:
        outcome = "won" if winner == human_side else "lost"
    return {
        "id": None,
        "url": None,
        "mode": mode,
        "variant": variant,
        "setup": setup,
        "level": None,
        "human_side": human_side,
        "status": Game.Status.FINISHED,
        "outcome": outcome,
        "headline": headline,
        "result": result,
        "winner": winner,
        "termination": termination,
        "plies": len(moves),
        "created_at": created_at,
        "start_fen": start_fen,
        "seed": None,
        "moves": moves,
        "turn": "red" if len(moves) % 2 == 0 else "black",
        "computer_side": None,
        "thinking": False,
        "setup_info": {},
        "ending": ending,
        "ended_by": None,
        "clock": None,
        "takeback_allowed": False,
        "fen": moves[-1]["fen"] if moves else start_fen,
        "legal_moves": [],
        "board_moves": [],
        "check": moves[-1]["check"] if moves else None,
        "attack_power": None,
        "can_claim_draw": False,
        "draw_offered_this_ply": False,
        "draw_offer": None,
        "computer_draw_offer": None,
        "end_reason": None,
        "share_url": None,
    }


def live_replay_page(
    request: HttpRequest,
    *,
    state: dict[str, Any],
    record: AnalysedGame,
    api: dict[str, str],
    live: dict[str, Any],
    analysis_asked: bool,
    learn_url: str,
) -> HttpResponse:
    """A finished live game's replay for one of its two players (the caller has checked the
    seat): the game's page, with the player's missed wins (``api["missed"]``) and the computer's
    analysis (``api["analysis"]``), as for a game of this app. ``live``: what the heading says
    (the live game's link, the opponent's name, the player's side)."""
    page = _page_data(state, shared=False, api=api)
    return render(
        request,
        "games/game.html",
        {
            "page": page,
            "game": None,
            "shared": False,
            "live": live,
            "variant_title": _variant_title(record.variant),
            "setup_label": start_name(state["setup"]),
            "analysis_page": {
                "labels": _analysis_labels(),
                **_analysis_judge(record.variant),
                "max_plies": GAME_ANALYSIS_MAX_PLIES,
                "learn_url": learn_url,
                "my_sides": list(record.sides),
                "asked": analysis_asked,
            },
        },
    )


def _page_data(state: dict[str, Any], *, shared: bool, api: dict[str, Any]) -> dict[str, Any]:
    """What the game page's script reads (``games/game.html``): the game's ``state`` (a
    game's, a live game's or a master game's record), whether it is a shared, read-only view,
    the API addresses it may call, the links of its buttons and its labels."""
    return {
        "board_module": static("build/board.js"),
        "game": state,
        "shared": shared,
        "api": api,
        "links": {
            "analysis": reverse("core:analysis"),
            "puzzle": reverse("puzzles:create"),
            "new": reverse("games:play"),
        },
        "labels": _page_labels(),
    }


@require_safe
def master_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """One master game's replay: the same page and board as a shared game, read-only."""
    found = library.master_game_get(game_id=game_id)
    if found is None:
        raise Http404
    moves = library.master_game_replay(found)
    state = record_state(
        variant="xiangqi",
        setup="traditional",
        start_fen=library.START_FEN,
        moves=moves,
        result=found.result,
        winner={"1-0": "red", "0-1": "black"}.get(found.result),
        ending=_master_result(found),
    )
    page = _page_data(state, shared=True, api={})
    return render(
        request,
        "games/game.html",
        {
            "page": page,
            "game": found,
            "shared": True,
            "record": found,
            "record_names": _record_names(found),
            "variant_title": _variant_title("xiangqi"),
            "setup_label": start_name("traditional"),
        },
    )
