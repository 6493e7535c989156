"""The site's calls into the playing engine (``engine.play``): the computer's move and its
answer to a draw offer. Kept in one place so that the rest of the app never imports it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ComputerMove:
    move: str
    score: int | None
    mate: int | None
    depth: int
    nodes: int


def computer_bestmove(
    *, variant: str, fen: str, moves: Sequence[str], level: int, seed: int
) -> ComputerMove:
    """The computer's move at ``level`` after ``moves`` from ``fen`` (deterministic for a seed)."""
    from engine.play import bestmove

    best = bestmove(variant, fen, list(moves), level=level, seed=seed)
    return ComputerMove(best.move, best.score, best.mate, best.depth, best.nodes)


def computer_accepts_draw(*, variant: str, fen: str, moves: Sequence[str], level: int) -> bool:
    """Does the computer take a draw offered in this position? By its own evaluation."""
    from engine.play import accepts_draw

    return bool(accepts_draw(variant, fen, list(moves), level=level))


def computer_evaluation(*, variant: str, fen: str, moves: Sequence[str]) -> int:
    """The position's value for the side to move (the computer, on its turn), centipawns."""
    from engine.play import evaluate

    return int(evaluate(variant, fen, list(moves)))
