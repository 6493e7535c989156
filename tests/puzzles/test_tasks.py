"""The puzzles tasks through a real Celery worker and broker (tests/conftest.py).

Verification publishes a sound puzzle and rejects a cooked one with its reason; a try played on
the server is scored by the worker from the result the server judged, updating both ratings
exactly once even when the puzzle is opened twice at the same moment and the task is queued
again, and a try whose scoring message was lost is queued again (by the same move sent again,
or by the sweep of tries waiting too long); the daily choice and a mining chunk run on the
worker too.
"""

from __future__ import annotations

import datetime
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from puzzles.mining import Chunk
from puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleRating
from puzzles.services.solving import WAITING_AFTER
from puzzles.tasks import (
    daily_puzzles_choose_task,
    mine_chunk_task,
    puzzle_attempt_score_task,
    puzzle_attempts_score_waiting_task,
)
from tests.puzzles.positions import COOKED_IN_1, MATE_IN_1, MATE_IN_1_KEY, MATE_IN_2, MATE_IN_2_KEY
from tests.puzzles.test_solving import winning_line

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def wait_for(check: Callable[[], Any], worker: Any, seconds: float = 90) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out; worker log:\n{worker.output()}")


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def test_verification_publishes_a_sound_puzzle_and_rejects_a_cooked_one(
    celery_worker: Any, make_user
) -> None:
    ids, authors = {}, {}
    for name, fen, n in (("sound", MATE_IN_2, 2), ("cooked", COOKED_IN_1, 1)):
        # One author each: an author's puzzles are proved one at a time.
        client = authors[name] = Client()
        client.force_login(make_user())
        created = post(
            client,
            "/api/puzzles/authored/",
            {"variant": "xiangqi", "fen": fen, "goal": "mate", "moves_to_win": n},
        )
        assert created.status_code == 201
        ids[name] = created.json()["id"]
        submitted = post(client, f"/api/puzzles/authored/{ids[name]}/submit/")
        assert submitted.status_code == 202 and submitted.json()["status"] == "verifying"

    def finished() -> bool:
        return not Puzzle.objects.filter(pk__in=ids.values(), status="verifying").exists()

    wait_for(finished, celery_worker)
    sound = authors["sound"].get(f"/api/puzzles/authored/{ids['sound']}/").json()
    assert sound["status"] == "published" and sound["rejection_reason"] == ""
    assert Puzzle.objects.get(pk=ids["sound"]).proof["keys"] == [MATE_IN_2_KEY]
    cooked = authors["cooked"].get(f"/api/puzzles/authored/{ids['cooked']}/").json()
    assert cooked["status"] == "rejected"
    assert cooked["rejection"]["kind"] == "cooked"
    assert "b1b9" in cooked["rejection_reason"] and "b1d1" in cooked["rejection_reason"]
    # Published: now anyone can open it by its share link.
    assert Client().get(f"/puzzles/p/{sound['slug']}/").status_code == 200


def test_scoring_updates_both_ratings_once_when_opened_twice_at_once(
    celery_worker: Any, make_puzzle, make_user
) -> None:
    puzzle = make_puzzle()
    user = make_user()
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def open_attempt() -> None:
        client = Client()
        client.force_login(user)
        barrier.wait()
        try:
            answers.append(post(client, f"/api/puzzles/{puzzle.pk}/attempts/"))
        finally:
            connection.close()

    threads = [threading.Thread(target=open_attempt) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers) == [200, 201]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    attempt_id = answers[0].json()["id"]
    client = Client()
    client.force_login(user)
    for move in winning_line(puzzle)[::2]:  # the last move ends the try and queues the scoring
        judged = post(
            client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt_id, "move": move}
        )
        assert judged.status_code == 200, judged.content
    assert judged.json()["verdict"] == "solved"
    # A retried or duplicated task message must not score it again either.
    puzzle_attempt_score_task.delay(attempt_id)
    puzzle_attempt_score_task.delay(attempt_id)

    attempt = wait_for(
        lambda: PuzzleAttempt.objects.filter(pk=attempt_id, state="scored").first(), celery_worker
    )
    again = puzzle_attempt_score_task.delay(attempt_id).get(timeout=60)
    assert again["state"] == "scored"
    assert PuzzleAttempt.objects.count() == 1
    assert attempt.result == "solved" and attempt.rated
    rating = PuzzleRating.objects.get(user=user, variant="xiangqi")
    puzzle.refresh_from_db()
    assert rating.games == 1 and puzzle.plays == 1 and puzzle.solves == 1
    assert attempt.user_rating_before == 1500 and rating.rating == attempt.user_rating_after > 1500
    assert puzzle.rating == attempt.puzzle_rating_after < attempt.puzzle_rating_before
    client = Client()
    client.force_login(user)
    status = client.get(f"/api/puzzles/attempts/{attempt_id}/").json()
    assert status["state"] == "scored" and status["solution"]["key"] == MATE_IN_2_KEY


def test_the_daily_task_chooses_one_per_variant(celery_worker: Any, make_puzzle) -> None:
    puzzle = make_puzzle()
    chosen = daily_puzzles_choose_task.delay("2025-05-04").get(timeout=60)
    assert chosen == {"xiangqi": puzzle.pk}
    assert DailyPuzzle.objects.get(date=datetime.date(2025, 5, 4)).puzzle_id == puzzle.pk
    assert daily_puzzles_choose_task.delay("2025-05-04").get(timeout=60) == chosen


def test_a_mining_chunk_runs_on_a_worker(celery_worker: Any) -> None:
    chunk = Chunk(variant="xiangqi", strategy="sparse", seed=7, count=1, max_moves=1, seconds=60.0)
    entries = mine_chunk_task.delay(chunk.as_json()).get(timeout=120)
    assert len(entries) == 1
    entry = entries[0]
    assert entry["proof"]["status"] == "sound_unique" and entry["moves_to_win"] == 1
    assert entry["main_line"] == entry["proof"]["keys"]


def test_a_visitors_finished_try_stays_unrated_when_scored_after_logging_in(
    celery_worker: Any, make_puzzle, make_user
) -> None:
    """Scoring is slow (the task runs after the visitor logged in and the merge handed the
    try to the account): the worker still scores it unrated, as the visitor who made it."""
    puzzle = make_puzzle()
    user = make_user(password="a-long-test-password")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    # The scoring task is queued when this transaction commits: after the log-in.
    with transaction.atomic():
        opened = post(client, f"/api/puzzles/{puzzle.pk}/attempts/").json()
        for move in winning_line(puzzle)[::2]:
            judged = post(client, f"/api/puzzles/{puzzle.pk}/judge/",
                          {"attempt": opened["id"], "move": move}).json()  # fmt: skip
        assert judged["verdict"] == "solved"
        assert judged["attempt"]["unrated_reason"] == "visitor"
        logged_in = client.post(
            "/accounts/login/", {"username": user.username, "password": "a-long-test-password"}
        )
        assert logged_in.status_code == 302
        handed = PuzzleAttempt.objects.get(pk=opened["id"])
        assert handed.user == user and handed.first_try
        assert handed.state == PuzzleAttempt.State.SUBMITTED
    scored = wait_for(
        lambda: PuzzleAttempt.objects.filter(pk=opened["id"], state="scored").first(),
        celery_worker,
    )
    assert scored.user == user and scored.result == "solved"
    assert not scored.rated and scored.unrated_reason == "visitor"
    assert scored.user_rating_after is None
    assert not PuzzleRating.objects.filter(user=user, games__gt=0).exists()
    status = client.get(f"/api/puzzles/attempts/{opened['id']}/").json()
    assert status["unrated_reason_text"] == "Tries made without signing in are not rated."


def end_try_losing_its_message(client: Client, puzzle: Puzzle, url: str, body: Any) -> int:
    """Open an attempt and end it with ``body`` sent to ``url``, as if the answer to the commit
    had been lost: Django then drops the transaction's commit hooks, and the scoring message
    with them. The attempt's id; it waits to be scored, with no message on the way."""
    attempt_id = int(post(client, f"/api/puzzles/{puzzle.pk}/attempts/").json()["id"])
    with transaction.atomic():
        ended = post(client, url, {"attempt": attempt_id, **body})
        assert ended.status_code == 200, ended.content
        transaction.get_connection().run_on_commit.clear()
    assert PuzzleAttempt.objects.get(pk=attempt_id).state == PuzzleAttempt.State.SUBMITTED
    return attempt_id


@pytest.mark.parametrize(
    ("path", "body", "result"),
    [("judge", {"move": MATE_IN_1_KEY, "ply": 0}, "solved"), ("give-up", {}, "failed")],
)
def test_a_try_whose_scoring_message_was_lost_is_scored_when_sent_again(
    celery_worker: Any, make_puzzle, make_user, path: str, body: Any, result: str
) -> None:
    """The page sends a move (or "show the solution") again when its answer did not come: the
    same answer comes back, and a try still waiting to be scored is queued again."""
    puzzle = make_puzzle(MATE_IN_1, moves_to_win=1)
    user = make_user()
    client = Client()
    client.force_login(user)
    url = f"/api/puzzles/{puzzle.pk}/{path}/"
    attempt_id = end_try_losing_its_message(client, puzzle, url, body)
    again = post(client, url, {"attempt": attempt_id, **body})
    assert again.status_code == 200, again.content
    scored = wait_for(
        lambda: PuzzleAttempt.objects.filter(pk=attempt_id, state="scored").first(), celery_worker
    )
    assert scored.result == result and PuzzleAttempt.objects.filter(user=user).count() == 1
    assert PuzzleRating.objects.get(user=user).games == (1 if result == "solved" else 0)


def test_tries_waiting_too_long_to_be_scored_are_queued_again(
    celery_worker: Any, make_puzzle, make_user
) -> None:
    """Every few minutes (Celery beat) the tries that ended more than ``WAITING_AFTER`` ago and
    are still not scored have their scoring message sent again: a player who never comes
    back has the try scored too."""
    puzzle = make_puzzle(MATE_IN_1, moves_to_win=1)
    url = f"/api/puzzles/{puzzle.pk}/judge/"
    ids = []
    for _ in range(2):
        client = Client()
        client.force_login(make_user())
        ids.append(end_try_losing_its_message(client, puzzle, url, {"move": MATE_IN_1_KEY}))
    old, recent = ids
    PuzzleAttempt.objects.filter(pk=old).update(
        submitted_at=timezone.now() - WAITING_AFTER - datetime.timedelta(seconds=1)
    )
    assert puzzle_attempts_score_waiting_task.delay().get(timeout=60) == [old]
    wait_for(lambda: PuzzleAttempt.objects.filter(pk=old, state="scored").exists(), celery_worker)
    assert PuzzleAttempt.objects.get(pk=recent).state == PuzzleAttempt.State.SUBMITTED
    assert PuzzleRating.objects.get(user__puzzle_attempts=old).games == 1
