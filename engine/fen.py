"""Reading and writing FEN strings (docs/rules.md §3), with a reason for
every rejection.

``parse_fen`` reads the board field in one pass over precomputed tables
(character -> piece, piece -> points it may stand on, piece -> how many a
side may have); only a FEN it refuses goes through the careful reader,
which finds the reason and the rank. ``write_fen`` writes a FEN from a map
of pieces on points, as ``Position.fen()`` and every other writer of
positions does."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Final

from engine.errors import EngineError, InvalidFenError
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
    PIECE_MASK,
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

# an empty run of n points, as the writer puts it
_RUNS: Final = tuple(str(n) for n in range(12))


def _letters(value: int) -> str:
    text = LETTER_OF_TYPE.get(value & TYPE_MASK, "")
    if not text:
        return ""
    if not value & BLACK:
        text = text.upper()
    return "+" + text if value & TURNCOAT else text


# board value -> its FEN letter(s) (``+R`` for a red turncoat chariot); "" for an empty point
LETTERS: Final = tuple(_letters(value) for value in range(64))


def write_fen(
    variant: str | Variant,
    pieces: Mapping[int, str],
    red_to_move: bool = True,
    halfmove: int = 0,
    fullmove: int = 1,
) -> str:
    """The FEN of ``pieces`` (point -> FEN letter(s) such as ``K`` or ``+r``,
    a point numbered ``rank * width + file`` as ``Position.square`` gives it)
    on the board of ``variant``: all six fields, side ``w`` or ``b``, each run
    of empty points one number (docs/rules.md §3.1-3.2). The letters are
    written as given; ``parse_fen`` judges the position."""
    table = find_variant(variant)
    width = table.width
    size = width * table.height
    # a dict and a list, whatever mapping came in: compiled code indexes both directly
    given: dict[int, str] = pieces if isinstance(pieces, dict) else dict(pieces)
    cells = [""] * size
    for point, piece in given.items():
        if not 0 <= point < size:
            raise EngineError("position.bad_square", {"variant": table.name, "name": str(point)})
        cells[point] = piece
    ranks: list[str] = []
    for at in range(size - width, -1, -width):
        text = ""
        empty = 0
        for sq in range(at, at + width):
            piece = cells[sq]
            if not piece:
                empty += 1
            else:
                if empty:
                    text += _RUNS[empty]
                    empty = 0
                text += piece
        if empty:
            text += _RUNS[empty]
        ranks.append(text)
    side = "w" if red_to_move else "b"
    return f"{'/'.join(ranks)} {side} - - {halfmove} {fullmove}"


def parse_fen(cls: type[Position], variant: Variant, fen: object) -> Position:
    """Build a position of ``variant`` from ``fen`` or raise ``InvalidFenError``."""
    if not isinstance(fen, str):
        raise InvalidFenError(repr(fen), "fen.not_string")
    if len(fen) > MAX_FEN_LENGTH:
        raise InvalidFenError(fen[:40] + "…", "fen.too_long", limit=MAX_FEN_LENGTH)
    fields = fen.split()
    count = len(fields)
    if count == 0:
        raise InvalidFenError(fen, "fen.empty")
    if count > 6:
        raise InvalidFenError(fen, "fen.too_many_fields")
    red_to_move = True
    halfmove = 0
    fullmove = 1
    if count > 1:
        side = fields[1]
        if side == "b":
            red_to_move = False
        elif side != "w" and side != "r":
            raise InvalidFenError(fen, "fen.bad_side", found=side)
        if count > 2 and fields[2] != "-":
            raise InvalidFenError(fen, "fen.bad_third_field", found=fields[2])
        if count > 3 and fields[3] != "-":
            raise InvalidFenError(fen, "fen.bad_fourth_field", found=fields[3])
        if count > 4:
            halfmove = _counter(fen, fields[4], "fen.bad_halfmove")
        if count > 5:
            fullmove = _counter(fen, fields[5], "fen.bad_fullmove")
            if fullmove < 1:
                raise InvalidFenError(fen, "fen.fullmove_zero")

    tables = _tables(variant)
    read = _read_board(tables, fields[0])
    if read is None:
        # the reason, from the reader that names the rank (it raises: the
        # one-pass reader accepts every board this one accepts)
        rows = fields[0].split("/")
        if len(rows) != variant.height:
            raise InvalidFenError(fen, "fen.rank_count", count=len(rows))
        board, placed = _read_ranks(fen, variant, rows)
        _check_placement(fen, variant, _report_order(fields[0], placed))
    else:
        board, placed, fault = read
        if fault:
            _check_placement(fen, variant, _report_order(fields[0], placed))

    pos = cls(variant, board, red_to_move, placed)
    pos.halfmove = halfmove
    pos.fullmove = fullmove
    other = pos.side ^ BLACK
    ksq = pos.kings[other >> 5]
    if pos.attacked(ksq, pos.side):
        colour = "black" if other else "red"
        raise InvalidFenError(fen, "fen.other_side_in_check", ksq // variant.width, colour=colour)
    return pos


def _report_order(text: str, placed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pieces in the order their faults are looked for, so that a board
    with several faults is always refused for the same one: point by point
    from a0, except on a board with turncoats or a run of ten, which are
    looked at in reading order (from rank 9)."""
    if "+" in text or "10" in text:
        return placed
    return sorted(placed)


def _counter(fen: str, text: str, code: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise InvalidFenError(fen, code, found=text)
    return int(text)


# What a character of the board field is to the one-pass reader (one byte of
# ``_Tables.token``): a board value (1..63), a digit, a rank separator, the
# turncoat mark, or 0 for anything else.
_DIGIT: Final = 64  # 64 + n for the digit n
_SLASH: Final = 128
_PLUS: Final = 129


class _Tables:
    """Everything the one-pass reader of one variant looks up, built once."""

    def __init__(self, variant: Variant) -> None:
        width = variant.width
        size = width * variant.height
        codes = _codes(variant)
        token = bytearray(256)
        turncoat = bytearray(256)
        for text, value in codes.items():
            if len(text) == 1:
                token[ord(text)] = value
            else:
                turncoat[ord(text[1])] = value
        for n in range(10):
            token[ord("0") + n] = _DIGIT + n
        token[ord("/")] = _SLASH
        token[ord("+")] = _PLUS
        # allowed[value * size + point]: may a piece of that value stand there?
        rules = _allowed(variant)
        allowed = bytearray(64 * size)
        for value in codes.values():
            rule = rules.get(value & ~TURNCOAT)
            for sq in range(size):
                if rule is None or sq in rule[0]:
                    allowed[value * size + sq] = 1
        # the most pieces of a colour and type (index value & PIECE_MASK) a side
        # may have, and of its turncoats (index: the turncoat's value)
        limit = [0] * 64
        for kind, (per_side, _) in _material_limits(variant).items():
            limit[kind] = limit[kind | BLACK] = per_side
            if kind in variant.defection:
                limit[kind | TURNCOAT] = limit[kind | TURNCOAT | BLACK] = START_COUNT[kind]
        self.width = width
        self.size = size
        self.token = bytes(token)
        self.turncoat = bytes(turncoat)
        self.allowed = bytes(allowed)
        self.limit = limit
        # (type, most of it both sides together may have)
        self.together = [
            (kind, both)
            for kind, (_, both) in _material_limits(variant).items()
            if both is not None
        ]


@cache
def _tables(variant: Variant) -> _Tables:
    return _Tables(variant)


def _read_board(t: _Tables, text: str) -> tuple[list[int], list[tuple[int, int]], bool] | None:
    """Read the board field in one pass: the board, the pieces placed and
    whether a piece stands where it may not or a side has too many of a kind
    or no general; ``None`` when the field is not well formed."""
    if not text.isascii():
        return None
    data = text.encode()
    token = t.token
    allowed = t.allowed
    limit = t.limit
    width = t.width
    size = t.size
    board = [0] * size
    placed: list[tuple[int, int]] = []
    counts = [0] * 64
    fault = False
    at = size - width
    f = 0
    i = 0
    n = len(data)
    while i < n:
        k = token[data[i]]
        i += 1
        if k >= _DIGIT:
            if k < _SLASH:
                run = k - _DIGIT
                if run == 0:
                    return None
                if i < n:
                    k = token[data[i]]
                    if _DIGIT <= k < _SLASH:
                        # a number is read whole: "10" and "11" are one run
                        run = run * 10 + k - _DIGIT
                        i += 1
                f += run
                if f > width:
                    return None
                continue
            if k == _SLASH:
                if f != width or at == 0:
                    return None
                at -= width
                f = 0
                continue
            # the turncoat mark and its letter
            if i == n:
                return None
            k = t.turncoat[data[i]]
            i += 1
        if k == 0 or f >= width:
            return None
        sq = at + f
        f += 1
        board[sq] = k
        placed.append((sq, k))
        if not allowed[k * size + sq]:
            fault = True
        kind = k & PIECE_MASK
        c = counts[kind] + 1
        counts[kind] = c
        if c > limit[kind]:
            fault = True
        if k != kind:
            c = counts[k] + 1
            counts[k] = c
            if c > limit[k]:
                fault = True
    if at != 0 or f != width:
        return None
    if counts[KING] != 1 or counts[KING | BLACK] != 1:
        fault = True
    for kind, both in t.together:
        if counts[kind] + counts[kind | BLACK] > both:
            fault = True
    return board, placed, fault


def _read_ranks(
    fen: str, variant: Variant, rows: list[str]
) -> tuple[list[int], list[tuple[int, int]]]:
    """The careful reader: the board, or an error that names the rank."""
    width = variant.width
    codes = _codes(variant)
    board = [0] * (width * variant.height)
    placed: list[tuple[int, int]] = []
    put = placed.append
    for i, row in enumerate(rows):
        rank = variant.height - 1 - i
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
