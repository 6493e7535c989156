"""The feidan board as the setups see it: points named as in ICCS (``a0`` … ``k9``),
pieces as FEN letters, and every place a piece may start taken from the engine's own
tables (geometry, variant, start position), not copied here.

Red's points are listed from ``a0`` point by point; Black's are the same points mirrored
across the river (rank r becomes 9 - r), in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from engine.fen import START_COUNT, write_fen
from engine.geometry import geometry
from engine.position import Position
from engine.variants import BLACK, ENGLISH_NAME, LETTER_OF_TYPE, TYPE_OF_LETTER, find_variant

Color = Literal["red", "black"]

FEIDAN = find_variant("feidan")
FILES = FEIDAN.files
WIDTH = FEIDAN.width
HEIGHT = FEIDAN.height


def point_name(square: int) -> str:
    return f"{FILES[square % WIDTH]}{square // WIDTH}"


def parse_point(point: str) -> tuple[int, int] | None:
    """Return (file, rank) of an ICCS point such as ``e0``, or None if it is not one (only
    ASCII is read: a full-width or other Unicode digit is no rank)."""
    if len(point) != 2 or not point.isascii() or point[0] not in FILES or not point[1].isdigit():
        return None
    return FILES.index(point[0]), int(point[1])


def mirror(point: str) -> str:
    """The same file on the other side of the river (rank r becomes 9 - r)."""
    return f"{point[0]}{HEIGHT - 1 - int(point[1])}"


def side_points(points: Iterable[str], color: Color) -> tuple[str, ...]:
    return tuple(points) if color == "red" else tuple(mirror(p) for p in points)


def own_ranks(color: Color) -> range:
    return range(0, 5) if color == "red" else range(5, 10)


_GEOMETRY = geometry(WIDTH)
_START = Position.start(FEIDAN)

RED_PALACE = tuple(point_name(sq) for sq in sorted(_GEOMETRY.palace[0]))
RED_ADVISOR_POINTS = tuple(point_name(sq) for sq in sorted(_GEOMETRY.advisor_points[0]))
RED_ELEPHANT_POINTS = tuple(point_name(sq) for sq in sorted(_GEOMETRY.elephant_points[0]))
RED_MISSILE_BASE = tuple(sorted(f"{FILES[f]}{r}" for f, r in FEIDAN.base_points if r < 5))
RED_SOLDIER_POINTS = tuple(
    point_name(sq)
    for sq in sorted(_START.square(p) for p, v in _START.pieces().items() if v == "P")
)
RED_CENTRE_SOLDIER = next(p for p in RED_SOLDIER_POINTS if p[0] == FILES[WIDTH // 2])
RED_SOLDIER_RANK = int(RED_CENTRE_SOLDIER[1])

# Exactly how many of each piece a feidan side has (20 in all), by upper-case letter.
PIECE_COUNTS: dict[str, int] = {
    LETTER_OF_TYPE[kind].upper(): START_COUNT[kind] for kind in sorted(FEIDAN.piece_types)
}


def piece_name(letter: str, count: int = 1) -> str:
    """The English name of the piece ``letter`` (either case), plural unless ``count`` is 1."""
    name = ENGLISH_NAME[TYPE_OF_LETTER[letter.lower()]]
    return name if count == 1 else name + "s"


def start_board() -> dict[str, str]:
    """The feidan start position as point -> letter."""
    return _START.pieces()


def _square(point: str) -> int:
    return int(point[1]) * WIDTH + FILES.index(point[0])


def board_fen(board: Mapping[str, str], red_to_move: bool = True) -> str:
    """The FEN of a board given as point -> letter."""
    return write_fen(FEIDAN, {_square(p): v for p, v in board.items()}, red_to_move)


def checkers(board: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """The points of the pieces that give check to Red and to Black on ``board``, as the
    engine judges them (the other general counts when the two face each other): the
    position with each side to move, asked who checks it."""
    values = [0] * (WIDTH * HEIGHT)
    for point, letter in board.items():
        kind = TYPE_OF_LETTER[letter.lower()]
        values[_square(point)] = kind if letter.isupper() else kind | BLACK
    red = Position(FEIDAN, values, True)
    black = Position(FEIDAN, list(values), False)
    return red.checkers(), black.checkers()
