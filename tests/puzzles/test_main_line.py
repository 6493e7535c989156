"""The main line of a proof whose stored tree was cut is completed by proving the rest."""

from __future__ import annotations

import json

from engine import Position, solve
from puzzles import proving
from tests.puzzles.positions import MATE_IN_2, MATE_IN_2_KEY


def test_main_line_of_a_cut_tree_is_completed_from_the_cut() -> None:
    full = solve(Position.from_fen("xiangqi", MATE_IN_2), goal="mate", max_moves=2)
    cut = solve(Position.from_fen("xiangqi", MATE_IN_2), goal="mate", max_moves=2, tree_limit=2)
    assert full.status == cut.status == "sound_unique"
    expected = proving.main_line(json.loads(full.to_json()))
    line = proving.main_line(json.loads(cut.to_json()))
    assert line[0] == MATE_IN_2_KEY
    assert len(line) == len(expected) == 3
