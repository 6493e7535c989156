"""The defence lessons (``<course>-defence``, 解杀): every step is a position in which the learner
is in check or would lose next move (mated, stalemated, or in Missile Xiangqi a dead general), and
exactly one move saves the game. The engine's prover checks both halves: after every other legal
move the opponent forces such a win within two of its moves; after the saving move it cannot."""

from __future__ import annotations

import pytest

from engine import Position
from engine.solver.prover import find_win
from engine.solver.search import Budget
from tutorials.curriculum import Lesson, Step, read_lessons

DEFENCE = [lesson for lesson in read_lessons() if lesson.slug.endswith("-defence")]
STEPS = [(lesson, step) for lesson in DEFENCE for step in lesson.steps]
# The opponent's forced win is looked for this many moves deep (its mate, or its dead general).
DEPTH = 2


def saving_move(step: Step) -> str:
    if step.goal.kind == "move":
        assert len(step.goal.accept) == 1, "a defence step accepts its one saving move"
        return step.goal.accept[0]
    first = [moves for moves in step.replies if " " not in moves]
    assert len(first) == 1, "a counter-attack is played against the prover's line"
    return first[0]


def opponent_wins(pos: Position, depth: int) -> bool:
    """Does the side to move force a win within ``depth`` moves (a finished game counts as
    the result it is)?"""
    if pos.status() != "ongoing":
        return False  # the learner's move ended the game in its own favour
    goal = "mate" if pos.variant.name == "xiangqi" else "win"
    found = find_win(pos, goal, depth, Budget(nodes=400_000))
    assert found.status != "budget_exhausted"
    return found.status == "win"


def test_each_course_has_a_defence_lesson_of_five_steps_or_more() -> None:
    assert sorted(lesson.course for lesson in DEFENCE) == ["feidan", "xiangqi", "xinban"]
    assert all(len(lesson.steps) >= 5 for lesson in DEFENCE)


@pytest.mark.parametrize(
    ("lesson", "step"), STEPS, ids=[f"{lesson.slug}-{step.key}" for lesson, step in STEPS]
)
def test_exactly_one_move_saves_the_game(lesson: Lesson, step: Step) -> None:
    pos = Position.from_fen(step.variant, step.fen)
    if not pos.is_check():
        pos.push_pass()
        assert opponent_wins(pos, 1), f"{lesson.slug} {step.key}: nothing threatens the learner"
        pos.pop()
    save = saving_move(step)
    saving = []
    for move in sorted(pos.legal_moves, key=lambda m: m.iccs()):
        pos.push(move)
        try:
            if not opponent_wins(pos, DEPTH):
                saving.append(move.iccs())
        finally:
            pos.pop()
    assert saving == [save]
    assert len(list(pos.legal_moves)) >= 4, "a real choice: several moves to choose from"
