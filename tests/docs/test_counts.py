"""The figures the front door and the docs give of the content are the content's own: the
number of lessons and steps (README.md, docs/lessons.md, and each course's in docs/lessons.md)
and of bank puzzles (README.md, docs/puzzles.md) are counted from the lesson files and the bank
file, and so are the tactics puzzles (the tactics file)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from puzzles.bankfile import read_bank
from puzzles.tactics_bank import read_tactics
from tutorials.curriculum.schema import read_lessons

ROOT = Path(__file__).resolve().parents[2]


def _numbers(path: str, pattern: str) -> list[tuple[int, ...]]:
    text = re.sub(r"\s+", " ", (ROOT / path).read_text())
    found = [
        tuple(int(n.replace(",", "")) for n in ((m,) if isinstance(m, str) else m))
        for m in re.findall(pattern, text)
    ]
    assert found, f"{path} states no figure matching {pattern!r}"
    return found


@pytest.mark.parametrize("path", ["README.md", "docs/lessons.md"])
def test_the_lesson_and_step_counts_are_the_curriculums(path: str) -> None:
    lessons = read_lessons()
    actual = (len(lessons), sum(len(lesson.steps) for lesson in lessons))
    for stated in _numbers(path, r"([\d,]+) lessons, ([\d,]+) steps"):
        assert stated == actual, f"{path} says {stated}, the lesson files hold {actual}"


def test_each_courses_lesson_and_step_counts_are_its_files() -> None:
    """docs/lessons.md also counts each course's lessons and steps."""
    counted: dict[str, list[int]] = {}
    for lesson in read_lessons():
        figures = counted.setdefault(lesson.course, [0, 0])
        figures[0] += 1
        figures[1] += len(lesson.steps)
    pattern = (
        r"xiangqi ([\d,]+) lessons and ([\d,]+) steps, feidan ([\d,]+) and ([\d,]+), "
        r"xinban ([\d,]+) and ([\d,]+)"
    )
    for stated in _numbers("docs/lessons.md", pattern):
        actual = tuple(n for course in ("xiangqi", "feidan", "xinban") for n in counted[course])
        assert stated == actual, f"docs/lessons.md says {stated}, the lesson files hold {actual}"


@pytest.mark.parametrize(
    ("path", "pattern"),
    [
        ("README.md", r"a bank of ([\d,]+) puzzles"),
        ("docs/puzzles.md", r"bank\.json`: ([\d,]+) puzzles"),
    ],
)
def test_the_bank_count_is_the_bank_files(path: str, pattern: str) -> None:
    actual = len(read_bank())
    for (stated,) in _numbers(path, pattern):
        assert stated == actual, f"{path} says {stated}, the bank file holds {actual}"


@pytest.mark.parametrize(
    ("path", "pattern"),
    [
        ("README.md", r"([\d,]+) tactics puzzles"),
        ("docs/puzzles.md", r"tactics\.json`: ([\d,]+) puzzles"),
    ],
)
def test_the_tactics_count_is_the_tactics_files(path: str, pattern: str) -> None:
    actual = len(read_tactics())
    for (stated,) in _numbers(path, pattern):
        assert stated == actual, f"{path} says {stated}, the tactics file holds {actual}"
