"""Benchmark of the puzzle prover on the classical problems.

For every problem of puzzles/data/classic-puzzles.json up to a length, in
checks-only mode (problems whose line checks at every move) and in full
mode (up to a shorter length), time, for each prover algorithm (``search``:
depth-first proof search; ``dfpn``: proof-number search),

- ``find_win``: the shortest forced win and one key, no uniqueness check;
- ``solve``: the full proof (every key, every defence, the solution tree);
- the peer, Fairy-Stockfish (``go mate N`` on one thread), which finds a
  mate without proving that it is unique or sound.

Prints, per mode, length and algorithm, the median and 95th percentile of
the time per problem, the nodes per second, the peer's median and the
ratios. Problems whose proof ran out of budget are counted at the budget and
marked. The machine's load average is printed with the results.

    .venv/bin/python bench/prover_bench.py            # the whole set (long)
    .venv/bin/python bench/prover_bench.py --quick    # a smoke run
    .venv/bin/python bench/prover_bench.py --hard     # 副夺魁 and 填塞道路 only
    .venv/bin/python bench/prover_bench.py --compare  # do the provers agree
                                                      # on the bank and classics?
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from uci import UciEngine  # noqa: E402

from engine import Position  # noqa: E402
from engine.solver import Budget, Proof, find_win, solve  # noqa: E402

DATA = ROOT / "puzzles" / "data" / "classic-puzzles.json"
BANK = ROOT / "puzzles" / "data" / "bank.json"
ALGORITHMS = ("search", "dfpn")
# the two long classics with quiet moves: (title, FEN, goal, length)
HARD = (
    ("副夺魁", "4ka3/3Pa4/b3b1CRN/9/6P2/9/9/2p1p4/4pp3/3K5 w - - 0 1", "mate", 7),
    ("填塞道路", "2b6/3k5/9/4P4/9/9/9/4C4/5K3/9 w - - 0 1", "win", 9),
)
PEER = "/usr/games/fairy-stockfish"


class Peer(UciEngine):
    """Fairy-Stockfish over UCI, xiangqi, one thread."""

    def __init__(self, path: str) -> None:
        super().__init__(path, Threads=1)

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


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


def _verdict(proof: Proof) -> tuple[str, int | None, tuple[str, ...]]:
    return (proof.status, proof.moves_to_win, tuple(sorted(proof.key_moves)))


def compare(seconds: float, max_length: int, verbose: bool) -> int:
    """Both provers over every shipped puzzle and every classic (up to
    ``max_length``, in checks-only mode where the line checks throughout,
    in full mode too up to 5): the problems where they disagree while
    neither ran out of budget."""
    jobs: list[tuple[str, str, str, str, int, str]] = []
    for p in json.loads(BANK.read_text("utf-8"))["puzzles"]:
        jobs.append((p["key"], p["variant"], p["fen"], p["goal"], p["moves_to_win"], p["mode"]))
    for p in json.loads(DATA.read_text("utf-8"))["puzzles"]:
        n = p["mate_in"]
        goal = "mate" if p["ending"] == "checkmate" else "win"
        name = p["title"] or p["collection"]
        if p["all_checks"] and n <= max_length:
            jobs.append((name, "xiangqi", p["fen"], goal, n, "checks_only"))
        if n <= min(5, max_length):
            jobs.append((name, "xiangqi", p["fen"], goal, n, "full"))
    budget = Budget(seconds=seconds)
    agree = differ = skipped = 0
    times = {a: 0.0 for a in ALGORITHMS}
    for name, variant, fen, goal, n, mode in jobs:
        proofs = {
            a: solve(Position.from_fen(variant, fen), goal, n, budget, mode=mode, algorithm=a)
            for a in ALGORITHMS
        }
        for a, proof in proofs.items():
            times[a] += proof.seconds
        if any(p.status == "budget_exhausted" for p in proofs.values()):
            skipped += 1
            flag = "budget"
        elif len({_verdict(p) for p in proofs.values()}) == 1:
            agree += 1
            flag = "same"
        else:
            differ += 1
            flag = "DIFFER"
        if verbose or flag != "same":
            print(
                f"{flag:6} {mode:11} m{n} {name}: "
                + " | ".join(
                    f"{a} {p.status} {p.moves_to_win} {','.join(p.key_moves)} {_fmt(p.seconds)}s"
                    for a, p in proofs.items()
                ),
                flush=True,
            )
    print(
        f"\n{len(jobs)} problems: {agree} the same, {differ} different, {skipped} out of budget "
        f"({seconds:.0f} s each); total seconds "
        + ", ".join(f"{a} {t:.0f}" for a, t in times.items())
        + f"; {_load()}"
    )
    return 1 if differ else 0


def hard(seconds: float, peer: Peer | None, algorithms: list[str]) -> None:
    """副夺魁 and 填塞道路 in full mode with each algorithm, and the peer."""
    print(f"full mode, budget {seconds:.0f} s; {_load()}")
    for title, fen, goal, n in HARD:
        for a in algorithms:
            proof = solve(
                Position.from_fen("xiangqi", fen), goal, n, Budget(seconds=seconds), algorithm=a
            )
            rate = proof.nodes / proof.seconds if proof.seconds else 0.0
            print(
                f"{title} ({goal} in {n}) {a:6}: {proof.status} n={proof.moves_to_win} "
                f"keys={','.join(proof.key_moves)} {_fmt(proof.seconds)} s, {proof.nodes} nodes, "
                f"{rate:.0f} nodes/s",
                flush=True,
            )
        if peer is not None:
            secs, score = peer.mate(fen, n)
            print(f"{title} peer: {_fmt(secs)} s, score {score}", flush=True)
    print(_load())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few short problems only")
    parser.add_argument("--max-length", type=int, default=9, help="longest problem (checks-only)")
    parser.add_argument("--full-max", type=int, default=5, help="longest problem in full mode")
    parser.add_argument("--seconds", type=float, default=600.0, help="budget per proof")
    parser.add_argument("--no-peer", action="store_true", help="do not run Fairy-Stockfish")
    parser.add_argument("--verbose", action="store_true", help="one line per problem")
    parser.add_argument(
        "--algorithms", default=",".join(ALGORITHMS), help="prover algorithms, comma-separated"
    )
    parser.add_argument("--no-find", action="store_true", help="time solve only")
    parser.add_argument("--hard", action="store_true", help="副夺魁 and 填塞道路 only")
    parser.add_argument("--compare", action="store_true", help="check that the provers agree")
    args = parser.parse_args()
    algorithms = [a for a in args.algorithms.split(",") if a]
    if args.compare:
        return compare(args.seconds, args.max_length, args.verbose)
    if args.hard:
        hard_peer = Peer(PEER) if not args.no_peer and shutil.which(PEER) else None
        hard(args.seconds, hard_peer, algorithms)
        if hard_peer is not None:
            hard_peer.close()
        return 0

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
    rows: dict[tuple[str, int, str], Row] = {}
    budget = Budget(seconds=args.seconds)
    load_before = _load()
    for mode, puzzle in jobs:
        fen, n = puzzle["fen"], puzzle["mate_in"]
        goal = "mate" if puzzle["ending"] == "checkmate" else "win"
        if peer is not None and fen not in peer_times:
            peer_times[fen] = peer.mate(fen, n)[0]
        for algorithm in algorithms:
            row = rows.setdefault((mode, n, algorithm), Row())
            if not args.no_find:
                found = find_win(
                    Position.from_fen("xiangqi", fen),
                    goal,
                    n,
                    budget,
                    mode=mode,
                    algorithm=algorithm,
                )
                row.find.append(found.seconds)
            proof = solve(
                Position.from_fen("xiangqi", fen), goal, n, budget, mode=mode, algorithm=algorithm
            )
            row.proof.append(proof.seconds)
            row.nodes += proof.nodes
            row.seconds += proof.seconds
            row.exhausted += proof.status == "budget_exhausted"
            row.statuses[proof.status] = row.statuses.get(proof.status, 0) + 1
            if peer is not None:
                row.peer.append(peer_times[fen])
            if args.verbose:
                print(
                    f"{mode:11} m{n} {algorithm:6} {puzzle['title'] or puzzle['collection']}: "
                    f"{proof.status} keys={','.join(proof.key_moves)}"
                    + (f" find={_fmt(row.find[-1])}s" if row.find else "")
                    + f" proof={_fmt(proof.seconds)}s nodes={proof.nodes}"
                    + (f" peer={_fmt(peer_times[fen])}s" if peer is not None else ""),
                    flush=True,
                )
    if peer is not None:
        peer.close()

    peer_name = "Fairy-Stockfish (go mate N, 1 thread)" if peer is not None else "no peer"
    print(f"\nPuzzle prover on {DATA.name}; peer: {peer_name}")
    print("times in seconds per problem; ratio = ours / peer (medians)")
    print(f"before: {load_before}; after: {_load()}\n")
    header = (
        f"{'mode':11} {'len':>3} {'alg':6} {'n':>3} | {'find med':>8} {'find p95':>8} | "
        f"{'proof med':>9} {'proof p95':>9} {'nodes/s':>8} | {'peer med':>8} "
        f"{'find/peer':>9} {'proof/peer':>10} | statuses"
    )
    print(header)
    print("-" * len(header))
    for (mode, n, algorithm), row in sorted(rows.items()):
        find_med = statistics.median(row.find) if row.find else None
        proof_med = statistics.median(row.proof)
        peer_med = statistics.median(row.peer) if row.peer else None
        rate = row.nodes / row.seconds if row.seconds else 0.0
        ratio_find = f"{_ratio(find_med, peer_med):>9}" if find_med is not None else f"{'-':>9}"
        find_p95 = _p95(row.find) if row.find else None
        ratio_proof = f"{_ratio(proof_med, peer_med):>10}"
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(row.statuses.items()))
        print(
            f"{mode:11} {n:>3} {algorithm:6} {len(row.proof):>3} | "
            f"{_fmt(find_med):>8} {_fmt(find_p95):>8} | "
            f"{_fmt(proof_med):>9} {_fmt(_p95(row.proof)):>9} {rate:8.0f} | "
            f"{_fmt(peer_med):>8} {ratio_find} {ratio_proof} | {statuses}"
        )
    print("\nGoals (one core): 300,000 nodes/s or more; full mode, mate in 5 median 1 s or less")
    print("and 95th percentile 5 s or less; checks-only mode, every classic within 10 s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
