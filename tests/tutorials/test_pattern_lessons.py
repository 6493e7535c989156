"""The kill-pattern lessons (``tutorials/lessons/<course>/pattern-<code>.toml``): one per named
pattern of ``engine.patterns``, in the course of its variant; the pattern shown, then mates of
growing length; every line that completes a step is a mate the detector names with the lesson's
pattern; the bank's master-game puzzles of the pattern are used; the last step offers the
trainer on the pattern. (The prover's check of every mate step is in test_lesson_data.py, the
sweep of every try in both languages in test_content_sweep.py.) No database needed."""

from __future__ import annotations

import pytest

from engine import Position
from engine.patterns import PATTERNS, Pattern, detect, find_pattern
from puzzles.bankfile import read_bank
from tutorials.curriculum import Lesson, LessonFileError, read_lessons
from tutorials.curriculum.audit import completions
from tutorials.curriculum.schema import lesson_from_data

LESSONS = read_lessons()
COURSE_OF_FAMILY = {"traditional": "xiangqi", "feidan": "feidan", "xinban": "xinban"}
# Patterns whose bank puzzles no lesson step can use, and why.
UNUSABLE_BANK_MOMENTS = {
    # its master-game moment: a mate in 6 (xiangqi-a32e61440168cd3d), longer than a lesson's
    # solver checks (a mate in 4 whose second winning first move, c9c6, no scripted step can
    # take, left the bank when the game puzzles were proved among every move)
    "cannon_grind": "a mate in 6",
}


def pattern_of(lesson: Lesson) -> Pattern | None:
    prefix = f"{lesson.course}-pattern-"
    if not lesson.slug.startswith(prefix):
        return None
    return find_pattern(lesson.slug.removeprefix(prefix).replace("-", "_"))


PATTERN_LESSONS = [(lesson, pattern_of(lesson)) for lesson in LESSONS if pattern_of(lesson)]
IDS = [lesson.slug for lesson, _ in PATTERN_LESSONS]
STEPS = [(lesson, pattern, step) for lesson, pattern in PATTERN_LESSONS for step in lesson.steps]


def test_a_lesson_for_enough_patterns_of_every_family() -> None:
    slugs = [lesson.slug for lesson in LESSONS if "-pattern-" in lesson.slug]
    assert len(slugs) == len(PATTERN_LESSONS), "a pattern lesson's slug names no known pattern"
    families = [pattern.family for _, pattern in PATTERN_LESSONS if pattern]
    assert families.count("traditional") >= 20
    assert families.count("feidan") >= 6
    assert families.count("xinban") >= 5


def test_every_named_pattern_has_its_lesson() -> None:
    """Each pattern of the catalogue (the patterns page, the trainer's themes) is taught by a
    lesson in the course of its variant."""
    taught = {pattern.code for _, pattern in PATTERN_LESSONS if pattern}
    assert [p.code for p in PATTERNS if p.code not in taught] == []


@pytest.mark.parametrize(("lesson", "pattern"), PATTERN_LESSONS, ids=IDS)
def test_the_lesson_shows_the_pattern_then_mates_of_growing_length(
    lesson: Lesson, pattern: Pattern
) -> None:
    assert lesson.course == COURSE_OF_FAMILY[pattern.family]
    assert 500 <= lesson.order < 800
    assert len(lesson.steps) >= 5
    first, *exercises = lesson.steps
    # the pattern shown: its names, its definition, the key drawn on the board
    assert pattern.zh in first.instruction.zh and pattern.en in first.instruction.en
    assert first.arrows
    assert all(step.goal.kind in ("mate", "dead_general") for step in lesson.steps)
    pars = [step.par for step in exercises]
    assert len(exercises) >= 3 and pars == sorted(pars) and pars[-1] >= 2
    for step in exercises:
        assert pattern.zh in step.instruction.zh and pattern.zh in step.instruction.en
    # the last step, and only it, offers the trainer on the pattern
    assert lesson.steps[-1].practise_theme == pattern.code
    assert all(step.practise_theme is None for step in lesson.steps[:-1])


@pytest.mark.parametrize(
    ("lesson", "pattern", "step"),
    STEPS,
    ids=[f"{lesson.slug}-{step.key}" for lesson, _, step in STEPS],
)
def test_every_line_that_completes_a_step_is_the_pattern(lesson, pattern, step) -> None:
    """Whatever mate the learner finds within par (the referee plays the scripted replies), the
    detector names it with the lesson's pattern; the arrow of the first step is a key."""
    runs = completions(step, step.par)
    assert runs
    for run in runs:
        line = [ply.iccs for ply in run.plies]
        assert pattern.code in detect(step.variant, step.fen, line), (step.key, line)
    if step.arrows:
        assert any(run.moves[0] == step.arrows[0] for run in runs), step.key


def _boards_on_main_lines(variant: str, code: str, source: str) -> set[str]:
    boards = set()
    for entry in read_bank():
        if entry["variant"] != variant or code not in entry["themes"]:
            continue
        if entry["source"] != source:
            continue
        pos = Position.from_fen(variant, entry["fen"])
        boards.add(pos.board_fen() + pos.turn)
        for move in entry["main_line"]:
            pos.push_iccs(move)
            boards.add(pos.board_fen() + pos.turn)
    return boards


@pytest.mark.parametrize(("lesson", "pattern"), PATTERN_LESSONS, ids=IDS)
def test_the_bank_puzzles_of_the_pattern_are_used(lesson: Lesson, pattern: Pattern) -> None:
    """Every lesson takes at least one exercise from the bank (a master game, a classical
    collection or a mined puzzle) when the bank has the pattern in its variant; the lessons that
    take master-game moments are counted below."""
    starts = set()
    for step in lesson.steps:
        pos = Position.from_fen(step.variant, step.fen)
        starts.add(pos.board_fen() + pos.turn)
    games = _boards_on_main_lines(lesson.course, pattern.code, "game")
    bank = set().union(
        *(_boards_on_main_lines(lesson.course, pattern.code, s) for s in ("classic", "mined"))
    )
    if (games or bank) and pattern.code not in UNUSABLE_BANK_MOMENTS:
        assert starts & (games | bank)


def test_the_traditional_pattern_lessons_teach_on_master_game_moments() -> None:
    """Every traditional pattern lesson whose pattern the bank's master-game puzzles have takes a
    step from one of those games (today all but 天地炮, which no master game of the bank
    shows)."""
    taught, untaught = [], []
    for lesson, pattern in PATTERN_LESSONS:
        if lesson.course != "xiangqi":
            continue
        games = _boards_on_main_lines("xiangqi", pattern.code, "game")
        if not games or pattern.code in UNUSABLE_BANK_MOMENTS:
            continue
        starts = set()
        for step in lesson.steps:
            pos = Position.from_fen(step.variant, step.fen)
            starts.add(pos.board_fen() + pos.turn)
        (taught if starts & games else untaught).append(lesson.slug)
    assert untaught == []
    assert len(taught) >= 20, taught


def _lesson_data(**step: object) -> dict[str, object]:
    base = {"position": "Ke0 kf9 Rb6", "instruction": {"zh": "将死。", "en": "Mate."}}
    return {
        "slug": "x-practise",
        "course": "xiangqi",
        "order": 1,
        "title": {"zh": "题", "en": "t"},
        "summary": {"zh": "题", "en": "t"},
        "steps": [base | {"goal": "mate", "par": 1} | step],
    }


def test_practise_theme_must_be_a_pattern_of_the_course_or_a_tactic() -> None:
    lesson = lesson_from_data(_lesson_data(practise_theme="facing_general"))
    assert lesson.steps[0].practise_theme == "facing_general"
    lesson = lesson_from_data(_lesson_data(practise_theme="fork"))  # engine.tactics
    assert lesson.steps[0].practise_theme == "fork"
    with pytest.raises(LessonFileError, match="practise_theme"):
        lesson_from_data(_lesson_data(practise_theme="no_such_pattern"))
    with pytest.raises(LessonFileError, match="practise_theme"):
        lesson_from_data(_lesson_data(practise_theme="missile_strike"))  # a feidan pattern
