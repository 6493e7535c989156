"""A frozen build of the playing engine, for matches against the engine of this checkout.

The engine's strength is measured against its own past: ``BASELINE`` names the
commit whose engine is the yardstick (main with the search and evaluation work
of docs/playing-engine.md, "Stronger engine", before the move-ordering techniques
measured there one at a time). ``prepare``
unpacks that commit's ``engine/`` and engine build script into
``var/bench/baseline-<commit>/`` with ``git archive`` and compiles it there
(the build cache makes that a copy when the same sources were compiled
before); ``BaselineEngine`` runs it as a separate process
(``bench/engine_server.py``), so two versions of the same package play each
other at equal node budgets, both compiled.

    .venv/bin/python bench/baseline.py            # prepare it and say where it is
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# main on 2026-12-07, the engine with the stronger search and the fitted tables
# (the earlier yardstick, main on 2026-12-06 before them: bf49b67da418e116a549ad3e01d8b9c13f01e625)
BASELINE = "d2a5919380915c3596dc461259d08970df1653a2"
ARCHIVED = ("engine", "scripts/build_engine.py")


def prepare(commit: str = BASELINE) -> Path:
    """The folder holding ``commit``'s engine, unpacked and compiled (once)."""
    where = ROOT / "var" / "bench" / f"baseline-{commit[:12]}"
    marker = where / ".ready"
    if not marker.exists():
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile() as archive:
            subprocess.run(
                ["git", "-C", str(ROOT), "archive", "--format=tar", commit, *ARCHIVED],
                stdout=archive,
                check=True,
            )
            archive.seek(0)
            with tarfile.open(fileobj=archive) as tar:
                tar.extractall(where, filter="data")
        subprocess.run([sys.executable, "scripts/build_engine.py"], cwd=where, check=True)
        marker.write_text(commit + "\n")
    return where


class BaselineEngine:
    """One process of the frozen engine (``bench/engine_server.py``)."""

    def __init__(self, commit: str = BASELINE) -> None:
        root = prepare(commit)
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "engine_server.py"), "--root", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            cwd=root,
        )
        hello = json.loads(self._read())
        self.compiled = bool(hello["compiled"])

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the baseline engine stopped")
        return line

    def move(
        self, variant: str, fen: str, moves: list[str], level: int, nodes: int, seed: int
    ) -> str:
        ask = {"variant": variant, "fen": fen, "moves": moves, "level": level, "nodes": nodes}
        ask["seed"] = seed
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(ask) + "\n")
        self.proc.stdin.flush()
        return str(json.loads(self._read())["move"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


if __name__ == "__main__":
    engine = BaselineEngine()
    print(f"baseline {BASELINE[:12]} at {prepare()} (compiled: {engine.compiled})")
    engine.close()
