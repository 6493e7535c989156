"""The site's own engine as a judge: the playing engine (``engine.play``) at full strength, no
noise, on a node budget. The only judge of Missile Xiangqi and New-version Xiangqi (no other
engine plays them), and of traditional xiangqi where Fairy-Stockfish is not installed. It
reports one line (a ``multipv`` above 1 gets the best line only).

Pure Python: no Django here.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.play import level_limits, search_position
from judge.base import OURS, Evaluation, Line, position_to_judge


class OurEngine:
    """The playing engine at level 8 (no noise) with an explicit node budget: the same answer
    for the same position on any machine, unless ``movetime_ms`` (a safety net for a loaded
    machine) cuts a search short."""

    name = OURS
    label = "Xiangqi School engine"

    def __init__(self, *, movetime_ms: int | None = None) -> None:
        self.movetime_ms = movetime_ms

    def plays(self, variant: str) -> bool:
        return True

    def evaluate(
        self, *, variant: str, fen: str, moves: Sequence[str] = (), nodes: int, multipv: int = 1
    ) -> Evaluation:
        pos = position_to_judge(self.name, variant, fen, moves)
        limits = level_limits(8, nodes=nodes, movetime_ms=self.movetime_ms)
        found = search_position(pos, limits)
        line = Line(moves=found.pv or (found.move,), cp=found.score, mate=found.mate)
        if line.move != found.move:  # the line as stored may start elsewhere: the move first
            line = Line(moves=(found.move,), cp=found.score, mate=found.mate)
        return Evaluation(
            engine=self.name, turn=pos.turn, lines=(line,), depth=found.depth, nodes=found.nodes
        )
