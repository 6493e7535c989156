"""Board state, FEN, legal move generation and make/unmake.

Board values are small ints: the piece type in the low four bits (see
``engine.variants``), ``TURNCOAT`` for xinban's turncoat pieces and ``BLACK``
for Black's pieces; 0 is an empty point. Internally a move is the int
``from_point << 8 | to_point``; the public API wraps it in ``Move``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final

from engine.errors import EngineError, IllegalMoveError, InvalidMoveError
from engine.fen import LETTERS, parse_fen, write_fen
from engine.geometry import Geometry, geometry
from engine.move import FILES, Move
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
        bases[0 if r < 5 else 1].add(r * variant.width + f)
    return (frozenset(bases[0]), frozenset(bases[1])), FIGHTER in variant.piece_types


class LegalMoves:
    """The legal moves of a position: iterable, supports ``in`` and ``len()``."""

    __slots__ = ("_pos", "_ints", "_set")

    def __init__(self, pos: Position, ints: list[int]) -> None:
        self._pos = pos
        self._ints = ints
        self._set: set[Move] | None = None

    def _moves(self) -> set[Move]:
        if self._set is None:
            to_move = self._pos._to_move
            self._set = {to_move(m) for m in self._ints}
        return self._set

    def __iter__(self) -> Iterator[Move]:
        to_move = self._pos._to_move
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
    """A position of one variant, with the moves that led to it."""

    def __init__(
        self,
        variant: Variant,
        board: list[int],
        red_to_move: bool,
        placed: list[tuple[int, int]] | None = None,
    ) -> None:
        self.variant = variant
        self.g: Geometry = geometry(variant.width)
        self.width = variant.width
        self.board = board
        self.side = 0 if red_to_move else BLACK
        self.halfmove = 0
        self.fullmove = 1
        self.kings = [-1, -1]
        red: set[int] = set()
        black: set[int] = set()
        self.occupied: tuple[set[int], set[int]] = (red, black)
        h = 0 if red_to_move else ZOBRIST_BLACK
        if placed is None:
            placed = [(sq, v) for sq, v in enumerate(board) if v]
        for sq, v in placed:
            if v & BLACK:
                black.add(sq)
            else:
                red.add(sq)
            h ^= ZOBRIST[v][sq]
            if v & 15 == KING:
                self.kings[v >> 5 & 1] = sq
        self.hash = h
        # per-ply undo records: (move, changes, halfmove, hash, kings)
        self._stack: list[tuple[int, list[Change], int, int, tuple[int, int]]] = []
        self._legal: list[int] | None = None
        self._dead_general = False
        # the variant table, unpacked once for the move generator
        self._bases, self._has_fighters = _variant_tables(variant)
        self._untouchable = variant.untouchable_by_general
        self._colliding = variant.colliding_types
        self._dead_types = variant.dead_general_types

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
        if (
            not isinstance(name, str)
            or len(name) != 2
            or name[0] not in FILES[: self.width]
            or not name[1].isdigit()
            or not name[1].isascii()
        ):
            raise EngineError("position.bad_square", {"variant": self.variant.name, "name": name})
        return int(name[1]) * self.width + FILES.index(name[0])

    def square_name(self, sq: int) -> str:
        return FILES[sq % self.width] + str(sq // self.width)

    def piece_at(self, point: str) -> str | None:
        v = self.board[self.square(point)]
        return letter(v) if v else None

    def pieces(self) -> dict[str, str]:
        """Every occupied point and its FEN letter(s)."""
        return {self.square_name(sq): letter(v) for sq, v in enumerate(self.board) if v}

    def _to_move(self, m: int) -> Move:
        w = self.width
        fr, to = m >> 8, m & 255
        return Move(fr % w, fr // w, to % w, to // w)

    def _from_move(self, move: Move) -> int:
        w = self.width
        if not (
            0 <= move.from_file < w
            and 0 <= move.to_file < w
            and 0 <= move.from_rank < 10
            and 0 <= move.to_rank < 10
        ):
            raise InvalidMoveError(move.iccs(), "move.off_board", self.fen())
        return (move.from_rank * w + move.from_file) << 8 | (move.to_rank * w + move.to_file)

    # ------------------------------------------------------------------
    # attacks

    def _attacked(self, sq: int, enemy: int) -> bool:
        """Could a piece of colour ``enemy`` (0 or BLACK) move onto ``sq``?"""
        b = self.board
        g = self.g
        rook = CHARIOT | enemy
        missile = MISSILE | enemy
        cannon = CANNON | enemy
        king = KING | enemy
        for d, ray in enumerate(g.rays[sq]):
            screen = False
            for s in ray:
                q = b[s]
                if q:
                    q &= _MASK
                    if screen:
                        if q == cannon:
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
        for s in g.soldier_attackers[enemy >> 5][sq]:
            if b[s] & _MASK == soldier:
                return True
        if self._has_fighters:
            fighter = FIGHTER | enemy
            for f, l1, l2 in g.fighter_attackers[sq]:
                if b[f] & _MASK == fighter and not (b[l1] and b[l2]):
                    return True
        return False

    def _attacked_through(self, sq: int, enemy: int, points: tuple[int, ...]) -> bool:
        """Like ``_attacked``, but only for attacks that pass through or
        start from ``points`` (enough after a move that changed just those
        points and left the general where it was)."""
        b = self.board
        g = self.g
        ray_index = g.ray_index
        at = sq * g.size
        rays = g.rays[sq]
        seen = -1
        for p in points:
            d = ray_index[at + p]
            if d < 0 or d == seen:
                continue
            seen = d
            screen = False
            for s in rays[d]:
                q = b[s]
                if q:
                    q &= _MASK
                    if screen:
                        if q == CANNON | enemy:
                            return True
                        break
                    if q in (CHARIOT | enemy, MISSILE | enemy) or (q == KING | enemy and d < 2):
                        return True
                    screen = True
        horse = HORSE | enemy
        for h, leg in g.horse_attackers[sq]:
            if leg in points and b[h] & _MASK == horse and not b[leg]:
                return True
        if self._has_fighters:
            fighter = FIGHTER | enemy
            for f, l1, l2 in g.fighter_attackers[sq]:
                if (
                    (l1 in points or l2 in points)
                    and b[f] & _MASK == fighter
                    and not (b[l1] and b[l2])
                ):
                    return True
        return False

    def _checkers(self, sq: int, enemy: int) -> list[int]:
        """Every enemy point that attacks ``sq``."""
        b = self.board
        g = self.g
        found = []
        for d, ray in enumerate(g.rays[sq]):
            screen = False
            for s in ray:
                q = b[s]
                if q:
                    q &= _MASK
                    if screen:
                        if q == CANNON | enemy:
                            found.append(s)
                        break
                    if q in (CHARIOT | enemy, MISSILE | enemy) or (q == KING | enemy and d < 2):
                        found.append(s)
                    screen = True
        for h, leg in g.horse_attackers[sq]:
            if b[h] & _MASK == HORSE | enemy and not b[leg]:
                found.append(h)
        for s in g.soldier_attackers[enemy >> 5][sq]:
            if b[s] & _MASK == SOLDIER | enemy:
                found.append(s)
        if self._has_fighters:
            for f, l1, l2 in g.fighter_attackers[sq]:
                if b[f] & _MASK == FIGHTER | enemy and not (b[l1] and b[l2]):
                    found.append(f)
        return found

    def is_check(self) -> bool:
        """Is the side to move in check (facing generals count)?"""
        ci = self.side >> 5
        return self._attacked(self.kings[ci], self.side ^ BLACK)

    def checkers(self) -> list[str]:
        """The points of the pieces giving check to the side to move."""
        ci = self.side >> 5
        return [self.square_name(s) for s in self._checkers(self.kings[ci], self.side ^ BLACK)]

    # ------------------------------------------------------------------
    # move generation

    def _pseudo(self) -> list[int]:
        """Every move of the side to move by the movement rules alone."""
        b = self.board
        g = self.g
        own = self.side
        ci = own >> 5
        moves: list[int] = []
        rays = g.rays
        for fr in self.occupied[ci]:
            t = b[fr] & 15
            base = fr << 8
            if t in (CHARIOT, MISSILE):
                for ray in rays[fr]:
                    for s in ray:
                        q = b[s]
                        if not q:
                            moves.append(base | s)
                        else:
                            if q & BLACK != own:
                                moves.append(base | s)
                            break
            elif t == CANNON:
                for ray in rays[fr]:
                    screen = False
                    for s in ray:
                        q = b[s]
                        if screen:
                            if q:
                                if q & BLACK != own:
                                    moves.append(base | s)
                                break
                        elif q:
                            screen = True
                        else:
                            moves.append(base | s)
            elif t == HORSE:
                for to, leg in g.horse_moves[fr]:
                    if not b[leg]:
                        q = b[to]
                        if not q or q & BLACK != own:
                            moves.append(base | to)
            elif t == SOLDIER:
                for to in g.soldier_moves[ci][fr]:
                    q = b[to]
                    if not q or q & BLACK != own:
                        moves.append(base | to)
            elif t == ELEPHANT:
                for to, eye in g.elephant_moves[ci][fr]:
                    if not b[eye]:
                        q = b[to]
                        if not q or q & BLACK != own:
                            moves.append(base | to)
            elif t == ADVISOR:
                for to in g.advisor_moves[ci][fr]:
                    q = b[to]
                    if not q or q & BLACK != own:
                        moves.append(base | to)
            elif t == KING:
                for to in g.king_moves[ci][fr]:
                    q = b[to]
                    if not q or (q & BLACK != own and q & 15 not in self._untouchable):
                        moves.append(base | to)
            elif t == FIGHTER:
                for to, l1, l2 in g.fighter_moves[fr]:
                    if not (b[l1] and b[l2]):
                        q = b[to]
                        if not q or q & BLACK != own:
                            moves.append(base | to)
        return moves

    def _effects(self, m: int) -> tuple[list[Change], str]:
        """The point changes a pseudo-legal move makes, and its kind."""
        b = self.board
        fr, to = m >> 8, m & 255
        p = b[fr]
        cap = b[to]
        if not cap:
            return [(fr, p, 0), (to, 0, p)], "move"
        v = self.variant
        t = p & 15
        ct = cap & 15
        colliding = self._colliding
        if colliding and (ct in colliding or t in colliding):
            if t not in colliding and t in v.collision_survivors:
                return [(fr, p, 0), (to, cap, p)], "cannon_takes_missile"
            if (
                v.base_self_destruct
                and t in colliding
                and ct in colliding
                and fr in self._bases[p >> 5 & 1]
                and to in self._bases[cap >> 5 & 1]
            ):
                return [(fr, p, 0)], "self_destruct"
            return [(fr, p, 0), (to, cap, 0)], "collision"
        ordinary: list[Change] = [(fr, p, 0), (to, cap, p)]
        if cap & TURNCOAT and t in v.defection.get(ct, ()):
            defected = ct | (p & BLACK)
            defection: list[Change] = [(fr, p, defected), (to, cap, p)]
            own = p & BLACK
            if v.defection_requires_check and not self._gives_check_after(defection, fr, own):
                return ordinary, "capture"
            if self._safe_after(defection, own):
                return defection, "defection"
        return ordinary, "capture"

    def _apply(self, changes: list[Change]) -> None:
        b = self.board
        for sq, _, after in changes:
            b[sq] = after

    def _revert(self, changes: list[Change]) -> None:
        b = self.board
        for sq, before, _ in changes:
            b[sq] = before

    def _king_after(self, changes: list[Change], own: int) -> int:
        ksq = self.kings[own >> 5]
        king = KING | own
        for sq, before, after in changes:
            if after & _MASK == king and before & _MASK != king:
                return sq
        return ksq

    def _safe_after(self, changes: list[Change], own: int) -> bool:
        """Is the mover's general out of check once ``changes`` are made?"""
        ksq = self._king_after(changes, own)
        self._apply(changes)
        safe = not self._attacked(ksq, own ^ BLACK)
        self._revert(changes)
        return safe

    def _gives_check_after(self, changes: list[Change], piece_sq: int, own: int) -> bool:
        """Does the piece on ``piece_sq`` check the enemy general after ``changes``?"""
        enemy_king = self.kings[(own >> 5) ^ 1]
        self._apply(changes)
        hit = piece_sq in self._checkers(enemy_king, own)
        self._revert(changes)
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
            if self._has_fighters:
                for f, l1, l2 in g.fighter_attackers[ksq]:
                    if f == c:
                        points.add(l1)
                        points.add(l2)
        return points

    def _is_legal(self, m: int) -> bool:
        changes, _ = self._effects(m)
        return self._safe_after(changes, self.side)

    def _gen_legal(self) -> list[int]:
        """The legal moves as ints, computed once per position."""
        if self._legal is not None:
            return self._legal
        own = self.side
        ci = own >> 5
        enemy = own ^ BLACK
        ksq = self.kings[ci]
        b = self.board
        pseudo = self._pseudo()
        self._dead_general = False
        checkers = self._checkers(ksq, enemy)
        if checkers:
            # Only a general move, or a move onto or off a point that one of
            # the checks runs through, can answer a check.
            relevant = self._check_points(ksq, checkers)
            is_legal = self._is_legal
            legal = [
                m
                for m in pseudo
                if (m >> 8 == ksq or m >> 8 in relevant or m & 255 in relevant) and is_legal(m)
            ]
            if self._dead_types:
                palace = self.g.palace[ci]
                if any(c in palace and b[c] & 15 in self._dead_types for c in checkers) and not any(
                    m >> 8 == ksq for m in legal
                ):
                    self._dead_general = True
                    legal = []
            self._legal = legal
            return legal
        # Not in check: only moves touching a line or leg that leads to the
        # general can expose it; everything else is legal as generated.
        g = self.g
        sensitive: set[int] = set()
        for d, ray in enumerate(g.rays[ksq]):
            for s in ray:
                q = b[s]
                if q and q & BLACK == enemy:
                    qt = q & 15
                    if qt in (CHARIOT, CANNON, MISSILE) or qt == KING and d < 2:
                        sensitive.update(ray)
                        break
        horse = HORSE | enemy
        for h, leg in g.horse_attackers[ksq]:
            if b[h] & _MASK == horse:
                sensitive.add(leg)
        if self._has_fighters:
            fighter = FIGHTER | enemy
            for f, l1, l2 in g.fighter_attackers[ksq]:
                if b[f] & _MASK == fighter:
                    sensitive.add(l1)
                    sensitive.add(l2)
        legal = []
        is_legal = self._is_legal
        effects = self._effects
        through = self._attacked_through
        for m in pseudo:
            fr = m >> 8
            to = m & 255
            if fr == ksq:
                if is_legal(m):
                    legal.append(m)
            elif fr in sensitive or to in sensitive:
                # the general stays put: only lines and legs through the two
                # changed points can open
                changes, _ = effects(m)
                for p, _, after in changes:
                    b[p] = after
                exposed = through(ksq, enemy, (fr, to))
                for p, before, _ in changes:
                    b[p] = before
                if not exposed:
                    legal.append(m)
            else:
                legal.append(m)
        self._legal = legal
        return legal

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self, self._gen_legal())

    def is_legal(self, move: Move) -> bool:
        try:
            m = self._from_move(move)
        except InvalidMoveError:
            return False
        return m in self._gen_legal()

    # ------------------------------------------------------------------
    # make / unmake

    def _push(self, m: int) -> None:
        changes, _ = self._effects(m)
        self._stack.append((m, changes, self.halfmove, self.hash, (self.kings[0], self.kings[1])))
        b = self.board
        capture = bool(b[m & 255])
        occ = self.occupied
        h = self.hash
        for sq, before, after in changes:
            if before:
                occ[before >> 5 & 1].discard(sq)
                h ^= ZOBRIST[before][sq]
            if after:
                occ[after >> 5 & 1].add(sq)
                h ^= ZOBRIST[after][sq]
                if after & 15 == KING:
                    self.kings[after >> 5 & 1] = sq
            b[sq] = after
        self.halfmove = 0 if capture else self.halfmove + 1
        if self.side:
            self.fullmove += 1
        self.side ^= BLACK
        self.hash = h ^ ZOBRIST_BLACK
        self._legal = None

    def _pop(self) -> int:
        m, changes, halfmove, h, kings = self._stack.pop()
        b = self.board
        occ = self.occupied
        for sq, before, after in changes:
            if after:
                occ[after >> 5 & 1].discard(sq)
            if before:
                occ[before >> 5 & 1].add(sq)
            b[sq] = before
        self.kings[0], self.kings[1] = kings
        self.side ^= BLACK
        if self.side:
            self.fullmove -= 1
        self.halfmove = halfmove
        self.hash = h
        self._legal = None
        return m

    def push(self, move: Move) -> None:
        """Play a legal move (raises ``IllegalMoveError`` otherwise)."""
        m = self._from_move(move)
        if m not in self._gen_legal():
            code, params = self._why_illegal(m)
            raise IllegalMoveError(move.iccs(), self.fen(), code, **params)
        self._push(m)

    def pop(self) -> Move:
        """Take back the last move."""
        if not self._stack:
            raise IndexError("pop from a position with no moves played")
        return self._to_move(self._pop())

    def push_pass(self) -> None:
        """Hand the move to the other side without moving: a search's null
        move, never a move of the game. ``pop`` takes it back (it returns
        ``Move(0, 0, 0, 0)`` then). The halfmove clock restarts, so no
        repetition is counted across a pass."""
        self._stack.append((0, [], self.halfmove, self.hash, (self.kings[0], self.kings[1])))
        self.halfmove = 0
        if self.side:
            self.fullmove += 1
        self.side ^= BLACK
        self.hash ^= ZOBRIST_BLACK
        self._legal = None

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
                code, params = self._why_illegal(self._from_move(move))
                raise IllegalMoveError(text, self.fen(), code, **params)
            return move
        from engine.notation import parse_chinese

        return parse_chinese(self, s)

    def chinese(self, move: Move) -> str:
        """The move in Chinese notation (炮二平五); the move must be legal."""
        from engine.notation import chinese

        return chinese(self, move)

    def move_effect(self, move: Move) -> MoveEffect:
        """What a legal move does: capture, collision, defection…"""
        m = self._from_move(move)
        if m not in self._gen_legal():
            code, params = self._why_illegal(m)
            raise IllegalMoveError(move.iccs(), self.fen(), code, **params)
        changes, kind = self._effects(m)
        cap = self.board[m & 255]
        captured = letter(cap) if cap else None
        defected = None
        if kind == "defection":
            defected = letter(changes[0][2])
        return MoveEffect(kind, captured, defected)

    @property
    def move_stack(self) -> list[Move]:
        return [self._to_move(rec[0]) for rec in self._stack]

    def ply_count(self) -> int:
        return len(self._stack)

    def _why_illegal(self, m: int) -> tuple[str, dict[str, object]]:
        """Why the move ``m`` is not legal: an error code and its params."""
        fr, to = m >> 8, m & 255
        if fr >= len(self.board) or to >= len(self.board):
            return "move.off_board", {}
        p = self.board[fr]
        name_fr = self.square_name(fr)
        if not p:
            return "move.no_piece", {"square": name_fr}
        if p & BLACK != self.side:
            return "move.not_your_piece", {"square": name_fr}
        if m not in self._pseudo():
            cap = self.board[to]
            if p & 15 == KING and cap and cap & 15 in self._untouchable:
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
        self._gen_legal()
        return self._dead_general

    def status(self) -> str:
        """checkmate | stalemate | dead_general | ongoing, for the side to move."""
        if self._gen_legal():
            return "ongoing"
        if self._dead_general:
            return "dead_general"
        return "checkmate" if self.is_check() else "stalemate"

    def outcome(self) -> Outcome | None:
        """How the game has ended, or ``None`` while it goes on."""
        from engine.rules import outcome

        return outcome(self)
