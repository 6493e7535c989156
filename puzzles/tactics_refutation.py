"""The refutation of a wrong move in a tactics puzzle: the opponent's best reply to it, found by
the site's own engine (``engine.play.bestmove``) in every variant, so that the site shows it
without Fairy-Stockfish, and what the solver has won or lost once the reply is played
(``tactics.material_changed``, counted from the position the solver moved in).

The search is on a node budget alone (no clock): the same wrong move gets the same reply on any
machine. ``REFUTATION_NODES`` was measured on shipped puzzles of each variant (docs/puzzles.md,
"The refutation of a wrong move").

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from engine import Move, Position
from engine.play import bestmove
from puzzles.tactics import material_changed

# About 0.12 s of one core with the compiled engine (0.6-0.7 s as plain Python): a search of
# depth 5-8, enough to see what the wrong move leaves hanging and take it.
REFUTATION_NODES: Final = 20_000


@dataclass(frozen=True)
class Refutation:
    """The opponent's ``reply`` (ICCS) to the solver's wrong move, and what the solver has won
    (the opponent's pieces) and lost (its own) from the position it moved in to the one after
    the reply, as {kind: count}, most valuable first."""

    reply: str
    won: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)


def refute(
    *, variant: str, fen: str, moves: Sequence[str], nodes: int = REFUTATION_NODES
) -> Refutation | None:
    """The refutation of the last of ``moves`` (the solver's and the opponent's moves from the
    puzzle's position ``fen``, the solver's wrong move last), or ``None`` when the game is over
    after it (no reply). Raises the engine's errors (``EngineError``) on a line that is not
    legal or a budget that is not a positive number, and ``ValueError`` when the engine's reply
    is not a legal move."""
    before = Position.from_fen(variant, fen)
    for text in moves[:-1]:
        before.push(Move.from_iccs(text))
    after = before.copy()
    after.push(Move.from_iccs(moves[-1]))
    if after.outcome() is not None or not len(after.legal_moves):
        return None
    found = bestmove(variant, fen, list(moves), nodes=nodes)
    reply = Move.from_iccs(found.move)
    if reply not in after.legal_moves:
        raise ValueError(f"the engine's reply {found.move} is not legal in {after.fen()}")
    after.push(reply)
    won, lost = material_changed(before, after, before.turn)
    return Refutation(reply=reply.iccs(), won=won, lost=lost)
