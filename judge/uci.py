"""The UCI protocol: the only module that talks to an outside engine.

``UciEngine`` owns one engine process, started when it is first needed and kept for the next
searches (one per worker process: a process forked from the one that started it starts its
own). A search is ``ucinewgame`` (an empty hash: the same question always gets the same answer,
whatever was asked before), ``position fen … moves …`` and ``go nodes N`` (a node budget, not a
clock, so that the answer does not depend on the machine's load), read up to ``bestmove``; with
``multipv`` the engine reports that many lines. The moves and FEN are the engine's own notation:
translating them is the caller's business (``judge.fairy``).

What can go wrong, and what is done about it:

- the process ends during a search (killed, crashed): it is started afresh and given the same
  search once more; if that one ends too, ``JudgeDied``;
- hung: nothing said for ``silence`` seconds (a working engine reports each finished depth,
  and from its third second each move it starts at the root, however loaded the machine), or
  no answer within ``seconds`` in all: the process is killed, started afresh and given the
  same search once more; then ``JudgeTimeout``;
- a line that cannot be read as UCI (a score that is not a number, a line that is neither
  ``info`` nor ``bestmove`` during a search): ``JudgeProtocolError`` at once, and the process
  is killed, since nothing more it says can be trusted;
- a program that cannot be started, that is not a UCI engine or does not play the variant:
  ``JudgeUnavailable``;
- a search interrupted on our side (an exception raised while its answer was being read, such
  as a task's time limit): the next search stops the old one and reads the engine back to
  ``readyok`` first.

Pure Python: no Django here.
"""

from __future__ import annotations

import os
import select
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from judge.errors import JudgeDied, JudgeProtocolError, JudgeTimeout, JudgeUnavailable

# How long the engine may take to start and say ``uciok``, and to answer ``isready``.
START_SECONDS = 10.0
# The longest line an engine may print (a PV of a few hundred moves fits many times over).
MAX_LINE_BYTES = 1 << 20

_NUMBERS = frozenset(
    (
        "depth",
        "seldepth",
        "multipv",
        "nodes",
        "nps",
        "tbhits",
        "time",
        "hashfull",
        "cpuload",
        "currmovenumber",
    )
)
_BOUNDS = ("lowerbound", "upperbound")


@dataclass(frozen=True)
class Info:
    """One ``info`` line that reports a score and a line (``pv``), as the engine wrote it: the
    score from the side to move (``cp`` centipawns, or ``mate`` in moves, positive when the
    side to move mates), ``bound`` when the score is only a bound."""

    multipv: int
    depth: int
    seldepth: int
    nodes: int
    cp: int | None
    mate: int | None
    bound: str | None
    pv: tuple[str, ...]


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the engine's ``bestmove`` (None when it has none), and each line's
    last report, the first line first (``lines``, one per ``multipv``, at least one when there
    is a move); the depth and nodes of the last report; ``stopped`` when the caller's ``stop``
    cut it short (the lines are then those of the depths it finished)."""

    bestmove: str | None
    lines: tuple[Info, ...]
    depth: int
    nodes: int
    stopped: bool = False


def parse_info(line: str) -> Info | None:
    """The ``info`` line read, or None for one that reports no score and line (the current
    move, a string, hash use). Raises ``ValueError`` for a line that breaks the protocol."""
    words = line.split()
    if not words or words[0] != "info":
        return None
    numbers: dict[str, int] = {}
    kind = value = bound = None
    pv: tuple[str, ...] = ()
    i = 1
    while i < len(words):
        key = words[i]
        if key in _NUMBERS:
            if i + 1 >= len(words):
                raise ValueError(f"{key} without a value")
            numbers[key] = int(words[i + 1])
            i += 2
        elif key == "score":
            if i + 2 >= len(words):
                raise ValueError("score without a value")
            kind, value = words[i + 1], int(words[i + 2])
            if kind not in ("cp", "mate"):
                raise ValueError(f"score {kind!r}")
            i += 3
            if i < len(words) and words[i] in _BOUNDS:
                bound = words[i]
                i += 1
        elif key == "pv":
            pv = tuple(words[i + 1 :])
            break
        elif key in ("string", "refutation", "currline"):
            return None  # free text, or a line that is not the principal variation
        else:
            i += 2 if key == "currmove" else 1
    if kind is None or value is None or not pv:
        return None
    return Info(
        multipv=numbers.get("multipv", 1),
        depth=numbers.get("depth", 0),
        seldepth=numbers.get("seldepth", numbers.get("depth", 0)),
        nodes=numbers.get("nodes", 0),
        cp=value if kind == "cp" else None,
        mate=value if kind == "mate" else None,
        bound=bound,
        pv=pv,
    )


class _Died(Exception):
    """The process ended (its output closed, or its input refused)."""


class _Hung(Exception):
    """No answer before the deadline."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class UciEngine:
    """One UCI engine process, started on the first search (or ``start``).

    ``command`` runs the engine; ``name`` names it in errors; ``variant`` is set with
    ``UCI_Variant`` (and must be one the engine offers); ``options`` are set once after
    the handshake (``Hash``, ``Threads`` …). Searches are serialised by a lock.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str,
        variant: str | None = None,
        options: Mapping[str, str | int] | None = None,
        start_seconds: float = START_SECONDS,
    ) -> None:
        self.command = list(command)
        self.name = name
        self.variant = variant
        self.options = dict(options or {})
        self.start_seconds = start_seconds
        self.id_name = ""  # what the engine calls itself ("Fairy-Stockfish 11.1 LB 64")
        self.starts = 0  # processes started so far
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = 0  # the pid of the process that started ``_proc``
        self._buffer = b""
        self._dirty = False  # a search was sent and its answer not read to the end
        self._multipv = 1
        self._lock = threading.Lock()

    # -- the process --------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The engine process's id, while this process owns one."""
        if self._proc is None or self._owner != os.getpid():
            return None
        return self._proc.pid

    def start(self) -> None:
        """Start the engine and shake hands, unless it is running already. Raises
        ``JudgeUnavailable``."""
        with self._lock:
            self._ensure_started()

    def close(self) -> None:
        """Ask the engine to quit, and kill it if it does not."""
        with self._lock:
            if self.pid is None:
                self._forget()
                return
            try:
                self._send("quit")
                assert self._proc is not None
                self._proc.wait(timeout=2)
            except (_Died, subprocess.TimeoutExpired):
                pass
            self._kill()

    def kill(self) -> None:
        """End the process at once (one that said something that cannot be trusted); the
        next search starts another."""
        with self._lock:
            self._kill()

    def _ensure_started(self) -> None:
        if self._proc is not None and self._owner == os.getpid():
            if self._proc.poll() is None:
                return
            self._kill()  # it ended between two searches: start another
        self._forget()  # a process inherited from a parent is the parent's
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
            )
        except OSError as error:
            raise JudgeUnavailable(self.name, f"{self.command[0]}: {error.strerror}") from error
        self._owner = os.getpid()
        self.starts += 1
        self._multipv = 1
        try:
            self._handshake()
        except (_Died, _Hung) as failure:
            self._kill()
            said = "it stopped" if isinstance(failure, _Died) else "no answer"
            raise JudgeUnavailable(self.name, f"{said} before the UCI handshake ended") from None
        except JudgeUnavailable:
            self._kill()
            raise

    def _handshake(self) -> None:
        deadline = time.monotonic() + self.start_seconds
        self._send("uci")
        variants: list[str] | None = None
        while True:
            line = self._readline(deadline)
            if line == "uciok":
                break
            if line.startswith("id name "):
                self.id_name = line[len("id name ") :].strip()
            elif line.startswith("option name UCI_Variant "):
                words = line.split()
                variants = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "var"]
        if self.variant is not None:
            if variants is None or self.variant not in variants:
                raise JudgeUnavailable(self.name, f"it does not play {self.variant}")
            self._send(f"setoption name UCI_Variant value {self.variant}")
        for option, value in self.options.items():
            self._send(f"setoption name {option} value {value}")
        self._sync(deadline)

    def _forget(self) -> None:
        """Drop the process without touching it (it belongs to the process we forked from)."""
        if self._proc is not None and self._owner != os.getpid():
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    stream.close()
            self._proc = None
        self._buffer = b""
        self._dirty = False

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        self._buffer = b""
        self._dirty = False
        if proc is None:
            return
        if self._owner == os.getpid():
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()

    # -- lines ---------------------------------------------------------------------------

    def _send(self, line: str) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write((line + "\n").encode())
        except OSError as error:  # BrokenPipeError: the process is gone
            raise _Died() from error

    def _readline(self, deadline: float, silence: float | None = None) -> str:
        """The next line, before ``deadline`` and, with ``silence``, within that many seconds
        from now."""
        assert self._proc is not None and self._proc.stdout is not None
        limit = deadline - time.monotonic()
        if silence is not None and silence < limit:
            deadline, limit = time.monotonic() + silence, silence
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE_BYTES:
                raise JudgeProtocolError(self.name, self._buffer[:200].decode("utf-8", "replace"))
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Hung(limit)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                raise _Hung(limit)
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise _Died()
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def _sync(self, deadline: float) -> None:
        """``isready``, and read (dropping what comes first) up to ``readyok``."""
        self._send("isready")
        while self._readline(deadline, self.start_seconds) != "readyok":
            pass

    # -- searches ------------------------------------------------------------------------

    def search(
        self,
        *,
        fen: str,
        moves: Sequence[str] = (),
        nodes: int,
        multipv: int = 1,
        seconds: float,
        silence: float,
        on_info: Callable[[Info], None] | None = None,
        stop: Callable[[], bool] | None = None,
        searchmoves: Sequence[str] = (),
    ) -> SearchResult:
        """Search the position after ``moves`` (the engine's notation) from ``fen`` for
        ``nodes`` nodes, reporting ``multipv`` lines, within ``seconds`` and never silent for
        ``silence`` seconds (only the root moves ``searchmoves`` when some are given); ``on_info`` sees each report as it comes. ``stop`` is asked after
        each line the engine says: once it answers True the engine is told to stop (UCI
        ``stop``) and answers at once with what it has (``stopped``). A process that dies or
        hangs is replaced and the search done once more (see the module's docstring)."""
        if nodes < 1 or multipv < 1:
            raise ValueError("nodes and multipv must be at least 1")
        with self._lock:
            failure: Exception | None = None
            for _ in range(2):
                self._ensure_started()
                try:
                    return self._search(
                        fen, moves, nodes, multipv, seconds, silence, on_info, stop, searchmoves
                    )
                except _Died:
                    self._kill()
                    failure = JudgeDied(self.name)
                except _Hung as hung:
                    self._kill()
                    failure = JudgeTimeout(self.name, hung.seconds)
                except JudgeProtocolError:
                    self._kill()
                    raise
            assert failure is not None
            raise failure

    def _search(
        self,
        fen: str,
        moves: Sequence[str],
        nodes: int,
        multipv: int,
        seconds: float,
        silence: float,
        on_info: Callable[[Info], None] | None,
        stop: Callable[[], bool] | None,
        searchmoves: Sequence[str] = (),
    ) -> SearchResult:
        deadline = time.monotonic() + seconds
        if self._dirty:  # an earlier search's answer was never read: end it first
            self._send("stop")
            self._sync(deadline)
        self._send("ucinewgame")
        if multipv != self._multipv:
            self._send(f"setoption name MultiPV value {multipv}")
            self._multipv = multipv
        self._sync(deadline)
        self._send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
        only = f" searchmoves {' '.join(searchmoves)}" if searchmoves else ""
        self._send(f"go nodes {nodes}{only}")
        self._dirty = True
        latest: dict[int, Info] = {}
        last: Info | None = None
        stopped = False
        while True:
            line = self._readline(deadline, silence)
            if stop is not None and not stopped and not line.startswith("bestmove") and stop():
                self._send("stop")
                stopped = True
            if line.startswith("info"):
                try:
                    info = parse_info(line)
                except ValueError:
                    raise JudgeProtocolError(self.name, line) from None
                if info is None:
                    continue
                latest[info.multipv] = info
                last = info
                if on_info is not None:
                    on_info(info)
            elif line.startswith("bestmove"):
                words = line.split()
                if len(words) < 2:
                    raise JudgeProtocolError(self.name, line)
                self._dirty = False
                best = None if words[1] in ("(none)", "0000") else words[1]
                break
            elif line:
                raise JudgeProtocolError(self.name, line)
        lines: list[Info] = []
        seen: set[str] = set()
        for index in sorted(latest):
            info = latest[index]
            if info.pv[0] not in seen:  # a line reported twice as it moved up or down
                seen.add(info.pv[0])
                lines.append(info)
        # the engine's move first (its last report of the first line names it)
        lines.sort(key=lambda info: info.pv[0] != best)
        return SearchResult(
            bestmove=best,
            lines=tuple(lines),
            depth=last.depth if last is not None else 0,
            nodes=last.nodes if last is not None else 0,
            stopped=stopped,
        )
