"""What a judge is: the typed interface the site sees, whichever engine is behind it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine import EngineError, Position
from judge.errors import PositionRefused

FAIRY_STOCKFISH = "fairy-stockfish"
OURS = "ours"


@dataclass(frozen=True)
class Line:
    """One line the engine found: its moves (ICCS, the first is the move it would play) and
    its score from the side to move: ``cp`` centipawns, or ``mate`` in moves (positive when
    the side to move mates)."""

    moves: tuple[str, ...]
    cp: int | None
    mate: int | None

    @property
    def move(self) -> str:
        return self.moves[0]


@dataclass(frozen=True)
class Evaluation:
    """An engine's judgement of one position: its lines, best first (one, or up to the
    ``multipv`` asked for), how deep it looked and how many nodes it searched. ``turn`` is
    the side to move, from whose side the lines' scores are."""

    engine: str
    turn: str
    lines: tuple[Line, ...]
    depth: int
    nodes: int

    @property
    def best(self) -> Line:
        return self.lines[0]

    def for_red(self, line: Line | None = None) -> tuple[int | None, int | None]:
        """(cp, mate) of ``line`` (the best by default) from Red's side."""
        line = line or self.best
        sign = 1 if self.turn == "red" else -1
        return (
            None if line.cp is None else sign * line.cp,
            None if line.mate is None else sign * line.mate,
        )


class Judge(Protocol):
    """An engine that judges positions: ``name`` is stable (stored with what it judged),
    ``label`` says which engine and version in words."""

    name: str

    @property
    def label(self) -> str: ...

    def plays(self, variant: str) -> bool:
        """Whether it judges positions of ``variant``."""
        ...

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
        """Its judgement of the position after ``moves`` (ICCS) from ``fen``, on a budget of
        ``nodes`` (all its lines together); with ``only`` (ICCS), of those root moves alone. ``stop``, asked from time to time while it searches,
        cuts the search short once it answers True (what was found so far is answered).
        Raises ``PositionRefused`` for a position it cannot judge, and the other
        ``JudgeError``s when the engine fails."""
        ...


def position_to_judge(engine: str, variant: str, fen: str, moves: Sequence[str]) -> Position:
    """The position after ``moves`` from ``fen``, checked by the rules engine before an engine
    is asked about it; ``PositionRefused`` when it is not a legal position or the game is
    over there."""
    if isinstance(moves, str):
        raise PositionRefused(engine, "the moves must be a list")
    try:
        pos = Position.from_fen(variant, fen)
        for text in moves:
            pos.push_iccs(text)
    except EngineError as error:
        raise PositionRefused(engine, str(error)) from error
    outcome = pos.outcome()
    if outcome is not None:
        raise PositionRefused(engine, f"the game is over ({outcome.termination})")
    return pos
