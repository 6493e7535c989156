"""The lobby of open seeks, on the real database: seeks made, listed (who, their rating if
rated, the game, the clock, rated or casual, the colour asked for), cancelled, gone when their
creator's lobby page has not refreshed them for a while or when the creator starts another
game, and accepted, by exactly one of two people at once; every hostile or mistaken request
refused in both languages, changing nothing; a flood of seeks refused. Then the lobby's
WebSocket (config.asgi -> live.consumers.LiveLobbyConsumer): the list reaches every open
lobby page, an accepted seek sends both players to the game, and the pages."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from accounts.owners import Owner
from accounts.visitors import VISITOR_SESSION_KEY
from live.models import LiveGame, LiveRating
from live.selectors import live_lobby_seeks, live_seeks_open
from live.services import (
    ChallengeOptions,
    LiveRefusal,
    live_challenge_accept,
    live_challenge_create,
    live_move_play,
    live_seats_merge,
    live_seek_cancel,
    live_seek_create,
    live_seeks_refresh,
)
from tests.live.conftest import Socket, race, visitor_session
from tests.live.test_ratings import account, account_session

CASUAL = ChallengeOptions("xiangqi", "standard", "random", 10, 5)
RATED = ChallengeOptions("feidan", "plum_blossom", "black", 3, 2, rated=True)


def visitor() -> Owner:
    return visitor_session()[1]


def refused(code: str, call: Any) -> LiveRefusal:
    """``call()`` is refused with ``code``, said in both languages."""
    with pytest.raises(LiveRefusal) as caught:
        call()
    refusal = caught.value
    assert refusal.extra["code"] == code
    message = refusal.extra["message"]
    assert message["en"] and message["zh"] and message["en"] != message["zh"]
    return refusal


def snapshot() -> list[tuple[Any, ...]]:
    """Every live game as stored (what a refusal must leave as it was)."""
    return list(
        LiveGame.objects.order_by("pk").values_list(
            "slug", "status", "seek", "seek_seen_at", "red_user", "red_visitor", "black_visitor"
        )
    )


# -- making and listing -----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_seek_is_listed_with_who_made_it_the_game_the_clock_and_the_colour() -> None:
    guest, ming = visitor(), account("ming")
    LiveRating.objects.create(user=ming.user, variant="feidan", rating=1612.4, deviation=80)
    casual = live_seek_create(owner=guest, options=CASUAL)
    rated = live_seek_create(owner=ming, options=RATED)
    assert (casual.seek, casual.status, rated.rated) == (True, "waiting", True)
    listed = {seek["slug"]: seek for seek in live_lobby_seeks()}
    assert listed[casual.slug] == {
        "slug": casual.slug,
        "player": None,  # a visitor: the page says "visitor"
        "rating": None,
        "variant": "xiangqi",
        "setup": "standard",
        "time": "10+5",
        "rated": False,
        "colour": "random",
        "owner": {"user": None, "visitor": guest.visitor_id},
    }
    seek = listed[rated.slug]
    assert (seek["player"], seek["variant"], seek["setup"], seek["time"]) == (
        "ming",
        "feidan",
        "plum_blossom",
        "3+2",
    )
    assert (seek["rated"], seek["colour"]) == (True, "black")
    assert seek["rating"] == {"rating": 1612, "deviation": 80, "provisional": False}
    assert [s["slug"] for s in live_lobby_seeks()] == [rated.slug, casual.slug]  # newest first


@pytest.mark.django_db
def test_a_rated_seek_of_a_player_never_rated_in_the_variant_shows_the_provisional_start() -> None:
    hua = account("hua")
    live_seek_create(owner=hua, options=RATED)
    (seek,) = live_lobby_seeks()
    assert seek["rating"] == {"rating": 1500, "deviation": 350, "provisional": True}


@pytest.mark.django_db
def test_a_challenge_sent_by_link_is_not_in_the_lobby() -> None:
    live_challenge_create(owner=visitor(), options=CASUAL)
    assert live_lobby_seeks() == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "code"),
    [
        (ChallengeOptions("chess", "standard", "red", 10, 5), "bad_options"),
        (ChallengeOptions("xiangqi", "new", "red", 10, 5), "bad_options"),
        (ChallengeOptions("xiangqi", "standard", "green", 10, 5), "bad_options"),
        (ChallengeOptions("xiangqi", "standard", "red", 0, 5), "bad_options"),
        (ChallengeOptions("xiangqi", "standard", "red", 10, 999), "bad_options"),
        (ChallengeOptions("xiangqi", "standard", "red", 10, 5, rated=True), "rated_needs_account"),
    ],
)
def test_a_seek_with_bad_options_or_rated_by_a_visitor_is_refused(options, code) -> None:
    refused(code, lambda: live_seek_create(owner=visitor(), options=options))
    assert LiveGame.objects.count() == 0


@pytest.mark.django_db
def test_a_player_has_at_most_a_few_open_seeks() -> None:
    guest = visitor()
    limit = settings.LIVE_SEEKS_PER_PLAYER
    for _ in range(limit):
        live_seek_create(owner=guest, options=CASUAL)
    before = snapshot()
    refusal = refused("too_many_seeks", lambda: live_seek_create(owner=guest, options=CASUAL))
    assert str(limit) in refusal.extra["message"]["en"]
    assert snapshot() == before
    live_seek_create(owner=visitor(), options=CASUAL)  # another player is not counted with them
    # one cancelled makes room again
    live_seek_cancel(slug=before[0][0], owner=guest)
    live_seek_create(owner=guest, options=CASUAL)


# -- cancelled, gone ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_seek_cancelled_by_its_player_leaves_the_lobby() -> None:
    guest = visitor()
    seek = live_seek_create(owner=guest, options=CASUAL)
    cancelled = live_seek_cancel(slug=seek.slug, owner=guest)
    assert (cancelled.status, cancelled.termination) == ("aborted", "cancelled")
    assert live_lobby_seeks() == []
    before = snapshot()
    refused("seek_gone", lambda: live_seek_cancel(slug=seek.slug, owner=guest))
    refused("seek_gone", lambda: live_challenge_accept(slug=seek.slug, owner=visitor()))
    assert snapshot() == before


@pytest.mark.django_db
def test_nobody_but_its_player_cancels_a_seek() -> None:
    seek = live_seek_create(owner=visitor(), options=CASUAL)
    before = snapshot()
    refused("not_your_seek", lambda: live_seek_cancel(slug=seek.slug, owner=visitor()))
    refused("seek_gone", lambda: live_seek_cancel(slug="nosuchseek", owner=visitor()))
    link = live_challenge_create(owner=visitor(), options=CASUAL)  # not a seek
    refused("seek_gone", lambda: live_seek_cancel(slug=link.slug, owner=visitor()))
    assert snapshot()[:1] == before


@pytest.mark.django_db
def test_a_seek_not_refreshed_for_a_while_is_gone_and_cannot_be_taken() -> None:
    guest = visitor()
    made = timezone.now()
    seek = live_seek_create(owner=guest, options=CASUAL, now=made)
    expiry = settings.LIVE_SEEK_EXPIRY_SECONDS
    # the page refreshes it while open: it stays
    later = made + timedelta(seconds=expiry - 1)
    assert live_seeks_refresh(owner=guest, now=later) == 1
    assert live_seeks_open(later + timedelta(seconds=expiry - 1)).count() == 1
    # then nothing for longer than the expiry: gone, and the page coming back does not revive it
    gone = later + timedelta(seconds=expiry + 1)
    assert live_seeks_open(gone).count() == 0
    assert live_seeks_refresh(owner=guest, now=gone) == 0
    assert live_lobby_seeks(gone) == []
    before = snapshot()
    refused("seek_gone", lambda: live_challenge_accept(slug=seek.slug, owner=visitor(), now=gone))
    assert snapshot() == before
    # nor is it counted among the player's open seeks
    for _ in range(settings.LIVE_SEEKS_PER_PLAYER):
        live_seek_create(owner=guest, options=CASUAL, now=gone)


# -- accepted ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_seek_accepted_begins_the_game_with_its_options_and_leaves_the_lobby() -> None:
    creator, taker = visitor(), visitor()
    seek = live_seek_create(
        owner=creator, options=ChallengeOptions("xinban", "red-new", "black", 15, 10)
    )
    game = live_challenge_accept(slug=seek.slug, owner=taker)
    assert (game.status, game.black_visitor, game.red_visitor) == (
        "playing",
        creator.visitor_id,
        taker.visitor_id,
    )
    assert (game.variant, game.setup, game.base_ms, game.increment_ms) == (
        "xinban",
        "red-new",
        900_000,
        10_000,
    )
    assert live_lobby_seeks() == []
    game = live_move_play(slug=game.slug, owner=taker, ply=0, move="h2e2")
    assert game.ply == 1


@pytest.mark.django_db
def test_hostile_acceptances_are_refused_in_both_languages_and_change_nothing() -> None:
    creator, ming = visitor(), account("ming")
    own = live_seek_create(owner=creator, options=CASUAL)
    rated = live_seek_create(owner=ming, options=RATED)
    taken = live_seek_create(owner=visitor(), options=CASUAL)
    live_challenge_accept(slug=taken.slug, owner=visitor())
    before = snapshot()
    refused("own_seek", lambda: live_challenge_accept(slug=own.slug, owner=creator))
    refused("own_seek", lambda: live_challenge_accept(slug=rated.slug, owner=ming))
    refused(
        "rated_seek_needs_account", lambda: live_challenge_accept(slug=rated.slug, owner=creator)
    )
    refused("seek_gone", lambda: live_challenge_accept(slug=taken.slug, owner=creator))
    refused("not_found", lambda: live_challenge_accept(slug="nosuchseek", owner=creator))
    assert snapshot() == before
    # an account takes the rated one
    game = live_challenge_accept(slug=rated.slug, owner=account("hua"))
    assert (game.status, game.rated, game.red_user.username) == ("playing", True, "hua")


@pytest.mark.django_db
def test_starting_a_game_closes_both_players_other_open_seeks() -> None:
    creator, taker, other = visitor(), visitor(), visitor()
    mine = [live_seek_create(owner=creator, options=CASUAL) for _ in range(3)]
    theirs = live_seek_create(owner=taker, options=CASUAL)
    others = live_seek_create(owner=other, options=CASUAL)
    live_challenge_accept(slug=mine[0].slug, owner=taker)
    assert [s["slug"] for s in live_lobby_seeks()] == [others.slug]
    closed = LiveGame.objects.filter(slug__in=[mine[1].slug, mine[2].slug, theirs.slug])
    assert {(g.status, g.termination) for g in closed} == {("aborted", "seek_closed")}
    # a challenge by link accepted starts a game too
    seek = live_seek_create(owner=creator, options=CASUAL)
    link = live_challenge_create(owner=visitor(), options=CASUAL)
    live_challenge_accept(slug=link.slug, owner=creator)
    assert LiveGame.objects.get(pk=seek.pk).status == "aborted"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_two_people_taking_one_seek_at_once_get_one_game_and_one_refusal(round_) -> None:
    creator, first, second = visitor(), visitor(), visitor()
    seek = live_seek_create(owner=creator, options=CASUAL)
    outcomes = race(
        [
            lambda: live_challenge_accept(slug=seek.slug, owner=first),
            lambda: live_challenge_accept(slug=seek.slug, owner=second),
        ]
    )
    assert outcomes == ["done", "seek_gone"]
    game = LiveGame.objects.get(pk=seek.pk)
    seated = {game.red_visitor, game.black_visitor}
    assert game.status == "playing" and creator.visitor_id in seated
    assert len(seated & {first.visitor_id, second.visitor_id}) == 1
    assert LiveGame.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_seeks_of_one_player_taken_at_once_give_that_player_one_game() -> None:
    creator, first, second = visitor(), visitor(), visitor()
    one = live_seek_create(owner=creator, options=CASUAL)
    two = live_seek_create(owner=creator, options=CASUAL)
    outcomes = race(
        [
            lambda: live_challenge_accept(slug=one.slug, owner=first),
            lambda: live_challenge_accept(slug=two.slug, owner=second),
        ]
    )
    assert outcomes == ["done", "seek_gone"]
    statuses = sorted(LiveGame.objects.values_list("status", flat=True))
    assert statuses == ["aborted", "playing"]


# -- the lobby's WebSocket --------------------------------------------------------------------


def seeks(socket: Socket) -> dict[str, Any]:
    """The next lobby list sent to ``socket`` (anything else first fails the test)."""
    message = socket.receive()
    assert message["type"] == "seeks", message
    return message


def lobby_error(socket: Socket) -> dict[str, Any]:
    message = socket.receive()
    assert message["type"] == "error", message
    assert message["message"]["en"] and message["message"]["zh"]
    return message


SEEK = {
    "type": "seek",
    "variant": "xiangqi",
    "setup": "standard",
    "colour": "red",
    "minutes": 5,
    "increment": 3,
    "rated": False,
}


@pytest.mark.django_db(transaction=True)
def test_a_seek_made_on_one_lobby_page_reaches_the_others_and_taking_it_starts_both(
    sockets,
) -> None:
    creator_key, creator = visitor_session()
    taker_key, taker = visitor_session()
    mine, theirs, watcher = (
        sockets("lobby", creator_key),
        sockets("lobby", taker_key),
        sockets("lobby"),
    )
    for socket in (mine, theirs, watcher):
        assert socket.connected and seeks(socket)["seeks"] == []
    mine.send(SEEK)
    for socket in (mine, theirs, watcher):
        message = seeks(socket)
        (listed,) = message["seeks"]
        assert (listed["player"], listed["time"], listed["colour"]) == (None, "5+3", "red")
        assert "owner" not in listed  # nobody is told who is behind a seek
        assert message["mine"] == ([listed["slug"]] if socket is mine else [])
    slug = listed["slug"]

    theirs.send({"type": "accept", "slug": slug})
    for socket in (mine, theirs):
        started = socket.receive()
        assert started == {"type": "started", "slug": slug, "url": f"/play/live/{slug}/"}
    for socket in (mine, theirs, watcher):
        assert seeks(socket)["seeks"] == []
    assert watcher.silent()
    game = LiveGame.objects.get(slug=slug)
    assert (game.status, game.red_visitor, game.black_visitor) == (
        "playing",
        creator.visitor_id,
        taker.visitor_id,
    )
    # both play it on its page
    red = sockets(slug, creator_key)
    assert red.state()["you"] == "red"
    red.send({"type": "move", "ply": 0, "move": "h2e2"})
    assert red.state()["game"]["ply"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_seek_cancelled_leaves_every_lobby_page(sockets) -> None:
    key, _owner = visitor_session()
    mine, other = sockets("lobby", key), sockets("lobby")
    seeks(mine), seeks(other)
    mine.send(SEEK)
    slug = seeks(mine)["seeks"][0]["slug"]
    seeks(other)
    mine.send({"type": "cancel", "slug": slug})
    assert seeks(mine)["seeks"] == [] and seeks(other)["seeks"] == []


@pytest.mark.django_db(transaction=True)
def test_a_seek_aborted_on_its_games_page_leaves_every_lobby_page(sockets) -> None:
    key, owner = visitor_session()
    seek = live_seek_create(owner=owner, options=CASUAL)
    lobby = sockets("lobby")
    assert len(seeks(lobby)["seeks"]) == 1
    page = sockets(seek.slug, key)
    page.state()
    page.send({"type": "abort"})
    assert page.state()["game"]["status"] == "aborted"
    assert seeks(lobby)["seeks"] == []


@pytest.mark.django_db(transaction=True)
def test_a_ping_keeps_the_players_seeks_and_answers_with_the_list(sockets) -> None:
    key, owner = visitor_session()
    seek = live_seek_create(owner=owner, options=CASUAL, now=timezone.now() - timedelta(minutes=1))
    socket = sockets("lobby", key)  # connecting refreshes it
    assert [s["slug"] for s in seeks(socket)["seeks"]] == [seek.slug]
    first = LiveGame.objects.get(pk=seek.pk).seek_seen_at
    socket.send({"type": "ping"})
    assert seeks(socket)["mine"] == [seek.slug]
    assert LiveGame.objects.get(pk=seek.pk).seek_seen_at > first


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("who", "message", "code"),
    [
        ("creator", {"type": "accept", "slug": "SLUG"}, "own_seek"),
        ("creator", {"type": "cancel", "slug": "nosuchseek"}, "seek_gone"),
        ("other", {"type": "cancel", "slug": "SLUG"}, "not_your_seek"),
        ("nobody", {"type": "accept", "slug": "SLUG"}, "no_player"),
        ("other", {**SEEK, "rated": True}, "rated_needs_account"),
        ("other", {**SEEK, "variant": "chess"}, "bad_options"),
        ("other", {**SEEK, "minutes": "ten"}, "bad_field"),
        ("other", {**SEEK, "rated": "yes"}, "bad_field"),
        ("other", {"type": "accept"}, "missing_field"),
        ("other", {"type": "accept", "slug": "SLUG", "as": "red"}, "unknown_field"),
        ("other", {"type": "take"}, "unknown_type"),
        ("other", "[1, 2]", "not_object"),
    ],
)
def test_a_hostile_or_mistaken_lobby_message_is_refused_and_changes_nothing(
    sockets, who, message, code
) -> None:
    creator_key, creator = visitor_session()
    other_key, _other = visitor_session()
    seek = live_seek_create(owner=creator, options=CASUAL)
    socket = sockets("lobby", {"creator": creator_key, "other": other_key, "nobody": None}[who])
    seeks(socket)
    before = snapshot()
    if isinstance(message, dict) and message.get("slug") == "SLUG":
        message = {**message, "slug": seek.slug}
    socket.send(message)
    assert lobby_error(socket)["code"] == code
    assert socket.silent()
    assert snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_a_rated_seek_is_taken_by_an_account_only(sockets) -> None:
    ming, hua = account("ming"), account("hua")
    seek = live_seek_create(owner=ming, options=RATED)
    guest_key, _guest = visitor_session()
    guest = sockets("lobby", guest_key)
    seeks(guest)
    guest.send({"type": "accept", "slug": seek.slug})
    error = lobby_error(guest)
    assert error["code"] == "rated_seek_needs_account"
    assert "account" in error["message"]["en"] and "账号" in error["message"]["zh"]
    signed_in = sockets("lobby", account_session(hua))
    assert seeks(signed_in)["seeks"][0]["rating"]["rating"] == 1500
    signed_in.send({"type": "accept", "slug": seek.slug})
    assert signed_in.receive()["type"] == "started"
    assert LiveGame.objects.get(pk=seek.pk).black_user == ming.user


@pytest.mark.django_db(transaction=True)
def test_a_flood_of_seeks_is_refused(sockets) -> None:
    key, owner = visitor_session()
    socket = sockets("lobby", key)
    seeks(socket)
    rates = {**settings.THROTTLE_RATES, "live_seeks": "4/hour"}
    with override_settings(THROTTLE_RATES=rates, LIVE_SEEKS_PER_PLAYER=10):
        for _ in range(4):
            socket.send(SEEK)
            seeks(socket)
        socket.send(SEEK)
        error = lobby_error(socket)
    assert error["code"] == "seeks_too_fast"
    assert "try again in" in error["message"]["en"] and "秒后再试" in error["message"]["zh"]
    assert live_seeks_open().count() == 4


@pytest.mark.django_db(transaction=True)
def test_seeks_past_the_open_limit_are_refused_over_the_socket(sockets) -> None:
    key, _owner = visitor_session()
    socket = sockets("lobby", key)
    seeks(socket)
    for _ in range(settings.LIVE_SEEKS_PER_PLAYER):
        socket.send(SEEK)
        seeks(socket)
    socket.send(SEEK)
    assert lobby_error(socket)["code"] == "too_many_seeks"
    assert live_seeks_open().count() == settings.LIVE_SEEKS_PER_PLAYER


# -- the pages --------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title", "button"),
    [("en", "Lobby", "Create the seek"), ("zh-hans", "大厅", "发出邀战")],
)
def test_the_lobby_page_offers_the_challenges_choices_in_both_languages(
    language, title, button
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get("/play/live/lobby/").content.decode()
    assert f"<h1>{title}</h1>" in page and button in page
    for value in ("xiangqi:standard", "feidan:plum_blossom", "xinban:new", 'value="10+5"'):
        assert value in page
    assert "/ws/live/lobby/" in page and 'src="/static/live/lobby.js"' in page
    assert 'name="mode" value="rated" disabled' in page  # a visitor: casual only
    assert client.session.get(VISITOR_SESSION_KEY)  # the socket knows the player by it


@pytest.mark.django_db
def test_the_lobby_is_linked_from_play_a_friend_and_the_play_page(client: Client) -> None:
    for path in ("/play/live/", "/play/"):
        assert 'href="/play/live/lobby/"' in client.get(path).content.decode(), path


@pytest.mark.django_db
def test_a_seek_taken_by_its_link_leaves_the_lobby(client: Client) -> None:
    seek = live_seek_create(owner=visitor(), options=CASUAL)
    client.get("/play/live/lobby/")
    response = client.post(f"/play/live/{seek.slug}/accept/")
    assert response.status_code == 302
    assert LiveGame.objects.get(pk=seek.pk).status == "playing"
    assert live_lobby_seeks() == []


@pytest.mark.django_db
def test_the_accounts_seeks_are_kept_when_a_visitor_signs_in() -> None:
    guest = visitor()
    seek = live_seek_create(owner=guest, options=CASUAL)
    user = User.objects.create_user(username="mei", password="a-long-password-123")
    live_seats_merge(guest.visitor_id or "", user)
    assert LiveGame.objects.get(pk=seek.pk).creator_user == user
    assert live_lobby_seeks()[0]["player"] == "mei"
