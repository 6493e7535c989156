"""A live game after its end, through a real Celery worker and broker: the game's end sends
one search for missed wins per seated player by itself (the same message delivered again
gives one set of puzzles); a player's "Analyse this game" is worked through by the workers to
the end, the same analysis as for a game against the computer."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client

from accounts.owners import Owner
from live.services import missed_wins_messages
from puzzles.models import GameReview, MissedMate, Puzzle
from puzzles.tasks import missed_mates_task
from tests.live.after_the_game import (
    BLUNDER_GAME,
    live_game_with_a_blunder,
    live_game_with_a_missed_mate,
    make_user,
)
from tests.puzzles.test_tasks import wait_for

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_finished_live_game_is_searched_once_per_player(celery_worker: Any) -> None:
    red, black = make_user(), make_user()
    game = live_game_with_a_missed_mate(Owner(user=red), Owner(user=black))  # sends on commit
    reviews = GameReview.objects.filter(source="live", game=game.pk)
    wait_for(lambda: reviews.count() == 2, celery_worker)
    assert {(r.side, r.user_id, r.found) for r in reviews} == {
        ("red", red.pk, 1),
        ("black", black.pk, 0),
    }
    red_message = next(m for m in missed_wins_messages(game) if m["human_side"] == "red")
    for result in [missed_mates_task.delay(red_message), missed_mates_task.delay(red_message)]:
        assert result.get(timeout=90)["found"] == 1
    assert GameReview.objects.filter(source="live", game=game.pk).count() == 2
    [row] = MissedMate.objects.filter(source="live", game=game.pk)
    assert (row.user_id, row.side, row.by_player) == (red.pk, "red", True)
    assert Puzzle.objects.filter(source_game=f"live:{game.pk}").count() == 1


def test_a_player_s_analysis_of_a_live_game_is_run_by_the_workers(celery_worker: Any) -> None:
    red, black = make_user(), make_user()
    game = live_game_with_a_blunder(Owner(user=red), Owner(user=black))
    client = Client()
    client.force_login(red)
    url = f"/api/live/{game.pk}/analysis/"
    assert client.post(url, content_type="application/json").status_code == 202
    deadline = time.monotonic() + 120
    body = client.get(url).json()
    while body["status"] == "pending" and time.monotonic() < deadline:
        time.sleep(0.3)
        body = client.get(url).json()
    assert body["status"] == "done", celery_worker.output()
    plies = body["result"]["plies"]
    assert [p["iccs"] for p in plies] == BLUNDER_GAME
    assert plies[3]["verdict"] in ("mistake", "blunder")
