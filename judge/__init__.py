"""The judge of positions: which engine says how good a position is, and how.

Traditional xiangqi is judged by Fairy-Stockfish (``judge.fairy``, a well-known engine, run
over UCI by ``judge.uci``, the one module that speaks that protocol) where it is installed;
Missile Xiangqi and New-version Xiangqi, which no other engine plays, by the site's own engine
(``judge.ours``), as is traditional xiangqi where Fairy-Stockfish is absent. Both answer
through the same typed interface (``Judge``: ``evaluate`` a position on a node budget, get an
``Evaluation`` with its lines, depth and nodes), and fail with the errors of ``judge.errors``.

Pure Python on top of the engine: nothing here imports Django. See docs/architecture.md for
the floors of the code base and docs/play.md for what the site asks of its judge.
"""

from __future__ import annotations

from judge.base import FAIRY_STOCKFISH, OURS, Evaluation, Judge, Line
from judge.errors import (
    JudgeDied,
    JudgeError,
    JudgeProtocolError,
    JudgeTimeout,
    JudgeUnavailable,
    PositionRefused,
)
from judge.fairy import FairyStockfish, fairy_stockfish_path, shared_fairy_stockfish
from judge.ours import OurEngine

__all__ = [
    "FAIRY_STOCKFISH",
    "OURS",
    "Evaluation",
    "FairyStockfish",
    "Judge",
    "JudgeDied",
    "JudgeError",
    "JudgeProtocolError",
    "JudgeTimeout",
    "JudgeUnavailable",
    "Line",
    "OurEngine",
    "PositionRefused",
    "fairy_stockfish_path",
    "judge_for",
    "shared_fairy_stockfish",
]


def judge_for(variant: str, *, engine: str | None = None) -> Judge:
    """The judge of ``variant``'s positions: Fairy-Stockfish for traditional xiangqi where it
    is installed, else the site's engine. ``engine`` asks for one by name (``FAIRY_STOCKFISH``
    or ``OURS``): ``JudgeUnavailable`` when Fairy-Stockfish is asked for and absent."""
    if engine == OURS:
        return OurEngine()
    fairy = shared_fairy_stockfish()
    if engine == FAIRY_STOCKFISH:
        if fairy is None:
            raise JudgeUnavailable("Fairy-Stockfish", "it is not installed on this machine")
        return fairy
    if engine is not None:
        raise ValueError(f"unknown engine {engine!r}")
    if fairy is not None and fairy.plays(variant):
        return fairy
    return OurEngine()
