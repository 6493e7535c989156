"""The service behind the computer's task, called directly (no worker): a ply is played once
and a stale one skipped, a takeback after the computer's reply undoes both moves, and the
computer's choice is the same for the same seed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

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


def test_the_computer_moves_are_the_same_for_the_same_seed(client: Client, new_game: Any) -> None:
    first = new_game(client, level=2, side="black")["id"]
    second = new_game(client, level=2, side="black")["id"]
    seed = Game.objects.get(pk=first).seed
    Game.objects.filter(pk=second).update(seed=seed)
    game_computer_move(game_id=first, ply=0)
    game_computer_move(game_id=second, ply=0)
    moves = [Game.objects.get(pk=g).moves[0]["iccs"] for g in (first, second)]
    assert moves[0] == moves[1]
