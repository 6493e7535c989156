"""Sharing a finished game: its owner gets a link that opens the replay for anyone, asking
again gives the same link, taking it back makes it a 404; a game still being played or set
up is refused, and the link changes nothing of the game nor opens its API."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from tests.games.conftest import error_code, post

pytestmark = pytest.mark.django_db


def _finished(client: Client, new_game: Any, move: Any) -> int:
    gid = int(new_game(client, mode="local")["id"])
    for text in ("h2e2", "h7e7", "b0c2"):
        assert move(client, gid, text).status_code == 200
    assert post(client, f"/api/games/{gid}/resign/").json()["status"] == "finished"
    return gid


def _page_json(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="game-page" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    return dict(json.loads(found.group(1)))


def test_a_finished_game_is_replayed_by_anyone_with_its_link(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = _finished(client, new_game, move)
    assert client.get(f"/api/games/{gid}/").json()["share_url"] is None  # nothing is public
    shared = post(client, f"/api/games/{gid}/share/").json()
    link = shared["share_url"]
    assert re.fullmatch(r"/play/g/[23456789abcdefghjkmnpqrstuvwxyz]{8}/", link)
    assert post(client, f"/api/games/{gid}/share/", {"share": True}).json()["share_url"] == link
    stranger = Client()
    response = stranger.get(link)
    assert response.status_code == 200
    html = response.content.decode()
    page = _page_json(html)
    assert page["shared"] is True and page["api"] == {}
    game = page["game"]
    assert [m["iccs"] for m in game["moves"]] == ["h2e2", "h7e7", "b0c2"]
    assert game["termination"] == "resignation" and game["ending"]["en"]
    # the owner's own address and the link they hold are theirs only
    assert game["url"] is None and game["share_url"] is None
    assert 'data-testid="shared-note"' in html and 'id="share-panel"' not in html
    # a link is for those it is given to: search engines are asked not to list it
    assert '<meta name="robots" content="noindex">' in html
    assert "noindex" not in client.get(f"/play/{gid}/").content.decode()
    # the link opens the replay, not the game: its API is still the owner's alone
    assert stranger.get(f"/api/games/{gid}/").status_code == 404
    assert post(stranger, f"/api/games/{gid}/share/", {"share": False}).status_code == 404
    assert client.get(link).status_code == 200


def test_a_game_not_finished_cannot_be_shared(client: Client, new_game: Any) -> None:
    playing = new_game(client)["id"]
    setting_up = new_game(client, variant="feidan", setup="five_soldiers")["id"]
    for gid in (playing, setting_up):
        response = post(client, f"/api/games/{gid}/share/")
        assert response.status_code == 400 and error_code(response) == "share_not_finished"
        explanation = response.json()["error"]["extra"]["explanation"]
        assert "finished" in explanation["en"] and "下完" in explanation["zh"]
        assert Game.objects.get(pk=gid).share_slug is None


def test_a_link_taken_back_stops_working(client: Client, new_game: Any, move: Any) -> None:
    gid = _finished(client, new_game, move)
    link = post(client, f"/api/games/{gid}/share/").json()["share_url"]
    assert post(client, f"/api/games/{gid}/share/", {"share": False}).json()["share_url"] is None
    assert Client().get(link).status_code == 404
    assert client.get(link).status_code == 404  # for its owner too: the link is gone
    # taking back a link that is not there changes nothing; sharing again makes a new one
    assert post(client, f"/api/games/{gid}/share/", {"share": False}).status_code == 200
    again = post(client, f"/api/games/{gid}/share/").json()["share_url"]
    assert again and again != link
    assert Game.objects.get(pk=gid).status == "finished"


def test_an_unknown_or_forged_share_request_is_refused(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = _finished(client, new_game, move)
    for slug in ("zzzzzzzz", "ZZZZZZZZ", "a" * 200, "%20"):
        assert Client().get(f"/play/g/{slug}/").status_code == 404, slug
    for body in ({"share": "maybe"}, {"share": None}, {"share": [True]}):
        response = post(client, f"/api/games/{gid}/share/", body)
        assert response.status_code == 400, body
    assert Game.objects.get(pk=gid).share_slug is None
    assert post(client, "/api/games/999999/share/").status_code == 404


def test_a_shared_game_is_marked_in_my_games_and_keeps_its_link_on_sign_up(
    client: Client, new_game: Any, move: Any
) -> None:
    gid = _finished(client, new_game, move)
    link = post(client, f"/api/games/{gid}/share/").json()["share_url"]
    assert f'href="{link}"' in client.get("/play/games/").content.decode()
    password = "a long pass phrase 9"
    client.post(
        "/accounts/signup/", {"username": "mei", "password1": password, "password2": password}
    )
    assert Game.objects.get(pk=gid).user is not None
    assert Client().get(link).status_code == 200
    assert post(client, f"/api/games/{gid}/share/", {"share": False}).status_code == 200
    assert Client().get(link).status_code == 404


def test_a_shared_game_says_who_played_it_and_when(
    client: Client, new_game: Any, move: Any, django_user_model: Any
) -> None:
    gid = int(new_game(client, side="red", level=3)["id"])
    post(client, f"/api/games/{gid}/resign/")
    link = post(client, f"/api/games/{gid}/share/").json()["share_url"]
    Game.objects.filter(pk=gid).update(created_at=datetime(2026, 11, 5, 10, 0, tzinfo=UTC))
    for language, players, date in (
        ("en", "A visitor (Red) against the computer, level 3 (Black)", "Nov. 5, 2026"),
        ("zh-hans", "访客（红方）对电脑 3 级（黑方）", "2026年11月5日"),
    ):
        html = Client(HTTP_ACCEPT_LANGUAGE=language).get(link).content.decode()
        assert f'<span data-testid="shared-players">{players}</span>' in html
        assert date in html and 'datetime="2026-11-05T18:00:00+08:00"' in html
        # the page speaks to a stranger: no "your games come with you", no "You lost"
        assert "your games come with you" not in html and "你的对局也会一起保留" not in html
        game = _page_json(html)["game"]
        assert game["outcome"] == "black_won"
        assert game["headline"]["en"] == "Black won — Red resigned"
    # an account's game is said with its owner's name; one at one board says so
    owner = Client()
    owner.force_login(django_user_model.objects.create_user(username="meilin", password="x-9"))
    local = _finished(owner, new_game, move)
    link = post(owner, f"/api/games/{local}/share/").json()["share_url"]
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(link).content.decode()
    assert '<span data-testid="shared-players">meilin: two players at one board</span>' in html
