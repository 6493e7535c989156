"""A live game after its end, for its two players: it stands in their games list beside the
games against the computer (marked live, with the opponent's name), has a replay with the
player's missed wins and "Analyse this game" (the computer's analysis, as for a game against
the computer, one a player), and "Learn from your mistakes". Nobody else (a spectator, another
account, a visitor, nobody signed in) sees any of it, and a request for someone else's game
is refused in both languages, with nothing asked for."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client

from accounts.owners import Owner
from accounts.visitors import VISITOR_SESSION_KEY
from games.game_analysis import game_analysis_run
from games.models import GameAnalysis
from games.services import GameOptions, game_create, game_resign
from live.models import LiveGame
from live.services import live_challenge_accept, live_move_play
from tests.live.after_the_game import (
    BLUNDER_GAME,
    live_game_with_a_blunder,
    live_game_with_a_missed_mate,
    make_user,
)
from tests.live.conftest import challenge

pytestmark = pytest.mark.django_db


def visitor_client() -> tuple[Client, Owner]:
    client = Client()
    session = client.session
    session[VISITOR_SESSION_KEY] = visitor = uuid.uuid4().hex
    session.save()
    return client, Owner(visitor_id=visitor)


def account_client() -> tuple[Client, Owner]:
    user = make_user()
    client = Client()
    client.force_login(user)
    return client, Owner(user=user)


def page_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="game-page" type="application/json">(.*?)</script>', html, re.S)
    assert found, "no game-page data"
    return dict(json.loads(found.group(1)))


def ask(client: Client, game: LiveGame) -> Any:
    return client.post(f"/api/live/{game.pk}/analysis/", content_type="application/json")


@pytest.fixture
def players() -> tuple[Client, Client, LiveGame]:
    """Red an account, Black a visitor, a finished live game (Red missed a mate in 1)."""
    red, red_owner = account_client()
    black, black_owner = visitor_client()
    game = live_game_with_a_missed_mate(red_owner, black_owner)
    return red, black, game


def test_a_live_game_stands_in_both_players_games_lists(players: Any) -> None:
    red, black, game = players
    computer = game_create(owner=Owner(user=red_owner_of(game)), options=GameOptions(
        mode="computer", variant="xiangqi", level=1, side="red", setup="standard",
    ))  # fmt: skip
    game_resign(game_id=computer.pk, owner=Owner(user=red_owner_of(game)))
    red.cookies["django_language"] = "en"
    page = red.get("/play/games/").content.decode()
    rows = re.findall(r"<tr data-kind=\"(\w+)\"", page)
    assert sorted(rows) == ["computer", "live"]
    live_row = page[page.index('data-kind="live"') :].split("</tr>")[0]
    assert "Live" in live_row and "against a visitor" in live_row and "you: Red" in live_row
    assert "You lost — you resigned" in live_row
    assert f'href="/play/live/{game.pk}/replay/"' in live_row
    assert f'href="/play/live/{game.slug}/"' in live_row  # its link, to share
    black.cookies["django_language"] = "zh-hans"
    page = black.get("/play/games/").content.decode()
    live_row = page[page.index('data-kind="live"') :].split("</tr>")[0]
    name = game.red_user.username
    assert "实时对局" in live_row
    assert name in live_row and "你执黑" in live_row
    assert "你赢了——对手认输" in live_row


def red_owner_of(game: LiveGame) -> Any:
    game.refresh_from_db()
    return game.red_user


def test_the_replay_shows_the_moves_the_missed_wins_and_the_analysis_to_a_player(
    players: Any,
) -> None:
    red, black, game = players
    for client, side in ((red, "red"), (black, "black")):
        answer = client.get(f"/play/live/{game.pk}/replay/")
        assert answer.status_code == 200
        html = answer.content.decode()
        page = page_data(html)
        state = page["game"]
        assert [m["iccs"] for m in state["moves"]] == ["a0a1", "e9f9"]
        assert (state["mode"], state["human_side"], state["status"]) == ("live", side, "finished")
        assert state["start_fen"] == game.start_fen
        assert page["api"] == {
            "analysis": f"/api/live/{game.pk}/analysis/",
            "missed": f"/api/puzzles/missed/?game={game.pk}&kind=live",
        }
        assert 'data-testid="missed-panel"' in html and 'data-testid="analysis-ask"' in html
        assert 'data-testid="share-panel"' not in html  # its live link is the one to share
        assert f'href="/play/live/{game.slug}/"' in html


def test_a_game_not_over_is_not_replayed_here_nor_analysed(players: Any) -> None:
    red, red_owner = account_client()
    black, black_owner = visitor_client()
    game = challenge(red_owner, colour="red")
    game = live_challenge_accept(slug=game.slug, owner=black_owner)
    live_move_play(slug=game.slug, owner=red_owner, ply=0, move="h2e2")
    red.cookies["django_language"] = "en"
    answer = red.get(f"/play/live/{game.pk}/replay/")
    assert answer.status_code == 409
    assert f'href="/play/live/{game.slug}/"' in answer.content.decode()
    refused = ask(red, game)
    assert refused.status_code == 409
    assert refused.json()["error"]["message"]
    assert not GameAnalysis.objects.exists()
    # in the games list it is a game to go back to
    page = red.get("/play/games/").content.decode()
    assert f'href="/play/live/{game.slug}/"' in page and "Continue" in page


def test_nobody_but_its_two_players_sees_the_replay_the_analysis_or_the_lesson(
    players: Any,
) -> None:
    red, black, game = players
    assert ask(red, game).status_code == 202
    spectator, _ = visitor_client()
    stranger, _ = account_client()
    for client in (spectator, stranger, Client()):
        for language, said in (("en", "Not your game"), ("zh-hans", "不是你的对局")):
            client.cookies["django_language"] = language
            for url in (f"/play/live/{game.pk}/replay/", f"/play/live/{game.pk}/learn/"):
                answer = client.get(url)
                assert answer.status_code == 404, url
                assert said in answer.content.decode()
            forged = ask(client, game)
            assert forged.status_code == 404
            message = forged.json()["error"]["message"]
            assert ("two players" in message) if language == "en" else ("两位棋手" in message)
            assert client.get(f"/api/live/{game.pk}/analysis/").status_code == 404
        assert client.get(f"/api/puzzles/missed/?game={game.pk}&kind=live").json()["results"] == []
    # nothing was asked for by anyone else: Red's analysis alone
    assert list(GameAnalysis.objects.values_list("live_game", "side")) == [(game.pk, "red")]
    assert ask(red, LiveGameStub(999_999)).status_code == 404  # a game that does not exist


class LiveGameStub:
    def __init__(self, pk: int) -> None:
        self.pk = pk


def test_each_player_has_their_own_analysis_asked_once(players: Any) -> None:
    red, black, game = players
    first = ask(red, game)
    assert first.status_code == 202
    again = ask(red, game)
    assert again.status_code == 200 and again.json()["url"] == first.json()["url"]
    assert ask(black, game).status_code == 202
    rows = GameAnalysis.objects.order_by("side")
    assert [(r.side, r.game_id, r.live_game, r.visitor_id is None) for r in rows] == [
        ("black", None, game.pk, False),
        ("red", None, game.pk, True),
    ]
    assert rows[0].record["moves"] == [
        {"iccs": "a0a1", "chinese": game.moves[0]["chinese"]},
        {"iccs": "e9f9", "chinese": game.moves[1]["chinese"]},
    ]


def test_a_live_game_s_analysis_is_the_games_analysis_and_its_lesson_is_the_player_s() -> None:
    red, red_owner = account_client()
    black, black_owner = visitor_client()
    game = live_game_with_a_blunder(red_owner, black_owner)
    ask(red, game)
    ask(black, game)
    for row in GameAnalysis.objects.all():
        assert game_analysis_run(analysis_id=row.pk, seconds=600) == "done"
    for client in (red, black):
        body = client.get(f"/api/live/{game.pk}/analysis/").json()
        assert body["status"] == "done" and body["game"] == game.pk
        plies = body["result"]["plies"]
        assert [p["iccs"] for p in plies] == BLUNDER_GAME
        assert plies[3]["side"] == "black" and plies[3]["verdict"] in ("mistake", "blunder")
    # each player's lesson holds their own mistakes only: Black's cannon, none of Red's
    black.cookies["django_language"] = "en"
    lesson = black.get(f"/play/live/{game.pk}/learn/")
    assert lesson.status_code == 200
    found = re.search(
        r'<script id="learn-page" type="application/json">(.*?)</script>',
        lesson.content.decode(),
        re.S,
    )
    assert found
    steps = json.loads(found.group(1))["steps"]
    assert steps and {s["side"] for s in steps} == {"black"}
    assert 4 in {s["ply"] for s in steps}
    assert found.group(1).count('"orientation": "black"') == 1
    red_steps = red.get(f"/play/live/{game.pk}/learn/").content.decode()
    assert '"side": "black"' not in red_steps
