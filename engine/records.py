"""Reading a game record: a start position and its moves as written, played one by one.

A record written by people can hold a mistyped or illegal move. The reader plays each move
with the position's own reader (ICCS or Chinese notation, traditional characters and full-width
digits included) and stops at the first move it cannot play, saying which ply and why; it never
guesses. What it read up to there stays good: every move in ``RecordRead.iccs`` was legal where
it was played.

A record may also go on after a position that this engine's rules call finished (masters play
on through repetitions that an arbiter let pass): those moves are still read, since each is a
legal move on the board; ``RecordRead.rules_end`` tells the first ply at which the rules would
have ended the game, and how.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import EngineError
from engine.position import Position


@dataclass(frozen=True)
class RecordStop:
    """The first move the reader could not play."""

    ply: int  # 1-based: the stopping move is the ply-th of the record
    text: str  # the move as the record writes it
    code: str  # the engine's error code (``move.not_legal``, ``notation.unknown_piece``…)
    reason: str  # the English sentence of that error


@dataclass(frozen=True)
class RecordRead:
    """A record as far as it could be read."""

    start_fen: str
    iccs: tuple[str, ...]  # every move read, in ICCS
    record_plies: int  # how many moves the record writes
    stop: RecordStop | None  # ``None``: the record was read to its end
    rules_end: tuple[int, str] | None  # (ply, termination) where the rules end the game first
    final_fen: str

    @property
    def complete(self) -> bool:
        return self.stop is None


def read_record(variant: str, start_fen: str, moves: Sequence[str]) -> RecordRead:
    """Play ``moves`` from ``start_fen``; stop at the first one that cannot be played.

    Raises ``InvalidFenError`` (or ``UnknownVariantError``) when the start itself is wrong:
    then nothing of the record can be read.
    """
    pos = Position.from_fen(variant, start_fen)
    read: list[str] = []
    stop: RecordStop | None = None
    rules_end: tuple[int, str] | None = None
    for ply, text in enumerate(moves, start=1):
        try:
            move = pos.parse_move(text)
        except EngineError as error:
            stop = RecordStop(ply, str(text), error.code, _reason(error))
            break
        pos.push(move)
        read.append(move.iccs())
        if rules_end is None:
            outcome = pos.outcome()
            if outcome is not None:
                rules_end = (ply, outcome.termination)
    return RecordRead(
        start_fen=Position.from_fen(variant, start_fen).fen(),
        iccs=tuple(read),
        record_plies=len(moves),
        stop=stop,
        rules_end=rules_end,
        final_fen=pos.fen(),
    )


def _reason(error: EngineError) -> str:
    reason = getattr(error, "reason", None)
    return reason if isinstance(reason, str) else str(error)
