"""The throttles reach the puzzles API by URL name (settings.THROTTLE_SCOPES_BY_URL_NAME):
attempt submissions, new drafts and drafts sent to the prover, per user or per address.
Rates per day here, so that no counting window ends during the test."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client, override_settings

from tests.security.conftest import MATE_IN_1, logged_in, post

pytestmark = pytest.mark.django_db


@override_settings(THROTTLE_RATES={"attempts": "3/day"})
def test_attempt_submissions_are_throttled_per_player(published: Any) -> None:
    puzzle = published()
    url = f"/api/puzzles/{puzzle.pk}/attempts/"

    def submit(client: Client) -> int:
        body = {"attempt_id": str(uuid.uuid4()), "moves": [], "gave_up": True}
        return int(post(client, url, body).status_code)

    player = logged_in("busy")
    assert [submit(player) for _ in range(3)] == [202, 202, 202]
    refused = post(player, url, {"attempt_id": str(uuid.uuid4()), "moves": [], "gave_up": True})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert submit(logged_in("calm")) == 202  # another player is not affected
    assert player.get(f"/api/puzzles/{puzzle.pk}/").status_code == 200  # reading is not


@override_settings(THROTTLE_RATES={"drafts": "2/day", "puzzle_submissions": "1/day"})
def test_drafts_and_submissions_to_the_prover_are_throttled() -> None:
    author = logged_in("prolific")
    draft = {"variant": "xiangqi", "fen": MATE_IN_1, "goal": "mate", "moves_to_win": 1}
    made = [post(author, "/api/puzzles/authored/", draft) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 429]
    first, second = (r.json()["id"] for r in made[:2])
    assert post(author, f"/api/puzzles/authored/{first}/submit/").status_code == 202
    assert post(author, f"/api/puzzles/authored/{second}/submit/").status_code == 429
    assert author.get(f"/api/puzzles/authored/{second}/").json()["status"] == "draft"
