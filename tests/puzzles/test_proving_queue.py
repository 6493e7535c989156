"""The proving queue cannot be filled by a few authors: one puzzle of an author is verified at
a time, and the queue as a whole holds at most ``PROVING_QUEUE_LIMIT`` puzzles.

These tests run without a worker: a submitted puzzle stays ``verifying``, as it does while the
prover works on it or while it waits in the queue."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from puzzles.models import ProvingRequest, Puzzle
from puzzles.services import (
    proving_queue_next,
    proving_queue_order,
    puzzle_verifications_requeue,
    puzzle_verify,
)
from tests.puzzles.positions import HARD_MATE_IN_4, MATE_IN_1

DRAFT = {"variant": "xiangqi", "fen": MATE_IN_1, "goal": "mate", "moves_to_win": 1}
NO_THROTTLE = {"drafts": "1000/day", "puzzle_submissions": "1000/day"}


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def author(name: str) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(username=name, password="x"))
    return client


def draft(client: Client) -> int:
    created = post(client, "/api/puzzles/authored/", DRAFT)
    assert created.status_code == 201, created.content
    return int(created.json()["id"])


def submit(client: Client, puzzle: int, language: str = "en") -> Any:
    return client.post(
        f"/api/puzzles/authored/{puzzle}/submit/",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE)
def test_one_proof_at_a_time_per_author() -> None:
    writer = author("writer")
    first, second = draft(writer), draft(writer)
    assert submit(writer, first).status_code == 202
    refused = submit(writer, second)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["extra"] == {"code": "author_verifying", "puzzle": first}
    assert f"#{first}" in error["message"] and "one puzzle" in error["message"].lower()
    assert Puzzle.objects.get(pk=second).status == Puzzle.Status.DRAFT  # kept, not queued
    # In Chinese too.
    assert "正在验证" in submit(writer, second, "zh-hans").json()["error"]["message"]
    # Another author is not held up.
    other = author("other")
    assert submit(other, draft(other)).status_code == 202
    # Once the first result is in, the next one goes.
    assert puzzle_verify(puzzle_id=first).status == Puzzle.Status.PUBLISHED  # type: ignore[union-attr]
    accepted = submit(writer, second)
    assert accepted.status_code == 202 and accepted.json()["status"] == "verifying"


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE, PROVING_QUEUE_LIMIT=3)
def test_the_proving_queue_is_bounded() -> None:
    authors = [author(f"author{i}") for i in range(4)]
    drafts = [draft(client) for client in authors]
    for client, puzzle in zip(authors[:3], drafts[:3], strict=True):
        assert submit(client, puzzle).status_code == 202
    refused = submit(authors[3], drafts[3])
    assert refused.status_code == 503
    assert int(refused["Retry-After"]) >= 1
    error = refused.json()["error"]
    assert error["extra"] == {"code": "proving_queue_full", "limit": 3}
    assert "send it again" in error["message"]
    assert "队列已满" in submit(authors[3], drafts[3], "zh-hans").json()["error"]["message"]
    assert Puzzle.objects.get(pk=drafts[3]).status == Puzzle.Status.DRAFT
    assert Puzzle.objects.filter(status=Puzzle.Status.VERIFYING).count() == 3
    # A place frees up when a verification ends.
    puzzle_verify(puzzle_id=drafts[0])
    assert submit(authors[3], drafts[3]).status_code == 202


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@override_settings(THROTTLE_RATES=NO_THROTTLE, PROVING_QUEUE_LIMIT=2)
def test_submissions_at_the_same_moment_keep_both_rules(celery_worker: Any) -> None:
    """Six submissions at once: two authors with two drafts each, two more authors, a queue of
    two. Exactly two are accepted, never two of one author; the worker then proves them.

    The drafts take the prover a second or more, so none is decided while the others are still
    being submitted."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (concurrent transactions)")
    users = [User.objects.create_user(username=f"racer{i}", password="x") for i in range(4)]
    drafts = [
        Puzzle.objects.create(
            author=user, variant="xiangqi", fen=HARD_MATE_IN_4, goal="mate", moves_to_win=4,
            source=Puzzle.Source.AUTHORED, status=Puzzle.Status.DRAFT,
        ).pk
        for user in (users[0], users[0], users[1], users[1], users[2], users[3])
    ]  # fmt: skip
    owners = [users[0], users[0], users[1], users[1], users[2], users[3]]
    barrier = threading.Barrier(len(drafts))
    answers: dict[int, int] = {}

    def go(user: User, puzzle: int) -> None:
        client = Client()
        client.force_login(user)
        barrier.wait()
        try:
            answers[puzzle] = submit(client, puzzle).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=go, args=pair) for pair in zip(owners, drafts, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers.values()).count(202) == 2, answers
    assert set(answers.values()) <= {202, 400, 503}
    verifying = Puzzle.objects.filter(status=Puzzle.Status.VERIFYING)
    assert verifying.count() == 2
    assert verifying.values("author").distinct().count() == 2
    accepted = [puzzle for puzzle, status in answers.items() if status == 202]
    deadline = time.monotonic() + 120
    while Puzzle.objects.filter(pk__in=accepted, status=Puzzle.Status.VERIFYING).exists():
        assert time.monotonic() < deadline, celery_worker.output()
        time.sleep(0.2)
    assert set(Puzzle.objects.filter(pk__in=accepted).values_list("status", flat=True)) == {
        Puzzle.Status.PUBLISHED
    }


def author_at(name: str, address: str) -> Client:
    """A signed-in author whose requests come from ``address``."""
    client = author(name)
    client.defaults["REMOTE_ADDR"] = address
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


FLOOD = "203.0.113.66"
HONEST = "198.51.100.5"


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE, PROVING_QUEUE_LIMIT=30, PROVING_ADDRESS_LIMIT=3)
def test_a_flood_from_one_address_refuses_no_one_else() -> None:
    """Many accounts at one address hold at most ``PROVING_ADDRESS_LIMIT`` places: the flood's
    fourth account is told to wait, an author elsewhere is accepted."""
    flood = [author_at(f"flood{i}", FLOOD) for i in range(4)]
    drafts = [draft(client) for client in flood]
    for client, puzzle in zip(flood[:3], drafts[:3], strict=True):
        assert submit(client, puzzle).status_code == 202
    refused = submit(flood[3], drafts[3])
    assert refused.status_code == 503 and int(refused["Retry-After"]) >= 1
    error = refused.json()["error"]
    assert error["extra"] == {"code": "address_queue_full", "limit": 3}
    assert "from your address" in error["message"]
    assert "网络地址" in submit(flood[3], drafts[3], "zh-hans").json()["error"]["message"]
    assert Puzzle.objects.get(pk=drafts[3]).status == Puzzle.Status.DRAFT
    honest = author_at("honest", HONEST)
    assert submit(honest, draft(honest)).status_code == 202


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE, PROVING_ADDRESS_LIMIT=30)
def test_a_newcomer_waits_behind_no_flood() -> None:
    """Six accounts at one address submit, then an honest author elsewhere: the prover takes
    the flood's first puzzle, then the honest author's, then the flood's others in turn."""
    flood = [author_at(f"flood{i}", FLOOD) for i in range(6)]
    flooded = []
    for client in flood:
        puzzle = draft(client)
        assert submit(client, puzzle).status_code == 202
        flooded.append(puzzle)
    honest = author_at("honest", HONEST)
    mine = draft(honest)
    assert submit(honest, mine).status_code == 202
    assert proving_queue_order() == [flooded[0], mine, *flooded[1:]]
    # The verification messages claim them in that order, one each.
    claims = [proving_queue_next(task_id=f"message-{i}") for i in range(8)]
    assert claims == [flooded[0], mine, *flooded[1:], None]


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE)
def test_an_author_just_served_waits_behind_the_others_next_puzzle() -> None:
    """Round-robin by author: once the prover started on one of an author's puzzles, their
    next one waits behind every other author's puzzle waiting, even ones sent later."""
    busy = author_at("busy", FLOOD)
    first = draft(busy)
    assert submit(busy, first).status_code == 202
    assert proving_queue_next(task_id="message-1") == first
    assert puzzle_verify(puzzle_id=first).status == Puzzle.Status.PUBLISHED  # type: ignore[union-attr]
    again = draft(busy)
    assert submit(busy, again).status_code == 202
    later = author_at("later", HONEST)
    theirs = draft(later)
    assert submit(later, theirs).status_code == 202
    assert proving_queue_order() == [theirs, again]


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE)
def test_a_message_handed_back_goes_on_with_the_puzzle_it_claimed() -> None:
    """A worker killed mid-proof hands its message back; the message, delivered again with the
    same id, proves the same puzzle; no other message takes it meanwhile."""
    writers = [author_at(f"writer{i}", f"192.0.2.{i + 1}") for i in range(2)]
    puzzles = [draft(client) for client in writers]
    for client, puzzle in zip(writers, puzzles, strict=True):
        assert submit(client, puzzle).status_code == 202
    assert proving_queue_next(task_id="lost") == puzzles[0]
    assert proving_queue_next(task_id="other") == puzzles[1]
    assert proving_queue_next(task_id="lost") == puzzles[0]  # redelivered
    assert proving_queue_next(task_id="third") is None


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE)
def test_a_proof_whose_worker_is_gone_waits_again_in_its_turn() -> None:
    """A claimed puzzle whose message is gone for good (no redelivery) goes back to waiting
    when the scheduled requeue finds it; the address of a proof long done is forgotten."""
    writer, other = author_at("writer", FLOOD), author_at("other", HONEST)
    lost, done = draft(writer), draft(other)
    for client, puzzle in ((writer, lost), (other, done)):
        assert submit(client, puzzle).status_code == 202
    assert proving_queue_next(task_id="gone") == lost
    assert proving_queue_next(task_id="finished") == done
    puzzle_verify(puzzle_id=done)
    long_ago = timezone.now() - timedelta(hours=2)
    ProvingRequest.objects.update(started_at=long_ago)
    assert proving_queue_order() == []
    assert puzzle_verifications_requeue() == [lost]
    assert proving_queue_order() == [lost]
    assert proving_queue_next(task_id="new") == lost
    assert ProvingRequest.objects.get(puzzle_id=done).address == ""
    assert ProvingRequest.objects.get(puzzle_id=lost).address != ""


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@override_settings(THROTTLE_RATES=NO_THROTTLE, PROVING_ADDRESS_LIMIT=10)
def test_the_worker_proves_a_newcomer_before_the_rest_of_a_flood(celery_worker: Any) -> None:
    """Three accounts at one address send hard puzzles (a second or more each), then an honest
    author elsewhere sends one: the worker, busy with the flood's first, proves the honest
    author's next, then the flood's others."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (advisory locks)")
    flood = [author_at(f"flood{i}", FLOOD) for i in range(3)]
    flooded = []
    for i, client in enumerate(flood):
        puzzle = Puzzle.objects.create(
            author=User.objects.get(username=f"flood{i}"), variant="xiangqi", fen=HARD_MATE_IN_4,
            goal="mate", moves_to_win=4, source=Puzzle.Source.AUTHORED, status=Puzzle.Status.DRAFT,
        )  # fmt: skip
        assert submit(client, puzzle.pk).status_code == 202
        flooded.append(puzzle.pk)
    honest = author_at("honest", HONEST)
    mine = draft(honest)
    assert submit(honest, mine).status_code == 202
    everything = [*flooded, mine]
    deadline = time.monotonic() + 180
    while Puzzle.objects.filter(pk__in=everything, status=Puzzle.Status.VERIFYING).exists():
        assert time.monotonic() < deadline, celery_worker.output()
        time.sleep(0.2)
    started = ProvingRequest.objects.filter(puzzle_id__in=everything).order_by("started_at")
    assert list(started.values_list("puzzle_id", flat=True)) == [
        flooded[0], mine, flooded[1], flooded[2]
    ]  # fmt: skip
    assert set(Puzzle.objects.filter(pk__in=everything).values_list("status", flat=True)) == {
        Puzzle.Status.PUBLISHED
    }


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=NO_THROTTLE)
def test_an_author_sees_where_the_puzzle_is_while_it_is_verified() -> None:
    from engine.solver import Progress
    from puzzles.services.authoring import VERIFY_NODES, VERIFY_SECONDS, proving_progress_record

    first_author, second_author = author("first"), author("second")
    first, second = draft(first_author), draft(second_author)

    def shown(client: Client, puzzle: int) -> Any:
        answer = client.get(f"/api/puzzles/authored/{puzzle}/")
        assert answer.status_code == 200
        return answer.json()["proving"]

    assert shown(first_author, first) is None  # a draft is not in the queue
    assert submit(first_author, first).status_code == 202
    assert submit(second_author, second).status_code == 202
    budget = {"nodes": VERIFY_NODES, "seconds": VERIFY_SECONDS}
    assert shown(first_author, first) == {"state": "waiting", "ahead": 0, "progress": {}, **budget}
    assert shown(second_author, second)["ahead"] == 1
    # the prover starts on the first (nothing told of an earlier proof): the second is next
    ProvingRequest.objects.filter(puzzle_id=first).update(progress={"stage": "tree"})
    assert proving_queue_next(task_id="task-1") == first
    assert shown(first_author, first) == {"state": "proving", "ahead": 0, "progress": {}, **budget}
    assert shown(second_author, second) == {
        "state": "waiting",
        "ahead": 0,
        "progress": {},
        **budget,
    }
    told = Progress(stage="unique", nodes=12_345, seconds=2.5, done=3, total=40)
    proving_progress_record(told, puzzle_id=first)
    assert shown(first_author, first)["progress"] == {
        "stage": "unique", "done": 3, "total": 40, "nodes": 12_345, "seconds": 2.5
    }  # fmt: skip
    # nobody else sees it: another author's puzzle does not exist for them
    assert second_author.get(f"/api/puzzles/authored/{first}/").status_code == 404
    # once proved, it is no longer in the queue
    assert puzzle_verify(puzzle_id=first).status == Puzzle.Status.PUBLISHED  # type: ignore[union-attr]
    assert shown(first_author, first) is None
