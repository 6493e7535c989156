"""Fairy-Stockfish as the judge of traditional xiangqi.

Debian's ``fairy-stockfish`` (GPL-3.0-or-later) is found as the setting ``FAIRY_STOCKFISH``
(an environment variable: the program's path; an empty value switches it off), else as
``fairy-stockfish`` on the ``PATH``, else at ``/usr/games/fairy-stockfish`` where Debian puts
it. It runs as one long-lived process per worker process (``shared_fairy_stockfish``), started
on the first search, with ``UCI_Variant xiangqi``, one thread and a fixed hash, searching on a
node budget (``go nodes N``) from an empty hash, so that a position always gets the same
answer. Positions are checked by the rules engine before the engine sees them
(``PositionRefused``), and the moves it names are checked too (``JudgeProtocolError`` for one
that is not legal). Its ranks are numbered 1-10 where ICCS numbers them 0-9.

Pure Python: no Django here.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence

from engine import Move, Position
from judge.base import FAIRY_STOCKFISH, Evaluation, Line, position_to_judge
from judge.errors import JudgeProtocolError, PositionRefused
from judge.uci import Info, UciEngine

SETTING = "FAIRY_STOCKFISH"
DEBIAN_PATH = "/usr/games/fairy-stockfish"
VARIANTS = ("xiangqi",)
HASH_MIB = 16
THREADS = 1
# When a search counts as hung: nothing said for this long (it reports each finished depth,
# and from its third second each move it starts at the root), or no answer in all within
# SEARCH_FLOOR_SECONDS plus its nodes at a speed far below that of a loaded machine (it does
# 140,000-400,000 nodes a second on one core of the shared 2-core machine).
SILENCE_SECONDS = 30.0
SEARCH_FLOOR_SECONDS = 10.0
SLOWEST_NODES_PER_SECOND = 5_000

_MOVE = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")


def fairy_stockfish_path() -> str | None:
    """Where Fairy-Stockfish is (``SETTING``, the ``PATH``, Debian's place), or None."""
    setting = os.environ.get(SETTING)
    if setting is not None:
        if not setting:
            return None
        return shutil.which(setting) or (setting if os.access(setting, os.X_OK) else None)
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    return DEBIAN_PATH if os.access(DEBIAN_PATH, os.X_OK) else None


def to_engine(iccs: str) -> str:
    """An ICCS move as Fairy-Stockfish writes it (``h2e2`` → ``h3e3``)."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def from_engine(text: str) -> str:
    """A move as Fairy-Stockfish writes it, in ICCS; ``ValueError`` for anything else."""
    found = _MOVE.fullmatch(text)
    if found is None:
        raise ValueError(f"not a xiangqi move: {text!r}")
    f1, r1, f2, r2 = found.groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


class FairyStockfish:
    """The judge of traditional xiangqi: Fairy-Stockfish over UCI (``judge.uci``)."""

    name = FAIRY_STOCKFISH

    def __init__(
        self,
        command: Sequence[str],
        *,
        hash_mib: int = HASH_MIB,
        start_seconds: float | None = None,
        floor_seconds: float = SEARCH_FLOOR_SECONDS,
        slowest_nps: int = SLOWEST_NODES_PER_SECOND,
        silence_seconds: float = SILENCE_SECONDS,
    ) -> None:
        extra = {} if start_seconds is None else {"start_seconds": start_seconds}
        self.engine = UciEngine(
            command,
            name="Fairy-Stockfish",
            variant="xiangqi",
            options={"Threads": THREADS, "Hash": hash_mib},
            **extra,
        )
        self.floor_seconds = floor_seconds
        self.slowest_nps = slowest_nps
        self.silence_seconds = silence_seconds

    @property
    def label(self) -> str:
        """The engine's name and version as it gives them ("Fairy-Stockfish 11.1"), once
        started; before, its plain name."""
        words = self.engine.id_name.split()
        return " ".join(words[:2]) if len(words) >= 2 else "Fairy-Stockfish"

    def plays(self, variant: str) -> bool:
        return variant in VARIANTS

    def seconds_for(self, nodes: int) -> float:
        """How long a search of ``nodes`` may take in all before the engine counts as hung."""
        return self.floor_seconds + nodes / self.slowest_nps

    def evaluate(
        self,
        *,
        variant: str,
        fen: str,
        moves: Sequence[str] = (),
        nodes: int,
        multipv: int = 1,
        on_info: Callable[[Info], None] | None = None,
        stop: Callable[[], bool] | None = None,
        only: Sequence[str] = (),
    ) -> Evaluation:
        if not self.plays(variant):
            raise PositionRefused(self.name, f"it does not play {variant}")
        pos = position_to_judge(self.name, variant, fen, moves)
        start = Position.from_fen(variant, fen).fen()
        found = self.engine.search(
            fen=start,
            moves=[to_engine(m) for m in moves],
            nodes=nodes,
            multipv=multipv,
            seconds=self.seconds_for(nodes),
            silence=self.silence_seconds,
            on_info=on_info,
            stop=stop,
            searchmoves=[to_engine(m) for m in only],
        )
        if found.bestmove is None:
            raise PositionRefused(self.name, "it finds no move where the rules give some")
        try:
            if not found.lines:
                raise JudgeProtocolError(self.engine.name, f"bestmove {found.bestmove} alone")
            lines = tuple(self._line(pos, info) for info in found.lines)
        except JudgeProtocolError:
            self.engine.kill()  # nothing more it says can be trusted
            raise
        return Evaluation(
            engine=self.name, turn=pos.turn, lines=lines, depth=found.depth, nodes=found.nodes
        )

    def _line(self, pos: Position, info: Info) -> Line:
        """A reported line in ICCS, checked move by move (cut where a move is not legal; the
        first must be)."""
        replay = pos.copy()
        moves: list[str] = []
        for text in info.pv:
            try:
                move = Move.from_iccs(from_engine(text))
            except ValueError:
                move = None
            if move is None or move not in replay.legal_moves:
                if not moves:
                    raise JudgeProtocolError(self.engine.name, f"pv {' '.join(info.pv)}")
                break
            moves.append(move.iccs())
            replay.push(move)
        return Line(moves=tuple(moves), cp=info.cp, mate=info.mate)

    def close(self) -> None:
        self.engine.close()


def probe(path: str, *, seconds: float = 5.0) -> str:
    """What the program at ``path`` calls itself after a UCI handshake, if it is an engine
    that plays xiangqi ("Fairy-Stockfish 11.1 LB 64"); ``JudgeUnavailable`` if not. Starts a
    process of its own and ends it."""
    judge = FairyStockfish([path], start_seconds=seconds)
    try:
        judge.engine.start()
        return judge.engine.id_name or "Fairy-Stockfish"
    finally:
        judge.close()


_SHARED: dict[str, FairyStockfish] = {}


def shared_fairy_stockfish() -> FairyStockfish | None:
    """This process's Fairy-Stockfish (its process started on the first search), or None when
    it is not installed."""
    path = fairy_stockfish_path()
    if path is None:
        return None
    found = _SHARED.get(path)
    if found is None:
        found = _SHARED[path] = FairyStockfish([path])
    return found


@atexit.register
def _close_shared() -> None:
    for judge in _SHARED.values():
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            judge.close()
