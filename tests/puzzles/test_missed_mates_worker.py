"""The search for missed mates through a real Celery worker and broker (tests/conftest.py): a
game that ends goes to the search by itself; the same game delivered again (twice more, one
of them while the first may still run) gives one set of puzzles; a game without a missed win
gives none."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.owners import Owner
from puzzles.models import GameReview, MissedMate, Puzzle
from puzzles.tasks import missed_mates_task
from tests.puzzles.missed_games import message, played_game
from tests.puzzles.test_tasks import wait_for

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_finished_game_is_searched_once_however_often_it_is_delivered(
    celery_worker: Any, make_user
) -> None:
    owner = Owner(user=make_user())
    game = played_game(owner, "feidan")  # its end sends the search (on commit)
    clean = played_game(owner, "xiangqi", play_the_win=True)
    review = wait_for(lambda: GameReview.objects.filter(game=game.pk).first(), celery_worker)
    assert review.found == 1
    data = message(game)
    sent = [missed_mates_task.delay(data), missed_mates_task.delay(data)]
    for result in sent:
        assert result.get(timeout=90)["found"] == 1
    assert MissedMate.objects.filter(game=game.pk).count() == 1
    assert Puzzle.objects.filter(source_game=f"play:{game.pk}").count() == 1
    assert GameReview.objects.filter(game=game.pk).count() == 1

    none = wait_for(lambda: GameReview.objects.filter(game=clean.pk).first(), celery_worker)
    assert none.found == 0
    assert not MissedMate.objects.filter(game=clean.pk).exists()


def test_a_message_that_is_not_a_game_is_refused_without_harm(celery_worker: Any) -> None:
    answer = missed_mates_task.delay({"id": 5, "variant": "xiangqi"}).get(timeout=90)
    assert answer["error"]
    assert not GameReview.objects.exists()
