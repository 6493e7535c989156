"""Reading FEN strings, with a reason for every rejection."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Final

from engine.errors import InvalidFenError
from engine.geometry import geometry
from engine.variants import (
    ADVISOR,
    BLACK,
    CANNON,
    CHARIOT,
    ELEPHANT,
    ENGLISH_NAME,
    FIGHTER,
    HORSE,
    KING,
    LETTER_OF_TYPE,
    MISSILE,
    SOLDIER,
    TURNCOAT,
    TYPE_MASK,
    TYPE_OF_LETTER,
    Variant,
    find_variant,
)

if TYPE_CHECKING:
    from engine.position import Position

MAX_FEN_LENGTH = 512


def parse_fen(cls: type[Position], variant: Variant, fen: object) -> Position:
    """Build a position of ``variant`` from ``fen`` or raise ``InvalidFenError``."""
    if not isinstance(fen, str):
        raise InvalidFenError(repr(fen), "fen.not_string")
    if len(fen) > MAX_FEN_LENGTH:
        raise InvalidFenError(fen[:40] + "…", "fen.too_long", limit=MAX_FEN_LENGTH)
    fields = fen.split()
    if not fields:
        raise InvalidFenError(fen, "fen.empty")
    if len(fields) > 6:
        raise InvalidFenError(fen, "fen.too_many_fields")
    side = fields[1] if len(fields) > 1 else "w"
    if side not in ("w", "r", "b"):
        raise InvalidFenError(fen, "fen.bad_side", found=side)
    for i, code in ((2, "fen.bad_third_field"), (3, "fen.bad_fourth_field")):
        if len(fields) > i and fields[i] != "-":
            raise InvalidFenError(fen, code, found=fields[i])
    counters = []
    for i, code in ((4, "fen.bad_halfmove"), (5, "fen.bad_fullmove")):
        if len(fields) > i:
            text = fields[i]
            if not text.isascii() or not text.isdigit() or len(text) > 6:
                raise InvalidFenError(fen, code, found=text)
            counters.append(int(text))
    halfmove = counters[0] if counters else 0
    fullmove = counters[1] if len(counters) > 1 else 1
    if fullmove < 1:
        raise InvalidFenError(fen, "fen.fullmove_zero")

    width = variant.width
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise InvalidFenError(fen, "fen.rank_count", count=len(rows))
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
    if pos.attacked(pos.kings[other >> 5], pos.side):
        colour = "black" if other else "red"
        rank = pos.kings[other >> 5] // width
        raise InvalidFenError(fen, "fen.other_side_in_check", rank, colour=colour)
    return pos


_TWO_DIGITS = re.compile(r"[0-9][0-9]")
_EXPAND = {str(n): "." * n for n in range(1, 10)}
_EXPAND_TABLE = str.maketrans(_EXPAND)


def _read_board_fast(
    variant: Variant, rows: list[str]
) -> tuple[list[int], list[tuple[int, int]]] | None:
    """The board of well-formed ranks, or ``None`` when a rank needs the
    careful reader (which explains what is wrong)."""
    width = variant.width
    codes = _fast_codes(variant)
    # a number of two digits is read whole by the careful reader; one search over
    # the ranks joined (no two digits meet across a '/') instead of one a rank
    text = "/".join(rows)
    if width > 9:
        text = text.replace("11", "." * 11)
    if _TWO_DIGITS.search(text):
        return None
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
                    raise InvalidFenError(fen, "fen.rank_too_long", rank, width=width)
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
                    raise InvalidFenError(fen, "fen.rank_too_long", rank, width=width)
                value = codes["+" + row[j + 1]]
                board[at + f] = value
                put((at + f, value))
                f += 1
                j += 2
            else:
                code, params = _bad_token(variant, row, j)
                raise InvalidFenError(fen, code, rank, **params)
        if f != width:
            raise InvalidFenError(
                fen, "fen.rank_width", rank, count=f, variant=variant.name, width=width
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


def _bad_token(variant: Variant, row: str, j: int) -> tuple[str, dict[str, object]]:
    """The error code and params of the token at ``row[j]``."""
    ch = row[j]
    if ch == "0":
        return "fen.zero_run", {}
    if ch == "+":
        if j + 1 >= len(row):
            return "fen.plus_at_end", {}
        nxt = row[j + 1]
        kind = TYPE_OF_LETTER.get(nxt.lower())
        if kind is not None and kind in variant.piece_types:
            params: dict[str, object] = {
                "letter": nxt,
                "piece": ENGLISH_NAME[kind],
                "variant": variant.name,
            }
            return "fen.turncoat_not_in_variant", params
        return "fen.plus_not_piece", {"letter": nxt}
    return "fen.unknown_letter", {"letter": ch, "variant": variant.name}


@cache
def _allowed(variant: Variant) -> dict[int, tuple[frozenset[int], str]]:
    """Board value -> (points it may stand on, the error code when it stands
    elsewhere), for the pieces whose points are restricted."""
    g = geometry(variant.width)
    width = variant.width
    table: dict[int, tuple[frozenset[int], str]] = {}
    for ci, bit in ((0, 0), (1, BLACK)):
        soldier_ranks = range(3, 10) if ci == 0 else range(0, 7)
        soldier_points = frozenset(r * width + f for r in soldier_ranks for f in range(width))
        table[KING | bit] = (g.palace[ci], "fen.general_outside_palace")
        table[ADVISOR | bit] = (g.advisor_points[ci], "fen.advisor_point")
        table[ELEPHANT | bit] = (g.elephant_points[ci], "fen.elephant_point")
        table[SOLDIER | bit] = (soldier_points, "fen.soldier_behind")
    return table


def _check_placement(fen: str, variant: Variant, placed: list[tuple[int, int]]) -> None:
    width = variant.width
    allowed = _allowed(variant)
    kings: list[list[int]] = [[], []]
    for sq, v in placed:
        rule = allowed.get(v & ~TURNCOAT)
        if rule is None:
            continue
        points, code = rule
        if sq not in points:
            name = "abcdefghijk"[sq % width] + str(sq // width)
            colour = "black" if v & BLACK else "red"
            raise InvalidFenError(fen, code, sq // width, colour=colour, square=name)
        if v & 15 == KING:
            kings[1 if v & BLACK else 0].append(sq)
    for ci, colour in ((0, "red"), (1, "black")):
        if not kings[ci]:
            raise InvalidFenError(fen, "fen.no_general", colour=colour)
        if len(kings[ci]) > 1:
            rank = max(kings[ci]) // width
            raise InvalidFenError(
                fen, "fen.two_generals", rank, colour=colour, count=len(kings[ci])
            )
    _check_material(fen, variant, placed)


# docs/rules.md §3.5, Ruling (material a game can reach): what one side's start gives.
START_COUNT: Final = {
    KING: 1,
    ADVISOR: 2,
    ELEPHANT: 2,
    HORSE: 2,
    CHARIOT: 2,
    CANNON: 2,
    SOLDIER: 5,
    FIGHTER: 2,
    MISSILE: 2,
}
# xinban: a defected piece joins the captor, so a side may hold every piece
# of a kind that defects, but no more than the game has.
DEFECTION_COUNT: Final = 4


def material_limits(variant: str | Variant) -> dict[int, tuple[int, int | None]]:
    """Piece type -> (most one side can have, most both sides together can
    have or ``None`` when only the side's limit applies)."""
    return _material_limits(find_variant(variant))


@cache
def _material_limits(variant: Variant) -> dict[int, tuple[int, int | None]]:
    limits: dict[int, tuple[int, int | None]] = {}
    for kind in variant.piece_types:
        if kind in variant.defection:
            limits[kind] = (DEFECTION_COUNT, DEFECTION_COUNT)
        else:
            limits[kind] = (START_COUNT[kind], None)
    return limits


def _check_material(fen: str, variant: Variant, placed: list[tuple[int, int]]) -> None:
    """No side has more pieces of a kind than a game can produce."""
    counts = [[0] * 16, [0] * 16]
    turncoats = [[0] * 16, [0] * 16]
    for _, v in placed:
        ci = 1 if v & BLACK else 0
        counts[ci][v & TYPE_MASK] += 1
        if v & TURNCOAT:
            turncoats[ci][v & TYPE_MASK] += 1
    for kind, (per_side, together) in _material_limits(variant).items():
        if kind == KING:
            continue  # two generals of a side are reported with their rank
        name = ENGLISH_NAME[kind]
        for ci, colour in ((0, "red"), (1, "black")):
            n = counts[ci][kind]
            if n > per_side:
                raise InvalidFenError(
                    fen, "fen.too_many_pieces", colour=colour, count=n, piece=name, limit=per_side
                )
            t = turncoats[ci][kind]
            if t > START_COUNT[kind]:
                raise InvalidFenError(
                    fen,
                    "fen.too_many_turncoats",
                    colour=colour,
                    count=t,
                    piece=name,
                    limit=START_COUNT[kind],
                )
        both = counts[0][kind] + counts[1][kind]
        if together is not None and both > together:
            raise InvalidFenError(
                fen, "fen.too_many_on_board", count=both, piece=name, limit=together
            )
