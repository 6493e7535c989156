"""Hostile puzzle submissions get clear 4xx answers, and no submitted puzzle can keep the
prover past its budget: absurd lengths (N = 50) and unknown variants or goals are refused
before anything is queued, and the verification task runs under a node budget, a time budget
and Celery's soft and hard time limits, in that order."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from config.celery import app
from tests.security.conftest import MATE_IN_1, logged_in, post

pytestmark = pytest.mark.django_db

DRAFT = {"variant": "xiangqi", "fen": MATE_IN_1, "goal": "mate", "moves_to_win": 1}


@pytest.fixture
def author() -> Client:
    return logged_in("author")


def assert_refused(response: Any) -> dict[str, Any]:
    assert 400 <= response.status_code < 500, response.content[:300]
    body = response.json()
    assert body["error"]["message"]
    return dict(body["error"])


@pytest.mark.parametrize(
    "change",
    [
        {"moves_to_win": 50},
        {"moves_to_win": 10**9},
        {"moves_to_win": 0},
        {"moves_to_win": -3},
        {"moves_to_win": "many"},
        {"variant": "chess"},
        {"variant": "shogi", "fen": "lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL b - 1"},
        {"goal": "stalemate-the-world"},
        {"fen": "x" * 5000},
    ],
)
def test_absurd_drafts_are_refused_with_a_reason(author: Client, change: dict[str, Any]) -> None:
    from puzzles.models import Puzzle

    assert_refused(post(author, "/api/puzzles/authored/", {**DRAFT, **change}))
    assert_refused(post(author, "/api/puzzles/authored/check/", {**DRAFT, **change}))
    assert not Puzzle.objects.filter(author__username="author").exists()


def test_an_empty_board_is_refused_as_a_draft_and_answered_by_the_check(author: Client) -> None:
    from puzzles.models import Puzzle

    empty = {**DRAFT, "fen": "9/9/9/9/9/9/9/9/9/9 w - - 0 1"}
    assert assert_refused(post(author, "/api/puzzles/authored/", empty))["code"] == "fen.no_general"
    # the editor's live check: a board the rules do not allow is an answer, with the reason
    check = post(author, "/api/puzzles/authored/check/", empty)
    assert check.status_code == 200 and check.json()["legal"] is False
    assert check.json()["error"]["code"] == "fen.no_general"
    assert not Puzzle.objects.filter(author__username="author").exists()


def test_a_draft_cannot_be_made_longer_than_the_prover_accepts(author: Client) -> None:
    from puzzles.services.authoring import MAX_AUTHORED_MOVES

    created = post(author, "/api/puzzles/authored/", DRAFT)
    assert created.status_code == 201
    url = f"/api/puzzles/authored/{created.json()['id']}/"
    for length in (MAX_AUTHORED_MOVES + 1, 50):
        refused = author.patch(url, data=f'{{"moves_to_win": {length}}}',
                               content_type="application/json")  # fmt: skip
        assert_refused(refused)
    assert author.get(url).json()["moves_to_win"] == 1


def test_the_verification_runs_under_a_budget_below_its_time_limits() -> None:
    from django.conf import settings

    from puzzles.services import authoring
    from puzzles.tasks import puzzle_verify_task as task

    assert task.acks_late and task.reject_on_worker_lost
    assert 0 < authoring.VERIFY_NODES <= 50_000_000
    # The prover stops itself first; the soft limit ends the task cleanly; the hard limit kills.
    assert 0 < authoring.VERIFY_SECONDS < task.soft_time_limit < task.time_limit
    assert app.conf.task_routes[task.name]["queue"] == settings.CELERY_PROVING_QUEUE


def test_a_puzzle_too_hard_for_the_budget_is_rejected_not_run_forever(author: Client) -> None:
    """The verification itself, with a tiny node budget: the puzzle is rejected as too hard."""
    from puzzles.models import Puzzle
    from puzzles.services import puzzle_verify

    # A classical mate in 4 that needs tens of thousands of positions.
    hard = "5k3/4P4/b1Rcba3/3N5/9/C1R6/2P6/9/4p4/4cK3 w - - 0 1"
    created = post(author, "/api/puzzles/authored/", {**DRAFT, "fen": hard, "moves_to_win": 4})
    assert created.status_code == 201, created.content
    puzzle_id = created.json()["id"]
    assert post(author, f"/api/puzzles/authored/{puzzle_id}/submit/").status_code == 202
    puzzle = puzzle_verify(puzzle_id=puzzle_id, nodes=500, seconds=5.0)
    assert puzzle is not None and puzzle.status == Puzzle.Status.REJECTED
    assert puzzle.rejection_reason
    assert Puzzle.objects.get(pk=puzzle_id).status == Puzzle.Status.REJECTED
