"""Reading FEN strings, with a reason for every rejection."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from engine.errors import InvalidFenError
from engine.geometry import geometry
from engine.variants import (
    ADVISOR,
    BLACK,
    ELEPHANT,
    ENGLISH_NAME,
    KING,
    LETTER_OF_TYPE,
    SOLDIER,
    TURNCOAT,
    TYPE_OF_LETTER,
    Variant,
)

if TYPE_CHECKING:
    from engine.position import Position

MAX_FEN_LENGTH = 512


def parse_fen(cls: type[Position], variant: Variant, fen: object) -> Position:
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
    fast = _read_board_fast(variant, rows)
    if fast is not None:
        board, placed = fast
    else:
        board, placed = _read_board(fen, variant, rows)

    _check_placement(fen, variant, placed)
    pos = cls(variant, board, side != "b", placed)
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


_EXPAND = {str(n): "." * n for n in range(1, 10)}
_EXPAND_TABLE = str.maketrans(_EXPAND)


def _read_board_fast(
    variant: Variant, rows: list[str]
) -> tuple[list[int], list[tuple[int, int]]] | None:
    """The board of well-formed ranks, or ``None`` when a rank needs the
    careful reader (which explains what is wrong)."""
    width = variant.width
    codes = _fast_codes(variant)
    board: list[int] = []
    for row in reversed(rows):
        if "0" in row or "+" in row or "." in row:
            return None
        if width > 9 and "1" in row:
            row = row.replace("11", "." * 11).replace("10", "." * 10)
        expanded = row.translate(_EXPAND_TABLE)
        if len(expanded) != width:
            return None
        try:
            board.extend([codes[c] for c in expanded])
        except KeyError:
            return None
    placed = [(sq, v) for sq, v in enumerate(board) if v]
    return board, placed


def _read_board(
    fen: str, variant: Variant, rows: list[str]
) -> tuple[list[int], list[tuple[int, int]]]:
    """The careful reader: the board, or an error that names the rank."""
    width = variant.width
    codes = _codes(variant)
    board = [0] * (width * 10)
    placed: list[tuple[int, int]] = []
    put = placed.append
    for i, row in enumerate(rows):
        rank = 9 - i
        at = rank * width
        f = 0
        j = 0
        n = len(row)
        while j < n:
            ch = row[j]
            value = codes.get(ch)
            if value is not None:
                if f >= width:
                    raise InvalidFenError(fen, f"more than {width} points", rank)
                board[at + f] = value
                put((at + f, value))
                f += 1
                j += 1
            elif ch in "123456789":
                if j + 1 < n and row[j + 1] in _DIGITS:
                    run = int(row[j : j + 2])
                    j += 2
                else:
                    run = int(ch)
                    j += 1
                f += run
            elif ch == "+" and j + 1 < n and ("+" + row[j + 1]) in codes:
                if f >= width:
                    raise InvalidFenError(fen, f"more than {width} points", rank)
                value = codes["+" + row[j + 1]]
                board[at + f] = value
                put((at + f, value))
                f += 1
                j += 2
            else:
                raise InvalidFenError(fen, _bad_token(variant, row, j), rank)
        if f != width:
            raise InvalidFenError(
                fen, f"{f} points where the {variant.name} board has {width}", rank
            )
    return board, placed


_DIGITS = frozenset("0123456789")


@cache
def _codes(variant: Variant) -> dict[str, int]:
    """FEN letter(s) -> board value, for the pieces of ``variant``."""
    codes = {}
    for kind in variant.piece_types:
        letter = LETTER_OF_TYPE[kind]
        codes[letter.upper()] = kind
        codes[letter] = kind | BLACK
        if variant.turncoats and kind in variant.defection:
            codes["+" + letter.upper()] = kind | TURNCOAT
            codes["+" + letter] = kind | TURNCOAT | BLACK
    return codes


@cache
def _fast_codes(variant: Variant) -> dict[str, int]:
    """The plain letters of ``variant`` and ``.`` for an empty point."""
    return {letter: value for letter, value in _codes(variant).items() if len(letter) == 1} | {
        ".": 0
    }


def _bad_token(variant: Variant, row: str, j: int) -> str:
    ch = row[j]
    if ch == "0":
        return "an empty run cannot start with 0"
    if ch == "+":
        if j + 1 >= len(row):
            return "'+' must be followed by a piece letter"
        nxt = row[j + 1]
        kind = TYPE_OF_LETTER.get(nxt.lower())
        if kind is not None and kind in variant.piece_types:
            return f"'+{nxt}' (turncoat {ENGLISH_NAME[kind]}) does not exist in {variant.name}"
        return f"'+' must be followed by a piece letter, not {nxt!r}"
    return f"{ch!r} is not a piece of {variant.name}"


@cache
def _allowed(variant: Variant) -> dict[int, tuple[frozenset[int], str]]:
    """Board value -> (points it may stand on, what it is), for the pieces
    whose points are restricted."""
    g = geometry(variant.width)
    width = variant.width
    table: dict[int, tuple[frozenset[int], str]] = {}
    for ci, bit in ((0, 0), (1, BLACK)):
        colour = "Black" if ci else "Red"
        soldier_ranks = range(3, 10) if ci == 0 else range(0, 7)
        soldier_points = frozenset(r * width + f for r in soldier_ranks for f in range(width))
        for value, points, what in (
            (KING | bit, g.palace[ci], f"{colour}'s general on {{}} is outside its palace"),
            (
                ADVISOR | bit,
                g.advisor_points[ci],
                f"{colour}'s advisor on {{}} stands where an advisor can never go",
            ),
            (
                ELEPHANT | bit,
                g.elephant_points[ci],
                f"{colour}'s elephant on {{}} stands where an elephant can never go",
            ),
            (
                SOLDIER | bit,
                soldier_points,
                f"{colour}'s soldier on {{}} is behind its starting rank",
            ),
        ):
            table[value] = (points, what)
    return table


def _check_placement(fen: str, variant: Variant, placed: list[tuple[int, int]]) -> None:
    width = variant.width
    allowed = _allowed(variant)
    kings: list[list[int]] = [[], []]
    for sq, v in placed:
        rule = allowed.get(v & ~TURNCOAT)
        if rule is None:
            continue
        points, what = rule
        if sq not in points:
            name = "abcdefghijk"[sq % width] + str(sq // width)
            raise InvalidFenError(fen, what.format(name), sq // width)
        if v & 15 == KING:
            kings[1 if v & BLACK else 0].append(sq)
    for ci, colour in ((0, "Red"), (1, "Black")):
        if not kings[ci]:
            raise InvalidFenError(fen, f"{colour} has no general")
        if len(kings[ci]) > 1:
            rank = max(kings[ci]) // width
            raise InvalidFenError(fen, f"{colour} has {len(kings[ci])} generals", rank)
