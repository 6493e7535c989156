"""The wins missed in a finished live game: each seated player (an account or a visitor) gets
the review of their own side, keyed apart from the games against the computer; nobody else
sees it, nor learns whether the game was searched."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from accounts.merge import visitor_merge_run
from accounts.owners import Owner
from accounts.visitors import VISITOR_SESSION_KEY
from live.models import LiveGame
from live.services import missed_wins_messages
from puzzles.models import GameReview, MissedMate, Puzzle
from puzzles.services.missed import FinishedGame, missed_mates_review
from tests.live.after_the_game import MISSED_FEN, live_game_with_a_missed_mate, make_user

pytestmark = pytest.mark.django_db


def visitor_client() -> tuple[Client, Owner]:
    client = Client()
    session = client.session
    session[VISITOR_SESSION_KEY] = visitor = uuid.uuid4().hex
    session.save()
    return client, Owner(visitor_id=visitor)


def missed(client: Client, game: int, source: str = "live") -> Any:
    answer = client.get(f"/api/puzzles/missed/?game={game}&kind={source}")
    assert answer.status_code == 200
    return answer.json()


def reviewed(game: LiveGame) -> None:
    """Run the search for each message the game's end sends (as the task does)."""
    for message in missed_wins_messages(game):
        missed_mates_review(game=FinishedGame.from_data(message))


def test_each_player_gets_the_review_of_their_own_side() -> None:
    account = make_user()
    red = Client()
    red.force_login(account)
    black, black_owner = visitor_client()
    game = live_game_with_a_missed_mate(Owner(user=account), black_owner)
    messages = missed_wins_messages(game)
    assert [(m["human_side"], m["user_id"], m["visitor_id"]) for m in messages] == [
        ("red", account.pk, None),
        ("black", None, black_owner.visitor_id),
    ]
    assert {m["mode"] for m in messages} == {"live"}
    reviewed(game)

    reviews = GameReview.objects.filter(source="live", game=game.pk).order_by("side")
    assert [(r.side, r.user_id, r.visitor_id, r.found) for r in reviews] == [
        ("black", None, black_owner.visitor_id, 0),
        ("red", account.pk, None, 1),
    ]
    mine = missed(red, game.pk)
    assert mine["reviewed"] is True
    [moment] = mine["results"]
    assert (moment["kind"], moment["game"], moment["ply"], moment["side"]) == (
        "live", game.pk, 0, "red",
    )  # fmt: skip
    assert moment["by_player"] is True
    assert moment["game_url"] == f"/play/live/{game.pk}/replay/#ply=0"
    puzzle = Puzzle.objects.get(pk=moment["puzzle"])
    assert (puzzle.fen, puzzle.source_game, puzzle.status) == (
        MISSED_FEN,
        f"live:{game.pk}",
        "private",
    )
    # Black searched their own side: Red's miss is not shown to Black as an escape
    theirs = missed(black, game.pk)
    assert theirs["reviewed"] is True and theirs["results"] == []
    assert black.get("/api/puzzles/missed/").json()["results"] == []
    # the puzzle is Red's alone
    assert black.get(f"/api/puzzles/{puzzle.pk}/").status_code == 404
    shown = red.get(f"/api/puzzles/{puzzle.pk}/")
    assert shown.status_code == 200
    # the puzzle names its game: the live game's replay, at the moment
    assert shown.json()["game"]["url"] == f"/play/live/{game.pk}/replay/#ply=0"
    assert shown.json()["game"]["kind"] == "own"


def test_nobody_else_learns_anything_of_a_live_game_s_review() -> None:
    game = live_game_with_a_missed_mate(Owner(user=make_user()), Owner(user=make_user()))
    reviewed(game)
    spectator, _ = visitor_client()
    stranger = Client()
    stranger.force_login(make_user())
    for client in (spectator, stranger, Client()):
        answer = missed(client, game.pk)
        assert answer["reviewed"] is False and answer["results"] == []


def test_a_second_delivery_changes_nothing() -> None:
    game = live_game_with_a_missed_mate(Owner(user=make_user()), Owner(user=make_user()))
    reviewed(game)
    reviewed(game)
    assert GameReview.objects.filter(source="live", game=game.pk).count() == 2
    assert MissedMate.objects.filter(source="live", game=game.pk).count() == 1


def test_a_live_game_and_a_computer_game_with_the_same_id_do_not_mix() -> None:
    owner = Owner(user=make_user())
    data = {
        "id": 4242, "variant": "xiangqi", "start_fen": MISSED_FEN, "moves": ["a0a1", "e9f9"],
        "human_side": "red", "level": 8, "user_id": owner.user.pk, "visitor_id": None,
    }  # fmt: skip
    computer = missed_mates_review(game=FinishedGame.from_data({**data, "mode": "computer"}))
    live = missed_mates_review(game=FinishedGame.from_data({**data, "mode": "live"}))
    assert computer.pk != live.pk
    assert (computer.source, computer.side, live.source, live.side) == ("play", "", "live", "red")
    rows = MissedMate.objects.filter(game=4242).order_by("source")
    assert [(r.source, r.ply) for r in rows] == [("live", 0), ("play", 0)]
    keys = set(Puzzle.objects.filter(missed__game=4242).values_list("source_key", flat=True))
    assert keys == {"missed:4242:0", "missed:live:4242:0"}
    client = Client()
    client.force_login(owner.user)
    [play] = missed(client, 4242, "play")["results"]
    [live_row] = missed(client, 4242, "live")["results"]
    assert play["game_url"] == "/play/4242/#ply=0"
    assert live_row["game_url"] == "/play/live/4242/replay/#ply=0"
    assert play["puzzle"] != live_row["puzzle"]


def test_a_live_message_without_the_player_s_side_is_refused() -> None:
    data = {
        "id": 1, "variant": "xiangqi", "start_fen": MISSED_FEN, "moves": ["a0a1"],
        "mode": "live", "user_id": 1,
    }  # fmt: skip
    with pytest.raises(ValueError, match="side"):
        FinishedGame.from_data(data)
    with pytest.raises(ValueError, match="side"):
        FinishedGame.from_data({**data, "human_side": "green"})


def test_a_bad_source_is_refused_with_a_message() -> None:
    answer = Client().get("/api/puzzles/missed/?game=3&kind=elsewhere")
    assert answer.status_code == 400
    assert answer.json()["error"]["message"]


def test_a_blank_kind_is_a_game_of_the_games_app() -> None:
    owner = Owner(user=make_user())
    data = {
        "id": 77, "variant": "xiangqi", "start_fen": MISSED_FEN, "moves": ["a0a1", "e9f9"],
        "human_side": "red", "level": 8, "user_id": owner.user.pk, "visitor_id": None,
        "mode": "computer",
    }  # fmt: skip
    missed_mates_review(game=FinishedGame.from_data(data))
    client = Client()
    client.force_login(owner.user)
    [row] = missed(client, 77, "")["results"]
    assert row["kind"] == "play"


def test_a_visitor_s_live_game_and_its_missed_wins_follow_them_into_the_account() -> None:
    client, visitor = visitor_client()
    game = live_game_with_a_missed_mate(visitor, Owner(user=make_user()))
    reviewed(game)
    user = make_user()
    visitor_merge_run(visitor_id=str(visitor.visitor_id), user=user)
    account = Client()
    account.force_login(user)
    [moment] = missed(account, game.pk)["results"]
    assert moment["side"] == "red" and moment["by_player"] is True
    assert account.get(f"/play/live/{game.pk}/replay/").status_code == 200
    assert 'data-kind="live"' in account.get("/play/games/").content.decode()
    assert GameReview.objects.get(source="live", game=game.pk, side="red").user_id == user.pk
