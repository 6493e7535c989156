"""Nobody reaches what is not theirs: for every object a user owns (puzzle attempts, authored
drafts, lesson progress), another user and an anonymous visitor are refused, through the API
and the pages. The owner, as a control, is served."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.security.conftest import MATE_IN_1, give_up, logged_in, open_attempt, patch, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Client:
    return logged_in("owner")


@pytest.fixture
def other() -> Client:
    return logged_in("other")


def test_attempts_are_seen_by_their_player_only(
    owner: Client, other: Client, published: Any
) -> None:
    puzzle = published()
    submitted = give_up(owner, puzzle)
    assert submitted.status_code == 200, submitted.content
    url = f"/api/puzzles/attempts/{submitted.json()['id']}/"
    assert owner.get(url).status_code == 200
    assert other.get(url).status_code == 404
    assert Client().get(url).status_code == 404


def test_an_anonymous_visitors_attempts_are_theirs_alone(published: Any) -> None:
    puzzle = published()
    visitor = Client()
    visitor.get("/puzzles/")  # the visitor's session
    submitted = give_up(visitor, puzzle)
    assert submitted.status_code == 200, submitted.content
    url = f"/api/puzzles/attempts/{submitted.json()['id']}/"
    assert visitor.get(url).status_code == 200
    assert Client().get(url).status_code == 404  # another visitor
    assert logged_in("someone").get(url).status_code == 404


def test_another_players_attempt_cannot_be_played_helped_or_ended(
    owner: Client, other: Client, published: Any
) -> None:
    puzzle = published()
    mine = open_attempt(owner, puzzle)
    body = {"attempt": mine["id"]}
    for client in (other, Client()):
        assert post(client, f"/api/puzzles/{puzzle.pk}/judge/",
                    {**body, "move": "g8g9"}).status_code == 404  # fmt: skip
        assert post(client, f"/api/puzzles/{puzzle.pk}/hint/", body).status_code == 404
        assert post(client, f"/api/puzzles/{puzzle.pk}/give-up/", body).status_code == 404
    status = owner.get(f"/api/puzzles/attempts/{mine['id']}/").json()
    assert status["state"] == "started" and status["moves"] == [] and status["hints_used"] == 0


def make_draft(client: Client) -> int:
    created = post(client, "/api/puzzles/authored/",
                   {"variant": "xiangqi", "fen": MATE_IN_1, "goal": "mate", "moves_to_win": 1})  # fmt: skip
    assert created.status_code == 201, created.content
    return int(created.json()["id"])


def test_drafts_are_read_changed_and_submitted_by_their_author_only(
    owner: Client, other: Client
) -> None:
    draft = make_draft(owner)
    detail = f"/api/puzzles/authored/{draft}/"
    submit = f"/api/puzzles/authored/{draft}/submit/"
    anonymous = Client()
    assert owner.get(detail).status_code == 200
    missing = draft + 1000
    for client in (other, anonymous):
        # Someone else's draft answers exactly as a missing id does.
        assert client.get(detail).status_code == 404
        assert client.get(f"/api/puzzles/authored/{missing}/").status_code == 404
        assert patch(client, detail, {"title": "mine now"}).status_code == 404
        assert post(client, submit).status_code == 404
        assert client.get(f"/api/puzzles/{draft}/").status_code == 404  # not published
        assert client.get(f"/puzzles/create/{draft}/").status_code in (302, 403, 404)
    # Nothing changed, nothing was queued.
    body = owner.get(detail).json()
    assert body["status"] == "draft" and body["title"] == ""
    # Lists hold one's own drafts only.
    assert [p["id"] for p in owner.get("/api/puzzles/authored/").json()] == [draft]
    assert other.get("/api/puzzles/authored/").json() == []
    assert anonymous.get("/api/puzzles/authored/").status_code in (401, 403)
    # As a control, the owner can change it.
    assert patch(owner, detail, {"title": "Two chariots"}).status_code == 200


def test_a_draft_cannot_be_tried_or_judged_by_others(owner: Client, other: Client) -> None:
    draft = make_draft(owner)
    for client in (other, Client()):
        body = {"attempt": 1, "move": "a0d0"}
        assert post(client, f"/api/puzzles/{draft}/judge/", body).status_code == 404
        assert post(client, f"/api/puzzles/{draft}/hint/", body).status_code == 404
        assert post(client, f"/api/puzzles/{draft}/attempts/").status_code == 404


def test_lesson_progress_is_read_for_oneself_only(owner: Client, other: Client) -> None:
    from tutorials.models import Step, StepProgress
    from tutorials.services import lessons_load

    lessons_load()
    step = Step.objects.select_related("lesson").order_by("lesson__id", "id").first()
    assert step is not None
    from accounts.models import User

    user = User.objects.get(username="owner")
    StepProgress.objects.create(
        step=step, user=user, stars=3, completions=1, completed_at=timezone.now()
    )

    def stars(client: Client) -> int:
        courses = client.get("/api/learn/courses/").json()["courses"]
        return sum(course["stars"] for course in courses)

    assert stars(owner) == 3
    assert stars(other) == 0
    assert stars(Client()) == 0
    for key in ("user", "user_id", "visitor_id"):
        refused = other.get(f"/api/learn/courses/?{key}={user.pk}")
        assert refused.status_code in (400, 403, 404)
    lesson = other.get(f"/api/learn/lessons/{step.lesson.slug}/").json()
    assert "3" not in str([s.get("stars") for s in lesson.get("steps", [])])


def test_the_dashboard_shows_ones_own_record(owner: Client, other: Client, published: Any) -> None:
    from puzzles.services import puzzle_attempt_score

    puzzle = published()
    submitted = give_up(owner, puzzle)
    puzzle_attempt_score(attempt_id=submitted.json()["id"])  # as the worker does
    mine, theirs = owner.get("/api/puzzles/dashboard/"), other.get("/api/puzzles/dashboard/")
    assert mine.status_code == theirs.status_code == 200
    assert len(mine.json()["recent"]) == 1
    assert theirs.json()["recent"] == [] and theirs.json()["replays"] == []
    assert Client().get("/api/puzzles/dashboard/").json()["recent"] == []
