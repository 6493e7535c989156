"""Benchmark of the puzzle prover on the classical problems.

For every problem of puzzles/data/classic-puzzles.json up to a length, in
checks-only mode (problems whose line checks at every move) and in full
mode (up to a shorter length), time

- ``find_win``: the shortest forced win and one key, no uniqueness check;
- ``solve``: the full proof (every key, every defence, the solution tree);
- the peer, Fairy-Stockfish (``go mate N`` on one thread), which finds a
  mate without proving that it is unique or sound.

Prints, per mode and length, the median and 95th percentile of the time per
problem, the nodes per second, the peer's median and the ratios. Problems
whose proof ran out of budget are counted at the budget and marked.

    .venv/bin/python bench/prover_bench.py            # the whole set (long)
    .venv/bin/python bench/prover_bench.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Position  # noqa: E402
from engine.solver import Budget, find_win, solve  # noqa: E402

DATA = ROOT / "puzzles" / "data" / "classic-puzzles.json"
PEER = "/usr/games/fairy-stockfish"


class Peer:
    """Fairy-Stockfish over UCI, xiangqi, one thread."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self._send("uci")
        self._wait("uciok")
        self._send("setoption name UCI_Variant value xiangqi")
        self._send("setoption name Threads value 1")
        self._send("isready")
        self._wait("readyok")

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _wait(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the peer stopped")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def mate(self, fen: str, n: int) -> tuple[float, str]:
        """Seconds to a ``go mate n`` answer, and the score it reports."""
        self._send("ucinewgame")
        self._send("isready")
        self._wait("readyok")
        self._send(f"position fen {fen}")
        started = time.perf_counter()
        self._send(f"go mate {n}")
        lines = self._wait("bestmove")
        seconds = time.perf_counter() - started
        scores = [ln.split(" score ")[1].split(" nodes")[0] for ln in lines if " score " in ln]
        return seconds, scores[-1] if scores else "?"

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


@dataclass
class Row:
    find: list[float] = field(default_factory=list)
    proof: list[float] = field(default_factory=list)
    peer: list[float] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    exhausted: int = 0
    statuses: dict[str, int] = field(default_factory=dict)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def _ratio(ours: float, peer: float | None) -> str:
    if not peer:
        return "-"
    r = ours / peer
    return f"{r:.2f}x" if r < 10 else f"{r:.0f}x"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few short problems only")
    parser.add_argument("--max-length", type=int, default=9, help="longest problem (checks-only)")
    parser.add_argument("--full-max", type=int, default=5, help="longest problem in full mode")
    parser.add_argument("--seconds", type=float, default=600.0, help="budget per proof")
    parser.add_argument("--no-peer", action="store_true", help="do not run Fairy-Stockfish")
    parser.add_argument("--verbose", action="store_true", help="one line per problem")
    args = parser.parse_args()

    puzzles = json.loads(DATA.read_text("utf-8"))["puzzles"]
    max_length, full_max = args.max_length, args.full_max
    if args.quick:
        max_length, full_max = min(max_length, 5), min(full_max, 3)
    jobs: list[tuple[str, dict]] = []
    per_length: dict[tuple[str, int], int] = {}
    for puzzle in puzzles:
        n = puzzle["mate_in"]
        modes = []
        if puzzle["all_checks"] and n <= max_length:
            modes.append("checks_only")
        if n <= full_max:
            modes.append("full")
        for mode in modes:
            if args.quick and per_length.get((mode, n), 0) >= 2:
                continue
            per_length[(mode, n)] = per_length.get((mode, n), 0) + 1
            jobs.append((mode, puzzle))

    peer = None
    if not args.no_peer and shutil.which(PEER):
        peer = Peer(PEER)
    peer_times: dict[str, float] = {}
    rows: dict[tuple[str, int], Row] = {}
    budget = Budget(seconds=args.seconds)
    for mode, puzzle in jobs:
        fen, n = puzzle["fen"], puzzle["mate_in"]
        goal = "mate" if puzzle["ending"] == "checkmate" else "win"
        row = rows.setdefault((mode, n), Row())
        found = find_win(Position.from_fen("xiangqi", fen), goal, n, budget, mode=mode)
        proof = solve(Position.from_fen("xiangqi", fen), goal, n, budget, mode=mode)
        row.find.append(found.seconds)
        row.proof.append(proof.seconds)
        row.nodes += proof.nodes
        row.seconds += proof.seconds
        row.exhausted += proof.status == "budget_exhausted"
        row.statuses[proof.status] = row.statuses.get(proof.status, 0) + 1
        if peer is not None:
            if fen not in peer_times:
                peer_times[fen] = peer.mate(fen, n)[0]
            row.peer.append(peer_times[fen])
        if args.verbose:
            print(
                f"{mode:11} m{n} {puzzle['title'] or puzzle['collection']}: {proof.status}"
                f" keys={','.join(proof.key_moves)} find={_fmt(found.seconds)}s"
                f" proof={_fmt(proof.seconds)}s nodes={proof.nodes}"
                + (f" peer={_fmt(peer_times[fen])}s" if peer is not None else ""),
                flush=True,
            )
    if peer is not None:
        peer.close()

    peer_name = "Fairy-Stockfish (go mate N, 1 thread)" if peer is not None else "no peer"
    print(f"\nPuzzle prover on {DATA.name}; peer: {peer_name}")
    print("times in seconds per problem; ratio = ours / peer (medians)\n")
    header = (
        f"{'mode':11} {'len':>3} {'n':>3} | {'find med':>8} {'find p95':>8} | "
        f"{'proof med':>9} {'proof p95':>9} {'nodes/s':>8} | {'peer med':>8} "
        f"{'find/peer':>9} {'proof/peer':>10} | statuses"
    )
    print(header)
    print("-" * len(header))
    for (mode, n), row in sorted(rows.items()):
        find_med = statistics.median(row.find)
        proof_med = statistics.median(row.proof)
        peer_med = statistics.median(row.peer) if row.peer else None
        rate = row.nodes / row.seconds if row.seconds else 0.0
        ratio_find = f"{_ratio(find_med, peer_med):>9}"
        ratio_proof = f"{_ratio(proof_med, peer_med):>10}"
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(row.statuses.items()))
        print(
            f"{mode:11} {n:>3} {len(row.proof):>3} | {_fmt(find_med):>8} {_fmt(_p95(row.find)):>8} | "
            f"{_fmt(proof_med):>9} {_fmt(_p95(row.proof)):>9} {rate:8.0f} | "
            f"{_fmt(peer_med):>8} {ratio_find} {ratio_proof} | {statuses}"
        )
    print("\nGoals (one core): full mode, every mate in <=3 under 2 s and mate-in-5 median under")
    print("60 s; checks-only mode, mate-in-9 median under 10 s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
