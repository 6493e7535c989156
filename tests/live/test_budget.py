"""A WebSocket connection's message budget (live.budget), and a flood refused on a real
connection without touching the game."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from live.budget import MessageBudget


def test_the_budget_allows_count_messages_in_any_window_then_says_how_long_to_wait() -> None:
    budget = MessageBudget(3, 60)
    assert [budget.spend(t) for t in (0.0, 1.0, 2.0)] == [None, None, None]
    assert budget.spend(10.0) == 50.0  # the first one leaves the window at 60 s
    assert budget.spend(59.5) == 0.5
    assert budget.spend(60.0) is None  # room again
    assert budget.spend(60.5) == 0.5


def test_a_refused_message_does_not_count() -> None:
    budget = MessageBudget(1, 10)
    assert budget.spend(0.0) is None
    for moment in (1.0, 2.0, 9.0):
        assert budget.spend(moment) is not None
    assert budget.spend(10.0) is None


@pytest.mark.django_db(transaction=True)
def test_a_flood_from_one_connection_is_refused_and_the_game_untouched(sockets, started) -> None:
    rates = {**settings.THROTTLE_RATES, "live_messages": "3/min"}
    with override_settings(THROTTLE_RATES=rates):
        game, red_key, _black_key = started()
        red = sockets(game.slug, red_key)
        red.state()
        for _ in range(3):
            red.send({"type": "state"})
            assert red.state()["game"]["ply"] == 0
        red.send({"type": "move", "ply": 0, "move": "h2e2"})
        refused = red.error()
        assert refused["code"] == "too_many_messages"
        assert "try again in" in refused["message"]["en"] and "秒后再试" in refused["message"]["zh"]
        assert refused["state"]["game"]["ply"] == 0
        other = sockets(game.slug, red_key)  # a budget is the connection's own
        other.state()
        other.send({"type": "move", "ply": 0, "move": "h2e2"})
        assert other.state()["game"]["ply"] == 1
