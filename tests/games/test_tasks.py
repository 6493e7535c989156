"""The computer's moves through a real Celery worker on the ``playing`` queue: it answers a
move, plays first when it has Red, plays a ply once however often it is queued, and answers a
draw offer by its evaluation before it moves. The service behind the task is also called
directly in tests/games/test_computer.py."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from engine import Position
from games.models import Game
from games.tasks import game_computer_move_task
from tests.games.conftest import post

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(check: Callable[[], Any], worker: Any, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out; worker log:\n{worker.output()}")


def game_at(game_id: int, ply: int) -> Game | None:
    game = Game.objects.get(pk=game_id)
    return game if game.ply >= ply and not game.computer_to_move else None


def test_the_task_goes_to_the_playing_queue() -> None:
    route = settings.CELERY_TASK_ROUTES["games.computer_move"]
    assert route["queue"] == settings.CELERY_PLAYING_QUEUE
    assert settings.CELERY_PLAYING_QUEUE.endswith("playing")
    assert settings.CELERY_PLAYING_QUEUE in [q.name for q in settings.CELERY_TASK_QUEUES]


@pytest.mark.parametrize("level", range(1, 9))
def test_the_deep_levels_moves_go_to_a_queue_of_their_own(level: int) -> None:
    """Deep searches wait on ``playing_deep``, whose workers run at a lower CPU priority; the
    quick levels' replies on ``playing``."""
    from games.queueing import computer_queue

    deep = level >= settings.COMPUTER_DEEP_LEVEL
    expected = settings.CELERY_PLAYING_DEEP_QUEUE if deep else settings.CELERY_PLAYING_QUEUE
    assert computer_queue(level) == expected
    assert settings.CELERY_PLAYING_DEEP_QUEUE in [q.name for q in settings.CELERY_TASK_QUEUES]
    assert 1 < settings.COMPUTER_DEEP_LEVEL <= 8  # both queues have work by default


@pytest.mark.celery
def test_a_deep_levels_move_is_sent_to_the_deep_queue_and_played(
    celery_worker: Any, client: Client, new_game: Any
) -> None:
    from games.queueing import computer_queue

    game = new_game(client, level=settings.COMPUTER_DEEP_LEVEL, side="black")  # queued at once
    done = wait_for(lambda: game_at(game["id"], 1), celery_worker)
    assert done.moves[0]["by"] == "computer"
    # the same message as the dispatcher sends it: it arrives on the deep queue
    queue = computer_queue(settings.COMPUTER_DEEP_LEVEL)
    result = game_computer_move_task.apply_async((game["id"], 0), queue=queue).get(timeout=60)
    assert result == {"game": game["id"], "ply": 0, "state": "skipped", "queue": queue}


@pytest.mark.celery
def test_the_computer_answers_a_move(celery_worker: Any, client: Client, new_game: Any) -> None:
    game = new_game(client, variant="xiangqi", level=1, side="red")
    response = post(client, f"/api/games/{game['id']}/moves/", {"move": "h2e2"})
    assert response.json()["thinking"] is True
    done = wait_for(lambda: game_at(game["id"], 2), celery_worker)
    reply = done.moves[1]
    assert reply["by"] == "computer" and done.turn == "red"
    position = Position.start("xiangqi")
    position.push_iccs("h2e2")
    assert position.is_legal(position.parse_move(reply["iccs"]))
    state = client.get(f"/api/games/{game['id']}/").json()
    assert state["thinking"] is False and len(state["legal_moves"]) > 0


@pytest.mark.celery
@pytest.mark.parametrize("variant", ["feidan", "xinban"])
def test_the_computer_plays_first_with_red(
    celery_worker: Any, client: Client, new_game: Any, variant: str
) -> None:
    game = new_game(client, variant=variant, level=2, side="black")
    assert game["thinking"] is True
    done = wait_for(lambda: game_at(game["id"], 1), celery_worker)
    assert done.moves[0]["by"] == "computer" and done.turn == "black"


@pytest.mark.celery
def test_the_same_ply_queued_three_times_is_played_once(
    celery_worker: Any, client: Client, new_game: Any
) -> None:
    game = new_game(client, level=1, side="black")  # queued once on creation
    results = [game_computer_move_task.delay(game["id"], 0) for _ in range(2)]
    states = sorted(r.get(timeout=60)["state"] for r in results)
    done = wait_for(lambda: game_at(game["id"], 1), celery_worker)
    time.sleep(1.0)  # give any other copy time to run
    done.refresh_from_db()
    assert done.ply == 1 and [m["by"] for m in done.moves] == ["computer"]
    assert "played" in states or states == ["skipped", "skipped"]
    assert states.count("played") <= 1


@pytest.mark.celery
def test_a_draw_offer_is_declined_at_the_start_and_the_computer_moves(
    celery_worker: Any, client: Client, new_game: Any
) -> None:
    game = new_game(client, level=1, side="red")
    gid = game["id"]
    offered = post(client, f"/api/games/{gid}/draw/").json()
    assert offered["draw_offer"] == {"ply": 0, "by": "player", "accepted": None}
    assert post(client, f"/api/games/{gid}/draw/").status_code == 400  # one offer a ply
    post(client, f"/api/games/{gid}/moves/", {"move": "h2e2"})
    done = wait_for(lambda: game_at(gid, 2), celery_worker)
    # answered on the computer's turn (ply 1), before its move
    assert done.draw_offers == [{"ply": 0, "by": "player", "accepted": False, "answered_ply": 1}]
    assert done.status == "playing"


@pytest.mark.celery
def test_a_lost_computer_accepts_a_draw(celery_worker: Any, client: Client, new_game: Any) -> None:
    game = new_game(client, level=3, side="red")
    gid = game["id"]
    # Black has its general alone against two chariots: it takes the draw
    Game.objects.filter(pk=gid).update(start_fen="4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1")
    post(client, f"/api/games/{gid}/draw/")  # offered on Red's turn: answered on Black's
    post(client, f"/api/games/{gid}/moves/", {"move": "a1a2"})
    done = wait_for(
        lambda: (g := Game.objects.get(pk=gid)).status == "finished" and g, celery_worker
    )
    assert done.termination == "agreement" and done.result == "1/2-1/2"
    assert done.ply == 1
    assert done.draw_offers == [{"ply": 0, "by": "player", "accepted": True, "answered_ply": 1}]


@pytest.mark.celery
def test_a_lost_computer_move_is_queued_again_by_a_poll(
    celery_worker: Any, client: Client, new_game: Any
) -> None:
    gid = new_game(client, level=1, side="red")["id"]  # the player's turn: nothing queued
    # The computer's turn with a message that never arrived (queued long ago, not played).
    Game.objects.filter(pk=gid).update(
        human_side="black", computer_queued_at=timezone.now() - timedelta(minutes=5)
    )
    time.sleep(1.0)
    assert Game.objects.get(pk=gid).ply == 0  # nothing plays it by itself
    assert client.get(f"/api/games/{gid}/").json()["thinking"] is True
    done = wait_for(lambda: game_at(gid, 1), celery_worker)
    assert [m["by"] for m in done.moves] == ["computer"]
    # once played, nothing waits to be queued again
    assert Game.objects.get(pk=gid).computer_queued_at is None


@pytest.mark.celery
def test_a_draw_offered_while_the_computer_thinks_waits_for_its_move(
    celery_worker: Any, client: Client, new_game: Any
) -> None:
    from django.db import transaction

    game = new_game(client, level=3, side="red")
    gid = game["id"]
    # Black's general alone against two chariots: lost, it takes the draw once it has moved
    Game.objects.filter(pk=gid).update(start_fen="4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1")
    with transaction.atomic():  # the move and the offer reach the worker together
        assert post(client, f"/api/games/{gid}/moves/", {"move": "a1a2"}).status_code == 200
        thinking = post(client, f"/api/games/{gid}/draw/").json()
        assert thinking["thinking"] is True and thinking["draw_offer"]["accepted"] is None
    done = wait_for(
        lambda: (g := Game.objects.get(pk=gid)).status == "finished" and g, celery_worker
    )
    assert done.termination == "agreement" and done.ply == 2  # answered after its move
    assert done.moves[1]["by"] == "computer"
    assert done.draw_offers == [{"ply": 1, "by": "player", "accepted": True, "answered_ply": 2}]


@pytest.mark.celery
def test_a_lost_computer_resigns_on_the_worker(
    celery_worker: Any, client: Client, new_game: Any
) -> None:
    import random

    from tests.games.test_endings_by_the_computer import quiet_red_move

    gid = new_game(client, level=3, side="red")["id"]
    Game.objects.filter(pk=gid).update(start_fen="4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1", seed=1)
    rng = random.Random(11)
    for _turn in range(4):
        ply = Game.objects.get(pk=gid).ply
        post(client, f"/api/games/{gid}/moves/", {"move": quiet_red_move(gid, rng)})
        done = wait_for(
            lambda p=ply: ((g := Game.objects.get(pk=gid)).status == "finished" or g.ply >= p + 2)
            and g,
            celery_worker,
        )
        if done.status == "finished":
            break
    assert done.termination == "resignation" and done.winner == "red"
    assert done.ended_by == "black" and done.end_reason["reason"] in ("mate", "lost")
    assert done.moves[-1]["by"] == "player"


@pytest.mark.celery
def test_the_computer_s_thinking_is_on_its_clock(
    celery_worker: Any, client: Client, new_game: Any
) -> None:
    gid = new_game(client, level=1, side="red", clock_minutes=1)["id"]
    post(client, f"/api/games/{gid}/moves/", {"move": "h2e2"})
    done = wait_for(lambda: game_at(gid, 2), celery_worker)
    player, computer = done.moves
    played = timezone.datetime.fromisoformat(player["at"])
    replied = timezone.datetime.fromisoformat(computer["at"])
    # the computer's time runs while it searches, not while its move waits in the queue
    assert 0 <= computer["spent_ms"] <= (replied - played).total_seconds() * 1000 + 1
    assert done.black_clock_ms == computer["clock_ms"] == 60_000 - computer["spent_ms"]
    assert done.red_clock_ms == player["clock_ms"]
