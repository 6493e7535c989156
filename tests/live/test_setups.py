"""Feidan's setups in live games, over the real WebSocket on the real database: secret setups
(each half hidden from the opponent and from spectators until both are in, every hostile or
mistaken half refused, a reconnect shown its own half only, a void reveal set up again) and
the plum-blossom start drawn when the friend accepts."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine import Position, find_variant, plum_blossom
from live.models import LiveGame
from live.selectors import live_game_state
from live.services import live_challenge_accept
from tests.live.conftest import challenge, visitor_session

pytestmark = pytest.mark.django_db(transaction=True)

FEIDAN_START = find_variant("feidan").default_start
START = Position.from_fen("feidan", FEIDAN_START).pieces()


def standard_half(color: str) -> dict[str, str]:
    return {
        point: letter for point, letter in START.items() if letter.isupper() == (color == "red")
    }


def swapped(half: dict[str, str], *pairs: tuple[str, str]) -> dict[str, str]:
    """``half`` with the pieces of each pair of points exchanged (or moved, onto an empty one)."""
    half = dict(half)
    for a, b in pairs:
        pa, pb = half.pop(a, None), half.pop(b, None)
        if pa is not None:
            half[b] = pa
        if pb is not None:
            half[a] = pb
    return half


# Two secret halves for Red, each legal and each unlike the start: its back rank tells it.
RED_A = swapped(standard_half("red"), ("b0", "c0"))  # back rank MNRBAKABNRM
RED_B = swapped(standard_half("red"), ("i0", "j0"))  # back rank MRNBAKABRNM
BACK_RANK = {"A": "MNRBAKABNRM", "B": "MRNBAKABRNM"}


def secret_game(started, method: str = "five_soldiers"):
    return started(variant="feidan", setup=method)


def setup(placement: dict[str, str]) -> dict[str, object]:
    return {"type": "setup", "placement": placement}


def hidden_streams(sockets, client, started, red_half: dict[str, str]) -> dict[str, list[str]]:
    """Red hands in ``red_half`` first; Black and a spectator go on (a state asked for, a
    reconnect, a refused move, the game's page) until Black's half reveals both. Returns what
    Black and the spectator received before the reveal, and the reveal, with the game's link
    taken out (it is all that differs from one game to another)."""
    game, red_key, black_key = secret_game(started)
    red, black, watcher = (sockets(game.slug, key) for key in (red_key, black_key, None))
    for socket in (red, black, watcher):
        assert socket.state()["half"] is None
    red.send(setup(red_half))
    for socket in (red, black, watcher):
        assert socket.state()["game"]["setup_info"]["ready"] == {"red": True, "black": False}
    black.send({"type": "state"})
    for socket in (red, black, watcher):
        socket.state()
    again = sockets(game.slug, black_key)  # Black reloads the page
    again.state()
    black.send({"type": "move", "ply": 0, "move": "f9f8"})
    assert black.error()["code"] == "setting_up"
    watcher.send({"type": "move", "ply": 0, "move": "f3f4"})
    assert watcher.error()["code"] == "spectator"
    pages = []
    for key in (black_key, None):
        client.cookies.clear()
        if key:
            client.cookies["sessionid"] = key
        page = client.get(f"/play/live/{game.slug}/")
        assert page.status_code == 200
        pages.append(page.content.decode())
    before = {
        "black": [*black.texts, *again.texts],
        "watcher": list(watcher.texts),
        "pages": pages,
    }
    black.send(setup(standard_half("black")))
    reveal = [socket.state() for socket in (red, black, again, watcher)]
    for shown in reveal:
        assert shown["game"]["status"] == "playing" and shown["half"] is None
    before["reveal"] = [reveal[1]["game"]["start_fen"]]
    return {
        name: [text.replace(game.slug, "<link>") for text in texts]
        for name, texts in before.items()
    }


def test_neither_the_opponent_nor_a_spectator_receives_a_byte_of_a_half_before_the_reveal(
    sockets, client, started
) -> None:
    a = hidden_streams(sockets, client, started, RED_A)
    b = hidden_streams(sockets, client, started, RED_B)
    # Whichever half Red handed in, Black and the spectator were sent the very same bytes (and
    # the same pages) until the reveal: nothing they received depended on Red's half.
    for name in ("black", "watcher"):
        assert a[name] == b[name] and len(a[name]) >= 4
    assert len(a["pages"]) == 2
    # and nothing of it is found in any form (its back rank in a FEN, a point's letter)
    for streams, half, rank in ((a, RED_A, BACK_RANK["A"]), (b, RED_B, BACK_RANK["B"])):
        moved = {p: v for p, v in half.items() if START.get(p) != v}
        for text in streams["black"] + streams["watcher"] + streams["pages"]:
            assert rank not in text
            for point, letter in moved.items():
                assert f'"{point}":"{letter}"' not in text.replace(" ", "")
        # the reveal shows it (the check above could fail)
        assert streams["reveal"][0].startswith("mrnbakabnrm/") and rank in streams["reveal"][0]


def test_the_revealed_game_is_played_from_both_halves_with_no_clock_run_meanwhile(
    sockets, started
) -> None:
    game, red_key, black_key = secret_game(started, "middle_soldier")
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    first = red.state()["game"]
    black.state()
    assert (first["status"], first["legal_moves"], first["abortable"]) == ("setting_up", [], True)
    assert first["start_fen"] == FEIDAN_START and first["clock"]["running"] is None
    black_half = swapped(standard_half("black"), ("b6", "c5"), ("d6", "e5"))  # soldiers forward
    black.send(setup(black_half))
    mine = black.state()
    assert mine["half"] == black_half  # my own half, and only to me
    assert red.state()["half"] is None
    red.send(setup(RED_A))
    revealed = red.state()["game"]
    black.state()
    expected = Position.from_fen("feidan", revealed["start_fen"]).pieces()
    assert expected == {**RED_A, **black_half}
    assert revealed["setup_info"]["revealed"] is True and revealed["status"] == "playing"
    assert revealed["clock"] == {
        "red_ms": 300_000,
        "black_ms": 300_000,
        "running": None,
        "base_ms": 300_000,
        "increment_ms": 3000,
    }
    assert "c0c1" in revealed["legal_moves"]  # the chariot Red set on c0
    red.send({"type": "move", "ply": 0, "move": "c0c1"})
    for socket in (red, black):
        assert socket.state()["game"]["moves"][0]["iccs"] == "c0c1"
    stored = LiveGame.objects.get(pk=game.pk)
    assert stored.start_fen == revealed["start_fen"] and stored.iccs_moves == ["c0c1"]


def test_a_reconnect_during_the_setup_restores_ones_own_half_only(sockets, started) -> None:
    game, red_key, black_key = secret_game(started)
    red = sockets(game.slug, red_key)
    red.state()
    red.send(setup(RED_A))
    assert red.state()["half"] == RED_A
    red.close()
    back = sockets(game.slug, red_key).state()
    assert back["half"] == RED_A and back["you"] == "red"
    assert back["game"]["setup_info"]["ready"]["red"] is True
    assert sockets(game.slug, black_key).state()["half"] is None
    assert sockets(game.slug).state()["half"] is None


def refused(socket, message) -> dict[str, object]:
    socket.send(message)
    answer = socket.error()
    assert answer["message"]["en"] and answer["message"]["zh"]
    return answer


def test_a_half_sent_twice_is_refused_and_the_first_stands(sockets, started) -> None:
    game, red_key, _black_key = secret_game(started)
    red = sockets(game.slug, red_key)
    red.state()
    red.send(setup(RED_A))
    red.state()
    answer = refused(red, setup(RED_B))
    assert answer["code"] == "setup_already_in" and answer["state"]["half"] == RED_A
    assert LiveGame.objects.get(pk=game.pk).setup_info["halves"] == {"red": RED_A}


def test_a_half_of_the_other_sides_pieces_is_refused(sockets, started) -> None:
    game, red_key, black_key = secret_game(started)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    answer = refused(red, setup(standard_half("black")))
    assert answer["code"] == "wrong_side" and "Red" in answer["message"]["en"]
    answer = refused(black, setup(RED_A))
    assert answer["code"] == "wrong_side" and "黑方" in answer["message"]["zh"]
    assert LiveGame.objects.get(pk=game.pk).setup_info["halves"] == {}


def test_a_half_the_rules_refuse_is_explained_point_by_point(sockets, started) -> None:
    game, red_key, _black_key = secret_game(started)
    red = sockets(game.slug, red_key)
    red.state()
    general_out = swapped(RED_A, ("d0", "f0"))  # the general on d0, an elephant on f0
    answer = refused(red, setup(general_out))
    assert answer["code"] == "illegal_setup"
    faults = {(v["point"], v["code"]) for v in answer["violations"]}
    assert faults == {("d0", "general_outside_palace"), ("f0", "elephant_point")}
    assert "d0" in answer["message"]["en"] and "九宫" in answer["message"]["zh"]
    answer = refused(red, setup({"f0": "K"}))  # a half with one piece
    assert {v["code"] for v in answer["violations"]} == {"wrong_piece_count"}
    answer = refused(red, setup({**RED_A, "z9": "R"}))
    assert "unknown_point" in {v["code"] for v in answer["violations"]}
    answer = refused(red, setup({"f0": ["K"]}))  # not read as a half at all
    assert answer["code"] == "bad_placement"
    assert LiveGame.objects.get(pk=game.pk).setup_info["halves"] == {}


def test_a_setup_is_refused_outside_the_setup(sockets, started, transactional_db) -> None:
    creator_key, creator = visitor_session()
    waiting = challenge(creator, variant="feidan", setup="five_soldiers")
    socket = sockets(waiting.slug, creator_key)
    socket.state()
    assert refused(socket, setup(RED_A))["code"] == "spectator"  # no seat until accepted

    plain, red_key, _black_key = started(variant="feidan")
    red = sockets(plain.slug, red_key)
    red.state()
    assert refused(red, setup(RED_A))["code"] == "no_setup"

    game, red_key, black_key = secret_game(started)
    red, black, watcher = (sockets(game.slug, key) for key in (red_key, black_key, None))
    for s in (red, black, watcher):
        s.state()
    assert refused(watcher, setup(RED_A))["code"] == "spectator"
    red.send(setup(RED_A))
    black.send(setup(standard_half("black")))
    for s in (red, red, black, black, watcher, watcher):
        s.state()
    assert refused(red, setup(RED_B))["code"] == "setup_over"
    red.send({"type": "resign"})
    red.state(), black.state()
    assert refused(black, setup(standard_half("black")))["code"] == "game_over"


def test_a_void_reveal_is_shown_and_both_set_up_again(sockets, started) -> None:
    game, red_key, black_key = secret_game(started)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    red.send(setup(swapped(standard_half("red"), ("b0", "e4"))))  # a chariot on the e-file
    red.state(), black.state()
    black.send(setup(swapped(standard_half("black"), ("f9", "e8"))))  # the general in its path
    void = black.state()
    red.state()
    info = void["game"]["setup_info"]
    assert void["game"]["status"] == "setting_up" and void["half"] is None
    assert info["round"] == 1 and info["ready"] == {"red": False, "black": False}
    assert info["void_reveals"][0]["reasons"] == ["black_in_check"]
    assert "set up again" in info["void_reveals"][0]["text"]["en"]
    red.send(setup(RED_A))
    red.state(), black.state()
    black.send(setup(standard_half("black")))
    assert black.state()["game"]["status"] == "playing"


def test_either_player_may_abort_during_the_setup(sockets, started) -> None:
    game, _red_key, black_key = secret_game(started)
    black = sockets(game.slug, black_key)
    black.state()
    black.send({"type": "abort"})
    state = black.state()["game"]
    assert (state["status"], state["result"]) == ("aborted", "")


def test_a_plum_blossom_start_is_drawn_from_the_moment_the_friend_accepts(transactional_db) -> None:
    _key, creator = visitor_session()
    _key2, friend = visitor_session()
    game = challenge(creator, variant="feidan", setup="plum_blossom")
    assert game.start_fen == FEIDAN_START
    moment = datetime(2026, 2, 17, 9, 30, tzinfo=UTC)
    game = live_challenge_accept(slug=game.slug, owner=friend, now=moment)
    drawn = plum_blossom(moment)
    assert (game.status, game.start_fen) == ("playing", drawn.fen)
    assert game.setup_info["hexagram"] == drawn.hexagram
    assert game.setup_info["arrangement_index"] == drawn.arrangement_index
    shown = live_game_state(game, now=moment)  # the page tells how the start was drawn
    assert shown["start_fen"] == drawn.fen
    assert shown["setup_info"]["plum_blossom"]["lunar_date"] == drawn.lunar_date
