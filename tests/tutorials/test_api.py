"""The lessons' API through HTTP: completing steps records progress; forged completions
(illegal moves, a missed goal, stars sent by the client, someone else's progress) are refused
with a clear error; a visitor's progress follows them into their new account."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tutorials.models import Lesson, StepProgress

pytestmark = pytest.mark.usefixtures("lessons")

PASSWORD = "a-long-pass-phrase-42"


def url(slug: str, key: str, kind: str = "moves") -> str:
    return f"/api/learn/lessons/{slug}/steps/{key}/{kind}/"


def play(client: Client, slug: str, key: str, moves: list[str], **extra: Any):
    return client.post(url(slug, key), {"moves": moves, **extra}, content_type="application/json")


def answer(client: Client, slug: str, key: str, point: str):
    return client.post(url(slug, key, "answer"), {"point": point}, content_type="application/json")


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def progress(**owner: Any) -> list[tuple[str, str, int]]:
    rows = StepProgress.objects.filter(**owner).select_related("step__lesson")
    return sorted((r.step.lesson.slug, r.step.key, r.stars) for r in rows)


def test_completing_a_step_records_stars_for_the_visitor(client: Client) -> None:
    response = play(client, "xiangqi-horse", "1", ["b0c2"])
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "complete"
    assert data["progress"] == {"stars": 3, "best_stars": 3, "best_moves": 1, "mistakes": 0}
    visitor = client.session["visitor_id"]
    assert progress(visitor_id=visitor) == [("xiangqi-horse", "1", 3)]


def test_moves_over_par_earn_fewer_stars_and_the_best_is_kept(client: Client) -> None:
    long = ["b0a2", "a2c3", "c3d5", "d5e3", "e3c2", "c2d4", "d4e6"]  # c2 d4 e6 reached late
    data = play(client, "xiangqi-horse", "2", long).json()
    assert data["status"] == "complete" and data["progress"]["stars"] == 1
    data = play(client, "xiangqi-horse", "2", ["b0c2", "c2d4", "d4e6"]).json()
    assert data["progress"] == {"stars": 3, "best_stars": 3, "best_moves": 3, "mistakes": 0}
    data = play(client, "xiangqi-horse", "2", long).json()
    assert data["progress"]["stars"] == 1 and data["progress"]["best_stars"] == 3


def test_a_move_in_progress_records_nothing(client: Client) -> None:
    data = play(client, "xiangqi-horse", "2", ["b0c2"]).json()
    assert data["status"] == "playing" and data["remaining"] == ["d4", "e6"]
    assert "c2d4" in data["legal"]
    assert StepProgress.objects.count() == 0


def test_illegal_move_is_refused_with_the_reason(client: Client) -> None:
    response = play(english(client), "xiangqi-horse", "3", ["e2d4"])
    # trying a move is not a fault of the request: an answer, with the reason
    assert response.status_code == 200 and response.json()["legal"] is False
    error = response.json()["error"]
    assert error["extra"]["code"] == "horse_leg"
    assert "e3" in error["message"] and "Hobbled horse" in error["message"]
    assert "蹩马脚" in error["extra"]["zh"]
    assert error["extra"]["index"] == 0
    assert StepProgress.objects.count() == 0


def test_the_message_follows_the_language(client: Client) -> None:
    client.cookies["django_language"] = "zh-hans"
    error = play(client, "feidan-collision", "4", ["f0f1"]).json()["error"]
    assert error["extra"]["code"] == "general_missile"
    assert "导弹" in error["message"]


def test_an_illegal_move_inside_a_claimed_solution_is_refused(client: Client) -> None:
    # A made-up "solution": the third move jumps a blocked leg.
    response = play(client, "xiangqi-horse", "3", ["e2c1", "c1b3", "e2d4"])
    assert response.status_code == 200 and response.json()["legal"] is False
    assert response.json()["error"]["extra"]["index"] == 2
    assert StepProgress.objects.count() == 0


def test_a_missed_goal_is_not_a_completion(client: Client) -> None:
    data = play(english(client), "xiangqi-checkmate", "1", ["b6b9"]).json()
    assert data["status"] == "failed"
    assert data["message"]["code"] in ("not_mate", "no_check")
    assert StepProgress.objects.count() == 0


def test_leaving_the_scripted_line_fails(client: Client) -> None:
    data = play(client, "xiangqi-checkmate", "4", ["g3g8"]).json()
    assert data["status"] == "failed" and data["message"]["code"] == "not_this_move"
    data = play(client, "xiangqi-checkmate", "4", ["c9d7"]).json()
    assert data["status"] == "playing"
    assert data["plies"][-1]["by"] == "opponent" and data["plies"][-1]["iccs"] == "f7e8"
    assert play(client, "xiangqi-checkmate", "4", ["c9d7", "g3g9"]).json()["status"] == "complete"


def test_stars_or_an_owner_sent_by_the_client_are_refused(client: Client) -> None:
    user = User.objects.create_user(username="other", password=PASSWORD)
    for extra in ({"stars": 3}, {"user": user.pk}, {"visitor_id": "someone-else"}):
        response = play(client, "xiangqi-horse", "1", ["b0c2"], **extra)
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["extra"]["code"] == "unknown_fields"
        assert "不能发送" in error["message"]  # said in the reader's language (Chinese here)
        assert error["code"] == "lesson.unknown_fields"
    assert StepProgress.objects.count() == 0


def test_reading_someone_elses_progress_is_refused(client: Client) -> None:
    other = User.objects.create_user(username="other", password=PASSWORD)
    other_client = Client()
    other_client.force_login(other)
    assert play(other_client, "xiangqi-horse", "1", ["b0c2"]).json()["status"] == "complete"
    response = client.get(f"/api/learn/courses/?user={other.pk}")
    assert response.status_code == 400
    assert response.json()["error"]["extra"]["code"] == "not_your_progress"
    mine = client.get("/api/learn/courses/").json()
    assert all(course["done"] == 0 for course in mine["courses"])
    theirs = other_client.get("/api/learn/courses/").json()
    xiangqi = next(c for c in theirs["courses"] if c["course"] == "xiangqi")
    assert xiangqi["done"] == 1 and xiangqi["stars"] == 3


def test_a_wrong_kind_of_answer_is_refused(client: Client) -> None:
    assert play(client, "xiangqi-board", "1", ["e0e1"]).status_code == 400
    response = answer(client, "xiangqi-horse", "1", "c2")
    assert response.status_code == 400
    response = client.post(
        url("xiangqi-horse", "1", "setup"),
        {"placement": {"a0": "M"}},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert play(client, "no-such-lesson", "1", ["b0c2"]).status_code == 400
    assert play(client, "xiangqi-horse", "99", ["b0c2"]).status_code == 400


def test_questions_count_mistakes(client: Client) -> None:
    wrong = answer(english(client), "xiangqi-board", "3", "e1").json()
    assert wrong["correct"] is False and "Red's palace" in wrong["message"]["text"]
    assert wrong["progress"]["mistakes"] == 1
    right = answer(client, "xiangqi-board", "3", "e8").json()
    assert right["correct"] is True and right["answers"] == ["e8"]
    assert right["progress"]["stars"] == 2


def test_a_plum_blossom_question_needs_a_recent_moment(client: Client) -> None:
    lesson = client.get("/api/learn/lessons/feidan-setups/").json()
    step = next(s for s in lesson["steps"] if s["key"] == "3")
    assert step["moment"] and step["caption"]
    response = client.post(
        url("feidan-setups", "3", "answer"),
        {"point": "a2", "moment": "2001-01-01T00:00:00+08:00"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["extra"]["code"] == "moment_expired"
    from engine import Position

    pos = Position.from_fen("feidan", step["fen"])
    fighter = next(p for p, v in pos.pieces().items() if v == "F")
    data = client.post(
        url("feidan-setups", "3", "answer"),
        {"point": fighter, "moment": step["moment"]},
        content_type="application/json",
    ).json()
    assert data["correct"] is True


def test_a_setup_is_judged_and_explained(client: Client) -> None:
    lesson = client.get("/api/learn/lessons/feidan-setups/").json()
    step = next(s for s in lesson["steps"] if s["key"] == "4")
    placement = dict(step["placement"])
    data = client.post(
        url("feidan-setups", "4", "setup"),
        {"placement": placement},
        content_type="application/json",
    ).json()
    assert data["valid"] is False
    assert {v["point"] for v in data["violations"]} == {"a1", "f2", "b4"}
    fixed = dict(placement)
    fixed["a0"] = fixed.pop("a1")
    fixed["f1"] = fixed.pop("f2")
    fixed["b3"] = fixed.pop("b4")
    data = client.post(
        url("feidan-setups", "4", "setup"), {"placement": fixed}, content_type="application/json"
    ).json()
    assert data["valid"] is True and data["progress"]["stars"] == 2


def test_the_lesson_does_not_give_its_answers_away(client: Client) -> None:
    lesson = client.get("/api/learn/lessons/xiangqi-checkmate/").json()
    text = str(lesson)
    assert "f7e8" not in text  # the scripted reply
    board = client.get("/api/learn/lessons/xiangqi-board/").json()
    assert all("answers" not in step and "accept" not in step for step in board["steps"])
    # the words kept for one completing move do not tell which move completes the step
    collision = client.get("/api/learn/lessons/feidan-collision/").json()
    assert "right" not in str(collision) and "仕撞掉了导弹" not in str(collision)


def test_the_first_lessons_own_wrong_move_is_explained_not_a_server_error(client: Client) -> None:
    """炮八平五 on the first lesson's notation step, and 炮九平六 on feidan's: a legal move the
    lesson has its own words for."""
    for slug, move, words in (
        ("xiangqi-board", "b2e2", "炮八平五"),
        ("feidan-board", "c2f2", "炮九平六"),
    ):
        response = play(english(client), slug, "4", [move])
        assert response.status_code == 200, response.content[:200]
        data = response.json()
        assert data["status"] == "failed" and data["message"]["code"] == "not_this_move"
        client.cookies["django_language"] = "zh-hans"
        data = play(client, slug, "4", [move]).json()
        assert words in data["message"]["text"]
    assert StepProgress.objects.count() == 0


def test_progress_moves_to_the_account_on_sign_up(client: Client) -> None:
    play(client, "xiangqi-horse", "1", ["b0c2"])
    play(client, "xiangqi-horse", "2", ["b0c2", "c2d4", "d4e6"])
    visitor = client.session["visitor_id"]
    response = client.post(
        "/accounts/signup/", {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    user = User.objects.get(username="newbie")
    assert progress(user=user) == [("xiangqi-horse", "1", 3), ("xiangqi-horse", "2", 3)]
    assert progress(visitor_id=visitor) == []
    courses = client.get("/api/learn/courses/").json()
    assert courses["continue_at"]["lesson_slug"] == "xiangqi-horse"
    assert courses["continue_at"]["step_key"] == "3"


def test_merge_keeps_the_better_record_and_runs_twice_safely(client: Client) -> None:
    from tutorials.services import lesson_progress_merge

    user = User.objects.create_user(username="hong", password=PASSWORD)
    member = Client()
    member.force_login(user)
    long = ["b0a2", "a2c3", "c3d5", "d5e3", "e3c2", "c2d4", "d4e6"]
    play(member, "xiangqi-horse", "2", long)  # 1 star on the account
    play(client, "xiangqi-horse", "2", ["b0c2", "c2d4", "d4e6"])  # 3 stars as a visitor
    answer(client, "xiangqi-board", "3", "a0")  # a mistake, not completed
    visitor = client.session["visitor_id"]
    lesson_progress_merge(visitor, user)
    lesson_progress_merge(visitor, user)
    row = StepProgress.objects.get(user=user, step__lesson__slug="xiangqi-horse", step__key="2")
    assert (row.stars, row.best_moves, row.completions) == (3, 3, 2)
    pending = StepProgress.objects.get(user=user, step__lesson__slug="xiangqi-board")
    assert (pending.stars, pending.mistakes, pending.completed_at) == (0, 1, None)
    assert not StepProgress.objects.filter(visitor_id=visitor).exists()


def test_loading_is_idempotent_and_retires_removed_lessons(tmp_path) -> None:
    from tutorials.curriculum.schema import LESSONS_DIR
    from tutorials.services import lessons_load

    report = lessons_load()
    assert report.added == 0 and report.updated == 0 and report.unchanged == Lesson.objects.count()
    # A tree with one lesson less: that lesson is retired, the others stay.
    for course in ("xiangqi", "feidan", "xinban"):
        (tmp_path / course).mkdir()
        for path in (LESSONS_DIR / course).glob("*.toml"):
            if path.name != "05-horse.toml":
                (tmp_path / course / path.name).write_text(path.read_text("utf-8"), "utf-8")
    report = lessons_load(root=tmp_path)
    assert report.retired == 1
    assert not Lesson.objects.get(slug="xiangqi-horse").is_active
    assert lessons_load().added == 0
    assert Lesson.objects.get(slug="xiangqi-horse").is_active


def test_load_lessons_command_and_content_loader() -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("load_lessons", stdout=out)
    assert "lessons" in out.getvalue() and "0 added" in out.getvalue()
    out = StringIO()
    call_command("load_content", "tutorials", stdout=out)
    assert out.getvalue().startswith("tutorials: ")


def test_an_answer_to_a_lesson_or_step_that_does_not_exist_says_which(client: Client) -> None:
    """The step an answer is for is read in one query with its lesson; what is missing, the
    lesson or only the step, is said (and a lesson taken out of the course is missing)."""
    response = play(client, "no-such-lesson", "1", ["b0c2"])
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "lesson.unknown"
    response = play(english(client), "xiangqi-horse", "99", ["b0c2"])
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "lesson.unknown_step" and "99" in error["message"]
    Lesson.objects.filter(slug="xiangqi-horse").update(is_active=False)
    assert play(client, "xiangqi-horse", "1", ["b0c2"]).json()["error"]["code"] == "lesson.unknown"
