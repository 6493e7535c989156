"""Factories for the puzzles tests: puzzles proved by the real prover, users, players."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from accounts.owners import Owner
from puzzles import proving
from puzzles.models import Puzzle
from puzzles.services import puzzle_publish
from tests.puzzles.positions import MATE_IN_2

_names = itertools.count(1)

MakePuzzle = Callable[..., Puzzle]


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str | None = None, password: str = "a-long-test-password") -> User:
        return User.objects.create_user(
            username=username or f"solver{next(_names)}", password=password
        )

    return make


@pytest.fixture
def make_puzzle(db: None) -> MakePuzzle:
    """A puzzle proved by the prover; published unless ``status`` says otherwise."""

    def make(
        fen: str = MATE_IN_2,
        *,
        variant: str = "xiangqi",
        goal: str = "mate",
        moves_to_win: int = 2,
        status: str = Puzzle.Status.PUBLISHED,
        **fields: Any,
    ) -> Puzzle:
        fields.setdefault("source", Puzzle.Source.MINED)
        puzzle = Puzzle.objects.create(
            variant=variant,
            fen=fen,
            goal=goal,
            moves_to_win=moves_to_win,
            status=Puzzle.Status.DRAFT,
            **fields,
        )
        if status == Puzzle.Status.PUBLISHED:
            result = proving.prove(variant=variant, fen=fen, goal=goal, moves_to_win=moves_to_win)
            assert result.sound, result
            puzzle_publish(puzzle=puzzle, result=result)
        elif status != Puzzle.Status.DRAFT:
            puzzle.status = status
            puzzle.save()
        return puzzle

    return make


@pytest.fixture
def visitor() -> Owner:
    return Owner(visitor_id=f"visitor-{next(_names)}")
