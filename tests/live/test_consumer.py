"""A live game over its real WebSocket (config.asgi -> live.consumers -> live.services ->
engine), on the real database: moves reach both players and spectators, and every hostile or
mistaken message is refused with a clear error, changing nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from live.models import LiveGame
from tests.live.conftest import challenge, visitor_session

pytestmark = pytest.mark.django_db(transaction=True)

# A master game of the library (no. 8089), 24 plies to Black's mate.
SHORT_MATE = [
    "c3c4",
    "g6g5",
    "b0c2",
    "h9g7",
    "c2d4",
    "h7h3",
    "h0g2",
    "b9c7",
    "i3i4",
    "c9e7",
    "a0a1",
    "d9e8",
    "b2c2",
    "a9d9",
    "d4c6",
    "g7f5",
    "f0e1",
    "f5e3",
    "g2e3",
    "h3e3",
    "g0e2",
    "b7b0",
    "a1b1",
    "d9d0",
]


def test_both_players_and_a_spectator_see_each_move_the_server_accepts(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    watcher = sockets(game.slug)
    assert (red.state()["you"], black.state()["you"], watcher.state()["you"]) == (
        "red",
        "black",
        None,
    )
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    for socket in (red, black, watcher):
        state = socket.state()["game"]
        assert state["ply"] == 1 and state["moves"][0]["chinese"] == "炮二平五"
        assert state["turn"] == "black" and "h9g7" in state["legal_moves"]
    assert LiveGame.objects.get(pk=game.pk).iccs_moves == ["h2e2"]


def test_a_reconnect_is_sent_the_whole_game_where_it_stood(sockets, started) -> None:
    game, red_key, black_key = started()
    red = sockets(game.slug, red_key)
    red.state()
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    red.state()
    red.close()
    again = sockets(game.slug, red_key).state()
    assert again["you"] == "red"
    assert again["game"]["ply"] == 1 and again["game"]["status"] == "playing"


def test_a_game_that_does_not_exist_closes_the_socket(sockets, transactional_db) -> None:
    socket = sockets("nosuchgame")
    assert socket.connected is False


def test_sockets_work_when_the_test_thread_already_runs_a_loop(sockets, transactional_db) -> None:
    # As after a browser test in the same process: Playwright's synchronous API leaves an event
    # loop running in the test's thread, and the sockets' loop must not need that thread.
    previous = asyncio.events._get_running_loop()  # a browser test's, left as it was found
    other = asyncio.new_event_loop()
    asyncio.events._set_running_loop(other)
    try:
        socket = sockets("nosuchgame")
        assert socket.connected is False
    finally:
        asyncio.events._set_running_loop(previous)
        other.close()


@pytest.mark.parametrize(
    ("who", "message", "code"),
    [
        ("black", {"type": "move", "ply": 0, "move": "h7e7"}, "not_your_turn"),
        ("red", {"type": "move", "ply": 0, "move": "h7e7"}, "wrong_side"),
        ("red", {"type": "move", "ply": 0, "move": "h2h8"}, "illegal_move"),
        ("red", {"type": "move", "ply": 0, "move": "e0e2"}, "illegal_move"),
        ("red", {"type": "move", "ply": 3, "move": "h2e2"}, "out_of_date"),
        ("red", "not json at all", "not_json"),
        ("red", {"type": "move", "ply": 0}, "missing_field"),
        (
            "red",
            {"type": "move", "ply": 0, "move": "h2e2", "red_ms": 600_000},
            "clock_not_accepted",
        ),
        ("red", {"type": "flag"}, "not_out_of_time"),
        ("red", {"type": "draw", "action": "accept"}, "no_draw_offer"),
        ("watcher", {"type": "move", "ply": 0, "move": "h2e2"}, "spectator"),
        ("watcher", {"type": "resign"}, "spectator"),
    ],
)
def test_a_hostile_or_mistaken_message_is_refused_and_changes_nothing(
    sockets, started, who, message, code
) -> None:
    game, red_key, black_key = started()
    keys = {"red": red_key, "black": black_key, "watcher": None}
    socket = sockets(game.slug, keys[who])
    socket.state()
    socket.send(message)
    refused = socket.error()
    assert refused["code"] == code
    assert refused["message"]["en"] and refused["message"]["zh"]
    assert refused["state"]["game"]["ply"] == 0
    stored = LiveGame.objects.get(pk=game.pk)
    assert (stored.moves, stored.status, stored.red_clock_ms) == ([], "playing", 300_000)


def test_an_illegal_move_is_explained_as_the_lessons_explain_it(sockets, started) -> None:
    game, red_key, _black_key = started()
    red = sockets(game.slug, red_key)
    red.state()
    red.send({"type": "move", "ply": 0, "move": "b0b5"})  # a horse moved like a chariot
    refused = red.error()
    assert refused["code"] == "illegal_move"
    assert "马" in refused["message"]["zh"] and "horse" in refused["message"]["en"].lower()


def test_a_move_sent_twice_or_from_a_second_tab_counts_once(sockets, started) -> None:
    game, red_key, black_key = started()
    tab1, tab2 = sockets(game.slug, red_key), sockets(game.slug, red_key)
    assert tab1.state()["you"] == tab2.state()["you"] == "red"
    tab1.send({"type": "move", "ply": 0, "move": "h2e2"})
    assert tab1.state()["game"]["ply"] == 1
    assert tab2.state()["game"]["ply"] == 1  # the other tab sees it too
    tab2.send({"type": "move", "ply": 0, "move": "h2e2"})  # the same move, replayed
    refused = tab2.error()
    assert refused["code"] == "out_of_date" and refused["state"]["game"]["ply"] == 1
    assert tab1.silent()
    assert LiveGame.objects.get(pk=game.pk).iccs_moves == ["h2e2"]


def test_a_game_played_to_mate_ends_with_the_engines_verdict(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    for ply, move in enumerate(SHORT_MATE):
        (red if ply % 2 == 0 else black).send({"type": "move", "ply": ply, "move": move})
        red.state(), black.state()
    stored = LiveGame.objects.get(pk=game.pk)
    assert (stored.status, stored.termination, stored.winner, stored.result) == (
        "finished",
        "checkmate",
        "black",
        "0-1",
    )
    red.send({"type": "move", "ply": len(SHORT_MATE), "move": "e0f0"})
    assert red.error()["code"] == "game_over"


def test_resigning_ends_the_game_for_everyone(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    black.send({"type": "resign"})
    for socket in (red, black):
        state = socket.state()["game"]
        assert (state["status"], state["termination"], state["winner"]) == (
            "finished",
            "resignation",
            "red",
        )
        assert "Red" in state["ending"]["en"]


def test_a_draw_is_offered_declined_offered_again_and_accepted(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    red.send({"type": "draw", "action": "offer"})
    assert black.state()["game"]["draw_offer"] == {"by": "red", "ply": 0}
    red.state()
    red.send({"type": "draw", "action": "offer"})
    assert red.error()["code"] == "draw_already_offered"
    black.send({"type": "draw", "action": "decline"})
    assert red.state()["game"]["draw_offer"] is None
    black.state()
    black.send({"type": "draw", "action": "offer"})
    red.state(), black.state()
    red.send({"type": "draw", "action": "accept"})
    state = black.state()["game"]
    assert (state["status"], state["termination"], state["result"]) == (
        "finished",
        "agreement",
        "1/2-1/2",
    )


def test_a_move_declines_the_opponents_draw_offer(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    black.send({"type": "draw", "action": "offer"})
    red.state(), black.state()
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    assert red.state()["game"]["draw_offer"] is None


def test_abort_before_both_have_moved_but_not_after(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    for ply, move in enumerate(["h2e2", "h9g7"]):
        (red if ply == 0 else black).send({"type": "move", "ply": ply, "move": move})
        assert red.state()["game"]["abortable"] is (ply == 0)
        black.state()
    red.send({"type": "abort"})
    assert red.error()["code"] == "too_late_to_abort"

    other, red2_key, black2_key = started()
    red2 = sockets(other.slug, red2_key)
    red2.state()
    red2.send({"type": "move", "ply": 0, "move": "h2e2"})
    red2.state()
    red2.send({"type": "abort"})
    state = red2.state()["game"]
    assert (state["status"], state["result"]) == ("aborted", "")


def test_the_mover_is_charged_from_the_servers_receipt_and_gets_the_increment(
    sockets, started
) -> None:
    game, red_key, black_key = started(minutes=5, increment=3)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    for ply, move in enumerate(["h2e2", "h9g7"]):
        (red if ply == 0 else black).send({"type": "move", "ply": ply, "move": move})
        red.state(), black.state()
    stored = LiveGame.objects.get(pk=game.pk)
    assert stored.turn_started_at is not None  # Red's clock runs from Black's first move
    # Red thinks for 40 seconds (the turn began 40 s ago, as the server recorded it)
    LiveGame.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=40)
    )
    red.send({"type": "move", "ply": 2, "move": "h0g2"})
    state = red.state()["game"]
    black.state()
    stored = LiveGame.objects.get(pk=game.pk)
    assert 300_000 - 40_000 + 3_000 - 1_000 <= stored.red_clock_ms <= 300_000 - 40_000 + 3_000
    assert state["clock"]["running"] == "black" and state["clock"]["black_ms"] <= 300_000
    assert stored.moves[-1]["spent_ms"] >= 40_000


def test_a_side_out_of_time_loses_on_any_message_and_its_move_is_not_played(
    sockets, started
) -> None:
    game, red_key, black_key = started(minutes=1, increment=0)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    for ply, move in enumerate(["h2e2", "h9g7"]):
        (red if ply == 0 else black).send({"type": "move", "ply": ply, "move": move})
        red.state(), black.state()
    LiveGame.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=61)
    )
    red.send({"type": "move", "ply": 2, "move": "h0g2"})  # too late
    for socket in (red, black):
        state = socket.state()["game"]
        assert (state["status"], state["termination"], state["winner"]) == (
            "finished",
            "timeout",
            "black",
        )
        assert state["clock"]["red_ms"] == 0
    assert LiveGame.objects.get(pk=game.pk).ply == 2


def test_the_opponent_claims_the_win_when_the_clock_is_at_zero(sockets, started) -> None:
    game, red_key, black_key = started(minutes=1, increment=0)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    for ply, move in enumerate(["h2e2", "h9g7"]):
        (red if ply == 0 else black).send({"type": "move", "ply": ply, "move": move})
        red.state(), black.state()
    black.send({"type": "flag"})  # Red has time left: refused, with how much
    refused = black.error()
    assert refused["code"] == "not_out_of_time" and "s" in refused["message"]["en"]
    LiveGame.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=60)
    )
    black.send({"type": "flag"})
    state = black.state()["game"]
    assert (state["termination"], state["winner"], state["ended_by"]) == ("timeout", "black", "red")


def test_a_challenge_waits_and_its_creator_may_call_it_off(sockets, transactional_db) -> None:
    key, creator = visitor_session()
    game = challenge(creator)
    mine = sockets(game.slug, key)
    assert mine.state()["game"]["status"] == "waiting"
    mine.send({"type": "move", "ply": 0, "move": "h2e2"})
    assert mine.error()["code"] == "spectator"  # no seat until the friend accepts
    watcher = sockets(game.slug)
    watcher.state()
    watcher.send({"type": "abort"})
    assert watcher.error()["code"] == "spectator"
    mine.send({"type": "abort"})
    assert mine.state()["game"]["status"] == "aborted"


def test_a_rematch_is_offered_and_accepted_with_the_colours_swapped(sockets, started) -> None:
    game, red_key, black_key = started(minutes=5, increment=3)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    watcher = sockets(game.slug)
    for socket in (red, black, watcher):
        socket.state()
    red.send({"type": "rematch", "action": "offer"})
    assert red.error()["code"] == "game_not_over"
    black.send({"type": "resign"})
    for socket in (red, black, watcher):
        socket.state()
    watcher.send({"type": "rematch", "action": "offer"})
    assert watcher.error()["code"] == "spectator"
    black.send({"type": "rematch", "action": "accept"})
    assert black.error()["code"] == "no_rematch_offer"
    red.send({"type": "rematch", "action": "offer"})
    for socket in (red, black, watcher):
        offer = socket.state()["game"]["rematch"]
        assert offer == {"by": "red", "slug": None}  # no link before it is accepted
    red.send({"type": "rematch", "action": "offer"})
    assert red.error()["code"] == "rematch_already_offered"
    black.send({"type": "rematch", "action": "accept"})
    slug = black.state()["game"]["rematch"]["slug"]
    assert slug and red.state()["game"]["rematch"]["slug"] == slug
    rematch = LiveGame.objects.get(slug=slug)
    assert rematch.status == "playing" and (rematch.base_ms, rematch.increment_ms) == (
        300_000,
        3_000,
    )
    assert rematch.black_visitor == game.red_visitor and rematch.red_visitor == game.black_visitor
    assert sockets(slug, black_key).state()["you"] == "red"


def test_a_declined_rematch_is_called_off(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    red.send({"type": "abort"})
    red.state(), black.state()
    black.send({"type": "rematch", "action": "offer"})
    red.state(), black.state()
    offered = LiveGame.objects.get(pk=game.pk).rematch_slug
    red.send({"type": "rematch", "action": "decline"})
    assert red.state()["game"]["rematch"] is None
    assert LiveGame.objects.get(slug=offered).status == "aborted"
