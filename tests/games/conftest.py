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
