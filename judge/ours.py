"""The site's own engine as a judge: the playing engine (``engine.play``) at full strength, no
noise, on a node budget. The only judge of Missile Xiangqi and New-version Xiangqi (no other
engine plays them), and of traditional xiangqi where Fairy-Stockfish is not installed. With
``multipv`` above 1 it finds the lines one after another, each a search of its own with the
moves of the lines before it left out at the root (``search_position(exclude=...)``), the
budget shared equally between them.

Pure Python: no Django here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.play import level_limits, search_position
from judge.base import OURS, Evaluation, Line, position_to_judge


class OurEngine:
    """The playing engine at level 8 (no noise) with an explicit node budget: the same answer
    for the same position on any machine, unless ``movetime_ms`` (a safety net for a loaded
    machine, shared between the lines like the nodes) cuts a search short."""

    name = OURS
    label = "Xiangqi School engine"

    def __init__(self, *, movetime_ms: int | None = None) -> None:
        self.movetime_ms = movetime_ms

    def plays(self, variant: str) -> bool:
        return True

    def evaluate(
        self,
        *,
        variant: str,
        fen: str,
        moves: Sequence[str] = (),
        nodes: int,
        multipv: int = 1,
        stop: Callable[[], bool] | None = None,
        only: Sequence[str] = (),
    ) -> Evaluation:
        """Up to ``multipv`` lines (fewer when the position has fewer legal moves, or when
        ``stop`` says so: asked while a line is searched, it ends that line's search with what
        it found, and before each line after the first); ``depth`` is the least any line
        reached, ``nodes`` all the lines' together."""
        pos = position_to_judge(self.name, variant, fen, moves)
        # ``only``: the other root moves are left out of every line's search
        others = {m.iccs() for m in pos.legal_moves} - set(only) if only else set()
        count = max(1, min(multipv, len(pos.legal_moves) - len(others)))
        movetime = None if self.movetime_ms is None else max(1, self.movetime_ms // count)
        limits = level_limits(8, nodes=max(1, nodes // count), movetime_ms=movetime)
        lines: list[Line] = []
        depth, searched = 0, 0
        for _ in range(count):
            if lines and stop is not None and stop():
                break
            found = search_position(
                pos, limits, exclude={line.move for line in lines} | others, stop=stop
            )
            moves_found = found.pv if found.pv and found.pv[0] == found.move else (found.move,)
            lines.append(Line(moves=moves_found, cp=found.score, mate=found.mate))
            depth = found.depth if len(lines) == 1 else min(depth, found.depth)
            searched += found.nodes
        lines.sort(key=_strength, reverse=True)  # each searched apart: the best first
        return Evaluation(
            engine=self.name, turn=pos.turn, lines=tuple(lines), depth=depth, nodes=searched
        )


def _strength(line: Line) -> tuple[int, int]:
    """How good ``line`` is for the side to move: a mate it gives (the sooner the better), a
    score, a mate it suffers (the later the better)."""
    if line.mate is not None:
        return (2, -line.mate) if line.mate > 0 else (0, -line.mate)
    return (1, line.cp or 0)
