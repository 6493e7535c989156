"""Takeback requests in live games (Lichess's takeback): a player asks to take back their own
last move, the opponent accepts or declines, and the server undoes the plies: the board, the
move list and the history the repetition rules read, with the clocks consistent and given no
time back. Over the real WebSocket on the real database, and through the services the socket
calls (``live.services.live_takeback``) where times are set by hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from live.models import LiveGame
from live.selectors import live_game_state
from live.services import (
    LiveRefusal,
    live_challenge_accept,
    live_clock_check,
    live_draw,
    live_move_play,
    live_resign,
    live_takeback,
)
from tests.live.conftest import challenge, race, visitor_session
from tests.live.test_endings import play, playing
from tests.live.test_ratings import account, rated_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_takeback_asked_and_accepted_undoes_the_move_for_everyone(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    watcher = sockets(game.slug)
    for socket in (red, black, watcher):
        socket.state()
    for ply, move in enumerate(["h2e2", "h9g7", "b0c2"]):
        (red if ply % 2 == 0 else black).send({"type": "move", "ply": ply, "move": move})
        for socket in (red, black, watcher):
            socket.state()
    # Black to move, Red asks: Red's own last move, one ply
    red.send({"type": "takeback", "action": "offer"})
    for socket in (red, black, watcher):
        state = socket.state()["game"]
        assert state["takeback_offer"] == {"by": "red", "ply": 3, "plies": 1}
        assert state["takeback_allowed"] == {"red": False, "black": False}
    black.send({"type": "takeback", "action": "accept"})
    for socket in (red, black, watcher):
        state = socket.state()["game"]
        assert (state["ply"], state["turn"], state["takeback_offer"]) == (2, "red", None)
        assert [m["iccs"] for m in state["moves"]] == ["h2e2", "h9g7"]
        assert state["fen"] == state["moves"][-1]["fen"] and "b0c2" in state["legal_moves"]
        assert state["takeback_last"] == {"by": "red", "from": 3, "to": 2}
    # play goes on: Red plays another move
    red.send({"type": "move", "ply": 2, "move": "h0g2"})
    state = black.state()["game"]
    assert (state["ply"], state["takeback_last"]) == (3, None)
    stored = LiveGame.objects.get(pk=game.pk)
    assert stored.iccs_moves == ["h2e2", "h9g7", "h0g2"] and stored.status == "playing"
    assert stored.takebacks[0]["by"] == "red"


def test_asking_on_ones_own_turn_takes_back_two_plies(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    for ply, move in enumerate(["h2e2", "h9g7", "b0c2", "b9c7"]):
        (red if ply % 2 == 0 else black).send({"type": "move", "ply": ply, "move": move})
        red.state(), black.state()
    red.send({"type": "takeback", "action": "offer"})  # Red to move: Black has answered
    assert black.state()["game"]["takeback_offer"]["plies"] == 2
    red.state()
    black.send({"type": "takeback", "action": "accept"})
    state = red.state()["game"]
    assert (state["ply"], state["turn"]) == (2, "red")
    assert [m["iccs"] for m in state["moves"]] == ["h2e2", "h9g7"]


def test_a_declined_takeback_is_not_asked_again_at_that_ply(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    red.state(), black.state()
    red.send({"type": "takeback", "action": "offer"})
    red.state(), black.state()
    black.send({"type": "takeback", "action": "decline"})
    state = red.state()["game"]
    assert state["takeback_offer"] is None and state["takeback_declined"] == ["red"]
    assert state["takeback_allowed"]["red"] is False
    black.state()
    for _ in range(5):  # asking again and again: each refused, nothing changed, nobody told
        red.send({"type": "takeback", "action": "offer"})
        refused = red.error()
        assert refused["code"] == "takeback_declined"
        assert "declined" in refused["message"]["en"] and "拒绝" in refused["message"]["zh"]
    assert black.silent()
    stored = LiveGame.objects.get(pk=game.pk)
    assert (stored.ply, stored.takeback_offer_by, stored.takeback_declined) == (1, "", {"red": 1})
    # after the next moves Red may ask again
    black.send({"type": "move", "ply": 1, "move": "h9g7"})
    red.state(), black.state()
    red.send({"type": "takeback", "action": "offer"})
    assert black.state()["game"]["takeback_offer"] == {"by": "red", "ply": 2, "plies": 2}


def test_a_move_cancels_the_takeback_asked_for(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    red.state(), black.state()
    red.send({"type": "takeback", "action": "offer"})
    red.state(), black.state()
    black.send({"type": "move", "ply": 1, "move": "h9g7"})  # Black plays on instead
    assert red.state()["game"]["takeback_offer"] is None
    black.state()
    black.send({"type": "takeback", "action": "accept"})
    assert black.error()["code"] == "no_takeback_offer"
    assert LiveGame.objects.get(pk=game.pk).iccs_moves == ["h2e2", "h9g7"]


def _at_ply(moves: list[str]) -> tuple[LiveGame, dict[str, Any], dict[str, str]]:
    """A game of two visitors with ``moves`` played: (game, owners by side, keys by side)."""
    red_key, red = visitor_session()
    black_key, black = visitor_session()
    game = challenge(red, colour="red")
    game = live_challenge_accept(slug=game.slug, owner=black)
    owners = {"red": red, "black": black}
    game = play(game, owners, moves)
    return game, owners, {"red": red_key, "black": black_key}


SCENES: dict[str, Any] = {
    # name: (moves, what is done first by whom, who then sends, the action)
    "red_at_start": ([], [], "red", "offer", "nothing_to_take_back"),
    "black_before_moving": (["h2e2"], [], "black", "offer", "nothing_to_take_back"),
    "accept_none": (["h2e2"], [], "black", "accept", "no_takeback_offer"),
    "decline_none": (["h2e2"], [], "black", "decline", "no_takeback_offer"),
    "own_offer_accepted": (["h2e2"], [("red", "offer")], "red", "accept", "no_takeback_offer"),
    "twice": (["h2e2"], [("red", "offer")], "red", "offer", "takeback_already_offered"),
    "both": (["h2e2", "h9g7"], [("red", "offer")], "black", "offer", "takeback_offer_pending"),
    "spectator": (["h2e2"], [], "watcher", "offer", "spectator"),
    "bad_action": (["h2e2"], [], "red", "undo", "bad_draw_action"),
}


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_a_takeback_the_rules_refuse_is_refused_in_both_languages(sockets, scene) -> None:
    moves, before, who, action, code = SCENES[scene]
    game, owners, keys = _at_ply(moves)
    for side, done in before:
        game = live_takeback(slug=game.slug, owner=owners[side], action=done)
    kept = (game.moves, game.takeback_offer_by, game.takeback_declined)
    socket = sockets(game.slug, keys.get(who))
    socket.state()
    socket.send({"type": "takeback", "action": action})
    refused = socket.error()
    assert refused["code"] == code
    assert refused["message"]["en"] and refused["message"]["zh"] != refused["message"]["en"]
    stored = LiveGame.objects.get(pk=game.pk)
    assert (stored.moves, stored.takeback_offer_by, stored.takeback_declined) == kept
    assert stored.status == "playing"


def test_no_takeback_in_a_game_over_or_being_set_up(sockets, started) -> None:
    game, red_key, black_key = started()
    red = sockets(game.slug, red_key)
    red.state()
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    red.state()
    red.send({"type": "resign"})
    red.state()
    red.send({"type": "takeback", "action": "offer"})
    assert red.error()["code"] == "game_over"

    _key, creator = visitor_session()
    friend_key, friend = visitor_session()
    secret = challenge(creator, variant="feidan", setup="five_soldiers")
    secret = live_challenge_accept(slug=secret.slug, owner=friend)
    assert secret.status == "setting_up"
    socket = sockets(secret.slug, friend_key)
    socket.state()
    socket.send({"type": "takeback", "action": "offer"})
    refused = socket.error()
    assert refused["code"] == "setting_up"
    assert LiveGame.objects.get(pk=secret.pk).takeback_offer_by == ""


def test_a_takeback_clears_a_draw_offer_and_works_in_a_rated_game_too() -> None:
    red, black = account("tb-red"), account("tb-black")
    game = rated_game(red, black)
    game = play(game, {"red": red, "black": black}, ["h2e2", "h9g7", "b0c2"])
    game = live_draw(slug=game.slug, owner=black, action="offer")
    game = live_takeback(slug=game.slug, owner=red, action="offer")
    assert game.draw_offer_by == "black"  # an offer is left standing until the takeback
    game = live_takeback(slug=game.slug, owner=black, action="accept")
    assert (game.ply, game.draw_offer_by, game.rated) == (2, "", True)
    assert live_game_state(game)["draw_offer"] is None
    game = live_resign(slug=game.slug, owner=black)
    assert game.rating_changes and game.winner == "red"


def test_the_clocks_are_not_given_time_back() -> None:
    game, red, black = playing()
    t0 = game.started_at
    players = {"red": red, "black": black}

    def at(seconds: float) -> Any:
        return t0 + timedelta(seconds=seconds)

    for seconds, move in [(1, "h2e2"), (2, "h9g7"), (12, "b0c2")]:
        game = live_move_play(
            slug=game.slug, owner=players[game.turn], ply=game.ply, move=move, now=at(seconds)
        )
    assert (game.red_clock_ms, game.black_clock_ms) == (293_000, 300_000)  # 10 s, +3 s
    game = live_takeback(slug=game.slug, owner=red, action="offer", now=at(22))
    game = live_takeback(slug=game.slug, owner=black, action="accept", now=at(32))
    # Black was charged the 20 s it thought; Red is given nothing back and runs from now
    assert (game.ply, game.turn) == (2, "red")
    assert (game.red_clock_ms, game.black_clock_ms, game.turn_started_at) == (
        293_000,
        280_000,
        at(32),
    )
    clock = live_game_state(game, now=at(37))["clock"]
    assert (clock["running"], clock["red_ms"], clock["black_ms"]) == ("red", 288_000, 280_000)
    game = live_move_play(slug=game.slug, owner=red, ply=2, move="h0g2", now=at(40))
    assert game.red_clock_ms == 293_000 - 8_000 + 3_000


def test_back_at_ply_zero_no_clock_runs_and_the_first_move_window_starts_again() -> None:
    game, red, black = playing()
    t0 = game.started_at

    def at(seconds: float) -> Any:
        return t0 + timedelta(seconds=seconds)

    game = live_move_play(slug=game.slug, owner=red, ply=0, move="h2e2", now=at(30))
    game = live_takeback(slug=game.slug, owner=red, action="offer", now=at(40))
    game = live_takeback(slug=game.slug, owner=black, action="accept", now=at(50))
    assert (game.ply, game.turn, game.turn_started_at) == (0, "red", None)
    state = live_game_state(game, now=at(70))
    assert state["abortable"] is True and state["clock"]["running"] is None
    # Red's first move's window counts from the takeback (50 s), not from the start
    assert state["first_move"] == {"side": "red", "ms": 40_000}
    game, ended = live_clock_check(slug=game.slug, now=at(100))
    assert (ended, game.status) == (False, "playing")
    game = live_move_play(slug=game.slug, owner=red, ply=0, move="b0c2", now=at(105))
    game = live_move_play(slug=game.slug, owner=black, ply=1, move="h9g7", now=at(110))
    # both sides have moved again: Red's clock runs, with its full time
    assert (game.turn_started_at, game.red_clock_ms, game.black_clock_ms) == (
        at(110),
        300_000,
        300_000,
    )


def test_back_at_ply_one_blacks_window_counts_from_the_takeback() -> None:
    game, red, black = playing()
    t0 = game.started_at

    def at(seconds: float) -> Any:
        return t0 + timedelta(seconds=seconds)

    players = {"red": red, "black": black}
    for seconds, move in [(1, "h2e2"), (2, "h9g7"), (5, "b0c2")]:
        game = live_move_play(
            slug=game.slug, owner=players[game.turn], ply=game.ply, move=move, now=at(seconds)
        )
    game = live_takeback(slug=game.slug, owner=black, action="offer", now=at(6))
    game = live_takeback(slug=game.slug, owner=red, action="accept", now=at(100))
    assert (game.ply, game.turn, game.turn_started_at) == (1, "black", None)
    assert live_game_state(game, now=at(130))["first_move"] == {"side": "black", "ms": 30_000}
    game, ended = live_clock_check(slug=game.slug, now=at(161))
    assert (ended, game.status, game.termination, game.ended_by) == (
        True,
        "aborted",
        "no_first_move",
        "black",
    )


@pytest.mark.parametrize(
    ("variant", "fen", "cycle", "termination", "winner"),
    [
        ("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", ["e0e1", "d9d8", "e1e0", "d8d9"],
         "repetition", ""),
        ("xinban", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", ["e0e1", "d9d8", "e1e0", "d8d9"],
         "forced_variation", "red"),
        ("xiangqi", "5k3/9/c8/9/9/9/9/9/1R7/4K4 w - - 0 1", ["b1a1", "a7b7", "a1b1", "b7a7"],
         "perpetual_chase", "black"),
    ],
)  # fmt: skip
def test_the_plies_taken_back_do_not_count_as_repetitions(
    variant: str, fen: str, cycle: list[str], termination: str, winner: str
) -> None:
    game, red, black = playing(variant, "new" if variant == "xinban" else "standard", fen)
    players = {"red": red, "black": black}
    game = play(game, players, (cycle * 2)[:6])
    game = live_takeback(slug=game.slug, owner=red, action="offer")  # Red to move: two plies
    game = live_takeback(slug=game.slug, owner=black, action="accept")
    assert game.ply == 4
    # the undone plies are forgotten: the cycle played again ends the game at ply 8, not before
    for move in cycle[:3]:
        game = play(game, players, [move])
        assert game.status == "playing", (move, game.termination)
    game = play(game, players, cycle[3:])
    assert (game.ply, game.status, game.termination, game.winner) == (
        8,
        "finished",
        termination,
        winner,
    )


def test_a_takeback_race_of_accept_and_move_counts_once() -> None:
    game, red, black = playing()
    game = play(game, {"red": red, "black": black}, ["h2e2"])
    live_takeback(slug=game.slug, owner=red, action="offer")
    outcomes = race(
        [
            lambda: live_takeback(slug=game.slug, owner=black, action="accept"),
            lambda: live_move_play(slug=game.slug, owner=black, ply=1, move="h9g7"),
        ]
    )
    stored = LiveGame.objects.get(pk=game.pk)
    # either the move came first (the request is gone) or the takeback (the move is late)
    assert outcomes in (["done", "no_takeback_offer"], ["done", "out_of_date"])
    assert stored.iccs_moves in (["h2e2", "h9g7"], [])
    assert (stored.iccs_moves == []) == (outcomes == ["done", "out_of_date"])


def test_services_refuse_with_a_live_refusal() -> None:
    game, red, _black = playing()
    with pytest.raises(LiveRefusal) as refused:
        live_takeback(slug=game.slug, owner=red, action="offer")
    assert refused.value.code == "nothing_to_take_back"


def test_the_takeback_columns_have_database_defaults() -> None:
    """A row written by code that does not know the takeback columns (a process of the previous
    release during a deploy) still gets them: they are NOT NULL with defaults in the database,
    not only in Django."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the defaults are read from PostgreSQL's catalogue")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, column_default FROM information_schema.columns "
            "WHERE table_name = 'live_livegame' AND column_name IN "
            "('takeback_offer_by', 'takeback_declined', 'takebacks')"
        )
        defaults = dict(cursor.fetchall())
    assert defaults == {
        "takeback_offer_by": "''::character varying",
        "takeback_declined": "'{}'::jsonb",
        "takebacks": "'[]'::jsonb",
    }
