"""Lessons that name points in ICCS ("请点击 c3", "a 到 k") show the board's ICCS coordinates:
the lesson file says so (``coordinates = true``), the page hands it to the board, and a lesson
whose texts name points without the flag fails here."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tutorials.curriculum.schema import Lesson, LessonFileError, lesson_from_data, read_lessons
from tutorials.models import Lesson as LessonRow

# A point ("c3"), the word ICCS, a span of files ("a 到 k", "a to k", "e–g"), a file by its
# letter ("e 线", "the e-file").
ICCS_MENTION = re.compile(
    r"(?<![A-Za-z0-9])[a-k][0-9](?![0-9])|ICCS"
    r"|(?<![A-Za-z])[a-k] ?(?:到|to|–) ?[a-k](?![A-Za-z])"
    r"|(?<![A-Za-z])[a-k] ?线|(?<![A-Za-z])[a-k]-file"
)

MINIMAL = {
    "slug": "tiny",
    "course": "xiangqi",
    "order": 1,
    "title": {"zh": "小", "en": "Tiny"},
    "summary": {"zh": "小", "en": "Tiny"},
    "steps": [
        {
            "position": "Ke0 kd9 Rb0",
            "instruction": {"zh": "走车。", "en": "Move the chariot."},
            "goal": "move",
        }
    ],
}


def mentions(lesson: Lesson) -> list[str]:
    texts = [lesson.summary, *lesson.rulings]
    for step in lesson.steps:
        texts += [t for t in (step.instruction, step.success, step.hint, step.ruling) if t]
        texts += list(step.wrong.values())
    return [m.group(0) for t in texts for part in (t.zh, t.en) for m in ICCS_MENTION.finditer(part)]


@pytest.mark.parametrize("lesson", read_lessons(), ids=lambda lesson: lesson.slug)
def test_a_lesson_that_names_points_shows_coordinates(lesson: Lesson) -> None:
    named = mentions(lesson)
    assert lesson.coordinates == bool(named), (
        f"{lesson.source}: its texts name {sorted(set(named))[:6]}: set coordinates = true"
        if named
        else f"{lesson.source}: no text names a point: drop coordinates = true"
    )


def test_the_mention_pattern_sees_the_coordinates_lessons_teach() -> None:
    for text in (
        "请点击 c3。",
        "11 条竖线（a 到 k）",
        "files a to i",
        "九宫在 e–g 线",
        "the e-file",
    ):
        assert ICCS_MENTION.search(text), text
    for text in ("炮二平五", "Checkmate in 2", "a horse", "马八进七"):
        assert not ICCS_MENTION.search(text), text


def test_the_flag_is_read_and_checked() -> None:
    assert lesson_from_data(MINIMAL).coordinates is False
    assert lesson_from_data({**MINIMAL, "coordinates": True}).coordinates is True
    with pytest.raises(LessonFileError, match="coordinates must be true or false"):
        lesson_from_data({**MINIMAL, "coordinates": "yes"})


@pytest.mark.usefixtures("lessons")
def test_the_lesson_page_hands_the_flag_to_the_board(client: Client) -> None:
    assert LessonRow.objects.get(slug="xiangqi-board").coordinates is True
    assert LessonRow.objects.get(slug="xiangqi-stalemate").coordinates is False
    for slug, expected in (("xiangqi-board", True), ("xiangqi-stalemate", False)):
        html = client.get(f"/learn/{slug}/").content.decode()
        match = re.search(
            r'<script id="lesson-page" type="application/json">(.*?)</script>', html, re.S
        )
        assert match
        assert json.loads(match.group(1))["lesson"]["coordinates"] is expected
