"""The course map and the lesson player pages, in both languages."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tutorials.models import Lesson, StepProgress
from tutorials.selectors import continue_lesson_for

pytestmark = pytest.mark.usefixtures("lessons")


def page_data(html: str) -> dict:
    match = re.search(
        r'<script id="lesson-page" type="application/json">(.*?)</script>', html, re.S
    )
    assert match
    return json.loads(match.group(1))


def test_course_map_lists_every_course_and_lesson(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/learn/").content.decode()
    for course in ("xiangqi", "feidan", "xinban"):
        assert f'id="course-{course}"' in html
    for lesson in Lesson.objects.filter(is_active=True):
        assert f'data-lesson="{lesson.slug}"' in html
        assert lesson.title_en in html
    assert "Missile Xiangqi" in html and "New-version Xiangqi" in html
    assert 'data-testid="continue"' not in html


def test_course_map_in_chinese(client: Client) -> None:
    client.cookies["django_language"] = "zh-hans"
    html = client.get("/learn/").content.decode()
    assert "中国飞弹象棋" in html and "蹩马脚" in html  # course title, lesson summary


def test_lesson_page_carries_the_steps_without_answers(client: Client) -> None:
    client.cookies["django_language"] = "en"
    response = client.get("/learn/xiangqi-horse/")
    assert response.status_code == 200
    data = page_data(response.content.decode())
    lesson = data["lesson"]
    assert lesson["title"] == "The horse"
    assert [s["key"] for s in lesson["steps"]] == ["1", "2", "3", "4", "5", "6"]
    assert data["start_step"] == "1"
    first = lesson["steps"][0]
    assert first["targets"] == ["c2"] and "b0c2" in first["legal"]
    assert data["api"]["moves"] == "/api/learn/lessons/xiangqi-horse/steps/KEY/moves/"
    assert data["board_module"].endswith("build/board.js")


def test_lesson_page_starts_at_the_first_unfinished_step_or_the_one_asked(client: Client) -> None:
    client.post(
        "/api/learn/lessons/xiangqi-horse/steps/1/moves/",
        {"moves": ["b0c2"]},
        content_type="application/json",
    )
    data = page_data(client.get("/learn/xiangqi-horse/").content.decode())
    assert data["start_step"] == "2"
    assert data["lesson"]["steps"][0]["stars"] == 3
    data = page_data(client.get("/learn/xiangqi-horse/?step=4").content.decode())
    assert data["start_step"] == "4"


def test_unknown_lesson_is_404(client: Client) -> None:
    assert client.get("/learn/no-such-lesson/").status_code == 404


def test_continue_where_you_left_off(client: Client, rf) -> None:
    client.post(
        "/api/learn/lessons/xiangqi-horse/steps/1/moves/",
        {"moves": ["b0c2"]},
        content_type="application/json",
    )
    html = client.get("/learn/").content.decode()
    assert 'data-testid="continue"' in html
    assert "/learn/xiangqi-horse/?step=2" in html
    # The selector the home page uses: read-only, per request.
    request = rf.get("/")
    request.session = client.session
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    link = continue_lesson_for(request)
    assert link is not None and link.url == "/learn/xiangqi-horse/?step=2"
    assert link.step_number == 2 and link.steps == 6


def test_a_finished_lesson_continues_with_the_next_one(client: Client) -> None:
    user = User.objects.create_user(username="wu", password="a-long-pass-phrase-42")
    client.force_login(user)
    solutions = {
        "1": ["b0c2"],
        "2": ["b0c2", "c2d4", "d4e6"],
        "3": ["e2c1", "c1b3", "b3d4"],
        "4": ["c2d4", "d4e6", "e6c7"],
        "5": ["c2e1", "e1d3", "d3c5", "c5e6"],
        "6": ["c2a3", "a3b5", "b5d4"],
    }
    for key, moves in solutions.items():
        response = client.post(
            f"/api/learn/lessons/xiangqi-horse/steps/{key}/moves/",
            {"moves": moves},
            content_type="application/json",
        )
        assert response.json()["status"] == "complete"
    courses = client.get("/api/learn/courses/").json()
    assert courses["continue_at"]["lesson_slug"] == "xiangqi-chariot"
    card = next(c for c in courses["courses"][0]["lessons"] if c["slug"] == "xiangqi-horse")
    assert card["complete"] and card["stars"] == 18


def main(html: str) -> str:
    match = re.search(r"<main.*?</main>", html, re.S)
    assert match
    return match.group(0)


def test_a_newcomers_course_map_is_rendered_once_and_follows_the_lessons(
    client: Client, django_assert_max_num_queries
) -> None:
    client.cookies["django_language"] = "en"
    first = client.get("/learn/").content.decode()
    with django_assert_max_num_queries(1):  # the lessons' version only: the map is kept
        again = client.get("/learn/").content.decode()
    assert main(again) == main(first)  # the rest differs by its CSRF token only
    lesson = Lesson.objects.filter(is_active=True).order_by("course", "order").first()
    assert lesson is not None
    lesson.title_en = "A retitled lesson"
    lesson.save()  # as the loader does when a lesson file changes
    assert "A retitled lesson" in client.get("/learn/").content.decode()
    lesson.is_active = False
    lesson.save()
    assert f'data-lesson="{lesson.slug}"' not in client.get("/learn/").content.decode()


def test_a_learner_with_progress_never_gets_the_newcomers_map(client: Client) -> None:
    client.cookies["django_language"] = "en"
    client.get("/learn/")  # a newcomer's map is now kept
    lesson = Lesson.objects.filter(is_active=True).order_by("course", "order").first()
    assert lesson is not None
    step = lesson.steps.order_by("index").first()
    assert step is not None
    user = User.objects.create_user(username="xiaoming", password="pw-long-enough-1")
    StepProgress.objects.create(
        user=user, step=step, stars=3, best_moves=1, completions=1, completed_at=timezone.now()
    )
    client.force_login(user)
    html = client.get("/learn/").content.decode()
    card = re.search(rf'data-lesson="{lesson.slug}".*?</li>', html, re.S)
    assert card and 'data-stars="3"' in card.group(0)
    assert 'data-testid="continue"' in html


def test_the_lesson_player_reads_the_move_goals_from_the_page(client: Client) -> None:
    """The player tells move goals from point and setup questions by the server's list, so the
    goals are written once (tutorials/curriculum/schema.py) and a new one reaches the page."""
    from pathlib import Path

    from tutorials.curriculum.schema import GOAL_KINDS, MOVE_GOALS

    data = page_data(client.get("/learn/xiangqi-horse/").content.decode())
    assert data["move_goals"] == list(MOVE_GOALS)
    assert set(GOAL_KINDS) - set(MOVE_GOALS) == {"point", "setup", "write"}
    script = (
        Path(__file__).resolve().parents[2] / "tutorials/static/tutorials/lesson.js"
    ).read_text("utf-8")
    assert "const MOVE_GOALS = page.move_goals;" in script
    for goal in MOVE_GOALS:
        assert f'"{goal}"' not in script.split("const MOVE_GOALS", 1)[1].split("\n", 1)[0]
