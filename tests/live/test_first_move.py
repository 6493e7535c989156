"""The first move's window (settings.LIVE_FIRST_MOVE_SECONDS): the clocks do not run before each
side's first move, but a side that lets its first move's window pass has the game aborted, without a
result, on the next message or connection. Times are given to the services (``now``) or set
back in the database: nothing waits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from live.models import LiveGame
from live.selectors import first_move_window_ms, live_game_state
from live.services import live_challenge_accept, live_move_play, live_setup_submit
from tests.live.conftest import challenge, visitor_session
from tests.live.test_setups import RED_A, standard_half

pytestmark = pytest.mark.django_db(transaction=True)

T = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
FIRST_MOVE_MS = first_move_window_ms()
WINDOW = timedelta(milliseconds=FIRST_MOVE_MS)
JUST = timedelta(milliseconds=1)


def accepted(**options: str):
    _key, red = visitor_session()
    _key2, black = visitor_session()
    game = challenge(red, colour="red", **options)
    game = live_challenge_accept(slug=game.slug, owner=black, now=T)
    return game, red, black


def test_each_first_move_has_its_window_from_its_turns_start() -> None:
    game, red, black = accepted()
    assert live_game_state(game, now=T)["first_move"] == {"side": "red", "ms": FIRST_MOVE_MS}
    played = T + WINDOW - JUST  # Red in time
    game = live_move_play(slug=game.slug, owner=red, ply=0, move="h2e2", now=played)
    assert game.status == "playing" and game.ply == 1
    state = live_game_state(game, now=played + timedelta(seconds=20))
    assert state["first_move"] == {"side": "black", "ms": FIRST_MOVE_MS - 20_000}
    # Black's window runs from Red's first move: at its end the move is not played
    late = played + WINDOW
    game = live_move_play(slug=game.slug, owner=black, ply=1, move="h9g7", now=late)
    assert (game.status, game.termination, game.ended_by, game.result) == (
        "aborted",
        "no_first_move",
        "black",
        "",
    )
    assert LiveGame.objects.get(pk=game.pk).iccs_moves == ["h2e2"]


def test_no_window_once_both_have_moved() -> None:
    game, red, black = accepted()
    game = live_move_play(slug=game.slug, owner=red, ply=0, move="h2e2", now=T)
    game = live_move_play(slug=game.slug, owner=black, ply=1, move="h9g7", now=T)
    assert live_game_state(game, now=T)["first_move"] is None
    later = T + 2 * WINDOW  # the clocks run now: Red has 5 minutes
    game = live_move_play(slug=game.slug, owner=red, ply=2, move="h0g2", now=later)
    assert (game.status, game.ply) == ("playing", 3)


def test_a_secret_setups_window_runs_from_the_reveal() -> None:
    game, red, black = accepted(variant="feidan", setup="five_soldiers")
    assert live_game_state(game, now=T)["first_move"] is None  # no window while setting up
    revealed = T + timedelta(minutes=9)  # a long setup, within its window (10 minutes)
    live_setup_submit(slug=game.slug, owner=red, placement=RED_A, now=revealed)
    game = live_setup_submit(
        slug=game.slug, owner=black, placement=standard_half("black"), now=revealed
    )
    assert live_game_state(game, now=revealed)["first_move"]["ms"] == FIRST_MOVE_MS
    game = live_move_play(
        slug=game.slug, owner=red, ply=0, move="c0c1", now=revealed + WINDOW - JUST
    )
    assert (game.status, game.ply) == ("playing", 1)


def test_a_connection_after_the_window_aborts_the_game_for_everyone(sockets, started) -> None:
    game, red_key, black_key = started()
    red = sockets(game.slug, red_key)
    first = red.state()["game"]["first_move"]
    assert first["side"] == "red" and 0 < first["ms"] <= FIRST_MOVE_MS
    LiveGame.objects.filter(pk=game.pk).update(started_at=game.started_at - WINDOW)
    watcher = sockets(game.slug)  # any look at the game: here a spectator opening the link
    for socket in (watcher, red):
        state = socket.state()["game"]
        assert (state["status"], state["termination"], state["ended_by"]) == (
            "aborted",
            "no_first_move",
            "red",
        )
        assert state["first_move"] is None
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    assert red.error()["code"] == "game_over"
