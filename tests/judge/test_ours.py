"""The site's own engine as a judge (judge.ours): one line, or up to ``multipv`` lines found one
after another with the earlier lines' moves left out, best first, on one shared budget; a
``stop`` that cuts the lines short; and the scores from Red's side."""

from __future__ import annotations

import pytest

from engine import Position
from judge import OURS, OurEngine

VARIANTS = ("xiangqi", "feidan", "xinban")
# Black's general alone against two chariots, Black to move: lost.
LOST_FOR_BLACK = "4k4/9/9/9/9/9/9/9/R8/1R1K5 b - - 0 1"
# Red's general with only two moves (e0e1 and e0f0: d0 faces Black's), Red to move.
TWO_MOVES = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"


@pytest.mark.parametrize("variant", VARIANTS)
def test_three_lines_with_different_first_moves_best_first(variant: str) -> None:
    fen = Position.start(variant).fen()
    found = OurEngine().evaluate(variant=variant, fen=fen, moves=[], nodes=30_000, multipv=3)
    assert found.engine == OURS and found.turn == "red"
    assert len(found.lines) == 3 and len({line.move for line in found.lines}) == 3
    legal = {m.iccs() for m in Position.start(variant).legal_moves}
    assert {line.move for line in found.lines} <= legal
    scores = [line.cp for line in found.lines]
    assert all(score is not None for score in scores)
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert 0 < found.nodes <= 30_000 and found.depth >= 2


def test_one_line_is_the_search_it_always_was() -> None:
    fen = Position.start("xiangqi").fen()
    one = OurEngine().evaluate(variant="xiangqi", fen=fen, nodes=20_000)
    three = OurEngine().evaluate(variant="xiangqi", fen=fen, nodes=60_000, multipv=3)
    assert len(one.lines) == 1
    assert one.best.move in {line.move for line in three.lines}  # the same search, first


def test_a_position_with_fewer_moves_has_fewer_lines() -> None:
    found = OurEngine().evaluate(variant="xiangqi", fen=TWO_MOVES, nodes=3_000, multipv=3)
    assert sorted(line.move for line in found.lines) == ["e0e1", "e0f0"]


def test_stop_cuts_a_line_short_and_the_lines_after_it() -> None:
    """``stop`` is asked while the first line is searched (as often as the clock is looked at)
    and before each next line: once it says so, the first line ends with what it found and no
    other line is searched."""
    fen = Position.start("feidan").fen()
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) >= 3

    found = OurEngine().evaluate(variant="feidan", fen=fen, nodes=90_000, multipv=3, stop=stop)
    assert len(found.lines) == 1 and found.nodes < 30_000  # the first line's share, cut
    assert len(asked) == 4  # three looks in the first line, then before the second


def test_when_black_to_move_is_lost_every_line_says_red_wins() -> None:
    found = OurEngine().evaluate(variant="xiangqi", fen=LOST_FOR_BLACK, nodes=30_000, multipv=3)
    assert found.turn == "black" and len(found.lines) == 2  # its general's two moves
    for line in found.lines:
        assert (line.cp or 0) < 0 or (line.mate or 0) < 0  # from the side to move: lost
        cp, mate = found.for_red(line)
        assert (cp or 0) > 500 or (mate or 0) > 0
