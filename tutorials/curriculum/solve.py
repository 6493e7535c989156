"""Proving that a step can be done: the shortest way through it, found by the engine.

Used by the lesson data test (every step of every lesson must be solvable in exactly its par)
and by authors while writing lessons (``python -m tutorials.curriculum.solve FILE``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine import Move, Position
from engine.notation import parse_chinese
from tutorials.curriculum.audit import (
    answer_in_prompt_problems,
    completing_runs,
    instruction_problems,
    route_problems,
    success_problems,
    wrong_answer_problems,
)
from tutorials.curriculum.referees import MoveRun, StepRefused, check_setup, point_answers
from tutorials.curriculum.schema import Step, read_lesson_file


def shortest_solution(step: Step, max_moves: int) -> list[str] | None:
    """The learner's moves of a shortest completion within ``max_moves``, or None (the first
    line ``audit.completing_runs`` finds: exactly the server's referee plays every move)."""
    run = next(completing_runs(step, max_moves), None)
    return None if run is None else run.moves


_WANTED = {"mate": "checkmate", "stalemate": "stalemate", "dead_general": "dead_general"}


def forced_win(pos: Position, moves: int, wanted: str) -> bool:
    """Can the side to move force ``wanted`` (checkmate, stalemate or dead_general) within
    ``moves`` of its own moves, against every defence?"""
    for move in list(pos.legal_moves):
        pos.push(move)
        try:
            status = pos.status()
            if status == wanted:
                return True
            if moves > 1 and status == "ongoing" and pos.outcome() is None:
                replies = list(pos.legal_moves)
                if all(_after_reply(pos, reply, moves - 1, wanted) for reply in replies):
                    return True
        finally:
            pos.pop()
    return False


def _after_reply(pos: Position, reply: Move, moves: int, wanted: str) -> bool:
    pos.push(reply)
    try:
        return pos.outcome() is None and forced_win(pos, moves, wanted)
    finally:
        pos.pop()


def line_is_forced(step: Step, solution: list[str]) -> bool:
    """For a mate (stalemate, dead general) in N with scripted replies: after each of the
    learner's moves on the solution, does every defence still lose within the moves left?"""
    wanted = _WANTED[step.goal.kind]
    pos = Position.from_fen(step.variant, step.fen)
    total = len(solution)
    for index, text in enumerate(solution[:-1]):
        pos.push_iccs(text)
        left = total - index - 1
        for reply in list(pos.legal_moves):
            if not _after_reply(pos, reply, left, wanted):
                return False
        pos.push_iccs(step.replies[" ".join(solution[: index + 1])])
    return True


def verify_step(step: Step) -> list[str]:
    """Every problem with one step (empty when the step is sound): it cannot be done in par,
    its script does not play, its success text describes something that did not happen, a
    piece other than the one its instruction asks for completes it, its instruction promises a
    route (a number of moves, a detour) the accepted lines do not take, its question gives its
    own answer away, or its words for a wrong move are never shown where they fit."""
    problems = success_problems(step) + instruction_problems(step)
    problems += route_problems(step) + answer_in_prompt_problems(step)
    problems += wrong_answer_problems(step)
    return problems + _goal_problems(step)


def _goal_problems(step: Step) -> list[str]:
    goal = step.goal
    where = f"step {step.key}"
    problems: list[str] = []
    if goal.kind == "point":
        if goal.answer_from is None:
            return []
        from datetime import UTC, datetime

        answers = point_answers(step, datetime(2025, 1, 1, 12, tzinfo=UTC))
        return [] if answers else [f"{where}: the computed question has no answer"]
    if goal.kind == "write":
        # The site's own writing of every accepted move is read back as that move.
        pos = Position.from_fen(step.variant, step.fen)
        for iccs in goal.accept:
            written = pos.chinese(Move.from_iccs(iccs))
            if parse_chinese(pos, written).iccs() != iccs:
                problems.append(f"{where}: {written} is not read back as {iccs}")
        return problems
    if goal.kind == "setup":
        state = check_setup(step, dict(goal.placement or {}))
        if state.valid:
            problems.append(f"{where}: the starting placement is already a solution")
        example = check_setup(step, dict(goal.example or {}))
        if not example.valid:
            problems.append(
                f"{where}: the example is refused: {example.message.text.en} "
                f"{[v.text.en for v in example.violations]}"
            )
        return problems
    if goal.only_move:
        pos = Position.from_fen(step.variant, step.fen)
        count = len(pos.legal_moves)
        if count != 1:
            problems.append(f"{where}: only_move, but the position has {count} legal moves")
    for reply_key, reply in step.replies.items():
        run = MoveRun(step)
        try:
            for text in reply_key.split():
                if run.status != "playing":
                    break
                run.play(text)
        except StepRefused as error:
            problems.append(f"{where}: the scripted line {reply_key!r} is not playable: {error}")
        except RuntimeError as error:
            problems.append(f"{where}: {error} (after {reply_key!r}, reply {reply})")
    solution = shortest_solution(step, step.par)
    if solution is None:
        problems.append(f"{where}: no solution within par {step.par}")
        return problems
    if len(solution) != step.par:
        problems.append(
            f"{where}: solved in {len(solution)} moves ({' '.join(solution)}), par is {step.par}"
        )
    if goal.kind in _WANTED and step.opponent == "scripted" and step.par > 1:
        if not line_is_forced(step, solution):
            problems.append(f"{where}: the line {' '.join(solution)} is not forced")
        pos = Position.from_fen(step.variant, step.fen)
        if forced_win(pos, step.par - 1, _WANTED[goal.kind]):
            problems.append(f"{where}: a forced win exists in fewer than {step.par} moves")
    return problems


def main(argv: list[str]) -> int:
    bad = 0
    for name in argv:
        lesson = read_lesson_file(Path(name))
        for step in lesson.steps:
            problems = verify_step(step)
            solution = ""
            if not problems and step.goal.answered_with == "moves":
                found = shortest_solution(step, step.par)
                solution = " ".join(found or [])
            print(
                f"{lesson.slug} {step.key} {step.goal.kind}: "
                f"{'; '.join(problems) if problems else 'ok ' + solution}"
            )
            bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
