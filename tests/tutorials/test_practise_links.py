"""The lessons' "Practise this pattern" and "Practise this tactic" buttons: each opens the
trainer on a theme the shipped banks hold puzzles of, in the lesson's variant; the tactics
lessons offer their tactic, and the trainer then gives puzzles of that theme only."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from django.test import Client

from puzzles.bankfile import read_bank, write_bank
from puzzles.models import Puzzle
from puzzles.services.bank import bank_load
from puzzles.tactics_bank import read_tactics
from tutorials.curriculum import read_lessons
from tutorials.curriculum.schema import is_tactic

# A lesson offers a tactic or a kill pattern only when the shipped banks give a session's worth
# of its puzzles in the lesson's variant.
TACTIC_AT_LEAST = 5
PATTERN_AT_LEAST = 5


def shipped_themes() -> Counter[tuple[str, str]]:
    """How many shipped puzzles (mates and tactics) have each theme, by variant."""
    found: Counter[tuple[str, str]] = Counter()
    for entry in [*read_bank(), *read_tactics()]:
        for theme in entry["themes"]:
            found[(entry["variant"], theme)] += 1
    return found


LINKS = [
    (lesson, step)
    for lesson in read_lessons()
    for step in lesson.steps
    if step.practise_theme is not None
]


@pytest.mark.parametrize(
    ("lesson", "step"), LINKS, ids=[f"{lesson.slug}-{step.key}" for lesson, step in LINKS]
)
def test_every_practise_button_finds_puzzles_of_its_theme(lesson, step) -> None:
    count = shipped_themes()[(lesson.course, step.practise_theme)]
    least = TACTIC_AT_LEAST if is_tactic(step.practise_theme) else PATTERN_AT_LEAST
    assert count >= least, (lesson.slug, step.practise_theme, count)


def test_the_tactics_lessons_offer_their_tactic() -> None:
    offered = {
        lesson.slug: step.practise_theme for lesson, step in LINKS if is_tactic(step.practise_theme)
    }
    assert offered == {
        "xiangqi-double-attack": "fork",
        "xiangqi-pin": "pin",
        "xiangqi-discovered-check": "discovered_check",
        "xiangqi-sacrifice": "sacrifice",
        "feidan-missile-trades": "missile_collision",
        "feidan-fighter-fork": "fork",
        "xinban-baiting-defection": "defection",
        "xinban-defection-check": "defection",
        "xinban-fork": "fork",
    }
    # The double check is a kill pattern too: its tactics lesson offers its mates and tactics.
    assert {lesson.slug: step.practise_theme for lesson, step in LINKS}[
        "xiangqi-double-check"
    ] == "double_check"
    # on the last step alone: the button comes once the lesson is done
    for lesson, step in LINKS:
        if is_tactic(step.practise_theme):
            assert step is lesson.steps[-1], lesson.slug


@pytest.mark.django_db
def test_the_trainer_on_a_tactic_gives_its_puzzles_only(tmp_path: Path) -> None:
    pins = [e for e in read_tactics() if e["variant"] == "xiangqi" and "pin" in e["themes"]]
    others = [e for e in read_tactics() if e["variant"] == "xiangqi" and "pin" not in e["themes"]]
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([*pins, *others[:5]], tactics)
    bank_load(bank, tactics)
    pinned = set(Puzzle.objects.filter(themes__slug="pin").values_list("pk", flat=True))
    assert len(pinned) == len(pins) >= TACTIC_AT_LEAST
    client = Client()
    for _ in range(4):
        found = client.get("/api/puzzles/next/?variant=xiangqi&themes=pin")
        assert found.status_code == 200, found.content
        assert found.json()["id"] in pinned
