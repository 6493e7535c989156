"""Board state, FEN, legal move generation and make/unmake.

Board values are small ints: the piece type in the low four bits (see
``engine.variants``), ``TURNCOAT`` for xinban's turncoat pieces and ``BLACK``
for Black's pieces; 0 is an empty point. A point is the int
``rank * width + file``. Inside the engine a move is the int (its *code*)
``from_point << 8 | to_point``; the public API wraps it in ``Move``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final, cast

from engine.errors import EngineError, IllegalMoveError, InvalidMoveError
from engine.fen import LETTERS, parse_fen, write_fen
from engine.geometry import Geometry, geometry
from engine.move import FILES, Move
from engine.notation import chinese as chinese_notation
from engine.variants import (
    BLACK,
    CANNON,
    CHARIOT,
    ENGLISH_NAME,
    FIGHTER,
    HORSE,
    KING,
    LETTER_OF_TYPE,
    MISSILE,
    PIECE_MASK,
    SOLDIER,
    TURNCOAT,
    Variant,
    find_variant,
)

if TYPE_CHECKING:
    from engine.rules import Outcome

COLOUR_NAME = ("red", "black")
_MASK: Final = PIECE_MASK  # colour + type, turncoat bit ignored

_rng = random.Random(0x5EED_C0DE)
ZOBRIST: Final = [[_rng.getrandbits(64) for _ in range(128)] for _ in range(64)]
ZOBRIST_BLACK: Final = _rng.getrandbits(64)
# its halves, XORed into a move's key change while that is still two native ints
_ZOBRIST_BLACK_LOW: Final = ZOBRIST_BLACK & 0xFFFFFFFF
_ZOBRIST_BLACK_HIGH: Final = ZOBRIST_BLACK >> 32

# A change of one point: (point, value before, value after)
Change = tuple[int, int, int]


@dataclass(frozen=True)
class MoveEffect:
    """What a move does besides moving: one of ``move``, ``capture``,
    ``collision`` (both pieces vanish), ``self_destruct`` (the moving missile
    vanishes, its target stays), ``cannon_takes_missile``, ``defection`` (the
    captured turncoat joins the captor on the captor's origin point)."""

    kind: str
    captured: str | None = None
    defected: str | None = None


def letter(value: int) -> str:
    """FEN letter(s) of a board value (``+R`` for a red turncoat chariot)."""
    text = LETTER_OF_TYPE[value & 15]
    if not value & BLACK:
        text = text.upper()
    return "+" + text if value & TURNCOAT else text


@cache
def _variant_tables(variant: Variant) -> tuple[tuple[frozenset[int], frozenset[int]], bool]:
    """Each side's missile base points, and whether the variant has fighters."""
    bases: list[set[int]] = [set(), set()]
    for f, r in variant.base_points:
        bases[0 if r < variant.height // 2 else 1].add(r * variant.width + f)
    return (frozenset(bases[0]), frozenset(bases[1])), FIGHTER in variant.piece_types


def _point(variant: Variant, name: object) -> int:
    """The int point of a name such as ``e0`` on the board of ``variant``."""
    if (
        not isinstance(name, str)
        or len(name) != 2
        or name[0] not in FILES[: variant.width]
        or not name[1].isdigit()
        or not name[1].isascii()
        or int(name[1]) >= variant.height
    ):
        raise EngineError("position.bad_square", {"variant": variant.name, "name": name})
    return int(name[1]) * variant.width + FILES.index(name[0])


def _side_bit(side: object) -> int:
    """0 for ``"red"``, ``BLACK`` for ``"black"``."""
    if side == "red":
        return 0
    if side == "black":
        return BLACK
    raise EngineError("position.bad_side", {"side": side})


# what a FEN writes for one piece: a letter, a turncoat's with its '+' before it
_PIECE_TEXT: Final = re.compile(r"\+?[A-Za-z]")

# What a move does, as ``effects`` and ``MoveEffect.kind`` name it; ``_effect``
# codes a kind as its index here (bits 12-14 of its answer).
_KIND_NAME: Final = (
    "move",
    "capture",
    "collision",
    "self_destruct",
    "cannon_takes_missile",
    "defection",
)
_CAPTURE: Final = _KIND_NAME.index("capture")
_COLLISION: Final = _KIND_NAME.index("collision")
_SELF_DESTRUCT: Final = _KIND_NAME.index("self_destruct")
_CANNON_TAKES_MISSILE: Final = _KIND_NAME.index("cannon_takes_missile")
_DEFECTION: Final = _KIND_NAME.index("defection")

# A position's undo record of one ply is one int: the move code (0 for a pass,
# bits 0-15), the values of its two points before it (6 bits each), its kind
# (3 bits), both generals' points + 1 (8 bits each) and the halfmove clock
# before it (the rest). These are where each field starts.
_REC_BEFORE_FR: Final = 16
_REC_BEFORE_TO: Final = _REC_BEFORE_FR + 6
_REC_KIND: Final = _REC_BEFORE_TO + 6
_REC_KING0: Final = _REC_KIND + 3
_REC_KING1: Final = _REC_KING0 + 8
_REC_HALFMOVE: Final = _REC_KING1 + 8


# ``ZOBRIST`` split in halves that the compiled code keeps as native ints:
# ``_ZOBRIST_LOW[value << 7 | point]`` is the low 32 bits of ``ZOBRIST[value][point]``,
# 0 for an empty point (value 0), which changes no hash
_ZOBRIST_LOW: Final = [
    key & 0xFFFFFFFF if value else 0 for value, row in enumerate(ZOBRIST) for key in row
]
_ZOBRIST_HIGH: Final = [
    key >> 32 if value else 0 for value, row in enumerate(ZOBRIST) for key in row
]

# every move code ``from << 8 | to`` of the largest board (11 x 10), one row per from-point:
# the generator appends these int objects to its list instead of making a new int
# for each move (the compiled code would box every move code afresh)
_CODE_ROWS: Final[tuple[tuple[object, ...], ...]] = tuple(
    tuple(fr << 8 | to for to in range(110)) for fr in range(110)
)

# ``Position.line_movers`` when no piece moves along the ray
_NO_MOVERS: Final = 255 | 255 << 8


class LegalMoves:
    """The legal moves of a position: iterable, supports ``in`` and ``len()``."""

    __slots__ = ("_pos", "_ints", "_set")

    def __init__(self, pos: Position, ints: list[int]) -> None:
        self._pos = pos
        self._ints = ints
        self._set: set[Move] | None = None

    def _moves(self) -> set[Move]:
        if self._set is None:
            to_move = self._pos.decode
            self._set = {to_move(m) for m in self._ints}
        return self._set

    def __iter__(self) -> Iterator[Move]:
        to_move = self._pos.decode
        return (to_move(m) for m in self._ints)

    def __len__(self) -> int:
        return len(self._ints)

    def __contains__(self, move: object) -> bool:
        return move in self._moves()

    def __bool__(self) -> bool:
        return bool(self._ints)

    def __repr__(self) -> str:
        return f"<LegalMoves {' '.join(sorted(m.iccs() for m in self))}>"


class Position:
    """A position of one variant, with the moves that led to it.

    The public surface has two layers. For callers (the apps, lessons, the
    command line): FEN in and out (``from_fen``, ``from_pieces``, ``fen``),
    points by name (``pieces``, ``piece_at``, ``king``, ``checkers``,
    ``checked_general``), ``Move`` objects (``legal_moves``, ``push``, ``pop``,
    ``move_effect``) and the outcome. For the engine's own hot loops (perft,
    the prover, the playing engine), the same operations on int points and
    move codes, without building ``Move`` objects: ``legal_codes``,
    ``pseudo_codes``, ``is_legal_code``, ``push_code``, ``pop_code``,
    ``effects``, ``attacked``, ``attackers``, ``lines_and_legs``, ``encode``
    and ``decode``.

    The data attributes are public for speed and read-only by contract:
    ``board`` (point -> value), ``occupied`` (each side's points), ``kings``
    (each side's general's point), ``side`` (0 or ``BLACK``), ``hash``,
    ``halfmove``, ``fullmove``, and the variant's table unpacked for the move
    generator (``has_fighters``, ``untouchable``, ``colliding``,
    ``dead_types``). Only ``Position``'s own methods change them (a search
    may write ``board`` between ``effects`` and putting the points back, as
    ``legal_codes`` does). Everything starting with ``_`` is private to this
    module.
    """

    def __init__(
        self,
        variant: Variant,
        board: list[int],
        red_to_move: bool,
        placed: list[tuple[int, int]] | None = None,
    ) -> None:
        self.variant = variant
        width = variant.width
        self.g: Geometry = geometry(width)
        self.width = width
        self.height = variant.height
        self.board = board
        self.side = 0 if red_to_move else BLACK
        self.halfmove = 0
        self.fullmove = 1
        self.kings = [-1, -1]
        red: set[int] = set()
        black: set[int] = set()
        self.occupied: tuple[set[int], set[int]] = (red, black)
        low = high = 0
        if placed is None:
            placed = [(sq, v) for sq, v in enumerate(board) if v]
        for sq, v in placed:
            if v & BLACK:
                black.add(sq)
            else:
                red.add(sq)
            low ^= _ZOBRIST_LOW[v << 7 | sq]
            high ^= _ZOBRIST_HIGH[v << 7 | sq]
            if v & 15 == KING:
                self.kings[v >> 5 & 1] = sq
        h = high << 32 | low
        self.hash = h if red_to_move else h ^ ZOBRIST_BLACK
        # per ply: the undo record (see ``_REC_BEFORE_FR``) and the hash before it
        self._stack: list[int] = []
        self._hashes: list[int] = []
        self._legal: list[int] | None = None
        # is_check() of this position: -1 not asked yet, else 0 or 1
        self._check = -1
        self._dead_general = False
        # the variant table, unpacked once for the move generator
        self._bases, has_fighters = _variant_tables(variant)
        self.has_fighters: Final = has_fighters
        # piece types the general may never move onto, that collide, that give a dead general
        self.untouchable: Final = variant.untouchable_by_general
        self.colliding: Final = variant.colliding_types
        self.dead_types: Final = variant.dead_general_types

    # ------------------------------------------------------------------
    # construction and FEN

    @classmethod
    def start(cls, variant: str | Variant = "xiangqi", setup: str | None = None) -> Position:
        v = find_variant(variant)
        return cls.from_fen(v, v.start_fen(setup))

    @classmethod
    def from_fen(cls, variant: str | Variant, fen: object) -> Position:
        # ``fen`` is typed ``object``: it is checked here (InvalidFenError), and a
        # compiled module would reject a non-string argument with a TypeError first
        return parse_fen(cls, find_variant(variant), fen)

    @classmethod
    def from_pieces(
        cls,
        variant: str | Variant,
        pieces: Mapping[str, str],
        turn: object = "red",
        halfmove: int = 0,
        fullmove: int = 1,
    ) -> Position:
        """The position with ``pieces`` (point name -> FEN letter(s), as
        ``pieces()`` gives them: ``K``, ``+r``) and ``turn`` to move, without
        moves played. It is checked as a FEN is (``InvalidFenError``); a
        point or piece that is no such thing raises ``position.bad_square``
        or ``position.bad_piece``."""
        v = find_variant(variant)
        black = _side_bit(turn)
        grid: dict[int, str] = {}
        # read as objects: a compiled loop would reject a value that is not a string with a
        # TypeError before the check below could name it
        entries: Iterable[tuple[object, object]] = pieces.items()
        for name, text in entries:
            sq = _point(v, name)
            if not isinstance(text, str) or not _PIECE_TEXT.fullmatch(text):
                raise EngineError(
                    "position.bad_piece", {"variant": v.name, "square": name, "text": text}
                )
            grid[sq] = text
        return parse_fen(cls, v, write_fen(v, grid, black == 0, halfmove, fullmove))

    def with_turn(self, side: object) -> Position:
        """A new position with the same pieces and move counters and ``side``
        (``"red"`` or ``"black"``) to move, without the moves that led here.
        It is not checked: the side not to move may stand in check (a lesson
        asks what attacks a general that way). A search's null move is
        ``push_pass``."""
        other = Position(self.variant, list(self.board), _side_bit(side) == 0)
        other.halfmove = self.halfmove
        other.fullmove = self.fullmove
        return other

    def fen(self) -> str:
        pieces = {sq: LETTERS[v] for sq, v in enumerate(self.board) if v}
        return write_fen(self.variant, pieces, self.side == 0, self.halfmove, self.fullmove)

    def board_fen(self) -> str:
        return self.fen().split(" ")[0]

    def copy(self) -> Position:
        """An independent copy, with the same move history."""
        # built through __init__ (no pieces placed) and filled in field by
        # field: a compiled Position has no __dict__ to copy
        other = Position(self.variant, list(self.board), self.side == 0, [])
        other.halfmove = self.halfmove
        other.fullmove = self.fullmove
        other.kings = list(self.kings)
        other.occupied = (set(self.occupied[0]), set(self.occupied[1]))
        other.hash = self.hash
        other._stack = list(self._stack)
        other._hashes = list(self._hashes)
        other._dead_general = self._dead_general
        return other

    def __repr__(self) -> str:
        return f"Position.from_fen({self.variant.name!r}, {self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.variant.name == other.variant.name
            and self.board == other.board
            and self.side == other.side
        )

    def __hash__(self) -> int:
        return self.hash

    # ------------------------------------------------------------------
    # points and pieces

    @property
    def turn(self) -> str:
        return COLOUR_NAME[self.side >> 5]

    def square(self, name: object) -> int:
        """The int point of a name such as ``e0``."""
        return _point(self.variant, name)

    def square_name(self, sq: int) -> str:
        return FILES[sq % self.width] + str(sq // self.width)

    def piece_at(self, point: str) -> str | None:
        v = self.board[self.square(point)]
        return letter(v) if v else None

    def pieces(self) -> dict[str, str]:
        """Every occupied point and its FEN letter(s)."""
        return {self.square_name(sq): letter(v) for sq, v in enumerate(self.board) if v}

    def king(self, side: object) -> str | None:
        """The point of the general of ``side`` (``"red"`` or ``"black"``),
        or ``None`` if it has none on the board."""
        bit = _side_bit(side)
        sq = self.kings[bit >> 5]
        if sq < 0 or self.board[sq] & _MASK != KING | bit:
            return None
        return self.square_name(sq)

    def checked_general(self) -> str | None:
        """The point of the side to move's general when it is in check
        (facing generals count), else ``None``."""
        sq = self.kings[self.side >> 5]
        if sq < 0 or not self.attacked(sq, self.side ^ BLACK):
            return None
        return self.square_name(sq)

    def decode(self, m: int) -> Move:
        """The ``Move`` of a move code."""
        w = self.width
        fr, to = m >> 8, m & 255
        return Move(fr % w, fr // w, to % w, to // w)

    def encode(self, move: Move) -> int:
        """The move code of a ``Move`` (``InvalidMoveError`` off the board);
        it need not be legal."""
        w = self.width
        h = self.height
        if not (
            0 <= move.from_file < w
            and 0 <= move.to_file < w
            and 0 <= move.from_rank < h
            and 0 <= move.to_rank < h
        ):
            raise InvalidMoveError(move.iccs(), "move.off_board", self.fen())
        return (move.from_rank * w + move.from_file) << 8 | (move.to_rank * w + move.to_file)

    # ------------------------------------------------------------------
    # attacks

    def attacked(self, sq: int, enemy: int) -> bool:
        """Could a piece of colour ``enemy`` (0 or BLACK) move onto ``sq``
        by its movement rules (the general along the file counts)?"""
        b = self.board
        g = self.g
        # the scan of ``line_movers``, written out: the hottest loop of the engine
        rook = CHARIOT | enemy
        missile = MISSILE | enemy
        king = KING | enemy
        for d, ray in enumerate(g.rays[sq]):
            screen = False
            for s in ray:
                q = b[s]
                if q:
                    q &= _MASK
                    if screen:
                        if q == CANNON | enemy:
                            return True
                        break
                    if q in (rook, missile) or q == king and d < 2:
                        return True
                    screen = True
        horse = HORSE | enemy
        for h, leg in g.horse_attackers[sq]:
            if b[h] & _MASK == horse and not b[leg]:
                return True
        soldier = SOLDIER | enemy
        # a fixed index: indexing the pair with a variable would box it
        soldiers = g.soldier_attackers[1] if enemy else g.soldier_attackers[0]
        for s in soldiers[sq]:
            if b[s] & _MASK == soldier:
                return True
        if self.has_fighters:
            fighter = FIGHTER | enemy
            for f, l1, l2 in g.fighter_attackers[sq]:
                if b[f] & _MASK == fighter and not (b[l1] and b[l2]):
                    return True
        return False

    def line_movers(
        self, ray: tuple[int, ...], by: int, general: bool = False, quiet: bool = False
    ) -> int:
        """The pieces of colour ``by`` that could move along ``ray`` (one of
        ``Geometry.rays``) onto the point it starts from: the first piece on
        it if it is a chariot or a missile (also a general, with ``general``;
        also a cannon, with ``quiet``: a move onto an empty point), and the
        second if it is a cannon and not ``quiet`` (a cannon takes over a
        screen). As ``first | second << 8``, each 255 when there is none."""
        b = self.board
        first = 255
        screen = False
        for s in ray:
            q = b[s]
            if q:
                q &= _MASK
                if screen:
                    return first | (s if q == CANNON | by else 255) << 8
                if (
                    q == CHARIOT | by
                    or q == MISSILE | by
                    or (general and q == KING | by)
                    or (quiet and q == CANNON | by)
                ):
                    first = s
                if quiet:
                    break
                screen = True
        return first | 255 << 8

    def _attacked_through(self, sq: int, enemy: int, fr: int, to: int) -> bool:
        """Like ``attacked``, but only for attacks that pass through or
        start from ``fr`` or ``to`` (enough after a move that changed just
        those points and left the general where it was)."""
        b = self.board
        g = self.g
        ray_index = g.ray_index
        at = sq * g.size
        rays = g.rays[sq]
        seen = -1
        for k in range(2):
            d = ray_index[at + (fr if k == 0 else to)]
            if d < 0 or d == seen:
                continue
            seen = d
            if self.line_movers(rays[d], enemy, d < 2) != _NO_MOVERS:
                return True
        horse = HORSE | enemy
        for h, leg in g.horse_attackers[sq]:
            if leg in (fr, to) and b[h] & _MASK == horse and not b[leg]:
                return True
        if self.has_fighters:
            fighter = FIGHTER | enemy
            for f, l1, l2 in g.fighter_attackers[sq]:
                if (
                    (l1 in (fr, to) or l2 in (fr, to))
                    and b[f] & _MASK == fighter
                    and not (b[l1] and b[l2])
                ):
                    return True
        return False

    def attackers(self, sq: int, enemy: int) -> list[int]:
        """Every point of colour ``enemy`` (0 or BLACK) that attacks ``sq``."""
        b = self.board
        g = self.g
        found = []
        for d, ray in enumerate(g.rays[sq]):
            movers = self.line_movers(ray, enemy, d < 2)
            if movers & 255 != 255:
                found.append(movers & 255)
            if movers >> 8 != 255:
                found.append(movers >> 8)
        for h, leg in g.horse_attackers[sq]:
            if b[h] & _MASK == HORSE | enemy and not b[leg]:
                found.append(h)
        soldiers = g.soldier_attackers[1] if enemy else g.soldier_attackers[0]
        for s in soldiers[sq]:
            if b[s] & _MASK == SOLDIER | enemy:
                found.append(s)
        if self.has_fighters:
            for f, l1, l2 in g.fighter_attackers[sq]:
                if b[f] & _MASK == FIGHTER | enemy and not (b[l1] and b[l2]):
                    found.append(f)
        return found

    def is_check(self) -> bool:
        """Is the side to move in check (facing generals count)? Computed
        once per position."""
        if self._check < 0:
            ci = self.side >> 5
            self._check = 1 if self.attacked(self.kings[ci], self.side ^ BLACK) else 0
        return self._check == 1

    def checkers(self) -> list[str]:
        """The points of the pieces giving check to the side to move."""
        ci = self.side >> 5
        return [self.square_name(s) for s in self.attackers(self.kings[ci], self.side ^ BLACK)]

    # ------------------------------------------------------------------
    # move generation

    def pseudo_codes(self) -> list[int]:
        """The move codes of every move of the side to move by the movement
        rules alone (legal or not)."""
        return self._generate(False)

    def capture_codes(self) -> list[int]:
        """The moves of ``pseudo_codes`` that land on an enemy piece (captures,
        collisions, self-destructs, defections), in the same order."""
        return self._generate(True)

    def _generate(self, captures: bool) -> list[int]:
        b = self.board
        own = self.side
        ci = own >> 5
        moves: list[object] = []  # ints from ``_CODE_ROWS``
        rays = self.g.rays
        leaps = self.g.leaps
        at = ci * self.g.size
        rows = 2 * self.g.size
        for fr in self._pieces_of(own):
            t = b[fr] & 15
            codes = _CODE_ROWS[fr]
            if t in (CHARIOT, MISSILE):
                for ray in rays[fr]:
                    for s in ray:
                        q = b[s]
                        if not q:
                            if not captures:
                                moves.append(codes[s])
                        else:
                            if q & BLACK != own:
                                moves.append(codes[s])
                            break
            elif t == CANNON:
                for ray in rays[fr]:
                    screen = False
                    for s in ray:
                        q = b[s]
                        if screen:
                            if q:
                                if q & BLACK != own:
                                    moves.append(codes[s])
                                break
                        elif q:
                            screen = True
                        elif not captures:
                            moves.append(codes[s])
            else:
                # a step move: the flat table ``Geometry.leaps``
                row = t * rows + at + fr
                end = leaps[row + 1]
                i = leaps[row]
                while i < end:
                    to = leaps[i]
                    l1 = leaps[i + 1]
                    i += 3
                    if l1 >= 0 and b[l1] and b[leaps[i - 1]]:
                        continue
                    q = b[to]
                    if not q:
                        if not captures:
                            moves.append(codes[to])
                    elif q & BLACK != own and (t != KING or q & 15 not in self.untouchable):
                        moves.append(codes[to])
        return cast("list[int]", moves)

    def effects(self, m: int) -> tuple[list[Change], str]:
        """The point changes (point, value before, value after) a pseudo-legal
        move code makes, and its kind (``MoveEffect.kind``)."""
        e = self._effect(m)
        b = self.board
        fr, to = m >> 8, m & 255
        kind = e >> 12
        changes = [(fr, b[fr], e & 63)]
        if kind != _SELF_DESTRUCT:
            changes.append((to, b[to], e >> 6 & 63))
        return changes, _KIND_NAME[kind]

    def _effect(self, m: int) -> int:
        """What the pseudo-legal move code ``m`` does, as one int: the value
        its from-point holds after it (bits 0-5), its to-point's (6-11) and
        its kind (its index in ``_KIND_NAME``, from bit 12). A move changes no other point; a
        self-destruct leaves the to-point as it is."""
        b = self.board
        fr, to = m >> 8, m & 255
        p = b[fr]
        cap = b[to]
        if not cap:
            return p << 6
        v = self.variant
        t = p & 15
        ct = cap & 15
        colliding = self.colliding
        if colliding and (ct in colliding or t in colliding):
            if t not in colliding and t in v.collision_survivors:
                return p << 6 | _CANNON_TAKES_MISSILE << 12
            if (
                v.base_self_destruct
                and t in colliding
                and ct in colliding
                and fr in self._bases[p >> 5 & 1]
                and to in self._bases[cap >> 5 & 1]
            ):
                return cap << 6 | _SELF_DESTRUCT << 12
            return _COLLISION << 12
        if cap & TURNCOAT and t in v.defection.get(ct, ()):
            own = p & BLACK
            defected = ct | own
            if v.defection_requires_check and not self._gives_check_after(fr, defected, to, p, own):
                return p << 6 | _CAPTURE << 12
            if self._safe_after(fr, defected, to, p, own):
                return defected | p << 6 | _DEFECTION << 12
        return p << 6 | _CAPTURE << 12

    def _safe_after(self, fr: int, after_fr: int, to: int, after_to: int, own: int) -> bool:
        """Is the mover's general out of check once ``fr`` holds ``after_fr``
        and ``to`` holds ``after_to``?"""
        b = self.board
        before_fr = b[fr]
        before_to = b[to]
        king = KING | own
        ksq = self.kings[own >> 5]
        if after_fr & _MASK == king and before_fr & _MASK != king:
            ksq = fr
        elif after_to & _MASK == king and before_to & _MASK != king:
            ksq = to
        b[fr] = after_fr
        b[to] = after_to
        safe = not self.attacked(ksq, own ^ BLACK)
        b[fr] = before_fr
        b[to] = before_to
        return safe

    def _gives_check_after(self, fr: int, after_fr: int, to: int, after_to: int, own: int) -> bool:
        """Does the piece on ``fr`` check the enemy general once ``fr`` holds
        ``after_fr`` and ``to`` holds ``after_to``?"""
        b = self.board
        before_fr = b[fr]
        before_to = b[to]
        b[fr] = after_fr
        b[to] = after_to
        hit = fr in self.attackers(self.kings[(own >> 5) ^ 1], own)
        b[fr] = before_fr
        b[to] = before_to
        return hit

    def _check_points(self, ksq: int, checkers: list[int]) -> set[int]:
        """The checkers' points and every point their checks pass through
        (the line to the general, a horse's leg, a fighter's legs)."""
        g = self.g
        w = self.width
        points = set(checkers)
        for c in checkers:
            if c // w == ksq // w or c % w == ksq % w:
                if c // w == ksq // w:
                    step = 1 if c > ksq else -1
                else:
                    step = w if c > ksq else -w
                points.update(range(ksq + step, c, step))
            for h, leg in g.horse_attackers[ksq]:
                if h == c:
                    points.add(leg)
            if self.has_fighters:
                for f, l1, l2 in g.fighter_attackers[ksq]:
                    if f == c:
                        points.add(l1)
                        points.add(l2)
        return points

    def lines_and_legs(
        self, sq: int, by: int, general: bool = False
    ) -> tuple[list[int], list[int], set[int]]:
        """How the pieces of colour ``by`` (0 or BLACK) bear on ``sq``, the
        scan behind pins and discovered checks: for each of the four rays of
        ``sq`` (``Geometry.rays``) the index of the farthest chariot, missile
        or cannon of ``by`` on it (and of ``by``'s general on the file, with
        ``general``), -1 when there is none; the same for cannons alone; and
        the legs of every horse and fighter of ``by`` that stands where it
        attacks ``sq`` from, whatever stands on its legs now."""
        line, cannons, legs = self._lines_and_leg_list(sq, by, general)
        return line, cannons, set(legs)

    def _lines_and_leg_list(
        self, sq: int, by: int, general: bool
    ) -> tuple[list[int], list[int], list[int]]:
        """``lines_and_legs`` with the legs as a list (a point may repeat)."""
        b = self.board
        g = self.g
        line = [-1, -1, -1, -1]
        cannons = [-1, -1, -1, -1]
        for d, ray in enumerate(g.rays[sq]):
            for i, s in enumerate(ray):
                q = b[s]
                if q and q & BLACK == by:
                    t = q & 15
                    if t in (CHARIOT, MISSILE, CANNON):
                        line[d] = i
                        if t == CANNON:
                            cannons[d] = i
                    elif t == KING and general and d < 2:
                        line[d] = i
        legs: list[int] = []
        horse = HORSE | by
        for h, leg in g.horse_attackers[sq]:
            if b[h] & _MASK == horse:
                legs.append(leg)
        if self.has_fighters:
            fighter = FIGHTER | by
            for f, l1, l2 in g.fighter_attackers[sq]:
                if b[f] & _MASK == fighter:
                    legs.append(l1)
                    legs.append(l2)
        return line, cannons, legs

    def attacked_after(self, m: int, sq: int, by: int) -> bool:
        """Would ``sq`` be attacked by colour ``by`` (as ``attacked``) once
        the pseudo-legal move code ``m`` is made? The board is left as it was."""
        e = self._effect(m)
        b = self.board
        fr, to = m >> 8, m & 255
        before_fr = b[fr]
        before_to = b[to]
        b[fr] = e & 63
        b[to] = e >> 6 & 63
        hit = self.attacked(sq, by)
        b[fr] = before_fr
        b[to] = before_to
        return hit

    def is_legal_code(self, m: int) -> bool:
        """Is the pseudo-legal move code ``m`` legal (the mover's general
        safe after it)? ``legal_codes`` answers for any code."""
        e = self._effect(m)
        return self._safe_after(m >> 8, e & 63, m & 255, e >> 6 & 63, self.side)

    def legal_codes(self) -> list[int]:
        """The move codes of the legal moves, computed once per position; the
        list must not be changed."""
        if self._legal is not None:
            return self._legal
        own = self.side
        ci = own >> 5
        enemy = own ^ BLACK
        ksq = self.kings[ci]
        b = self.board
        moves = self.pseudo_codes()
        self._dead_general = False
        checkers = self.attackers(ksq, enemy)
        if checkers:
            # Only a general move, or a move onto or off a point that one of
            # the checks runs through, can answer a check.
            relevant = self._check_points(ksq, checkers)
            legal = [
                m
                for m in moves
                if (m >> 8 == ksq or m >> 8 in relevant or m & 255 in relevant)
                and self.is_legal_code(m)
            ]
            if self.dead_types:
                palace = self.g.palace[ci]
                if any(c in palace and b[c] & 15 in self.dead_types for c in checkers) and not any(
                    m >> 8 == ksq for m in legal
                ):
                    self._dead_general = True
                    legal = []
            self._legal = legal
            return legal
        # Not in check: only a move touching a line or leg that leads to the
        # general can expose it; everything else is legal as generated. The
        # illegal ones are taken out of the generated list afterwards (the
        # list's ints are not copied).
        line, _, legs = self._lines_and_leg_list(ksq, enemy, True)
        g = self.g
        ray_index = g.ray_index
        at = ksq * g.size
        illegal: list[int] = []
        for i in range(len(moves)):
            m = moves[i]
            fr = m >> 8
            to = m & 255
            if fr == ksq:
                if not self.is_legal_code(m):
                    illegal.append(i)
                continue
            d = ray_index[at + fr]
            e = ray_index[at + to]
            if (
                (d >= 0 and line[d] >= 0)
                or (e >= 0 and line[e] >= 0)
                or (legs and (fr in legs or to in legs))
            ):
                # the general stays put: only lines and legs through the two
                # changed points can open
                effect = self._effect(m)
                before_fr = b[fr]
                before_to = b[to]
                b[fr] = effect & 63
                b[to] = effect >> 6 & 63
                exposed = self._attacked_through(ksq, enemy, fr, to)
                b[fr] = before_fr
                b[to] = before_to
                if exposed:
                    illegal.append(i)
        for i in reversed(illegal):
            del moves[i]
        self._legal = moves
        return moves

    def cached_legal(self) -> list[int] | None:
        """``legal_codes()`` if it has already been computed for this
        position, else ``None`` (nothing is computed)."""
        return self._legal

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self, self.legal_codes())

    def is_legal(self, move: Move) -> bool:
        try:
            m = self.encode(move)
        except InvalidMoveError:
            return False
        return m in self.legal_codes()

    # ------------------------------------------------------------------
    # make / unmake

    def push_code(self, m: int) -> None:
        """Play the move code ``m``, which must be legal (not checked)."""
        e = self._effect(m)
        b = self.board
        fr = m >> 8
        to = m & 255
        before_fr = b[fr]
        before_to = b[to]
        kind = e >> 12
        self._push_record(
            m | before_fr << _REC_BEFORE_FR | before_to << _REC_BEFORE_TO | kind << _REC_KIND
        )
        after = e & 63
        self._place(fr, before_fr, after)
        low = _ZOBRIST_LOW[before_fr << 7 | fr] ^ _ZOBRIST_LOW[after << 7 | fr]
        high = _ZOBRIST_HIGH[before_fr << 7 | fr] ^ _ZOBRIST_HIGH[after << 7 | fr]
        if kind != _SELF_DESTRUCT:
            after = e >> 6 & 63
            self._place(to, before_to, after)
            low ^= _ZOBRIST_LOW[before_to << 7 | to] ^ _ZOBRIST_LOW[after << 7 | to]
            high ^= _ZOBRIST_HIGH[before_to << 7 | to] ^ _ZOBRIST_HIGH[after << 7 | to]
        self.halfmove = 0 if before_to else self.halfmove + 1
        if self.side:
            self.fullmove += 1
        self.side ^= BLACK
        # one 64-bit XOR (the halves above are native ints; 64-bit ones are not)
        low ^= _ZOBRIST_BLACK_LOW
        high ^= _ZOBRIST_BLACK_HIGH
        self.hash ^= high << 32 | low
        self._legal = None
        self._check = -1

    def hash_after(self, m: int) -> int:
        """The hash of the position after the pseudo-legal move code ``m``, as
        ``push_code`` makes it, without playing the move."""
        e = self._effect(m)
        b = self.board
        fr = m >> 8
        to = m & 255
        before = b[fr]
        after = e & 63
        low = _ZOBRIST_LOW[before << 7 | fr] ^ _ZOBRIST_LOW[after << 7 | fr] ^ _ZOBRIST_BLACK_LOW
        high = (
            _ZOBRIST_HIGH[before << 7 | fr] ^ _ZOBRIST_HIGH[after << 7 | fr] ^ _ZOBRIST_BLACK_HIGH
        )
        if e >> 12 != _SELF_DESTRUCT:
            before = b[to]
            after = e >> 6 & 63
            low ^= _ZOBRIST_LOW[before << 7 | to] ^ _ZOBRIST_LOW[after << 7 | to]
            high ^= _ZOBRIST_HIGH[before << 7 | to] ^ _ZOBRIST_HIGH[after << 7 | to]
        return self.hash ^ (high << 32 | low)

    def _push_record(self, move: int) -> None:
        """Push the undo record of a ply (``move``: its code and what it
        changes, packed as ``_REC_BEFORE_FR`` tells) and the hash before it."""
        kings = self.kings
        self._stack.append(
            move
            | (kings[0] + 1) << _REC_KING0
            | (kings[1] + 1) << _REC_KING1
            | self.halfmove << _REC_HALFMOVE
        )
        self._hashes.append(self.hash)

    def _pieces_of(self, value: int) -> set[int]:
        """The points of the side of the piece (or colour bit) ``value``."""
        occ = self.occupied
        return occ[1] if value & BLACK else occ[0]

    def _place(self, sq: int, before: int, after: int) -> None:
        """Put ``after`` on ``sq``, which holds ``before``."""
        if before:
            self._pieces_of(before).discard(sq)
        if after:
            self._pieces_of(after).add(sq)
            if after & 15 == KING:
                self.kings[after >> 5 & 1] = sq
        self.board[sq] = after

    def _unplace(self, sq: int, before: int) -> None:
        """Put back ``before`` on ``sq``."""
        after = self.board[sq]
        if after:
            self._pieces_of(after).discard(sq)
        if before:
            self._pieces_of(before).add(sq)
        self.board[sq] = before

    def pop_code(self) -> int:
        """Take back the last move (or pass) and return its code (0 for a
        pass); there must be one."""
        r = self._stack.pop()
        self.hash = self._hashes.pop()
        m = r & 0xFFFF
        if m:
            self._unplace(m >> 8, r >> _REC_BEFORE_FR & 63)
            if r >> _REC_KIND & 7 != _SELF_DESTRUCT:
                self._unplace(m & 255, r >> _REC_BEFORE_TO & 63)
        self.kings[0] = (r >> _REC_KING0 & 255) - 1
        self.kings[1] = (r >> _REC_KING1 & 255) - 1
        self.side ^= BLACK
        if self.side:
            self.fullmove -= 1
        self.halfmove = r >> _REC_HALFMOVE
        self._legal = None
        self._check = -1
        return m

    def push(self, move: Move) -> None:
        """Play a legal move (raises ``IllegalMoveError`` otherwise)."""
        m = self.encode(move)
        if m not in self.legal_codes():
            code, params = self.illegal_reason(m)
            raise IllegalMoveError(move.iccs(), self.fen(), code, **params)
        self.push_code(m)

    def pop(self) -> Move:
        """Take back the last move."""
        if not self._stack:
            raise IndexError("pop from a position with no moves played")
        return self.decode(self.pop_code())

    def push_pass(self) -> None:
        """Hand the move to the other side without moving: a search's null
        move, never a move of the game. ``pop`` takes it back (it returns
        ``Move(0, 0, 0, 0)`` then). The halfmove clock restarts, so no
        repetition is counted across a pass."""
        self._push_record(0)
        self.halfmove = 0
        if self.side:
            self.fullmove += 1
        self.side ^= BLACK
        self.hash ^= ZOBRIST_BLACK
        self._legal = None
        self._check = -1

    def push_iccs(self, text: str) -> Move:
        move = Move.from_iccs(text)
        self.push(move)
        return move

    def parse_move(self, text: object) -> Move:
        """Read a move in ICCS (``h2e2``) or Chinese notation (``炮二平五``)."""
        if not isinstance(text, str):
            raise InvalidMoveError(text, "move.not_string", self.fen())
        s = text.strip()
        if s and s.isascii() and len(s.replace("-", "")) == 4 and s[0].isalpha():
            move = Move.from_iccs(s)
            if not self.is_legal(move):
                code, params = self.illegal_reason(self.encode(move))
                raise IllegalMoveError(text, self.fen(), code, **params)
            return move
        from engine.notation import parse_chinese

        return parse_chinese(self, s)

    def chinese(self, move: Move) -> str:
        """The move in Chinese notation (炮二平五); the move must be legal."""
        return chinese_notation(self, move)

    def move_effect(self, move: Move) -> MoveEffect:
        """What a legal move does: capture, collision, defection…"""
        m = self.encode(move)
        if m not in self.legal_codes():
            code, params = self.illegal_reason(m)
            raise IllegalMoveError(move.iccs(), self.fen(), code, **params)
        changes, kind = self.effects(m)
        cap = self.board[m & 255]
        captured = letter(cap) if cap else None
        defected = None
        if kind == "defection":
            defected = letter(changes[0][2])
        return MoveEffect(kind, captured, defected)

    @property
    def move_stack(self) -> list[Move]:
        return [self.decode(record & 0xFFFF) for record in self._stack]

    def ply_count(self) -> int:
        return len(self._stack)

    def last_code(self) -> int:
        """The code of the last move played (0 after a pass or before any move)."""
        return self._stack[-1] & 0xFFFF if self._stack else 0

    def last_changes(self) -> list[Change]:
        """The point changes (point, before, after) of the last move played
        (empty after a pass or before any move), as ``effects`` gave them."""
        if not self._stack:
            return []
        r = self._stack[-1]
        m = r & 0xFFFF
        if not m:
            return []
        b = self.board
        fr, to = m >> 8, m & 255
        changes = [(fr, r >> _REC_BEFORE_FR & 63, b[fr])]
        if r >> _REC_KIND & 7 != _SELF_DESTRUCT:
            changes.append((to, r >> _REC_BEFORE_TO & 63, b[to]))
        return changes

    def hash_history(self) -> list[int]:
        """The hash of every position of the game, from the first to the
        current one (the last)."""
        return [*self._hashes, self.hash]

    def illegal_reason(self, m: int) -> tuple[str, dict[str, object]]:
        """Why the move code ``m`` is not legal: an error code and its params."""
        fr, to = m >> 8, m & 255
        if fr >= len(self.board) or to >= len(self.board):
            return "move.off_board", {}
        p = self.board[fr]
        name_fr = self.square_name(fr)
        if not p:
            return "move.no_piece", {"square": name_fr}
        if p & BLACK != self.side:
            return "move.not_your_piece", {"square": name_fr}
        if m not in self.pseudo_codes():
            cap = self.board[to]
            if p & 15 == KING and cap and cap & 15 in self.untouchable:
                return "move.general_onto_missile", {}
            return "move.cannot_reach", {
                "piece": ENGLISH_NAME[p & 15],
                "colour": COLOUR_NAME[p >> 5 & 1],
                "turncoat": 1 if p & TURNCOAT else 0,
                "square": name_fr,
                "target": self.square_name(to),
            }
        if self._dead_general:
            return "move.dead_general", {}
        return "move.leaves_check", {}

    # ------------------------------------------------------------------
    # outcome

    def is_dead_general(self) -> bool:
        self.legal_codes()
        return self._dead_general

    def status(self) -> str:
        """checkmate | stalemate | dead_general | ongoing, for the side to move."""
        if self.legal_codes():
            return "ongoing"
        if self._dead_general:
            return "dead_general"
        return "checkmate" if self.is_check() else "stalemate"

    def outcome(self) -> Outcome | None:
        """How the game has ended, or ``None`` while it goes on."""
        from engine.rules import outcome

        return outcome(self)
