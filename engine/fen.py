"""Reading FEN strings, with a reason for every rejection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import InvalidFenError
from engine.geometry import geometry
from engine.variants import (
    ADVISOR,
    BLACK,
    ELEPHANT,
    ENGLISH_NAME,
    KING,
    SOLDIER,
    TURNCOAT,
    TYPE_OF_LETTER,
    Variant,
)

if TYPE_CHECKING:
    from engine.position import Position

MAX_FEN_LENGTH = 512


def parse_fen(cls: type[Position], variant: Variant, fen: str) -> Position:
    """Build a position of ``variant`` from ``fen`` or raise ``InvalidFenError``."""
    if not isinstance(fen, str):
        raise InvalidFenError(repr(fen), "a FEN must be a string")
    if len(fen) > MAX_FEN_LENGTH:
        raise InvalidFenError(fen[:40] + "…", f"longer than {MAX_FEN_LENGTH} characters")
    fields = fen.split()
    if not fields:
        raise InvalidFenError(fen, "empty")
    if len(fields) > 6:
        raise InvalidFenError(fen, "too many fields (expected: board side - - halfmove fullmove)")
    side = fields[1] if len(fields) > 1 else "w"
    if side not in ("w", "r", "b"):
        raise InvalidFenError(fen, f"side to move must be w (or r) or b, not {side!r}")
    for i, name in ((2, "third"), (3, "fourth")):
        if len(fields) > i and fields[i] != "-":
            raise InvalidFenError(fen, f"the {name} field must be '-', not {fields[i]!r}")
    counters = []
    for i, name in ((4, "halfmove clock"), (5, "move number")):
        if len(fields) > i:
            text = fields[i]
            if not text.isascii() or not text.isdigit() or len(text) > 6:
                raise InvalidFenError(fen, f"the {name} must be a whole number, not {text!r}")
            counters.append(int(text))
    halfmove = counters[0] if counters else 0
    fullmove = counters[1] if len(counters) > 1 else 1
    if fullmove < 1:
        raise InvalidFenError(fen, "the move number must be at least 1")

    width = variant.width
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise InvalidFenError(fen, f"expected 10 ranks separated by '/', found {len(rows)}")
    board = [0] * (width * 10)
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit() and ch.isascii():
                k = j
                while k < len(row) and row[k].isdigit() and row[k].isascii():
                    k += 1
                run = int(row[j:k])
                if run == 0 or row[j] == "0":
                    raise InvalidFenError(fen, f"empty run {row[j:k]!r} is not allowed", rank)
                f += run
                j = k
                continue
            turncoat = False
            if ch == "+":
                if j + 1 >= len(row):
                    raise InvalidFenError(fen, "'+' must be followed by a piece letter", rank)
                turncoat = True
                j += 1
                ch = row[j]
            kind = TYPE_OF_LETTER.get(ch.lower()) if ch.isascii() and ch.isalpha() else None
            if kind is None or kind not in variant.piece_types:
                raise InvalidFenError(
                    fen, f"{ch!r} is not a piece of {variant.name}", rank
                )
            if turncoat and (not variant.turncoats or kind not in variant.defection):
                raise InvalidFenError(
                    fen, f"'+{ch}' (turncoat {ENGLISH_NAME[kind]}) does not exist in {variant.name}", rank
                )
            if f >= width:
                raise InvalidFenError(fen, f"more than {width} points", rank)
            value = kind | (BLACK if ch.islower() else 0) | (TURNCOAT if turncoat else 0)
            board[rank * width + f] = value
            f += 1
            j += 1
        if f != width:
            raise InvalidFenError(
                fen, f"{f} points where the {variant.name} board has {width}", rank
            )

    _check_placement(fen, variant, board)
    pos = cls(variant, board, side != "b")
    pos.halfmove = halfmove
    pos.fullmove = fullmove
    other = pos.side ^ BLACK
    if pos._attacked(pos.kings[other >> 5], pos.side):
        colour = "Black" if other else "Red"
        rank = pos.kings[other >> 5] // width
        raise InvalidFenError(
            fen, f"the side not to move ({colour}) is in check or its general faces the other", rank
        )
    return pos


def _check_placement(fen: str, variant: Variant, board: list[int]) -> None:
    g = geometry(variant.width)
    width = variant.width
    kings = [[], []]
    for sq, v in enumerate(board):
        if not v:
            continue
        ci = 1 if v & BLACK else 0
        kind = v & 15
        rank = sq // width
        point = g.name(sq)
        colour = "Black" if ci else "Red"
        if kind == KING:
            kings[ci].append(sq)
            if sq not in g.palace[ci]:
                raise InvalidFenError(fen, f"{colour}'s general on {point} is outside its palace", rank)
        elif kind == ADVISOR and sq not in g.advisor_points[ci]:
            raise InvalidFenError(
                fen, f"{colour}'s advisor on {point} stands where an advisor can never go", rank
            )
        elif kind == ELEPHANT and sq not in g.elephant_points[ci]:
            raise InvalidFenError(
                fen, f"{colour}'s elephant on {point} stands where an elephant can never go", rank
            )
        elif kind == SOLDIER and ((ci == 0 and rank < 3) or (ci == 1 and rank > 6)):
            raise InvalidFenError(
                fen, f"{colour}'s soldier on {point} is behind its starting rank", rank
            )
    for ci, colour in ((0, "Red"), (1, "Black")):
        if not kings[ci]:
            raise InvalidFenError(fen, f"{colour} has no general")
        if len(kings[ci]) > 1:
            rank = kings[ci][1] // width
            raise InvalidFenError(fen, f"{colour} has {len(kings[ci])} generals", rank)
