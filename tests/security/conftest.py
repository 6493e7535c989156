"""Data for the access tests: users, a published puzzle proved by the prover, clients."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User

# Mate in 2, sound and unique (key g8g9).
MATE_IN_2 = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
# Mate in 1, sound and unique (key a0d0).
MATE_IN_1 = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"


@pytest.fixture
def published(db: None) -> Callable[..., Any]:
    """Publish a puzzle the way the site does: proved by the prover, then published."""
    from puzzles import proving
    from puzzles.models import Puzzle
    from puzzles.services import puzzle_publish

    def make(fen: str = MATE_IN_2, moves_to_win: int = 2) -> Puzzle:
        puzzle = Puzzle.objects.create(
            variant="xiangqi", fen=fen, goal="mate", moves_to_win=moves_to_win,
            status=Puzzle.Status.DRAFT, source=Puzzle.Source.MINED,
        )  # fmt: skip
        result = proving.prove(variant="xiangqi", fen=fen, goal="mate", moves_to_win=moves_to_win)
        return puzzle_publish(puzzle=puzzle, result=result)

    return make


def logged_in(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(username=username, password="x"))
    return client


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def patch(client: Client, url: str, body: Any) -> Any:
    return client.patch(url, data=json.dumps(body), content_type="application/json")


def open_attempt(client: Client, puzzle: Any) -> dict[str, Any]:
    """Open an attempt at the puzzle, as the puzzle page does."""
    opened = post(client, f"/api/puzzles/{puzzle.pk}/attempts/")
    assert opened.status_code in (200, 201), opened.content
    return dict(opened.json())


def give_up(client: Client, puzzle: Any) -> Any:
    """Open an attempt and ask for the solution: the try is over."""
    attempt = open_attempt(client, puzzle)
    return post(client, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
