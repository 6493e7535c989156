"""The computer's own decisions through the HTTP API on the real database, its move played
by the service directly (the worker's path is in test_tasks.py): it resigns a lost game with
its reason, offers a draw in a dead-even endgame (accepted, declined, declined by playing on,
gone with a takeback), answers a draw offered while it thinks after its move; a forged
acceptance is refused. Every ply keeps its time stamp and the computer's clock is charged for
its thinking."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine import Position
from engine.play.decisions import DRAW_OFFER_AFTER, DRAW_OFFER_EVERY, RESIGN_AFTER
from games.models import Game
from games.services import game_computer_move
from tests.games.conftest import LOST_FOR_BLACK, error_code, even_history, post

pytestmark = pytest.mark.django_db


def _board_after(pos: Position, move: Any) -> str:
    after = pos.copy()
    after.push(move)
    return str(after.fen().split(" ")[0])


def quiet_red_move(gid: int, rng: random.Random) -> str:
    """A red move that neither checks nor ends the game nor goes near Black's general, nor
    comes back to a position of the game or lets Black's reply do so (the lost side would
    see a repetition draw)."""
    game = Game.objects.get(pk=gid)
    pos = Position.from_fen("xiangqi", game.start_fen)
    seen = {game.start_fen.split(" ")[0]}
    for entry in game.moves:
        pos.push_iccs(entry["iccs"])
        seen.add(entry["fen"].split(" ")[0])
    choices = []
    for move in pos.legal_moves:
        after = pos.copy()
        after.push(move)
        if (
            not after.is_check()
            and after.outcome() is None
            and int(move.iccs()[3]) < 6
            and after.fen().split(" ")[0] not in seen
            and not any(_board_after(after, reply) in seen for reply in after.legal_moves)
        ):
            choices.append(move.iccs())
    return rng.choice(sorted(choices))


def test_a_lost_computer_resigns_and_says_why(client: Client, new_game: Any) -> None:
    gid = new_game(client, level=3, side="red")["id"]
    Game.objects.filter(pk=gid).update(start_fen=LOST_FOR_BLACK, seed=1)
    rng = random.Random(3)
    states = []
    for _turn in range(RESIGN_AFTER + 1):
        ply = Game.objects.get(pk=gid).ply
        states.append(game_computer_move(game_id=gid, ply=ply))
        if states[-1] == "resigned":
            break
        assert (
            post(client, f"/api/games/{gid}/moves/", {"move": quiet_red_move(gid, rng)}).status_code
            == 200
        )
    assert states[-1] == "resigned" and states.count("played") in (1, RESIGN_AFTER - 1)
    game = client.get(f"/api/games/{gid}/").json()
    assert game["status"] == "finished" and game["termination"] == "resignation"
    assert game["winner"] == "red" and game["ended_by"] == "black" and game["result"] == "1-0"
    reason = game["end_reason"]
    assert reason["reason"] in ("mate", "lost")
    assert "Black (the computer) resigned" in game["ending"]["en"]
    assert "黑方（电脑）认输" in game["ending"]["zh"]
    if reason["reason"] == "lost":
        assert "soldiers' worth behind" in game["ending"]["en"]
    # the resigning search is not a move: the last ply is the player's
    assert game["moves"][-1]["by"] == "player"
    assert game["legal_moves"] == []


def test_an_even_computer_plays_on(client: Client, new_game: Any) -> None:
    gid = new_game(client, level=2, side="black")["id"]
    assert game_computer_move(game_id=gid, ply=0) == "played"
    game = client.get(f"/api/games/{gid}/").json()
    assert game["status"] == "playing" and game["computer_draw_offer"] is None


def offered_game(client: Client, new_game: Any) -> int:
    """A dead-even endgame where the computer has just offered a draw with its move."""
    gid = new_game(client, level=7, side="red")["id"]
    plies = 2 * (DRAW_OFFER_AFTER - 1) + 1  # the computer's turn, five even searches behind
    even_history(gid, plies)
    assert game_computer_move(game_id=gid, ply=plies) == "played"
    return gid


def test_the_computer_offers_a_draw_in_a_dead_even_endgame(client: Client, new_game: Any) -> None:
    gid = offered_game(client, new_game)
    game = client.get(f"/api/games/{gid}/").json()
    assert game["computer_draw_offer"] == {"ply": game["plies"], "by": "computer", "accepted": None}
    assert abs(game["moves"][-1]["score"]) <= 30
    assert game["draw_offer"] is None  # the player's own offers are apart
    done = post(client, f"/api/games/{gid}/draw/answer/", {"accept": True}).json()
    assert done["status"] == "finished" and done["termination"] == "agreement"
    assert done["result"] == "1/2-1/2" and done["ending"]["en"] == "Draw by agreement."
    stored = Game.objects.get(pk=gid).draw_offers
    assert stored[-1] == {
        "ply": done["plies"],
        "by": "computer",
        "accepted": True,
        "answered_ply": done["plies"],
    }


def test_declining_the_computer_s_offer_plays_on_and_it_waits_before_offering_again(
    client: Client, new_game: Any
) -> None:
    assert DRAW_OFFER_EVERY > 2  # the two moves below are within the wait
    gid = offered_game(client, new_game)
    game = post(client, f"/api/games/{gid}/draw/answer/", {"accept": False}).json()
    assert game["status"] == "playing" and game["computer_draw_offer"] is None
    again = post(client, f"/api/games/{gid}/draw/answer/", {"accept": True})
    assert again.status_code == 400 and error_code(again) == "no_draw_offer"
    # still even, but the computer does not offer again on its next moves
    rng = random.Random(5)
    for _turn in range(2):
        legal = client.get(f"/api/games/{gid}/").json()["legal_moves"]
        assert (
            post(client, f"/api/games/{gid}/moves/", {"move": rng.choice(legal)}).status_code == 200
        )
        game = Game.objects.get(pk=gid)
        if game.status != "playing":
            break
        assert game_computer_move(game_id=gid, ply=game.ply) == "played"
        assert client.get(f"/api/games/{gid}/").json()["computer_draw_offer"] is None


def test_playing_on_declines_the_computer_s_offer(client: Client, new_game: Any) -> None:
    gid = offered_game(client, new_game)
    legal = client.get(f"/api/games/{gid}/").json()["legal_moves"]
    game = post(client, f"/api/games/{gid}/moves/", {"move": legal[0]}).json()
    assert game["computer_draw_offer"] is None
    offer = [o for o in Game.objects.get(pk=gid).draw_offers if o["by"] == "computer"][-1]
    assert offer["accepted"] is False and offer["answered_ply"] == game["plies"]
    late = post(client, f"/api/games/{gid}/draw/answer/", {"accept": True})
    assert late.status_code == 400 and error_code(late) == "no_draw_offer"
    assert Game.objects.get(pk=gid).status == "playing"


def test_offering_a_draw_when_the_computer_has_offered_takes_it(
    client: Client, new_game: Any
) -> None:
    gid = offered_game(client, new_game)
    game = post(client, f"/api/games/{gid}/draw/").json()
    assert game["status"] == "finished" and game["termination"] == "agreement"


def test_a_takeback_takes_the_computer_s_offer_with_its_move(client: Client, new_game: Any) -> None:
    gid = offered_game(client, new_game)
    Game.objects.filter(pk=gid).update(level=2)  # takebacks are allowed at levels 1-3
    game = post(client, f"/api/games/{gid}/takeback/").json()
    assert game["computer_draw_offer"] is None
    assert not [o for o in Game.objects.get(pk=gid).draw_offers if o["by"] == "computer"]


@pytest.mark.parametrize("accept", [True, False])
def test_a_forged_acceptance_of_a_draw_never_offered_is_refused(
    client: Client, new_game: Any, accept: bool
) -> None:
    gid = new_game(client, level=2, side="red")["id"]
    before = Game.objects.get(pk=gid)
    response = post(client, f"/api/games/{gid}/draw/answer/", {"accept": accept})
    assert response.status_code == 400 and error_code(response) == "no_draw_offer"
    assert response.json()["error"]["extra"]["explanation"]["en"].startswith(
        "The computer has not offered a draw"
    )
    after = Game.objects.get(pk=gid)
    assert (after.status, after.draw_offers, after.moves) == ("playing", [], before.moves)
    # the player's own offer is no offer of the computer's either
    post(client, f"/api/games/{gid}/draw/")
    forged = post(client, f"/api/games/{gid}/draw/answer/", {"accept": True})
    assert forged.status_code == 400 and error_code(forged) == "no_draw_offer"
    assert Game.objects.get(pk=gid).status == "playing"


@pytest.mark.parametrize("body", [{}, {"accept": "perhaps"}, {"accept": None}])
def test_an_answer_must_say_yes_or_no(client: Client, new_game: Any, body: Any) -> None:
    gid = offered_game(client, new_game)
    response = post(client, f"/api/games/{gid}/draw/answer/", body)
    assert response.status_code == 400
    assert client.get(f"/api/games/{gid}/").json()["computer_draw_offer"] is not None


def test_a_draw_offered_while_the_computer_thinks_is_answered_after_its_move(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, level=3, side="red")["id"]
    Game.objects.filter(pk=gid).update(start_fen=LOST_FOR_BLACK.replace(" b ", " w "), seed=1)
    assert (
        post(client, f"/api/games/{gid}/moves/", {"move": "a1a2"}).status_code == 200
    )  # the computer thinks
    offered = post(client, f"/api/games/{gid}/draw/").json()
    assert offered["thinking"] is True and offered["draw_offer"]["accepted"] is None
    assert game_computer_move(game_id=gid, ply=1) == "played"  # it moves, then answers
    game = client.get(f"/api/games/{gid}/").json()
    assert game["plies"] == 2 and game["moves"][1]["by"] == "computer"
    assert game["termination"] == "agreement"
    assert game["draw_offer"] == {"ply": 1, "by": "player", "accepted": True, "answered_ply": 2}


def test_a_draw_offered_while_an_even_computer_thinks_is_declined_after_its_move(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, level=3, side="red")["id"]
    # the game's seed set, as the other tests here do: level 3 moves with noise drawn from it,
    # and with some seeds (6 of the first 40) its noisy answer leaves it standing low enough to
    # take the draw
    Game.objects.filter(pk=gid).update(seed=2)
    # a quiet first move: the position stays even (after h2e2 the fitted tables see Black a
    # little worse, and a computer standing worse may take the draw)
    assert post(client, f"/api/games/{gid}/moves/", {"move": "b0c2"}).status_code == 200
    post(client, f"/api/games/{gid}/draw/")
    assert game_computer_move(game_id=gid, ply=1) == "played"
    game = client.get(f"/api/games/{gid}/").json()
    assert game["status"] == "playing" and game["plies"] == 2
    assert game["draw_offer"] == {"ply": 1, "by": "player", "accepted": False, "answered_ply": 2}
    assert game["draw_offered_this_ply"] is False  # a new offer may be made on this move


def test_every_ply_keeps_its_time_and_the_computer_is_charged_its_thinking(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, level=1, side="red", clock_minutes=1)["id"]
    assert post(client, f"/api/games/{gid}/moves/", {"move": "h2e2"}).status_code == 200
    assert game_computer_move(game_id=gid, ply=1) == "played"
    game = Game.objects.get(pk=gid)
    first, reply = game.moves
    assert "spent_ms" not in first and first["clock_ms"] == 60_000  # the first ply is free
    assert reply["spent_ms"] >= 0  # its search, from the moment a worker started it
    assert reply["clock_ms"] == game.black_clock_ms == 60_000 - reply["spent_ms"]
    # the player's turn began 5 s ago
    started = timezone.now() - timedelta(seconds=5)
    Game.objects.filter(pk=gid).update(turn_started_at=started)
    assert post(client, f"/api/games/{gid}/moves/", {"move": "h0g2"}).status_code == 200
    game = Game.objects.get(pk=gid)
    second = game.moves[2]
    assert second["spent_ms"] >= 5_000 and second["clock_ms"] == game.red_clock_ms <= 55_000
    assert timezone.datetime.fromisoformat(second["at"]) >= started + timedelta(seconds=5)
    assert game_computer_move(game_id=gid, ply=3) == "played"
    state = client.get(f"/api/games/{gid}/").json()
    assert state["clock"]["running"] == "red"


def test_the_computer_s_clock_runs_while_it_thinks_and_it_loses_on_time(
    client: Client, new_game: Any
) -> None:
    gid = new_game(client, level=1, side="red", clock_minutes=1)["id"]
    assert post(client, f"/api/games/{gid}/moves/", {"move": "h2e2"}).status_code == 200
    # a worker started the computer's search 20 s ago
    Game.objects.filter(pk=gid).update(turn_started_at=timezone.now() - timedelta(seconds=20))
    state = client.get(f"/api/games/{gid}/").json()
    assert state["thinking"] is True and state["clock"]["running"] == "black"
    assert 39_000 <= state["clock"]["black_ms"] <= 40_100
    Game.objects.filter(pk=gid).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    flagged = client.get(f"/api/games/{gid}/").json()  # the poll sees the flag fall
    assert flagged["status"] == "finished" and flagged["termination"] == "timeout"
    assert flagged["winner"] == "red" and flagged["ended_by"] == "black"
    assert game_computer_move(game_id=gid, ply=1) == "skipped"  # too late to move
