"""The second notation lesson teaches what the first leaves out, by moves the engine writes.

xiangqi-notation (order 15) has the learner write Red's moves forward and sideways; its sequel
(xiangqi-notation-black) must have the learner write a Black move in digits, 退 of a
straight-moving piece (a count) and of a slantwise one (a file), 中 among three pieces on one
file and 前/后 for Black, read a move with 前 and 退 and play it, and replay a whole game from
its record, where the record in the instruction is the engine's own writing of the script.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import Move, Position
from tests.tutorials.test_lesson_data import STEPS
from tests.tutorials.test_master_game_steps import script_of

SLUG = "xiangqi-notation-black"


def _moves_of(kind: str) -> list[tuple[str, str]]:
    """(side to move, the engine's writing) of every accepted move of the lesson's ``kind``
    steps."""
    found = []
    for lesson, step in STEPS:
        if lesson.slug == SLUG and step.goal.kind == kind:
            pos = Position.from_fen(step.variant, step.fen)
            found += [(pos.turn, pos.chinese(Move.from_iccs(m))) for m in step.goal.accept]
    return found


def test_the_learner_writes_every_new_part() -> None:
    written = _moves_of("write")
    parts: dict[str, Callable[[str, str], bool]] = {
        "a Black move in digits": lambda side, m: side == "black" and m[-1].isdigit(),
        "straight 退": lambda side, m: m[0] in "车炮兵卒帅将" and "退" in m,
        "slantwise 退": lambda side, m: m[0] in "马相象仕士" and "退" in m,
        "中": lambda side, m: m[0] == "中",
        "Black 前/后": lambda side, m: side == "black" and m[0] in "前后",
    }
    missing = [name for name, found in parts.items() if not any(found(*w) for w in written)]
    assert missing == [], written


def test_the_learner_reads_a_move_with_front_and_back() -> None:
    read = [m for _side, m in _moves_of("move")]
    assert any(m[0] in "前后" and "退" in m for m in read), read


def test_the_replayed_record_is_the_engines_writing_of_the_script() -> None:
    step = next(s for lesson, s in STEPS if lesson.slug == SLUG and s.key == "replay")
    pos = Position.from_fen(step.variant, step.fen)
    # The record starts with Red's first move, already on the board: take it back to write it.
    start = Position.start(step.variant)
    first = next(m for m in start.legal_moves if _after(start, m) == pos.fen())
    record = [start.chinese(first)]
    for move in script_of(SLUG, "replay"):
        record.append(pos.chinese(Move.from_iccs(move)))
        pos.push(Move.from_iccs(move))
    assert pos.status() == "checkmate"
    numbered = " ".join(
        f"{i // 2 + 1}.{'，'.join(record[i : i + 2])}" for i in range(0, len(record), 2)
    )
    assert numbered in step.instruction.zh and numbered in step.instruction.en


def _after(pos: Position, move: Move) -> str:
    pos.push(move)
    try:
        return pos.fen()
    finally:
        pos.pop()
