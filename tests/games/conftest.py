"""Helpers for the games tests: JSON calls through the real HTTP stack and games made by the
API as a visitor or a user would make them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def error_code(response: Any) -> str:
    return response.json()["error"]["extra"].get("code", "")


@pytest.fixture
def new_game(db: None) -> Callable[..., dict[str, Any]]:
    def make(client: Client, **options: Any) -> dict[str, Any]:
        body = {"variant": "xiangqi", "level": 2, "side": "red", **options}
        response = post(client, "/api/games/", body)
        assert response.status_code == 201, response.content
        return response.json()

    return make


@pytest.fixture
def move(db: None) -> Callable[..., Any]:
    def play(client: Client, game_id: int, text: str, **extra: Any) -> Any:
        return post(client, f"/api/games/{game_id}/moves/", {"move": text, **extra})

    return play


# Two generals and their advisors each, Red to move: nothing to play for.
BARE_START = "3k1a3/4a4/9/9/9/9/9/9/4A4/3A1K3 w - - 0 1"
# Black's general alone against two chariots, Black to move: lost.
LOST_FOR_BLACK = "4k4/9/9/9/9/9/9/9/R8/1R1K5 b - - 0 1"


def even_history(game_id: int, plies: int, *, seed: int = 7) -> None:
    """Give a computer game (the player Red) ``plies`` real plies from ``BARE_START``, every
    position new (no repetition), the computer's plies carrying even searches (score 0), as
    a long dead-even endgame leaves them."""
    import random

    from engine import Position
    from games.models import Game

    rng = random.Random(seed)
    pos = Position.from_fen("xiangqi", BARE_START)
    seen = {pos.fen().split(" ")[0]}
    entries: list[dict[str, Any]] = []
    while len(entries) < plies:
        choices = [m for m in pos.legal_moves]
        rng.shuffle(choices)
        for candidate in choices:
            after = pos.copy()
            after.push(candidate)
            board = after.fen().split(" ")[0]
            if board not in seen and after.outcome() is None:
                break
        else:
            raise AssertionError("no new position to walk to")
        by = "player" if pos.turn == "red" else "computer"
        entry: dict[str, Any] = {"iccs": candidate.iccs(), "chinese": pos.chinese(candidate)}
        pos.push(candidate)
        seen.add(board)
        entry.update({"fen": pos.fen(), "effect": "", "check": None, "by": by})
        if by == "computer":
            entry.update({"score": 0, "mate": None, "depth": 6, "nodes": 1000})
        entries.append(entry)
    Game.objects.filter(pk=game_id).update(
        start_fen=BARE_START, moves=entries, human_side="red", level=7
    )
