"""A peer engine driven over UCI (Fairy-Stockfish, xiangqi), shared by the benchmarks."""

from __future__ import annotations

import subprocess


class UciEngine:
    """One engine process set to xiangqi, with the given UCI options, ready for commands."""

    def __init__(self, path: str, **options: int | str) -> None:
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._send("uci")
        self._wait("uciok")
        self._send("setoption name UCI_Variant value xiangqi")
        for name, value in options.items():
            self._send(f"setoption name {name} value {value}")
        self._ready()

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _wait(self, prefix: str) -> list[str]:
        """The lines the engine prints up to and including the first that starts with
        ``prefix``."""
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the peer engine stopped before {prefix!r}")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def _ready(self) -> None:
        self._send("isready")
        self._wait("readyok")

    def new_position(self, fen: str) -> None:
        """A new game from ``fen``, the engine ready for ``go``."""
        self._send("ucinewgame")
        self._ready()
        self._send(f"position fen {fen}")
