"""Every ending the engine's outcome knows reaches a live game, in every variant, through the
same services the WebSocket calls (live.services): the engine judges, the game records it."""

from __future__ import annotations

from typing import Any

import pytest

from live.models import LiveGame
from live.selectors import live_game_state
from live.services import live_move_play
from tests.live.conftest import challenge, visitor_session

pytestmark = pytest.mark.django_db


def playing(variant: str = "xiangqi", setup: str = "standard", fen: str | None = None) -> Any:
    """A game between two visitors (Red first), from ``fen`` if given: (game, red, black)."""
    from live.services import live_challenge_accept

    _key, red = visitor_session()
    _key, black = visitor_session()
    game = challenge(red, variant=variant, setup=setup, colour="red")
    game = live_challenge_accept(slug=game.slug, owner=black)
    if fen:
        LiveGame.objects.filter(pk=game.pk).update(start_fen=fen)
        game.refresh_from_db()
    return game, red, black


def play(game: LiveGame, players: dict[str, Any], moves: list[str]) -> LiveGame:
    for text in moves:
        game = live_move_play(slug=game.slug, owner=players[game.turn], ply=game.ply, move=text)
    return game


@pytest.mark.parametrize(
    ("variant", "fen", "moves", "termination", "winner", "said"),
    [
        ("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 119 60", ["e0e1"], "natural_limit", "",
         "120 plies"),
        ("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
         ["e0e1", "d9d8", "e1e0", "d8d9"] * 2, "repetition", "", "third time"),
        ("xinban", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
         ["e0e1", "d9d8", "e1e0", "d8d9"] * 2, "forced_variation", "red", "Black repeated"),
        ("xiangqi", "5k3/9/c8/9/9/9/9/9/1R7/4K4 w - - 0 1",
         ["b1a1", "a7b7", "a1b1", "b7a7"] * 2, "perpetual_chase", "black", "chased"),
        ("feidan", "4k6/11/11/11/11/11/11/m10/11/4AKA4 b - - 0 1", ["a2f2"], "dead_general",
         "black", "Dead general"),
    ],
)  # fmt: skip
def test_the_engines_ending_finishes_the_live_game(
    variant: str, fen: str, moves: list[str], termination: str, winner: str, said: str
) -> None:
    setup = "new" if variant == "xinban" else "standard"
    game, red, black = playing(variant, setup, fen)
    game = play(game, {"red": red, "black": black}, moves)
    assert (game.status, game.termination, game.winner) == ("finished", termination, winner)
    state = live_game_state(game)
    assert said in state["ending"]["en"] and state["ending"]["zh"]
    assert state["legal_moves"] == [] and state["clock"]["running"] is None


def test_a_xinban_capture_makes_the_turncoat_defect() -> None:
    game, red, black = playing("xinban", "new")
    game = play(game, {"red": red, "black": black}, ["h2h9"])  # the cannon takes the +N
    assert game.moves[0]["effect"] == "defection"
    # the horse, now plain and red, stands where the cannon stood
    assert live_game_state(game)["fen"].split(" ")[0].endswith("/1+C5N1/9/+R+NBAKAB+N+R")


def test_a_feidan_game_is_played_on_the_eleven_file_board() -> None:
    game, red, black = playing("feidan")
    state = live_game_state(game)
    assert state["fen"].startswith("mrnbakabnrm/11/") and "a2b5" in state["legal_moves"]
    game = play(game, {"red": red, "black": black}, ["a2b5"])  # a fighter's flight
    assert game.moves[0]["chinese"] and game.turn == "black"
