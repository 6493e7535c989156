"""Xinban's attack-power draw (rules.md §8.6) in live games: the state shows
each side's attack power and who may declare the draw; ``{"type": "claim", "action":
"attack_power"}`` on the claimant's turn, when both sides are below the limit and the claimant's is not the lower, draws the game
(termination ``attack_power``; a rated game rated once, as a draw). The rule is the games
app's (``games.services.game_attack_power_claim``), the engine's ``can_claim_draw``."""

from __future__ import annotations

from typing import Any

import pytest

from core import glicko2
from live.models import LiveGame, LiveRating
from live.selectors import live_game_state
from live.services import LiveRefusal, live_attack_power_claim, live_challenge_accept
from tests.live.conftest import challenge, visitor_session
from tests.live.test_endings import play, playing
from tests.live.test_ratings import account, rated_game

pytestmark = pytest.mark.django_db(transaction=True)

BARE = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"  # 0 against 0: either may declare
# Red a soldier (2), Black a horse (4): Black may declare, Red may not
WEAKER_RED = "3k5/9/2n6/9/9/9/4P4/9/9/4K4 w - - 0 1"


def _xinban(sockets: Any, fen: str) -> tuple[LiveGame, Any, Any, Any]:
    red_key, red = visitor_session()
    black_key, black = visitor_session()
    game = challenge(red, variant="xinban", setup="new", colour="red")
    game = live_challenge_accept(slug=game.slug, owner=black)
    LiveGame.objects.filter(pk=game.pk).update(start_fen=fen)
    return game, sockets(game.slug, red_key), sockets(game.slug, black_key), sockets(game.slug)


def test_the_claim_draws_the_game_for_everyone(sockets) -> None:
    game, red, black, watcher = _xinban(sockets, BARE)
    for socket in (red, black, watcher):
        state = socket.state()["game"]
        assert state["attack_power"] == {"red": 0, "black": 0, "limit": 10}
        assert state["attack_power_claim"] == "red"
    red.send({"type": "claim", "action": "attack_power"})
    for socket in (red, black, watcher):
        state = socket.state()["game"]
        assert (state["status"], state["termination"], state["result"]) == (
            "finished",
            "attack_power",
            "1/2-1/2",
        )
        assert state["ended_by"] == "red" and state["attack_power_claim"] is None
        assert "attack power" in state["ending"]["en"] and "进攻能力" in state["ending"]["zh"]


def test_the_weaker_side_may_not_claim_the_stronger_may_on_its_turn(sockets) -> None:
    game, red, black, _watcher = _xinban(sockets, WEAKER_RED)
    state = red.state()["game"]
    black.state()
    assert state["attack_power"] == {"red": 2, "black": 4, "limit": 10}
    assert state["attack_power_claim"] is None  # Red to move, and weaker
    red.send({"type": "claim", "action": "attack_power"})
    refused = red.error()
    assert refused["code"] == "claim_not_allowed"
    assert "Red 2, Black 4" in refused["message"]["en"] and "红方2" in refused["message"]["zh"]
    black.send(
        {"type": "claim", "action": "attack_power"}
    )  # the stronger side, but not on its turn
    assert black.error()["code"] == "not_your_turn"
    red.send({"type": "move", "ply": 0, "move": "e0e1"})
    assert black.state()["game"]["attack_power_claim"] == "black"
    red.state()
    black.send({"type": "claim", "action": "attack_power"})
    state = red.state()["game"]
    assert (state["termination"], state["ended_by"]) == ("attack_power", "black")


@pytest.mark.parametrize("who", ["watcher", "red_after_the_end", "xiangqi", "feidan"])
def test_a_claim_the_rules_refuse_changes_nothing(sockets, started, who) -> None:
    if who in ("xiangqi", "feidan"):
        game, red_key, _black_key = started(variant=who)
        socket = sockets(game.slug, red_key)
        socket.state()
        code = "claim_no_attack_power"
    else:
        game, red, black, watcher = _xinban(sockets, BARE)
        red.state(), black.state(), watcher.state()
        socket = watcher if who == "watcher" else red
        code = "spectator" if who == "watcher" else "game_over"
        if who == "red_after_the_end":
            red.send({"type": "resign"})
            red.state()
    before = LiveGame.objects.get(pk=game.pk)
    socket.send({"type": "claim", "action": "attack_power"})
    refused = socket.error()
    assert refused["code"] == code
    assert refused["message"]["en"] and refused["message"]["zh"] != refused["message"]["en"]
    after = LiveGame.objects.get(pk=game.pk)
    assert (after.status, after.termination, after.result) == (
        before.status,
        before.termination,
        before.result,
    )


def test_a_claim_message_with_an_extra_field_is_refused(sockets) -> None:
    game, red, _black, _watcher = _xinban(sockets, BARE)
    red.state()
    red.send({"type": "claim", "action": "attack_power", "side": "red"})
    assert red.error()["code"] == "unknown_field"
    assert LiveGame.objects.get(pk=game.pk).status == "playing"


def test_a_rated_claim_is_rated_once_as_a_draw() -> None:
    red, black = account("ap-red"), account("ap-black")
    game = rated_game(red, black, variant="xinban", setup="new")
    LiveGame.objects.filter(pk=game.pk).update(start_fen=BARE)
    game.refresh_from_db()
    game = play(game, {"red": red, "black": black}, ["e0e1", "d9d8"])
    game = live_attack_power_claim(slug=game.slug, owner=red)
    assert (game.result, game.termination) == ("1/2-1/2", "attack_power")
    with pytest.raises(LiveRefusal) as again:
        live_attack_power_claim(slug=game.slug, owner=black)
    assert again.value.code == "game_over"
    rows = {row.user.username: row for row in LiveRating.objects.select_related("user")}
    expected, _other = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 0.5)
    assert rows["ap-red"].games == rows["ap-black"].games == 1
    assert rows["ap-red"].rating == pytest.approx(expected.rating)
    assert live_game_state(game)["rating_change"] == {"red": 0, "black": 0}


def test_other_variants_show_no_attack_power() -> None:
    game, _red, _black = playing()
    state = live_game_state(game)
    assert (state["attack_power"], state["attack_power_claim"]) == (None, None)
