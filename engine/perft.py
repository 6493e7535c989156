"""Perft: counting the leaf positions of the legal move tree."""

from __future__ import annotations

from engine.errors import EngineError
from engine.position import Position


def _perft(pos: Position, depth: int) -> int:
    moves = pos.legal_codes()
    if depth == 1:
        return len(moves)
    total = 0
    push = pos.push_code
    pop = pos.pop_code
    for m in moves:
        push(m)
        total += _perft(pos, depth - 1)
        pop()
    return total


def perft(pos: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``pos``."""
    if depth < 0:
        raise EngineError("perft.depth", {"limit": 0})
    if depth == 0:
        return 1
    return _perft(pos, depth)


def divide(pos: Position, depth: int) -> dict[str, int]:
    """Perft split by first move: ICCS move -> leaf count below it."""
    if depth < 1:
        raise EngineError("perft.depth", {"limit": 1})
    result = {}
    for m in list(pos.legal_codes()):
        pos.push_code(m)
        result[pos.decode(m).iccs()] = perft(pos, depth - 1)
        pos.pop_code()
    return result
