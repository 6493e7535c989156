"""The live-play pages through the real HTTP stack: Play a friend (the form, its refusals),
the game's page for its creator (the link to send), for a friend (the challenge to accept),
accepting, and the links that lead there."""

from __future__ import annotations

import pytest
from django.test import Client

from live.models import LiveGame

pytestmark = pytest.mark.django_db

FORM = {"game": "xiangqi:standard", "colour": "black", "time": "5+3"}


def make_challenge(client: Client, **form: str) -> LiveGame:
    response = client.post("/play/live/", {**FORM, **form})
    assert response.status_code == 302, response.content
    slug = response["Location"].rstrip("/").rsplit("/", 1)[1]
    return LiveGame.objects.get(slug=slug)


def test_play_a_friend_is_linked_from_the_play_page_and_the_header(client: Client) -> None:
    for path in ("/play/", "/"):
        assert 'href="/play/live/"' in client.get(path).content.decode(), path


@pytest.mark.parametrize(
    ("language", "title"), [("en", "Play a friend"), ("zh-hans", "和朋友下棋")]
)
def test_the_form_offers_every_variant_and_start_in_both_languages(language, title) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/play/live/").content.decode()
    assert title in page
    for value in ("xiangqi:standard", "feidan:standard", "xinban:new", "xinban:black-new"):
        assert f'value="{value}"' in page
    said = {"en": "or from a secret setup", "zh-hans": "也可以暗布"}[language]
    assert said in page and "not yet offered" not in page and "暂时还不能" not in page


def test_a_challenge_is_made_for_its_creator_with_the_chosen_options(client: Client) -> None:
    game = make_challenge(client, game="xinban:red-new", time="15+10")
    assert (game.variant, game.setup, game.colour_choice) == ("xinban", "red-new", "black")
    assert (game.base_ms, game.increment_ms, game.status) == (900_000, 10_000, "waiting")
    assert game.start_fen.startswith("rnbakabnr/")  # Black traditional, Red turncoat
    page = client.get(f"/play/live/{game.slug}/").content.decode()
    assert 'data-testid="live-invite"' in page and f"/play/live/{game.slug}/" in page
    assert 'data-testid="live-accept"' not in page


@pytest.mark.parametrize(
    "form",
    [
        {"game": "chess:standard"},
        {"game": "xiangqi:new"},
        {"colour": "green"},
        {"time": "0+0"},
        {"time": "5+999"},
        {"time": "five"},
    ],
)
def test_a_bad_choice_is_refused_on_the_form_and_nothing_is_made(client: Client, form) -> None:
    response = client.post("/play/live/", {**FORM, **form}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "options are wrong" in response.content.decode()
    assert not LiveGame.objects.exists()


def test_a_friend_accepts_and_the_colours_are_given_as_chosen(client: Client) -> None:
    game = make_challenge(client)
    friend = Client()
    page = friend.get(f"/play/live/{game.slug}/").content.decode()
    assert 'data-testid="live-accept"' in page
    assert friend.post(f"/play/live/{game.slug}/accept/").status_code == 302
    game.refresh_from_db()
    assert game.status == "playing" and game.started_at is not None
    assert game.black_visitor == client.session["visitor_id"]
    assert game.red_visitor == friend.session["visitor_id"]


def test_ones_own_challenge_or_a_taken_one_cannot_be_accepted(client: Client) -> None:
    game = make_challenge(client)
    response = client.post(f"/play/live/{game.slug}/accept/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    assert "This is your own challenge" in response.content.decode()
    Client().post(f"/play/live/{game.slug}/accept/")
    late = Client().post(f"/play/live/{game.slug}/accept/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert late.status_code == 409 and "已经有人接受" in late.content.decode()


def test_a_link_to_no_game_is_a_clear_404(client: Client) -> None:
    assert client.get("/play/live/nosuchgame/").status_code == 404
    assert client.post("/play/live/nosuchgame/accept/").status_code == 404


def test_a_visitor_who_signs_up_keeps_their_seat(client: Client) -> None:
    game = make_challenge(client)
    password = "a-long-password-123"
    client.post(
        "/accounts/signup/",
        {
            "username": "hua",
            "email": "hua@example.org",
            "password1": password,
            "password2": password,
        },  # fmt: skip
    )
    game.refresh_from_db()
    assert game.creator_user is not None and game.creator_visitor is None
