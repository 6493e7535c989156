"""The site's calls into the playing engine (``engine.play``): the computer's move, its
answer to a draw offer, its decisions to resign or to offer a draw, and the analysis board's
search. Kept in one place so that the rest of the app never imports it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.play import BestMove, Judgement

# What one of the computer's searches said of its move, from its side: (score, mate).
Judged = tuple[int | None, int | None]


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


def analysis_search(
    *, variant: str, fen: str, moves: Sequence[str], nodes: int, movetime_ms: int
) -> BestMove:
    """The engine's full-strength search of a position for the analysis board, bounded by
    ``nodes`` and ``movetime_ms``: its best move, score or mate, and line."""
    from engine.play import bestmove

    return bestmove(variant, fen, list(moves), level=8, nodes=nodes, movetime_ms=movetime_ms)


def computer_accepts_draw(*, variant: str, fen: str, moves: Sequence[str], level: int) -> bool:
    """Does the computer take a draw offered in this position? By its own evaluation."""
    from engine.play import accepts_draw

    return bool(accepts_draw(variant, fen, list(moves), level=level))


def computer_evaluation(*, variant: str, fen: str, moves: Sequence[str]) -> int:
    """The position's value for the side to move (the computer, on its turn), centipawns."""
    from engine.play import evaluate

    return int(evaluate(variant, fen, list(moves)))


def _judgements(history: Iterable[Judged]) -> list[Judgement]:
    from engine.play import Judgement

    return [Judgement(score, mate) for score, mate in history]


def computer_resignation(history: Sequence[Judged]) -> dict[str, Any] | None:
    """Does the computer resign, its searches so far being ``history`` (the last one for the
    move it would play)? The reason, or None (``engine.play.decisions.resignation``)."""
    from engine.play import resignation

    found = resignation(_judgements(history))
    return None if found is None else found.to_json()


def computer_offers_draw(
    history: Sequence[Judged], *, letters: Iterable[str], moves_since_offer: int | None
) -> bool:
    """Does the computer offer a draw after its move? ``letters``: the pieces on the board
    after it (``engine.play.decisions.offers_draw``)."""
    from engine.play import attacking_material, offers_draw

    return bool(
        offers_draw(
            _judgements(history),
            material=attacking_material(letters),
            moves_since_offer=moves_since_offer,
        )
    )


def computer_accepts_offer_after_move(judged: Judged, *, letters: Iterable[str]) -> bool:
    """Does the computer take a draw offered while it was thinking, its move judged so?
    ``letters``: the pieces on the board after its move."""
    from engine.play import Judgement, accepts_offer_after_move, attacking_material

    return bool(accepts_offer_after_move(Judgement(*judged), material=attacking_material(letters)))
