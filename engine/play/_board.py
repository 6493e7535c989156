"""The search's fast path into ``Position``.

The search plays hundreds of thousands of moves, so it works on the
position's move codes (``Position.legal_codes``, ``push_code``,
``pop_code``, ``effects``) rather than through ``Move`` objects. The
playing engine reaches the position's int layer only through this module;
the rest of ``engine.play`` calls these functions.
"""

from __future__ import annotations

from typing import Final

from engine.play.evaluation import Tables
from engine.position import Change, Position
from engine.rules import hash_history, judge_cycle
from engine.variants import (
    BLACK,
    CANNON,
    CHARIOT,
    FIGHTER,
    HORSE,
    MISSILE,
    TURNCOAT,
)

__all__ = [
    "capture_gain",
    "captures",
    "from_int",
    "hash_history",
    "judge_cycle",
    "last_changes",
    "legal",
    "has_pieces",
    "pop",
    "push",
    "push_null",
    "to_int",
]


def legal(pos: Position) -> list[int]:
    """The legal moves as ints (computed once per position)."""
    return pos.legal_codes()


def push(pos: Position, m: int) -> None:
    """Play the legal int move ``m``."""
    pos.push_code(m)


def pop(pos: Position) -> None:
    """Take back the last move (or pass)."""
    pos.pop_code()


def push_null(pos: Position) -> None:
    """Pass (``Position.push_pass``); ``pop`` takes it back."""
    pos.push_pass()


_OFFICERS: Final = (CHARIOT, HORSE, CANNON, FIGHTER, MISSILE)


def has_pieces(pos: Position) -> bool:
    """Has the side to move a chariot, horse, cannon, fighter or missile?
    (Without one, passing is too often the better move for null-move pruning.)"""
    b = pos.board
    return any(b[sq] & 15 in _OFFICERS for sq in pos.occupied[pos.side >> 5])


def last_changes(pos: Position) -> list[Change]:
    """The point changes (point, before, after) of the last move played."""
    return pos.last_changes()


def to_int(pos: Position, iccs: str) -> int:
    from engine.move import Move

    return pos.encode(Move.from_iccs(iccs))


def from_int(pos: Position, m: int) -> str:
    return pos.decode(m).iccs()


def effects(pos: Position, m: int) -> tuple[list[Change], str]:
    return pos.effects(m)


def captures(pos: Position) -> list[int]:
    """The legal captures (and collisions, self-destructs, defections) of
    the side to move."""
    return [m for m in pos.capture_codes() if pos.is_legal_code(m)]


def recapturable(pos: Position, m: int) -> bool:
    """Could the other side move onto the point the capture ``m`` lands on,
    once it is made (and so take the capturer back)?"""
    return pos.attacked_after(m, m & 255, pos.side ^ BLACK)


def capture_gain(pos: Position, m: int, t: Tables) -> int:
    """Material a capture wins for the mover, read from what it does:
    a capture wins the victim, a defection also the defected piece, a
    collision costs the attacker too, a self-destruct only costs it."""
    b = pos.board
    victim = b[m & 255]
    if not victim:
        return 0
    worth = t.worth
    attacker = b[m >> 8]
    colliding = pos.colliding  # the variant's ``colliding_types``
    if colliding and (victim & 15 in colliding or attacker & 15 in colliding):
        _, kind = pos.effects(m)
        if kind == "self_destruct":
            return -worth[attacker]
        if kind == "collision":
            return worth[victim] - worth[attacker]
        return worth[victim]
    gain = worth[victim]
    if victim & TURNCOAT and attacker & 15 in pos.variant.defection.get(victim & 15, ()):
        # most defections stand (the fallback to an ordinary capture is rare)
        gain += worth[(victim & 15) | (attacker & BLACK)]
    return gain
