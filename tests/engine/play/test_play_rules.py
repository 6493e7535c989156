"""The search's repetition judge: a cycle seen once is judged as
``engine.rules`` judges it when it comes round again, and the search's pass
(null move) leaves the position as it was."""

from __future__ import annotations

import pytest

from engine import Position
from engine.play import _board as B
from engine.play.search import ENTRY_BYTES, tt_slots
from engine.rules import repetition_outcome

CYCLES = [
    # quiet advisors: a draw, or forced variation in xinban
    ("xiangqi", "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", "d0e1 d9e8 e1d0 e8d9"),
    ("xinban", "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", "d0e1 d9e8 e1d0 e8d9"),
    ("feidan", "4a1k4/11/11/11/11/11/11/11/11/4AK5 w - - 0 1", "e0f1 e9f8 f1e0 f8e9"),
    # perpetual check by Red
    ("xiangqi", "4k2R1/9/9/9/9/9/9/9/9/3K5 b - - 0 1", "e9e8 h9h8 e8e9 h8h9"),
    ("feidan", "5k3R1/11/11/11/11/11/11/11/11/4K6 b - - 0 1", "f9f8 j9j8 f8f9 j8j9"),
    # both sides check throughout: a draw in xiangqi, forced variation in xinban
    ("xiangqi", "4rk3/9/9/5c3/5P3/9/9/5C3/9/4K4 w - - 0 1", "f5e5 f6e6 e5f5 e6f6"),
    ("xinban", "4rk3/9/9/5c3/5P3/9/9/5C3/9/4K4 w - - 0 1", "f5e5 f6e6 e5f5 e6f6"),
    # Red's chariot chases Black's unprotected cannon
    ("xiangqi", "5k3/9/c8/9/9/9/9/9/1R7/4K4 w - - 0 1", "b1a1 a7b7 a1b1 b7a7"),
]


@pytest.mark.parametrize(("variant", "fen", "cycle"), CYCLES)
def test_a_cycle_is_judged_as_the_rules_judge_its_repetition(
    variant: str, fen: str, cycle: str
) -> None:
    once = Position.from_fen(variant, fen)
    for mv in cycle.split():
        once.push_iccs(mv)
    judged = B.judge_cycle(once, 4)
    twice = once.copy()
    for mv in cycle.split():
        twice.push_iccs(mv)
    assert judged is not None
    assert judged == repetition_outcome(twice)


def test_the_pass_is_taken_back_exactly() -> None:
    pos = Position.start("feidan")
    pos.push_iccs("i2f2")
    before = (pos.fen(), pos.hash, pos.ply_count(), pos.turn)
    B.push_null(pos)
    assert pos.turn == "red"
    assert pos.hash != before[1]
    assert B.legal(pos)  # Red's moves
    B.pop(pos)
    assert (pos.fen(), pos.hash, pos.ply_count(), pos.turn) == before


def test_the_transposition_table_stays_within_its_memory_budget() -> None:
    for mib in (1, 16, 64):
        assert tt_slots(mib, None) * ENTRY_BYTES <= mib * (1 << 20)
    assert tt_slots(64, 1000) <= 2048  # a small search gets a small table


def test_position_pass_hands_the_move_over_and_pop_takes_it_back() -> None:
    pos = Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 7 12")
    pos.push_pass()
    assert pos.turn == "black"
    assert pos.fen() == "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 12"
    assert pos.hash == Position.from_fen("xiangqi", pos.fen()).hash
    pos.pop()
    assert pos.fen() == "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 7 12"
