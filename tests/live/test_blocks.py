"""Blocking a player: an account blocks its opponent from a finished live game's page and
unblocks them from its profile; a blocked pair never meets (neither's challenge or seek can be
accepted by the other, neither sees the other's seeks in the lobby, no rematch between them),
whichever of them blocked, and a refusal says no more than that. On the real database, through
the pages, the services and the lobby's WebSocket."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.owners import Owner
from live.models import LiveBlock, LiveGame
from live.selectors import PAIR_GAMES_ANNOUNCED, pair_games_over, rematch_possible
from live.services import (
    ChallengeOptions,
    LiveRefusal,
    live_abort,
    live_block,
    live_challenge_accept,
    live_challenge_create,
    live_rematch,
    live_resign,
    live_seek_create,
    live_unblock,
)
from tests.live.conftest import visitor_session
from tests.live.test_lobby import SEEK, seeks
from tests.live.test_ratings import account, account_session

CASUAL = ChallengeOptions("xiangqi", "standard", "red", 5, 3)


def finished_game(red: Owner, black: Owner) -> LiveGame:
    game = live_challenge_create(owner=red, options=CASUAL)
    live_challenge_accept(slug=game.slug, owner=black)
    return live_resign(slug=game.slug, owner=black)


def refused(code: str, call: Any) -> LiveRefusal:
    with pytest.raises(LiveRefusal) as error:
        call()
    assert error.value.code == code
    message = error.value.extra["message"]
    assert message["en"] and message["zh"] and message["en"] != message["zh"]
    return error.value


def snapshot() -> list[tuple[Any, ...]]:
    return list(
        LiveGame.objects.order_by("pk").values_list(
            "slug", "status", "red_user_id", "black_user_id", "rematch_by", "rematch_slug"
        )
    )


@pytest.mark.django_db
def test_a_blocked_pair_cannot_accept_each_others_challenges_either_way() -> None:
    ming, hua, third = account("ming"), account("hua"), account("third")
    live_block(slug=finished_game(ming, hua).slug, owner=ming)
    by_ming = live_challenge_create(owner=ming, options=CASUAL)
    by_hua = live_challenge_create(owner=hua, options=CASUAL)
    before = snapshot()
    error = refused("cannot_play", lambda: live_challenge_accept(slug=by_ming.slug, owner=hua))
    assert "block" not in error.extra["message"]["en"].lower()  # who blocked whom is not said
    refused("cannot_play", lambda: live_challenge_accept(slug=by_hua.slug, owner=ming))
    assert snapshot() == before
    # anyone else still plays either of them
    assert live_challenge_accept(slug=by_ming.slug, owner=third).status == "playing"


@pytest.mark.django_db
def test_a_blocked_players_seek_cannot_be_taken_and_is_said_to_be_gone() -> None:
    ming, hua = account("ming"), account("hua")
    live_block(slug=finished_game(ming, hua).slug, owner=hua)
    seek = live_seek_create(owner=ming, options=CASUAL)
    before = snapshot()
    refused("seek_gone", lambda: live_challenge_accept(slug=seek.slug, owner=hua))
    assert snapshot() == before


@pytest.mark.django_db
def test_no_rematch_between_a_blocked_pair() -> None:
    ming, hua = account("ming"), account("hua")
    game, other = finished_game(ming, hua), finished_game(ming, hua)
    live_rematch(slug=game.slug, owner=hua, action="offer")  # offered before the block
    live_block(slug=game.slug, owner=ming)
    before = snapshot()
    refused("cannot_play", lambda: live_rematch(slug=game.slug, owner=ming, action="accept"))
    refused("cannot_play", lambda: live_rematch(slug=game.slug, owner=ming, action="offer"))
    assert snapshot() == before
    refused("cannot_play", lambda: live_rematch(slug=other.slug, owner=hua, action="offer"))
    # declining the standing offer is still allowed
    live_rematch(slug=game.slug, owner=ming, action="decline")
    assert LiveGame.objects.get(pk=game.pk).rematch_by == ""


@pytest.mark.django_db
def test_blocking_is_refused_to_spectators_visitors_and_during_the_game() -> None:
    ming, hua, third = account("ming"), account("hua"), account("third")
    _key, guest = visitor_session()
    playing = live_challenge_create(owner=ming, options=CASUAL)
    live_challenge_accept(slug=playing.slug, owner=hua)
    refused("game_not_over", lambda: live_block(slug=playing.slug, owner=ming))
    done = finished_game(ming, hua)
    refused("spectator", lambda: live_block(slug=done.slug, owner=third))
    with_guest = finished_game(ming, guest)
    refused("block_needs_accounts", lambda: live_block(slug=with_guest.slug, owner=ming))
    refused("block_needs_accounts", lambda: live_block(slug=with_guest.slug, owner=guest))
    assert not LiveBlock.objects.exists()
    live_block(slug=done.slug, owner=ming)
    live_block(slug=done.slug, owner=ming)  # twice: one block
    assert LiveBlock.objects.count() == 1


@pytest.mark.django_db
def test_unblocking_lets_the_pair_meet_again_and_only_ones_own_block_is_lifted() -> None:
    ming, hua = account("ming"), account("hua")
    game = finished_game(ming, hua)
    live_block(slug=game.slug, owner=ming)
    assert ming.user is not None and hua.user is not None
    refused("not_blocked", lambda: live_unblock(user=hua.user, blocked_id=ming.user.pk))
    live_unblock(user=ming.user, blocked_id=hua.user.pk)
    challenge = live_challenge_create(owner=ming, options=CASUAL)
    assert live_challenge_accept(slug=challenge.slug, owner=hua).status == "playing"


# -- the rematch offered only where it can be played ---------------------------------------------


@pytest.mark.django_db
def test_a_rematch_is_possible_once_over_between_two_seats_neither_of_which_blocked() -> None:
    ming, hua = account("ming"), account("hua")
    _key, guest = visitor_session()
    playing = live_challenge_create(owner=ming, options=CASUAL)
    never_accepted = live_challenge_create(owner=ming, options=CASUAL)
    assert not rematch_possible(playing)  # waiting
    playing = live_challenge_accept(slug=playing.slug, owner=hua)
    assert not rematch_possible(playing)  # being played
    aborted = live_abort(slug=playing.slug, owner=hua)  # before the first moves: both seated
    assert rematch_possible(aborted)
    assert not rematch_possible(live_abort(slug=never_accepted.slug, owner=ming))  # one seat
    assert rematch_possible(finished_game(ming, guest))  # a visitor is never blocked
    over = finished_game(ming, hua)
    assert rematch_possible(over)
    for blocker in (ming, hua):  # whichever of the two blocked
        live_block(slug=over.slug, owner=blocker)
        assert not rematch_possible(over) and not rematch_possible(aborted)
        assert blocker.user is not None
        live_unblock(user=blocker.user, blocked_id=LiveBlock.objects.get().blocked_id)
        assert rematch_possible(over)


@pytest.mark.django_db(transaction=True)
def test_each_player_is_told_whether_a_rematch_may_be_offered_and_never_who_blocked(
    sockets: Any,
) -> None:
    ming, hua, third = account("ming"), account("hua"), account("third")
    game = finished_game(ming, hua)
    keys = {"ming": account_session(ming), "hua": account_session(hua)}
    keys["third"] = account_session(third)

    def told(name: str) -> dict[str, Any]:
        return dict(sockets(game.slug, keys[name]).state())

    before = {name: told(name) for name in keys}
    assert {name: m["rematch_allowed"] for name, m in before.items()} == {
        "ming": True,
        "hua": True,
        "third": None,  # a spectator has no rematch to offer, and is told nothing of one
    }
    live_block(slug=game.slug, owner=hua)
    after = {name: told(name) for name in keys}
    assert {name: m["rematch_allowed"] for name, m in after.items()} == {
        "ming": False,
        "hua": False,
        "third": None,
    }
    # the blocker and the blocked are sent the same, but for their seats; a spectator the same
    # as before the block
    assert {**after["ming"], "you": None} == {**after["hua"], "you": None}
    assert after["third"] == before["third"]
    # a refusal is followed by the state, which says it too
    page = sockets(game.slug, keys["ming"])
    assert page.state()["rematch_allowed"] is False
    page.send({"type": "rematch", "action": "offer"})
    error = page.error()
    assert error["code"] == "cannot_play" and error["state"]["rematch_allowed"] is False
    assert hua.user is not None and ming.user is not None
    live_unblock(user=hua.user, blocked_id=ming.user.pk)
    assert told("ming")["rematch_allowed"] is True


@pytest.mark.django_db
def test_a_block_or_unblock_announces_the_pairs_latest_games_over_of_either_colour() -> None:
    """The pages a block or an unblock may find open: the pair's games over, newest first,
    either colour, not another pair's and not one still being played (a fault: unblocking on
    the profile left the open game pages without the rematch until a reload)."""
    ming, hua, third = account("ming"), account("hua"), account("third")
    assert ming.user is not None and hua.user is not None
    first = finished_game(ming, hua)
    second = finished_game(hua, ming)
    finished_game(ming, third)
    playing = live_challenge_create(owner=ming, options=CASUAL)
    live_challenge_accept(slug=playing.slug, owner=hua)
    slugs = [g.slug for g in pair_games_over(ming.user.pk, hua.user.pk)]
    assert slugs == [second.slug, first.slug]
    assert slugs == [g.slug for g in pair_games_over(hua.user.pk, ming.user.pk)]
    for _ in range(PAIR_GAMES_ANNOUNCED):
        finished_game(ming, hua)
    latest = pair_games_over(ming.user.pk, hua.user.pk)
    assert len(latest) == PAIR_GAMES_ANNOUNCED and first not in latest


# -- the pages ----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "button", "blocked", "unblock"),
    [
        ("en", "Block hua", "You have blocked hua", "Unblock"),
        ("zh-hans", "屏蔽hua", "你已屏蔽hua", "解除屏蔽"),
    ],
)
def test_block_from_the_finished_game_and_unblock_from_the_profile(
    client: Client, language: str, button: str, blocked: str, unblock: str
) -> None:
    ming, hua = account("ming"), account("hua")
    assert ming.user is not None and hua.user is not None
    game = finished_game(ming, hua)
    client.force_login(ming.user)
    client.cookies["django_language"] = language
    page = client.get(reverse("live:game", args=[game.slug])).content.decode()
    assert button in page and 'data-testid="live-block-panel"' in page
    assert '<div id="block-offer" >' in page and 'data-testid="live-blocked" hidden>' in page
    assert 'class="panel" hidden data-testid="live-block-panel"' not in page  # the game is over
    answer = client.post(reverse("live:block", args=[game.slug]))
    assert answer.status_code == 302
    assert LiveBlock.objects.filter(blocker=ming.user, blocked=hua.user).exists()
    page = client.get(reverse("live:game", args=[game.slug])).content.decode()
    assert blocked in page and '<div id="block-offer" hidden>' in page
    assert '<p id="block-blocked" data-testid="live-blocked" >' in page  # shown
    profile = client.get(reverse("pages:profile")).content.decode()
    assert 'data-name="hua"' in profile and unblock in profile
    answer = client.post(reverse("live:unblock", args=[hua.user.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse("pages:profile")
    assert not LiveBlock.objects.exists()
    assert 'data-name="hua"' not in client.get(reverse("pages:profile")).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "You have not blocked this account."), ("zh-hans", "你没有屏蔽这个账号。")],
)
def test_hostile_block_and_unblock_requests_are_refused_and_change_nothing(
    client: Client, language: str, said: str
) -> None:
    ming, hua = account("ming"), account("hua")
    assert ming.user is not None and hua.user is not None
    game = finished_game(ming, hua)
    live_block(slug=game.slug, owner=hua)
    client.cookies["django_language"] = language
    # nobody signed in: no block made, sent to log in to unblock
    assert client.post(reverse("live:block", args=[game.slug])).status_code == 409
    answer = client.post(reverse("live:unblock", args=[ming.user.pk]))
    assert answer.status_code == 302 and "login" in answer["Location"]
    client.force_login(ming.user)
    # another's block of me cannot be lifted by me
    answer = client.post(reverse("live:unblock", args=[ming.user.pk]))
    assert answer.status_code == 404 and said in answer.content.decode()
    assert LiveBlock.objects.count() == 1
    assert client.get(reverse("live:block", args=[game.slug])).status_code == 405
    assert client.post(reverse("live:block", args=["nosuchgame"])).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "You cannot play a game with this player."), ("zh-hans", "你不能和这位棋手对局。")],
)
def test_a_blocked_players_challenge_page_refuses_the_acceptance(
    client: Client, language: str, said: str
) -> None:
    ming, hua = account("ming"), account("hua")
    assert hua.user is not None
    live_block(slug=finished_game(ming, hua).slug, owner=ming)
    challenge = live_challenge_create(owner=ming, options=CASUAL)
    client.force_login(hua.user)
    client.cookies["django_language"] = language
    answer = client.post(reverse("live:accept", args=[challenge.slug]))
    assert answer.status_code == 409 and said in answer.content.decode()
    assert LiveGame.objects.get(pk=challenge.pk).status == "waiting"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "label"), [("en", "Block {name}"), ("zh-hans", "屏蔽{name}")])
def test_the_challengers_page_before_anyone_accepts_holds_the_block_button_for_later(
    client: Client, language: str, label: str
) -> None:
    """The challenger's page is made while nobody holds the other seat: it carries the block
    panel, hidden, its button to be named from the game once an account accepts and the game
    is over (a fault: the button came only with a reload)."""
    ming = account("ming")
    assert ming.user is not None
    waiting = live_challenge_create(owner=ming, options=CASUAL)
    client.force_login(ming.user)
    client.cookies["django_language"] = language
    page = client.get(reverse("live:game", args=[waiting.slug])).content.decode()
    assert 'class="panel" hidden data-testid="live-block-panel"' in page
    assert f'data-testid="live-block" data-label="{label}"' in page


@pytest.mark.django_db
def test_a_spectator_and_a_player_facing_a_visitor_are_offered_no_block(client: Client) -> None:
    ming, hua, third = account("ming"), account("hua"), account("third")
    _key, guest = visitor_session()
    assert third.user is not None and ming.user is not None
    game = finished_game(ming, hua)
    playing = live_challenge_create(owner=ming, options=CASUAL)
    live_challenge_accept(slug=playing.slug, owner=hua)
    client.force_login(ming.user)
    page = client.get(reverse("live:game", args=[playing.slug])).content.decode()
    assert 'class="panel" hidden data-testid="live-block-panel"' in page  # until it is over
    client.force_login(third.user)
    assert (
        "live-block-panel"
        not in client.get(reverse("live:game", args=[game.slug])).content.decode()
    )
    client.force_login(ming.user)
    with_guest = finished_game(ming, guest)
    page = client.get(reverse("live:game", args=[with_guest.slug])).content.decode()
    assert "live-block-panel" not in page


# -- the lobby ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_lobby_hides_a_blocked_players_seeks_from_each_of_the_pair_only(sockets) -> None:
    ming, hua, third = account("ming"), account("hua"), account("third")
    live_block(slug=finished_game(ming, hua).slug, owner=hua)
    ming_page = sockets("lobby", account_session(ming))
    hua_page = sockets("lobby", account_session(hua))
    third_page = sockets("lobby", account_session(third))
    for page in (ming_page, hua_page, third_page):
        assert seeks(page)["seeks"] == []
    ming_page.send(SEEK)
    assert [s["player"] for s in seeks(ming_page)["seeks"]] == ["ming"]
    assert seeks(hua_page)["seeks"] == []  # the blocker does not see the blocked one's seek
    assert [s["player"] for s in seeks(third_page)["seeks"]] == ["ming"]
    hua_page.send(SEEK)
    assert [s["player"] for s in seeks(ming_page)["seeks"]] == ["ming"]  # nor the other way
    assert [s["player"] for s in seeks(hua_page)["seeks"]] == ["hua"]
    assert sorted(s["player"] for s in seeks(third_page)["seeks"]) == ["hua", "ming"]
    # taking it by hand anyway: refused as a seek that is gone, nothing changed
    slug = LiveGame.objects.get(creator_user=ming.user, seek=True).slug
    hua_page.send({"type": "accept", "slug": slug})
    message = hua_page.receive()
    assert (message["type"], message["code"]) == ("error", "seek_gone")
    assert LiveGame.objects.get(slug=slug).status == "waiting"
