"""Chinese move notation (炮二平五, 马8进7, 前车进一, 马八进七车).

A move is written as piece + file + direction + number:

- Files count from 1 at each player's own right. Red writes Chinese numerals
  (一 … 九, 十, 十一 on the 11-file board), Black writes digits (1 … 11).
- 进 is forward (toward the enemy), 退 back, 平 sideways along the rank.
- Pieces that move in straight lines (general, chariot, cannon, soldier,
  missile) give the number of ranks after 进/退 and the target file after 平.
  Pieces that move diagonally or jump (advisor, elephant, horse, fighter)
  always change rank and give the target file after 进/退; they never use 平.
- When several pieces of one kind and colour stand on one file, the file
  number gives way to their order from the front (the side nearer the enemy):
  前/后 for two, 前/中/后 for three, 前/二/三/…/后 for four or more. When more
  than one file holds several pieces of that kind, the file number is kept
  after the name: 前兵五进一. Advisors and elephants are the exception: two
  on one file keep the file number (仕六进五), since one can only go forward
  and the other only back; 前仕进五 is still read.
- In xinban a capture that makes a turncoat defect ends with the name of the
  defecting piece: 马八进七车.

Input is read more loosely: either numeral style for either side, full-width
digits, traditional and alternative piece names (帥 俥 傌 砲 包 …), the short
names 机 and 弹, the file number after 前/后 or not, and no defection suffix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from engine.move import Move
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
    MISSILE,
    SOLDIER,
    TURNCOAT,
)

if TYPE_CHECKING:
    from engine.position import Position

__all__ = ["chinese", "parse_chinese"]

RED_NAMES = {
    KING: "帅",
    ADVISOR: "仕",
    ELEPHANT: "相",
    HORSE: "马",
    CHARIOT: "车",
    CANNON: "炮",
    SOLDIER: "兵",
    FIGHTER: "战机",
    MISSILE: "导弹",
}
BLACK_NAMES = {
    KING: "将",
    ADVISOR: "士",
    ELEPHANT: "象",
    HORSE: "马",
    CHARIOT: "车",
    CANNON: "炮",
    SOLDIER: "卒",
    FIGHTER: "战机",
    MISSILE: "导弹",
}

# Every name accepted on input, two-character names first.
_INPUT_NAMES: tuple[tuple[str, int], ...] = (
    ("战机", FIGHTER),
    ("戰機", FIGHTER),
    ("导弹", MISSILE),
    ("導彈", MISSILE),
    *[(ch, KING) for ch in "帅帥将將"],
    *[(ch, ADVISOR) for ch in "仕士"],
    *[(ch, ELEPHANT) for ch in "相象"],
    *[(ch, HORSE) for ch in "马馬傌"],
    *[(ch, CHARIOT) for ch in "车車俥"],
    *[(ch, CANNON) for ch in "炮砲包"],
    *[(ch, SOLDIER) for ch in "兵卒"],
    *[(ch, FIGHTER) for ch in "机機"],
    *[(ch, MISSILE) for ch in "弹彈"],
)

# Pieces that move along lines count ranks after 进/退; the others name a file.
STRAIGHT = frozenset({KING, CHARIOT, CANNON, SOLDIER, MISSILE})
# For the pieces that name a file: file distance -> rank distance of their moves.
_JUMP_RANKS = {
    ADVISOR: {1: 1},
    ELEPHANT: {2: 2},
    HORSE: {1: 2, 2: 1},
    FIGHTER: {1: 3, 3: 1},
}

# Two advisors or two elephants on one file keep the file number (仕六进五):
# one can only go forward, the other only back, so the direction tells them
# apart (docs/rules.md §4.2). 前/后 is still read.
_FILE_ALWAYS = frozenset({ADVISOR, ELEPHANT})
# A point's piece: its colour and type, the turncoat bit left out.
_PIECE = BLACK | 15

FORWARD, BACKWARD, SIDEWAYS = "进", "退", "平"
_DIRECTIONS = {"进": FORWARD, "進": FORWARD, "退": BACKWARD, "平": SIDEWAYS}

FRONT, MIDDLE, REAR = "前", "中", "后"
_ORDER_WORDS = {"前": FRONT, "中": MIDDLE, "后": REAR, "後": REAR}

CHINESE_DIGITS = "一二三四五六七八九"
_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_MAX_LENGTH = 16


def number_text(n: int, red: bool) -> str:
    """A file or a count as the given side writes it: 十一 for Red, 11 for Black."""
    if not red:
        return str(n)
    if n <= 9:
        return CHINESE_DIGITS[n - 1]
    return "十" + (CHINESE_DIGITS[n - 11] if n > 10 else "")


# Written once: the numbers 1 … _NUMBERED as each side writes them (index 0 unused), and
# each side's piece names by piece type (Red first, then Black, as ``value >> 5``).
_NUMBERED = 19  # 十九: as far as number_text goes, beyond any board
_NUMBERS: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("", *[number_text(n, True) for n in range(1, _NUMBERED + 1)]),
    ("", *[number_text(n, False) for n in range(1, _NUMBERED + 1)]),
)
_NAMES: tuple[tuple[str, ...], tuple[str, ...]] = (
    tuple(RED_NAMES.get(kind, "") for kind in range(16)),
    tuple(BLACK_NAMES.get(kind, "") for kind in range(16)),
)


def order_word(index: int, count: int) -> str:
    """The word for the ``index``-th piece from the front among ``count`` on a file."""
    if index == 0:
        return FRONT
    if index == count - 1:
        return REAR
    if count == 3:
        return MIDDLE
    return CHINESE_DIGITS[index]


def _file_number(file: int, width: int, red: bool) -> int:
    """The 1-based file number, counted from the player's own right."""
    return width - file if red else file + 1


def _file_index(number: int, width: int, red: bool) -> int:
    return width - number if red else number - 1


def _columns(pos: Position, kind: int, own: int) -> dict[int, list[int]]:
    """file -> points of the mover's pieces of type ``kind`` on it, front first."""
    w = pos.width
    board = pos.board
    columns: dict[int, list[int]] = {}
    for sq in pos.occupied[own >> 5]:
        if board[sq] & 15 == kind:
            columns.setdefault(sq % w, []).append(sq)
    for points in columns.values():
        # Red's front is the higher rank, Black's the lower.
        points.sort(reverse=not own)
    return columns


def _tail(pos: Position, fr: int, to: int, kind: int, red: bool) -> tuple[str, int]:
    """The direction and the number that follows it, for a move of ``kind``."""
    w = pos.width
    ahead = (to // w - fr // w) * (1 if red else -1)
    if ahead == 0:
        return SIDEWAYS, _file_number(to % w, w, red)
    direction = FORWARD if ahead > 0 else BACKWARD
    if kind in STRAIGHT:
        return direction, abs(ahead)
    return direction, _file_number(to % w, w, red)


# The legal move codes of the position last written for, as a set: the names of all its legal
# moves are written in a row, and a list scan per move costs more than the rest of the writing.
# The list is held, so no other list can take its identity; it is never changed (see
# Position.legal_codes), and a position's next move list is a new one.
_LEGAL: tuple[list[int], frozenset[int]] = ([], frozenset())


def _legal_set(pos: Position) -> frozenset[int]:
    global _LEGAL
    codes = pos.legal_codes()
    cached = _LEGAL  # read once: another thread may replace it
    if cached[0] is not codes:
        cached = (codes, frozenset(codes))
        _LEGAL = cached
    return cached[1]


def _legal_int(pos: Position, move: Move) -> int:
    # Position.encode, with each of the move's fields read once
    w = pos.width
    h = pos.height
    from_file, from_rank = move.from_file, move.from_rank
    to_file, to_rank = move.to_file, move.to_rank
    if not (0 <= from_file < w and 0 <= to_file < w and 0 <= from_rank < h and 0 <= to_rank < h):
        raise IllegalMoveError(move.iccs(), pos.fen(), "move.off_board")
    m = (from_rank * w + from_file) << 8 | (to_rank * w + to_file)
    if m not in _legal_set(pos):
        code, params = pos.illegal_reason(m)
        raise IllegalMoveError(move.iccs(), pos.fen(), code, **params)
    return m


def chinese(pos: Position, move: Move) -> str:
    """The legal ``move`` of ``pos`` in Chinese notation."""
    m = _legal_int(pos, move)
    fr, to = m >> 8, m & 255
    w = pos.width
    board = pos.board
    value = board[fr]
    kind = value & 15
    own = value & BLACK
    side = own >> 5
    red = not own
    numbers = _NUMBERS[side]
    name = _NAMES[side][kind]
    f = fr % w
    file_text = numbers[w - f if red else f + 1]

    # The mover's pieces of this kind on its file, and how many stand in front of it
    # (Red's front is the higher rank, Black's the lower).
    count = 0
    ahead_of_it = 0
    if kind not in _FILE_ALWAYS:
        same = value & _PIECE
        for sq in range(f, len(board), w):
            if board[sq] & _PIECE == same:
                count += 1
                if (sq > fr) == red and sq != fr:
                    ahead_of_it += 1
    if count <= 1:
        head = name + file_text
    else:
        crowded = sum(1 for points in _columns(pos, kind, own).values() if len(points) > 1)
        head = order_word(ahead_of_it, count) + name
        if crowded > 1:
            head += file_text

    ahead = to // w - fr // w
    if not red:
        ahead = -ahead
    if ahead == 0:
        tail = SIDEWAYS + numbers[_file_number(to % w, w, red)]
    else:
        number = abs(ahead) if kind in STRAIGHT else _file_number(to % w, w, red)
        tail = (FORWARD if ahead > 0 else BACKWARD) + (
            numbers[number] if number <= _NUMBERED else number_text(number, red)
        )
    text = head + tail

    if board[to] & TURNCOAT:
        # Only a turncoat's capture can make it defect.
        changes, effect = pos.effects(m)
        if effect == "defection":
            # The captor's old point now holds the defected piece.
            text += _NAMES[side][changes[0][2] & 15]
    return text


# ----------------------------------------------------------------------
# reading


@dataclass(frozen=True)
class _Parsed:
    order: str | int | None  # FRONT / MIDDLE / REAR, an ordinal from 1, or None
    kind: int
    file: int | None  # 1-based file number from the mover's right
    direction: str
    number: int
    suffix: int | None  # the defecting piece's type, if written


class _Reader:
    def __init__(self, pos: Position, original: str, text: str) -> None:
        self.pos = pos
        self.original = original
        self.text = text
        self.i = 0

    def fail(self, code: str, **params: object) -> InvalidMoveError:
        return InvalidMoveError(self.original, code, self.pos.fen(), **params)

    def at_end(self) -> bool:
        return self.i >= len(self.text)

    def piece(self) -> int | None:
        for name, kind in _INPUT_NAMES:
            if self.text.startswith(name, self.i):
                self.i += len(name)
                return kind
        return None

    def number(self) -> int | None:
        s = self.text
        start = self.i
        if start >= len(s):
            return None
        if s[start].isascii() and s[start].isdigit():
            end = start
            while end < len(s) and s[end].isascii() and s[end].isdigit():
                end += 1
            self.i = end
            digits = s[start:end]
            if len(digits) > 2 or digits.startswith("0"):
                raise self.fail("notation.bad_number", found=digits)
            return int(digits)
        end = start
        while end < len(s) and (s[end] in CHINESE_DIGITS or s[end] == "十"):
            end += 1
        if end == start:
            return None
        self.i = end
        word = s[start:end]
        if len(word) == 1:
            return 10 if word == "十" else CHINESE_DIGITS.index(word) + 1
        if len(word) == 2 and word[0] == "十" and word[1] != "十":
            return 10 + CHINESE_DIGITS.index(word[1]) + 1
        raise self.fail("notation.bad_number", found=word)

    def unexpected(self) -> InvalidMoveError:
        if self.at_end():
            return self.fail("notation.ends_early")
        return self.fail("notation.unexpected", found=self.text[self.i], index=self.i + 1)


def _read(pos: Position, original: str) -> _Parsed:
    text = "".join(original.split()).translate(_FULL_WIDTH)
    r = _Reader(pos, original, text)
    if not text:
        raise r.fail("notation.empty")
    if len(text) > _MAX_LENGTH:
        raise r.fail("notation.too_long", limit=_MAX_LENGTH)

    order: str | int | None = None
    kind = r.piece()
    if kind is None:
        word = _ORDER_WORDS.get(text[0])
        if word is not None:
            order = word
            r.i = 1
        else:
            ordinal = r.number()
            if ordinal is None:
                raise r.fail("notation.bad_start", found=text[0])
            order = ordinal
        kind = r.piece()
    file = r.number()
    if kind is None:
        # 前五进一: soldiers on several files may drop the name.
        if order in (FRONT, MIDDLE, REAR) and file is not None:
            kind = SOLDIER
        else:
            raise r.fail("notation.name_missing")
    if order is None and file is None:
        raise r.fail("notation.file_missing")
    if r.at_end() or text[r.i] not in _DIRECTIONS:
        raise r.unexpected()
    direction = _DIRECTIONS[text[r.i]]
    r.i += 1
    number = r.number()
    if number is None:
        raise r.unexpected()
    suffix = r.piece()
    if not r.at_end():
        raise r.unexpected()
    parsed = _Parsed(order, kind, file, direction, number, suffix)
    _check_shape(r, parsed)
    return parsed


def _check_shape(r: _Reader, p: _Parsed) -> None:
    """Reject what no position could make legal: the text is malformed."""
    variant = r.pos.variant
    width = variant.width
    name = ENGLISH_NAME[p.kind]
    if p.kind not in variant.piece_types:
        raise r.fail("notation.piece_not_in_variant", variant=variant.name, piece=name)
    if isinstance(p.order, int) and not 1 <= p.order <= 9:
        raise r.fail("notation.bad_ordinal", order=p.order)
    if p.file is not None and not 1 <= p.file <= width:
        raise r.fail("notation.file_off_board", file=p.file, width=width)
    if p.kind in STRAIGHT:
        if p.direction == SIDEWAYS:
            if not 1 <= p.number <= width:
                raise r.fail("notation.file_off_board", file=p.number, width=width)
            if p.number == p.file:
                raise r.fail("notation.same_file")
        else:
            longest = 1 if p.kind in (KING, SOLDIER) else variant.height - 1
            if not 1 <= p.number <= longest:
                raise r.fail("notation.bad_distance", piece=name, count=p.number)
            if p.kind == SOLDIER and p.direction == BACKWARD:
                raise r.fail("notation.soldier_back")
    else:
        if p.direction == SIDEWAYS:
            raise r.fail("notation.no_sideways", piece=name)
        if not 1 <= p.number <= width:
            raise r.fail("notation.file_off_board", file=p.number, width=width)
        if p.file is not None and abs(p.number - p.file) not in _JUMP_RANKS[p.kind]:
            raise r.fail("notation.bad_jump", piece=name, file=p.file, target=p.number)
    if p.suffix is not None and p.suffix not in variant.defection:
        if variant.defection:
            raise r.fail("notation.never_defects", piece=ENGLISH_NAME[p.suffix])
        raise r.fail("notation.no_defection", variant=variant.name)


def _order_index(order: str | int, count: int) -> int | None:
    if count < 2:
        return None
    if order == FRONT:
        return 0
    if order == REAR:
        return count - 1
    if order == MIDDLE:
        return count // 2 if count % 2 else None
    assert isinstance(order, int)
    return order - 1 if order <= count else None


def _geometric_target(pos: Position, fr: int, p: _Parsed, red: bool) -> int | None:
    """Where the text sends the piece on ``fr``, by movement shape alone."""
    w = pos.width
    f, rank = fr % w, fr // w
    ahead = 1 if red else -1
    if p.direction == BACKWARD:
        ahead = -ahead
    if p.direction == SIDEWAYS:
        f, ranks = _file_index(p.number, w, red), 0
    elif p.kind in STRAIGHT:
        ranks = p.number
    else:
        tf = _file_index(p.number, w, red)
        ranks_by_files = _JUMP_RANKS[p.kind]
        if abs(tf - f) not in ranks_by_files:
            return None
        f, ranks = tf, ranks_by_files[abs(tf - f)]
    rank += ranks * ahead
    if not (0 <= rank < pos.variant.height and 0 <= f < w):
        return None
    return rank * w + f


def parse_chinese(pos: Position, text: object) -> Move:
    """The legal move of ``pos`` that ``text`` (Chinese notation) describes."""
    if not isinstance(text, str):
        raise InvalidMoveError(text, "move.not_string", pos.fen())
    p = _read(pos, text)
    own = pos.side
    red = not own
    w = pos.width
    colour = "red" if red else "black"
    name = ENGLISH_NAME[p.kind]
    columns = _columns(pos, p.kind, own)

    file_index = None if p.file is None else _file_index(p.file, w, red)
    if p.order is None:
        assert p.file is not None and file_index is not None
        pieces = columns.get(file_index, [])
        if not pieces:
            raise IllegalMoveError(
                text,
                pos.fen(),
                "notation.no_piece_on_file",
                colour=colour,
                piece=name,
                file=number_text(p.file, red),
            )
    else:
        files = [file_index] if file_index is not None else list(columns)
        pieces = []
        for f in files:
            column = columns.get(f, [])
            index = _order_index(p.order, len(column))
            if index is not None:
                pieces.append(column[index])
        if not pieces:
            params: dict[str, object] = {
                "colour": colour,
                "piece": name,
                "order": _order_text(p.order),
            }
            if p.file is None:
                raise IllegalMoveError(text, pos.fen(), "notation.no_piece_fits", **params)
            params["file"] = number_text(p.file, red)
            raise IllegalMoveError(text, pos.fen(), "notation.no_piece_fits_file", **params)

    wanted = (p.direction, p.number)
    matches = [
        m
        for m in pos.legal_codes()
        if m >> 8 in pieces and _tail(pos, m >> 8, m & 255, p.kind, red) == wanted
    ]
    if not matches:
        code, why = _why_no_match(pos, pieces, p, red)
        raise IllegalMoveError(text, pos.fen(), code, **why)
    if len(matches) > 1 and p.suffix is not None:
        defecting = [m for m in matches if _defects_as(pos, m) == p.suffix]
        if defecting:
            matches = defecting
    if len(matches) > 1:
        candidates = sorted(pos.decode(m).iccs() for m in matches)
        raise AmbiguousMoveError(text, pos.fen(), candidates)
    m = matches[0]
    if p.suffix is not None:
        defected = _defects_as(pos, m)
        iccs = pos.decode(m).iccs()
        if defected is None:
            raise IllegalMoveError(
                text,
                pos.fen(),
                "notation.no_defection_made",
                move=iccs,
                defected=ENGLISH_NAME[p.suffix],
                name=RED_NAMES[p.suffix],
            )
        if defected != p.suffix:
            raise IllegalMoveError(
                text,
                pos.fen(),
                "notation.wrong_defection",
                move=iccs,
                defected=ENGLISH_NAME[defected],
                piece=ENGLISH_NAME[p.suffix],
            )
    return pos.decode(m)


def _defects_as(pos: Position, m: int) -> int | None:
    """The type of the piece that defects on the legal move ``m``, if any."""
    changes, effect = pos.effects(m)
    return changes[0][2] & 15 if effect == "defection" else None


def _order_text(order: str | int) -> str:
    return order if isinstance(order, str) else number_text(order, True)


def _why_no_match(
    pos: Position, pieces: list[int], p: _Parsed, red: bool
) -> tuple[str, dict[str, object]]:
    """Why no legal move fits the text: an error code and its params (about the one
    move the text describes, ``move`` in ICCS, when there is one)."""
    targets = [(fr, to) for fr in pieces if (to := _geometric_target(pos, fr, p, red)) is not None]
    if len(targets) == 1:
        fr, to = targets[0]
        m = fr << 8 | to
        code, params = pos.illegal_reason(m)
        return code, {**params, "move": pos.decode(m).iccs()}
    where = ", ".join(sorted(pos.square_name(sq) for sq in pieces))
    tail = p.direction + number_text(p.number, red)
    return "notation.no_match", {"piece": ENGLISH_NAME[p.kind], "squares": where, "tail": tail}
