"""The throttles reach the puzzles API by URL name (settings.THROTTLE_SCOPES_BY_URL_NAME) or by
the view's scope: attempts opened, moves judged, hints, new drafts and drafts sent to the
prover, per user or per address; requests that cannot use a session make none.
Rates per day here, so that no counting window ends during the test."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client, override_settings

from puzzles.models import PuzzleAttempt
from tests.security.conftest import MATE_IN_1, logged_in, open_attempt, post

pytestmark = pytest.mark.django_db


@override_settings(THROTTLE_RATES={"attempts": "3/day"})
def test_opening_attempts_is_throttled_per_player(published: Any) -> None:
    puzzle = published()
    url = f"/api/puzzles/{puzzle.pk}/attempts/"

    def opened(client: Client) -> int:
        return int(post(client, url).status_code)

    player = logged_in("busy")
    assert [opened(player) for _ in range(3)] == [201, 200, 200]
    refused = post(player, url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert opened(logged_in("calm")) == 201  # another player is not affected
    assert player.get(f"/api/puzzles/{puzzle.pk}/").status_code == 200  # reading is not


@override_settings(THROTTLE_RATES={"puzzle_judge": "3/day"})
def test_judging_is_throttled_per_player(published: Any) -> None:
    puzzle = published()
    player = logged_in("quick")
    attempt = open_attempt(player, puzzle)
    url = f"/api/puzzles/{puzzle.pk}/judge/"
    body = {"attempt": attempt["id"], "move": "a0a9"}  # refused as illegal: still counted
    assert [post(player, url, body).status_code for _ in range(3)] == [400, 400, 400]
    refused = post(player, url, {"attempt": attempt["id"], "move": "g8g9"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    other = logged_in("slow")
    theirs = open_attempt(other, puzzle)
    assert post(other, url, {"attempt": theirs["id"], "move": "g8g9"}).status_code == 200


@override_settings(THROTTLE_RATES={"puzzle_hints": "2/day"})
def test_hints_are_throttled_per_player(published: Any) -> None:
    puzzle = published()
    player = logged_in("helped")
    attempt = open_attempt(player, puzzle)
    url = f"/api/puzzles/{puzzle.pk}/hint/"
    body = {"attempt": attempt["id"], "level": 1}
    assert [post(player, url, body).status_code for _ in range(2)] == [200, 200]
    refused = post(player, url, body)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert PuzzleAttempt.objects.get(pk=attempt["id"]).hints_used == 2


@override_settings(THROTTLE_RATES={})
def test_judge_and_hint_without_a_session_make_no_rows(published: Any) -> None:
    """Cookie-less requests that cannot use a session make none, and no attempt either."""
    puzzle = published()
    sessions, attempts = Session.objects.count(), PuzzleAttempt.objects.count()
    for _ in range(20):
        client = Client()
        hint = post(client, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt_id": str(uuid.uuid4()),
                                                                "moves": [], "level": 2})  # fmt: skip
        assert hint.status_code == 400
        assert post(client, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt": 1}).status_code == 404
        judged = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": 1, "move": "g8g9"})
        assert judged.status_code == 404
        assert "sessionid" not in client.cookies
    assert (Session.objects.count(), PuzzleAttempt.objects.count()) == (sessions, attempts)


def test_opening_an_attempt_that_cannot_be_made_makes_no_session(published: Any) -> None:
    from puzzles.models import Puzzle

    draft = Puzzle.objects.create(variant="xiangqi", fen=MATE_IN_1, goal="mate", moves_to_win=1)
    sessions = Session.objects.count()
    for puzzle_id, status in ((draft.pk + 1000, 404), (draft.pk, 404)):
        client = Client()
        assert post(client, f"/api/puzzles/{puzzle_id}/attempts/").status_code == status
        assert "sessionid" not in client.cookies
    assert Session.objects.count() == sessions and not PuzzleAttempt.objects.exists()


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
