"""Reads of the games app: one's own games, and a game as the play page shows it."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from accounts.owners import Owner
from engine import Move, Position, attack_power, can_claim_draw, find_variant
from games.models import TAKEBACK_MAX_LEVEL, Game
from games.texts import computer_resignation_text, players_text, result_headline
from words.endings import ending_sentence
from words.explain import pattern_moves
from words.texts import Text

PAGE_SIZE = 50


# -- a game's position and state (read by the services too) -------------------------------


def game_position(game: Game) -> Position:
    """The current position with the whole history (repetition is judged from it)."""
    pos = Position.from_fen(game.variant, game.start_fen)
    for entry in game.moves:
        pos.push(Move.from_iccs(entry["iccs"]))
    return pos


def check_point(pos: Position) -> str | None:
    """The point of the general in check, if the side to move is in check."""
    return pos.checked_general()


def setup_pending_side(game: Game) -> str | None:
    """Whose secret half is awaited: the player's (against the computer) or, at one board,
    Red's then Black's."""
    if game.status != Game.Status.SETTING_UP:
        return None
    if game.mode == Game.Mode.COMPUTER:
        return game.human_side
    halves = game.setup_info.get("halves", {})
    return "red" if "red" not in halves else "black"


def _offers_by(game: Game, by: str) -> list[dict[str, Any]]:
    # offers stored before the computer made any have no "by": they are the player's
    return [o for o in game.draw_offers if o.get("by", "player") == by]


def draw_offer_pending(game: Game) -> dict[str, Any] | None:
    """The player's draw offer the computer has not answered yet, if any."""
    offers = _offers_by(game, "player")
    last = offers[-1] if offers else None
    return last if last is not None and last.get("accepted") is None else None


def draw_offer_last(game: Game) -> dict[str, Any] | None:
    """The player's last draw offer, answered or not."""
    offers = _offers_by(game, "player")
    return offers[-1] if offers else None


def computer_draw_offer_pending(game: Game) -> dict[str, Any] | None:
    """The computer's draw offer the player may accept: made with the computer's last move
    (so at the game's ply), not answered, the game still on."""
    if game.status != Game.Status.PLAYING:
        return None
    offers = _offers_by(game, "computer")
    last = offers[-1] if offers else None
    if last is None or last.get("accepted") is not None or last["ply"] != game.ply:
        return None
    return last


def computer_judgements(game: Game) -> list[tuple[int | None, int | None]]:
    """What the computer's searches said of its moves so far, in order: (score, mate) from
    its side (``games.computer``)."""
    return [
        (entry.get("score"), entry.get("mate"))
        for entry in game.moves
        if entry.get("by") == "computer" and ("score" in entry or "mate" in entry)
    ]


def game_ending(game: Game) -> Text | None:
    """How the game ended, said with its rule (and the computer's reason when it resigned)."""
    if game.status != Game.Status.FINISHED:
        return None
    if game.termination == "resignation" and game.end_reason:
        return computer_resignation_text(game.winner or None, game.end_reason)
    claimant = game.ended_by if game.termination == "attack_power" else None
    return ending_sentence(game.termination, game.winner or None, claimant)


# -- lists and pages -----------------------------------------------------------------------


def game_get(*, owner: Owner | None, game_id: int) -> Game | None:
    """The game if ``owner`` owns it; someone else's game is None, like a missing one."""
    if owner is None:
        return None
    return Game.objects.filter(owner.q(), pk=game_id).first()


def game_get_shared(*, slug: str) -> Game | None:
    """The finished game whose owner shared it under ``slug``; None when there is none (a
    link taken back, or mistyped)."""
    return (
        Game.objects.filter(share_slug=slug, status=Game.Status.FINISHED)
        .select_related("user")
        .first()
    )


def game_players(game: Game) -> Text:
    """Who played the game, as a shared game's page says it (``games.texts.players_text``)."""
    return players_text(
        owner=game.user.get_username() if game.user_id and game.user else None,
        mode=game.mode,
        human_side=game.human_side or None,
        level=game.level,
    )


def share_url(game: Game) -> str | None:
    if game.share_slug is None:
        return None
    return reverse("games:shared", kwargs={"slug": game.share_slug})


def game_list(*, owner: Owner | None, limit: int = PAGE_SIZE, offset: int = 0) -> QuerySet[Game]:
    if owner is None:
        return Game.objects.none()
    return Game.objects.filter(owner.q()).order_by("-created_at", "-id")[offset : offset + limit]


def _clock(game: Game) -> dict[str, Any] | None:
    if game.clock_initial_ms is None:
        return None
    red, black = game.red_clock_ms or 0, game.black_clock_ms or 0
    running = game.turn if game.status == Game.Status.PLAYING and game.turn_started_at else None
    if running is not None and game.turn_started_at is not None:
        spent = int((timezone.now() - game.turn_started_at).total_seconds() * 1000)
        if running == "red":
            red = max(red - spent, 0)
        else:
            black = max(black - spent, 0)
    return {
        "initial_ms": game.clock_initial_ms,
        "increment_ms": game.clock_increment_ms,
        "red_ms": red,
        "black_ms": black,
        "running": running,
    }


def _setup_view(game: Game) -> dict[str, Any]:
    """What may be shown of the setup: never a secret half before the reveal."""
    info = game.setup_info or {}
    if game.setup == Game.Setup.PLUM_BLOSSOM:
        return {"plum_blossom": info}
    if game.setup in (Game.Setup.FIVE_SOLDIERS, Game.Setup.MIDDLE_SOLDIER):
        revealed = bool(info.get("revealed"))
        view: dict[str, Any] = {
            "method": info.get("method"),
            "round": info.get("round", 0),
            "void_reveals": info.get("void_reveals", []),
            "revealed": revealed,
            "pending": setup_pending_side(game),
        }
        if revealed:
            view["halves"] = info.get("halves", {})
        return view
    return {}


def game_result(game: Game, *, by_the_player: bool = True) -> tuple[str, Text] | None:
    """A finished game's result from the player's side (``games.texts.result_headline``):
    against the computer "You won/lost", at one board (or told to someone else,
    ``by_the_player=False``) the side that won."""
    if game.status != Game.Status.FINISHED or not game.termination:
        return None
    against_computer = game.mode == Game.Mode.COMPUTER and game.human_side
    player = game.human_side if by_the_player and against_computer else None
    return result_headline(termination=game.termination, winner=game.winner or None, player=player)


def game_summary(game: Game) -> dict[str, Any]:
    result = game_result(game)
    return {
        "id": game.pk,
        "url": reverse("games:game", kwargs={"game_id": game.pk}),
        "mode": game.mode,
        "variant": game.variant,
        "setup": game.setup,
        "level": game.level,
        "human_side": game.human_side or None,
        "status": game.status,
        "result": game.result,
        "winner": game.winner or None,
        "termination": game.termination or None,
        "outcome": result[0] if result else None,
        "headline": result[1].as_dict() if result else None,
        "plies": game.ply,
        "created_at": game.created_at.isoformat() if game.created_at else None,
    }


def game_state(game: Game, *, language: str | None = None) -> dict[str, Any]:
    """Everything the play page needs: the record, the position now, what may be done."""
    variant = find_variant(game.variant)
    state = game_summary(game)
    ending = game_ending(game)
    state.update(
        {
            "start_fen": game.start_fen,
            "moves": game.moves,
            "turn": game.turn,
            "computer_side": game.computer_side,
            "thinking": game.computer_to_move,
            "setup_info": _setup_view(game),
            "ending": ending.as_dict() if ending else None,
            "ended_by": game.ended_by or None,
            "clock": _clock(game),
            "takeback_allowed": game.mode == Game.Mode.LOCAL
            or (game.level is not None and game.level <= TAKEBACK_MAX_LEVEL),
            "fen": game.moves[-1]["fen"] if game.moves else game.start_fen,
            "legal_moves": [],
            "board_moves": [],
            "check": None,
            "attack_power": None,
            "can_claim_draw": False,
            "draw_offered_this_ply": any(o["ply"] == game.ply for o in _offers_by(game, "player"))
            or draw_offer_pending(game) is not None,
            "draw_offer": draw_offer_last(game),
            "computer_draw_offer": computer_draw_offer_pending(game),
            "end_reason": game.end_reason or None,
            "share_url": share_url(game),
        }
    )
    if game.status == Game.Status.SETTING_UP:
        return state
    pos = game_position(game)
    state["check"] = check_point(pos)
    if variant.attack_power:
        state["attack_power"] = {
            "red": attack_power(pos, "red"),
            "black": attack_power(pos, "black"),
        }
    if game.status == Game.Status.PLAYING:
        claimant = game.human_side if game.mode == Game.Mode.COMPUTER else game.turn
        state["can_claim_draw"] = claimant == game.turn and can_claim_draw(pos, claimant)
        if not game.computer_to_move:
            legal = sorted(m.iccs() for m in pos.legal_moves)
            state["legal_moves"] = legal
            # What the board lets the player try: legal moves and the pattern moves around
            # them, so that a wrong one is refused on the server and explained.
            state["board_moves"] = sorted(set(legal) | set(pattern_moves(pos)))
    return state
