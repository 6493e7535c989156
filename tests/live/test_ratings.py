"""Rated live games: Glicko-2 per variant (``core.glicko2``), apart from the puzzle ratings.

A rated game's end with a result moves both players' ratings of its variant exactly once, in the
transaction that ends it: not again on a repeated end message, a flag racing a move, a reconnect;
never for a casual or an aborted game. Rated games need an account on both seats: a visitor can
neither make a rated challenge nor take its seat, and nobody accepts their own."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.owners import Owner
from core import glicko2
from live.models import LiveGame, LiveRating
from live.selectors import live_game_state, live_rating_shown
from live.services import (
    ChallengeOptions,
    LiveRefusal,
    live_abort,
    live_challenge_accept,
    live_challenge_create,
    live_clock_check,
    live_draw,
    live_flag_claim,
    live_move_play,
    live_rematch,
    live_resign,
)
from puzzles.models import PuzzleRating
from tests.live.conftest import race, visitor_session
from tests.live.test_consumer import SHORT_MATE

OPENING = ["h2e2", "h9g7"]  # both sides have moved: the clocks run, no abort


def account(name: str) -> Owner:
    return Owner(user=User.objects.create_user(username=name, password="a-long-password-123"))


def rated_game(
    red: Owner, black: Owner, *, variant: str = "xiangqi", setup: str = "standard",
    minutes: int = 5, rated: bool = True,
) -> LiveGame:  # fmt: skip
    options = ChallengeOptions(variant, setup, "red", minutes, 3, rated=rated)
    game = live_challenge_create(owner=red, options=options)
    return live_challenge_accept(slug=game.slug, owner=black)


def play(game: LiveGame, red: Owner, black: Owner, moves: list[str]) -> LiveGame:
    for move in moves:
        mover = red if game.turn == "red" else black
        game = live_move_play(slug=game.slug, owner=mover, ply=game.ply, move=move)
    return game


def ratings() -> dict[tuple[str, str], tuple[float, float, int]]:
    return {
        (row.user.username, row.variant): (row.rating, row.deviation, row.games)
        for row in LiveRating.objects.select_related("user")
    }


def account_session(owner: Owner) -> str:
    """A browser session signed in as ``owner``'s account (its key), as logging in makes one."""
    user = owner.user
    assert user is not None
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


# -- one update per rated game ----------------------------------------------------------------


@pytest.mark.django_db
def test_a_rated_resignation_moves_both_ratings_once_by_glicko2() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, OPENING)
    game = live_resign(slug=game.slug, owner=black)
    won, lost = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 1.0)
    after = ratings()
    assert after[("ming", "xiangqi")] == (
        pytest.approx(won.rating),
        pytest.approx(won.deviation),
        1,
    )
    assert after[("hua", "xiangqi")] == (
        pytest.approx(lost.rating),
        pytest.approx(lost.deviation),
        1,
    )
    assert won.rating > 1500 > lost.rating
    # the game keeps what it did, and its state says it to both pages
    state = live_game_state(game)
    assert state["rated"] is True
    assert state["rating_change"] == {
        "red": round(won.rating) - 1500,
        "black": round(lost.rating) - 1500,
    }
    assert state["ratings"]["red"] == {
        "rating": round(won.rating),
        "deviation": round(won.deviation),
        "provisional": True,
    }
    # the puzzle ratings are apart: none was made or moved
    assert not PuzzleRating.objects.exists()


@pytest.mark.django_db
def test_a_rating_left_for_a_year_is_less_sure_shown_and_moves_more_in_its_next_game() -> None:
    """Time away widens a rating's deviation (Glicko-2's empty rating periods): the pages show
    it wider, provisional again, and the next rated game starts from the widened rating."""
    red, black = account("ming"), account("hua")
    settled = {"rating": 1700.0, "deviation": 60.0, "volatility": 0.06, "games": 40}
    for user in (red.user, black.user):
        LiveRating.objects.create(user=user, variant="xiangqi", **settled)
    a_year_ago = timezone.now() - timedelta(days=365)
    LiveRating.objects.filter(user=red.user).update(updated_at=a_year_ago)
    shown = live_rating_shown(red.user.pk, "xiangqi")
    away = glicko2.aged(glicko2.Rating(1700, 60, 0.06), 365)
    assert shown == {"rating": 1700, "deviation": round(away.deviation), "provisional": True}
    assert live_rating_shown(black.user.pk, "xiangqi") == {
        "rating": 1700,
        "deviation": 60,
        "provisional": False,
    }
    game = play(rated_game(red, black), red, black, OPENING)
    live_resign(slug=game.slug, owner=black)
    won, lost = glicko2.rate_game(away, glicko2.Rating(1700, 60, 0.06), 1.0)
    after = ratings()
    assert after[("ming", "xiangqi")][0] == pytest.approx(won.rating, abs=0.01)
    assert after[("hua", "xiangqi")][0] == pytest.approx(lost.rating, abs=0.01)
    # the player back from a year away gains more than the one who stayed loses
    assert won.rating - 1700 > 1700 - lost.rating > 0


@pytest.mark.django_db
def test_a_repeated_end_message_changes_no_rating_again() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, OPENING)
    live_resign(slug=game.slug, owner=red)
    once = ratings()
    changes = LiveGame.objects.get(pk=game.pk).rating_changes
    for again in (
        lambda: live_resign(slug=game.slug, owner=red),
        lambda: live_resign(slug=game.slug, owner=black),
        lambda: live_draw(slug=game.slug, owner=black, action="offer"),
        lambda: live_flag_claim(slug=game.slug, owner=black),
        lambda: live_move_play(slug=game.slug, owner=red, ply=2, move="h0g2"),
        lambda: live_abort(slug=game.slug, owner=red),
    ):
        with pytest.raises(LiveRefusal) as refused:
            again()
        assert refused.value.code == "game_over"
    live_clock_check(slug=game.slug, now=timezone.now() + timedelta(hours=1))  # a reconnect
    assert ratings() == once
    assert LiveGame.objects.get(pk=game.pk).rating_changes == changes


@pytest.mark.django_db
def test_a_draw_by_agreement_is_rated_as_a_half_point() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, OPENING)
    live_draw(slug=game.slug, owner=red, action="offer")
    live_draw(slug=game.slug, owner=black, action="accept")
    after = ratings()
    for name in ("ming", "hua"):
        rating, deviation, games = after[(name, "xiangqi")]
        assert rating == pytest.approx(1500.0) and deviation < 350 and games == 1
    assert live_game_state(LiveGame.objects.get(pk=game.pk))["rating_change"] == {
        "red": 0,
        "black": 0,
    }


@pytest.mark.django_db
def test_the_rules_ending_is_rated_per_variant() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, SHORT_MATE)
    assert (game.termination, game.winner) == ("checkmate", "black")
    after = ratings()
    assert after[("hua", "xiangqi")][0] > 1500 > after[("ming", "xiangqi")][0]
    # another variant has its own rating, untouched by the xiangqi game
    feidan = play(rated_game(red, black, variant="feidan"), red, black, ["c2c1", "c7c8"])
    live_resign(slug=feidan.slug, owner=black)
    after = ratings()
    assert after[("ming", "feidan")][0] > 1500 > after[("hua", "feidan")][0]
    assert after[("ming", "feidan")][2] == after[("ming", "xiangqi")][2] == 1
    assert after[("hua", "xiangqi")][0] > 1500  # as the mate left it


@pytest.mark.django_db
def test_a_flag_is_rated_once_and_the_late_move_changes_nothing() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black, minutes=1), red, black, OPENING)
    late = timezone.now() + timedelta(seconds=61)
    flagged = live_move_play(slug=game.slug, owner=red, ply=2, move="h0g2", now=late)
    assert (flagged.termination, flagged.winner, flagged.ply) == ("timeout", "black", 2)
    once = ratings()
    assert once[("hua", "xiangqi")][0] > 1500
    with pytest.raises(LiveRefusal):
        live_flag_claim(slug=game.slug, owner=black, now=late)
    assert ratings() == once


@pytest.mark.django_db(transaction=True)
def test_a_flag_claim_racing_a_move_and_a_reconnect_rates_the_game_once() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black, minutes=1), red, black, OPENING)
    late = timezone.now() + timedelta(seconds=61)
    requests: list[Any] = [
        lambda: live_flag_claim(slug=game.slug, owner=black, now=late),
        lambda: live_move_play(slug=game.slug, owner=red, ply=2, move="h0g2", now=late),
        lambda: live_clock_check(slug=game.slug, now=late),
        lambda: live_resign(slug=game.slug, owner=red, now=late),
    ]
    outcomes = race(requests)
    assert len(outcomes) == len(requests)
    stored = LiveGame.objects.get(pk=game.pk)
    assert (stored.termination, stored.winner) == ("timeout", "black")
    assert set(outcomes) <= {"done", "game_over"}
    after = ratings()
    won, lost = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 1.0)
    assert after[("hua", "xiangqi")] == (pytest.approx(won.rating), pytest.approx(won.deviation), 1)
    assert after[("ming", "xiangqi")][2] == 1


@pytest.mark.django_db
def test_two_rated_games_in_a_row_rate_from_the_rating_the_first_left() -> None:
    red, black = account("ming"), account("hua")
    first = play(rated_game(red, black), red, black, OPENING)
    live_resign(slug=first.slug, owner=black)
    red_after, black_after = (
        LiveRating.objects.get(user=owner.user, variant="xiangqi").glicko for owner in (red, black)
    )
    second = play(rated_game(red, black), red, black, OPENING)
    live_resign(slug=second.slug, owner=black)
    expected, _ = glicko2.rate_game(red_after, black_after, 1.0)
    assert ratings()[("ming", "xiangqi")] == (
        pytest.approx(expected.rating),
        pytest.approx(expected.deviation),
        2,
    )


# -- none for casual or aborted games ---------------------------------------------------------


@pytest.mark.django_db
def test_a_casual_game_between_accounts_changes_no_rating() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black, rated=False), red, black, OPENING)
    game = live_resign(slug=game.slug, owner=black)
    assert game.status == "finished" and game.rating_changes == {}
    assert not LiveRating.objects.exists()
    state = live_game_state(game)
    assert (state["rated"], state["ratings"], state["rating_change"]) == (False, None, None)


@pytest.mark.django_db
def test_an_aborted_rated_game_changes_nothing() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, OPENING[:1])
    game = live_abort(slug=game.slug, owner=black)
    assert game.status == "aborted"
    # a first move's window let pass aborts too, whatever the message
    late = rated_game(red, black)
    when = timezone.now() + timedelta(seconds=settings.LIVE_FIRST_MOVE_SECONDS + 1)
    late, _ = live_clock_check(slug=late.slug, now=when)
    assert (late.status, late.termination) == ("aborted", "no_first_move")
    # a secret setup called off
    setup = rated_game(red, black, variant="feidan", setup="five_soldiers")
    live_abort(slug=setup.slug, owner=red)
    assert not LiveRating.objects.exists()
    assert not LiveGame.objects.exclude(rating_changes={}).exists()


@pytest.mark.django_db
def test_a_rated_games_rematch_is_rated() -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, OPENING)
    live_resign(slug=game.slug, owner=black)
    live_rematch(slug=game.slug, owner=black, action="offer")
    game = live_rematch(slug=game.slug, owner=red, action="accept")
    rematch = LiveGame.objects.get(slug=game.rematch_slug)
    assert rematch.rated and rematch.status == "playing"
    assert (rematch.red_user, rematch.black_user) == (black.user, red.user)


# -- hostile inputs ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_visitor_can_neither_make_nor_take_a_rated_challenge() -> None:
    _key, visitor = visitor_session()
    with pytest.raises(LiveRefusal) as refused:
        live_challenge_create(
            owner=visitor, options=ChallengeOptions("xiangqi", "standard", "red", 5, 3, rated=True)
        )
    assert refused.value.code == "rated_needs_account"
    options = ChallengeOptions("xiangqi", "standard", "red", 5, 3, rated=True)
    game = live_challenge_create(owner=account("ming"), options=options)
    with pytest.raises(LiveRefusal) as refused:
        live_challenge_accept(slug=game.slug, owner=visitor)
    assert refused.value.code == "rated_needs_sign_in"
    game.refresh_from_db()
    assert game.status == "waiting" and game.black_visitor is None and game.black_user is None


@pytest.mark.django_db
def test_nobody_accepts_their_own_rated_challenge() -> None:
    ming = account("ming")
    options = ChallengeOptions("xiangqi", "standard", "random", 5, 3, rated=True)
    game = live_challenge_create(owner=ming, options=options)
    with pytest.raises(LiveRefusal) as refused:
        live_challenge_accept(slug=game.slug, owner=Owner(user=ming.user))
    assert refused.value.code == "own_challenge"
    # signed in from another browser, as the same account: the same refusal
    other = Client()
    assert ming.user is not None
    other.force_login(ming.user)
    response = other.post(f"/play/live/{game.slug}/accept/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409 and "your own challenge" in response.content.decode()
    assert LiveGame.objects.get(pk=game.pk).status == "waiting"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "A rated game needs an account on both sides"),
        ("zh-hans", "计等级分的对局需要双方都有账号"),
    ],
)
def test_a_visitor_opening_a_rated_link_is_told_to_sign_in(language: str, said: str) -> None:
    ming = account("ming")
    options = ChallengeOptions("xiangqi", "standard", "red", 5, 3, rated=True)
    game = live_challenge_create(owner=ming, options=options)
    visitor = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = visitor.get(f"/play/live/{game.slug}/").content.decode()
    assert said in page and 'data-testid="live-sign-in"' in page
    assert 'data-testid="live-accept-button"' not in page
    assert f"/accounts/login/?next=/play/live/{game.slug}/" in page
    assert 'data-testid="live-challenger-rating"' in page  # ming's rating: 1500?
    # the accept forged by hand is refused, in the reader's language, and the seat stays free
    forged = visitor.post(f"/play/live/{game.slug}/accept/")
    assert forged.status_code == 409
    refusal = "需要账号" if language == "zh-hans" else "This is a rated game and needs an account"
    assert refusal in forged.content.decode()
    assert LiveGame.objects.get(pk=game.pk).status == "waiting"
    # signed in, the same visitor takes the seat
    visitor.force_login(account("hua").user)  # type: ignore[arg-type]
    assert (
        'data-testid="live-accept-button"'
        in visitor.get(f"/play/live/{game.slug}/").content.decode()
    )
    assert visitor.post(f"/play/live/{game.slug}/accept/").status_code == 302
    assert LiveGame.objects.get(pk=game.pk).black_user.username == "hua"  # type: ignore[union-attr]


@pytest.mark.django_db
def test_a_visitor_forging_a_rated_challenge_on_the_form_is_refused() -> None:
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = visitor.get("/play/live/").content.decode()
    assert 'value="rated" disabled' in page and 'data-testid="live-rated-sign-in"' in page
    form = {"game": "xiangqi:standard", "colour": "red", "time": "5+3", "mode": "rated"}
    response = visitor.post("/play/live/", form)
    assert (
        response.status_code == 400 and "A rated game needs an account" in response.content.decode()
    )
    bad = visitor.post("/play/live/", {**form, "mode": "ranked"})
    assert bad.status_code == 400 and "options are wrong" in bad.content.decode()
    assert not LiveGame.objects.exists()


@pytest.mark.django_db
def test_an_account_makes_a_rated_challenge_on_the_form() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(account("ming").user)  # type: ignore[arg-type]
    form = {"game": "feidan:standard", "colour": "red", "time": "5+3", "mode": "rated"}
    response = client.post("/play/live/", form)
    assert response.status_code == 302
    game = LiveGame.objects.get()
    assert game.rated and game.variant == "feidan"
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="live-mode">rated<' in page
    casual = client.post("/play/live/", {**form, "mode": "casual"})
    assert not LiveGame.objects.get(slug=casual["Location"].rstrip("/").rsplit("/", 1)[1]).rated


# -- shown ------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title", "games"),
    [("en", "Live-game ratings", "1 rated game"), ("zh-hans", "实时对局等级分", "1盘计分对局")],
)
def test_the_profile_and_the_dashboard_show_the_live_rating_per_variant(
    language: str, title: str, games: str
) -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, OPENING)
    live_resign(slug=game.slug, owner=black)
    shown = round(LiveRating.objects.get(user=red.user, variant="xiangqi").rating)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(red.user)  # type: ignore[arg-type]
    for path in ("/accounts/profile/", "/puzzles/dashboard/"):
        page = client.get(path).content.decode()
        assert title in page and games in page, path
        card = page.split('data-testid="live-rating-xiangqi"', 1)[1].split("</article>", 1)[0]
        assert f"{shown}<abbr" in card, path  # provisional: "1662?"
        feidan = page.split('data-testid="live-rating-feidan"', 1)[1].split("</article>", 1)[0]
        assert "No rated game yet." in feidan or "还没有计分对局" in feidan
    # a visitor's dashboard has no live rating to show
    assert "live-ratings" not in Client().get("/puzzles/dashboard/").content.decode()


def test_a_rated_game_over_the_socket_shows_the_change_once(sockets) -> None:
    red, black = account("ming"), account("hua")
    game = play(rated_game(red, black), red, black, OPENING)
    red_socket = sockets(game.slug, account_session(red))
    black_socket = sockets(game.slug, account_session(black))
    for socket, side in ((red_socket, "red"), (black_socket, "black")):
        message = socket.state()
        assert message["you"] == side
        assert message["game"]["ratings"][side] == {
            "rating": 1500,
            "deviation": 350,
            "provisional": True,
        }
        assert message["game"]["rating_change"] is None
    black_socket.send({"type": "resign"})
    changes = [socket.state()["game"]["rating_change"] for socket in (red_socket, black_socket)]
    assert changes[0] == changes[1] and changes[0]["red"] > 0 > changes[0]["black"]
    once = ratings()
    black_socket.send({"type": "resign"})  # sent again: refused, nothing changes
    assert black_socket.error()["code"] == "game_over"
    again = sockets(game.slug, account_session(red))  # a reconnect
    assert again.state()["game"]["rating_change"] == changes[0]
    assert ratings() == once
