"""A player who leaves a live game for good: the server keeps each seat's presence in the
database (a heartbeat refreshed by the process holding the player's connections, pulled to
"away" when a connection closes), shows everyone the seat that has left, and lets the opponent
claim the win or a draw once it has been away for ``LIVE_GONE_SECONDS``; a return cancels it.
Over the real WebSocket, on the real database."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from live.models import LiveGame, LiveRating
from live.protocol import ProtocolError, parse_message
from live.services import (
    LiveRefusal,
    live_challenge_accept,
    live_leave_claim,
    live_move_play,
    live_presence_refresh,
    live_resign,
)
from tests.live.conftest import Socket, challenge, visitor_session
from tests.live.test_ratings import account, account_session, rated_game

pytestmark = pytest.mark.django_db(transaction=True)

OPENING = ["h2e2", "h9g7"]  # both sides have moved: leaving now counts


def play_opening(red: Socket, black: Socket, watchers: tuple[Socket, ...] = ()) -> None:
    """Both players' first moves, each state read by every socket."""
    everyone = (red, black, *watchers)
    for socket in everyone:
        socket.state()
    for ply, move in enumerate(OPENING):
        (red if ply % 2 == 0 else black).send({"type": "move", "ply": ply, "move": move})
        for socket in everyone:
            assert socket.state()["game"]["ply"] == ply + 1


def away_long_ago(game: LiveGame, side: str, seconds: int = 31) -> None:
    """``side``'s seat as it stands after ``seconds`` away (the time passed, not waited for)."""
    past = timezone.now() - timedelta(seconds=seconds)
    LiveGame.objects.filter(pk=game.pk).update(**{f"{side}_present_until": past})


def snapshot(game: LiveGame) -> tuple[Any, ...]:
    row = LiveGame.objects.get(pk=game.pk)
    return row.status, row.result, row.termination, row.ply, row.rating_changes


def test_a_player_who_closes_the_page_is_shown_as_left_to_the_opponent_and_spectators(
    sockets, started
) -> None:
    game, red_key, black_key = started()
    red, black, watcher = (
        sockets(game.slug, red_key),
        sockets(game.slug, black_key),
        sockets(game.slug),
    )
    play_opening(red, black, (watcher,))
    assert LiveGame.objects.get(pk=game.pk).black_present_until > timezone.now()
    black.close()
    for socket in (red, watcher):
        state = socket.state()["game"]
        assert list(state["away"]) == ["black"]
        assert 25_000 < state["away"]["black"] <= 30_000  # LIVE_GONE_SECONDS to wait
    assert LiveGame.objects.get(pk=game.pk).black_present_until <= timezone.now()


def test_the_opponent_claims_the_win_once_the_leaver_has_been_away_long_enough(
    sockets, started
) -> None:
    game, red_key, black_key = started()
    red, black, watcher = (
        sockets(game.slug, red_key),
        sockets(game.slug, black_key),
        sockets(game.slug),
    )
    play_opening(red, black, (watcher,))
    black.close()
    red.state(), watcher.state()
    before = snapshot(game)
    red.send({"type": "claim", "action": "win"})
    error = red.error()
    assert error["code"] == "opponent_not_gone_yet"
    assert "s" in error["message"]["en"] and "秒" in error["message"]["zh"]
    assert snapshot(game) == before
    away_long_ago(game, "black")
    red.send({"type": "claim", "action": "win"})
    for socket in (red, watcher):
        state = socket.state()["game"]
        assert (state["status"], state["winner"], state["termination"]) == (
            "finished",
            "red",
            "left",
        )
        assert state["ending"]["en"] == "Black left the game. Red wins."
        assert state["ending"]["zh"] == "黑方离开了对局。红方胜。"
        assert state["away"] == {}
    row = LiveGame.objects.get(pk=game.pk)
    assert (row.result, row.ended_by) == ("1-0", "black")
    red.send({"type": "claim", "action": "win"})  # the game is over now
    assert red.error()["code"] == "game_over"


def test_calling_it_a_draw_when_the_opponent_has_left(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    play_opening(red, black)
    red.close()
    black.state()
    away_long_ago(game, "red")
    black.send({"type": "claim", "action": "draw"})
    state = black.state()["game"]
    assert (state["status"], state["result"], state["termination"]) == (
        "finished",
        "1/2-1/2",
        "left_draw",
    )
    assert state["ending"]["en"] == "Draw: Red left the game and the opponent called it a draw."


def test_a_player_back_before_the_claim_cancels_it(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black, watcher = (
        sockets(game.slug, red_key),
        sockets(game.slug, black_key),
        sockets(game.slug),
    )
    play_opening(red, black, (watcher,))
    black.close()
    red.state(), watcher.state()
    away_long_ago(game, "black")
    again = sockets(game.slug, black_key)
    # everyone is told the player is back: the countdown is gone from every page
    assert again.state()["game"]["away"] == {}
    for socket in (red, watcher):
        assert socket.state()["game"]["away"] == {}
    before = snapshot(game)
    red.send({"type": "claim", "action": "win"})
    assert red.error()["code"] == "opponent_present"
    assert snapshot(game) == before


def test_the_leaver_cannot_claim_and_a_spectator_cannot_claim(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black, watcher = (
        sockets(game.slug, red_key),
        sockets(game.slug, black_key),
        sockets(game.slug),
    )
    play_opening(red, black, (watcher,))
    red.close()
    black.state(), watcher.state()
    away_long_ago(game, "red")
    before = snapshot(game)
    watcher.send({"type": "claim", "action": "win"})
    assert watcher.error()["code"] == "spectator"
    # the leaver, from a page opened again: the opponent has been here all along
    back = sockets(game.slug, red_key)
    back.state()
    black.state(), watcher.state()  # told the leaver is back
    back.send({"type": "claim", "action": "win"})
    assert back.error()["code"] == "opponent_present"
    assert snapshot(game) == before


def test_no_claim_before_both_sides_have_moved(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    black.close()
    away_long_ago(game, "black")
    red.send({"type": "claim", "action": "win"})
    assert red.error()["code"] == "claim_abort_instead"
    assert LiveGame.objects.get(pk=game.pk).status == "playing"


def test_a_player_with_two_pages_who_closes_one_has_not_left(sockets, started) -> None:
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    play_opening(red, black)
    second = sockets(game.slug, black_key)
    second.state()
    black.close()
    # the close is told to everyone, and the page still open answers for its player at once
    assert red.state()["game"]["away"] == {"black": pytest.approx(30_000, abs=5_000)}
    assert red.state()["game"]["away"] == {}
    assert LiveGame.objects.get(pk=game.pk).black_present_until > timezone.now()
    red.send({"type": "claim", "action": "win"})
    assert red.error()["code"] == "opponent_present"


def test_a_seat_whose_server_process_died_goes_away_and_the_opponent_is_told(
    sockets, transactional_db, settings
) -> None:
    # A killed process closes nothing: its seats are simply no longer refreshed. The
    # opponent's own connection, refreshed every LIVE_PING_SECONDS, sees the seat run out.
    settings.LIVE_PING_SECONDS = 1
    red_key, red_owner = visitor_session()
    _black_key, black_owner = visitor_session()
    game = challenge(red_owner)
    game = live_challenge_accept(slug=game.slug, owner=black_owner)
    red = sockets(game.slug, red_key)
    red.state()
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    red.state()
    live_move_play(slug=game.slug, owner=black_owner, ply=1, move="h9g7")
    stamp = LiveGame.objects.get(pk=game.pk).red_present_until
    # Black's page was served by a process that died a moment ago: its last refresh has run out
    LiveGame.objects.filter(pk=game.pk).update(black_present_until=timezone.now())
    state = red.state()["game"]
    assert list(state["away"]) == ["black"] and state["ply"] == 2
    assert LiveGame.objects.get(pk=game.pk).red_present_until > stamp  # red's own beat


def test_a_rated_game_claimed_on_leaving_is_rated_once(sockets, transactional_db) -> None:
    ming, hua = account("ming"), account("hua")
    game = rated_game(ming, hua)
    red, black = sockets(game.slug, account_session(ming)), sockets(game.slug, account_session(hua))
    play_opening(red, black)
    black.close()
    red.state()
    away_long_ago(game, "black")
    red.send({"type": "claim", "action": "win"})
    state = red.state()["game"]
    assert state["rating_change"]["red"] > 0 > state["rating_change"]["black"]
    rows = {row.user.username: row.games for row in LiveRating.objects.select_related("user")}
    assert rows == {"ming": 1, "hua": 1}
    with pytest.raises(LiveRefusal) as refused:
        live_leave_claim(slug=game.slug, owner=ming, action="win")
    assert refused.value.code == "game_over"
    rows = {row.user.username: row.games for row in LiveRating.objects.select_related("user")}
    assert rows == {"ming": 1, "hua": 1}


def test_presence_is_written_only_while_the_game_is_played(transactional_db) -> None:
    _red_key, red = visitor_session()
    _black_key, black = visitor_session()
    game = challenge(red)
    assert live_presence_refresh(slug=game.slug, side="red").was_away is False
    assert LiveGame.objects.get(pk=game.pk).red_present_until is None  # not begun
    live_challenge_accept(slug=game.slug, owner=black)
    live_presence_refresh(slug=game.slug, side="red")
    assert LiveGame.objects.get(pk=game.pk).red_present_until is not None
    live_resign(slug=game.slug, owner=black)
    LiveGame.objects.filter(pk=game.pk).update(red_present_until=None)
    assert live_presence_refresh(slug=game.slug, side="red").over  # the beat stops
    assert LiveGame.objects.get(pk=game.pk).red_present_until is None  # over


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"type": "claim", "action": "abort"}', "bad_claim_action"),
        ('{"type": "claim"}', "missing_field"),
        ('{"type": "claim", "action": "win", "winner": "red"}', "unknown_field"),
    ],
)
def test_a_malformed_claim_is_refused(text, code) -> None:
    with pytest.raises(ProtocolError) as error:
        parse_message(text)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("language", "left", "claim"),
    [
        ("en", "Your opponent left the game.", "Claim the win"),
        ("zh-hans", "你的对手离开了对局。", "宣布胜利"),
    ],
)
def test_the_game_page_says_the_opponent_left_in_both_languages(
    client, started, language, left, claim
) -> None:
    game, _red_key, _black_key = started()
    client.cookies["django_language"] = language
    page = client.get(f"/play/live/{game.slug}/").content.decode()
    data = json.loads(
        page.split('id="live-page" type="application/json">')[1].split("</script>")[0]
    )
    assert data["labels"]["opponent_left"] == left
    assert "{seconds}" in data["labels"]["claim_in"] and claim in page
