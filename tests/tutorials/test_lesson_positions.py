"""A lesson's position given as pieces on points (``position = "Ke0 ke9 Nb0"``) is written as
the FEN the engine writes for it. No database needed."""

from __future__ import annotations

import pytest

from engine import Position
from tutorials.curriculum.schema import LessonFileError, board_fen


@pytest.mark.parametrize(
    ("variant", "pieces", "turn", "fen"),
    [
        ("xiangqi", "Ke0 kd9 Nb0", "red", "3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 0 1"),
        ("feidan", "Kf0 ke9 Mk3 fa7", "black", "4k6/11/f10/11/11/11/10M/11/11/5K5 b - - 0 1"),
        ("xinban", "Ke0 kd9 +Ri0 +nc7", "red", "3k5/9/2+n6/9/9/9/9/9/9/4K3+R w - - 0 1"),
    ],
)
def test_pieces_on_points_are_written_as_the_engine_writes_them(
    variant: str, pieces: str, turn: str, fen: str
) -> None:
    written = board_fen(variant, pieces, turn)
    assert written == fen
    assert Position.from_fen(variant, written).fen() == written


@pytest.mark.parametrize(
    ("pieces", "turn", "reason"),
    [
        ("Ke0 kd9 Nb0 Nb0", "red", "two pieces on b0"),
        ("Ke0 kd9 Nj0", "red", "off the 9-file board"),
        ("Ke0 kd9 N0", "red", "not a piece on a point"),
        ("Ke0 kd9", "white", "turn must be red or black"),
    ],
)
def test_a_bad_piece_list_is_refused_with_the_reason(pieces: str, turn: str, reason: str) -> None:
    with pytest.raises(LessonFileError, match=reason):
        board_fen("xiangqi", pieces, turn)
