"""The service behind the computer's task, called directly (no worker): a ply is played once
and a stale one skipped, a takeback after the computer's reply undoes both moves, the
computer's choice is the same for the same seed, and its clock runs only while it searches."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services import game_computer_move
from tests.games.conftest import post

pytestmark = pytest.mark.django_db


def test_a_stale_ply_is_skipped(client: Client, new_game: Any) -> None:
    gid = new_game(client, level=1, side="black")["id"]
    assert game_computer_move(game_id=gid, ply=1) == "skipped"
    assert game_computer_move(game_id=gid, ply=0) == "played"
    assert game_computer_move(game_id=gid, ply=0) == "skipped"
    assert Game.objects.get(pk=gid).ply == 1
    assert game_computer_move(game_id=999999, ply=0) == "missing"


def test_a_takeback_after_the_reply_undoes_both_moves(client: Client, new_game: Any) -> None:
    gid = new_game(client, level=2, side="red")["id"]
    post(client, f"/api/games/{gid}/moves/", {"move": "h2e2"})
    assert game_computer_move(game_id=gid, ply=1) == "played"
    game = post(client, f"/api/games/{gid}/takeback/").json()
    assert game["plies"] == 0 and game["turn"] == "red" and game["thinking"] is False
    # the computer's reply is not played again for a ply that is gone
    assert game_computer_move(game_id=gid, ply=1) == "skipped"


def test_the_computer_is_charged_for_its_search_not_for_the_queue(
    client: Client, new_game: Any
) -> None:
    """The player's move waited two minutes in a busy queue before a worker took it: the
    computer, with one minute on its clock, does not lose on time; its clock is charged for
    its search alone (``spent_ms``, between the search starting and its move being written)."""
    gid = new_game(client, level=1, side="red", clock_minutes=1)["id"]
    waiting = post(client, f"/api/games/{gid}/moves/", {"move": "h2e2"}).json()
    assert waiting["thinking"] is True and waiting["clock"]["running"] is None
    long_ago = timezone.now() - timedelta(minutes=2)
    Game.objects.filter(pk=gid).update(computer_queued_at=long_ago)
    Game.objects.filter(pk=gid, turn_started_at__isnull=False).update(turn_started_at=long_ago)
    assert client.get(f"/api/games/{gid}/").json()["status"] == "playing"  # nobody's time runs
    before = timezone.now()
    assert game_computer_move(game_id=gid, ply=1) == "played"
    took_ms = (timezone.now() - before).total_seconds() * 1000
    game = Game.objects.get(pk=gid)
    reply = game.moves[1]
    assert game.status == "playing" and reply["by"] == "computer"
    assert 0 <= reply["spent_ms"] <= took_ms + 1
    assert game.black_clock_ms == reply["clock_ms"] == 60_000 - reply["spent_ms"]
    assert game.red_clock_ms == 60_000  # the player's first move was free
    assert game.turn_started_at is not None  # the player's clock runs from the reply


def test_the_computer_s_first_move_is_free(client: Client, new_game: Any) -> None:
    """The computer has Red: the game's first ply is free for it too, as for a player."""
    gid = new_game(client, level=1, side="black", clock_minutes=1)["id"]
    assert game_computer_move(game_id=gid, ply=0) == "played"
    game = Game.objects.get(pk=gid)
    assert game.red_clock_ms == 60_000 and game.turn_started_at is not None


def test_the_computer_moves_are_the_same_for_the_same_seed(client: Client, new_game: Any) -> None:
    first = new_game(client, level=2, side="black")["id"]
    second = new_game(client, level=2, side="black")["id"]
    seed = Game.objects.get(pk=first).seed
    Game.objects.filter(pk=second).update(seed=seed)
    game_computer_move(game_id=first, ply=0)
    game_computer_move(game_id=second, ply=0)
    moves = [Game.objects.get(pk=g).moves[0]["iccs"] for g in (first, second)]
    assert moves[0] == moves[1]


def test_the_computer_declares_an_attack_power_draw_when_it_may(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, variant="xinban", setup="new", level=3, side="red")["id"]
    # Black (the computer) to move, a soldier each (2 against 2), nothing better than a draw
    Game.objects.filter(pk=gid).update(start_fen="3k5/9/9/9/p8/9/4P4/9/4A4/2BAK1B2 b - - 0 1")
    assert game_computer_move(game_id=gid, ply=0) == "claimed"
    game = client.get(f"/api/games/{gid}/").json()
    assert game["termination"] == "attack_power" and game["ended_by"] == "black"
    assert game["result"] == "1/2-1/2" and "Black declared a draw" in game["ending"]["en"]


def test_the_computer_plays_on_when_it_may_not_claim(client: Client, new_game: Any) -> None:
    gid = new_game(client, variant="xinban", setup="new", level=3, side="red")["id"]
    # Black has a soldier (2) against a chariot (7): it may not declare a draw
    Game.objects.filter(pk=gid).update(start_fen="3k5/9/9/9/p8/9/4R4/9/4A4/2BAK1B2 b - - 0 1")
    assert game_computer_move(game_id=gid, ply=0) == "played"
