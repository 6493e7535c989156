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
    .venv/bin/python bench/prover_bench.py --bank     # the bank's re-proof, each
                                                      # algorithm, in CPU time
    .venv/bin/python bench/prover_bench.py --memory   # df-pn's peak memory on the
                                                      # hardest classic, default bound
    .venv/bin/python bench/prover_bench.py --mined    # full-mode proofs of the bank's
                                                      # master-game mates, by length
    .venv/bin/python bench/prover_bench.py --phases mined --min-length 5 --mined-max 5 \
        --nodes 10000000                              # where a full-mode proof's work goes:
                                                      # the shortest win, the uniqueness
                                                      # check, the tree (``book``: the
                                                      # classics up to --full-max)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from uci import UciEngine  # noqa: E402

from engine import Position  # noqa: E402
from engine.solver import Budget, Proof, find_win, solve  # noqa: E402
from engine.solver.dfpn import DEFAULT_MEMORY_MIB  # noqa: E402
from engine.solver.prover import PHASES, Phases  # noqa: E402
from engine.solver.search import OutOfBudget  # noqa: E402
from puzzles.bankfile import REPROVE_NODES, REPROVE_SECONDS, read_bank  # noqa: E402

DATA = ROOT / "puzzles" / "data" / "classic-puzzles.json"
BANK = ROOT / "puzzles" / "data" / "bank.json"
ALGORITHMS = ("search", "dfpn")
# the two long classics with quiet moves: (title, FEN, goal, length)
HARD = (
    ("副夺魁", "4ka3/3Pa4/b3b1CRN/9/6P2/9/9/2p1p4/4pp3/3K5 w - - 0 1", "mate", 7),
    ("填塞道路", "2b6/3k5/9/4P4/9/9/9/4C4/5K3/9 w - - 0 1", "win", 9),
)
PEER = "/usr/games/fairy-stockfish"
# the classic that fills df-pn's table soonest: 第427局 踊跃用兵, stalemate in 11 (full mode)
HARDEST = ("踊跃用兵", "4kab2/4a4/4b4/4P4/9/9/9/9/3K5/7C1 w - - 0 1", "win", 11)
BANK_ALGORITHMS = ("search", "dfpn", "auto")


class Peer(UciEngine):
    """Fairy-Stockfish over UCI, xiangqi, one thread."""

    def __init__(self, path: str) -> None:
        super().__init__(path, Threads=1)

    def mate(self, fen: str, n: int) -> tuple[float, str]:
        """Seconds to a ``go mate n`` answer, and the score it reports."""
        self.new_position(fen)
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


def hard(seconds: float, nodes: int | None, peer: Peer | None, algorithms: list[str]) -> None:
    """副夺魁 and 填塞道路 in full mode with each algorithm, and the peer: nodes (what does not
    change with the machine's load), CPU and wall seconds."""
    print(f"full mode, budget {seconds:.0f} s, {nodes or 'no limit of'} nodes; {_load()}")
    for title, fen, goal, n in HARD:
        for a in algorithms:
            cpu = time.process_time()
            proof = solve(
                Position.from_fen("xiangqi", fen),
                goal,
                n,
                Budget(nodes=nodes, seconds=seconds),
                algorithm=a,
            )
            cpu = time.process_time() - cpu
            rate = proof.nodes / cpu if cpu else 0.0
            print(
                f"{title} ({goal} in {n}) {a:6}: {proof.status} n={proof.moves_to_win} "
                f"keys={','.join(proof.key_moves)} {proof.nodes} nodes, {_fmt(cpu)} s CPU "
                f"({_fmt(proof.seconds)} s wall), {rate:.0f} nodes per CPU second",
                flush=True,
            )
        if peer is not None:
            secs, score = peer.mate(fen, n)
            print(f"{title} peer: {_fmt(secs)} s, score {score}", flush=True)
    print(_load())


def bank_sample(per_group: int) -> list[dict]:
    """A fixed sample of the shipped bank: for each variant, mode, goal and length, the
    ``per_group`` entries whose stored proof times lie nearest the group's median (ties by
    key); 0: the whole bank."""
    entries = read_bank()
    if per_group <= 0:
        return entries
    groups: dict[tuple[str, str, str, int], list[dict]] = {}
    for e in entries:
        groups.setdefault((e["variant"], e["mode"], e["goal"], e["moves_to_win"]), []).append(e)
    sample = []
    for key in sorted(groups):
        mine = sorted(groups[key], key=lambda e: (e["seconds"], e["key"]))
        start = max(0, len(mine) // 2 - per_group // 2)
        sample += mine[start : start + per_group]
    return sample


def bank(seconds: float, per_group: int, algorithms: list[str], verbose: bool) -> int:
    """The bank's re-proof with each algorithm in the same run, entry by entry (``search``:
    the depth-first prover; ``dfpn``; ``auto``: what the bank uses): the re-proving budget
    (``REPROVE_NODES``, at most ``seconds`` each), CPU time per algorithm, the ratios, and
    whether every proof still comes out sound with the stored key."""
    sample = bank_sample(per_group)
    budget = Budget(nodes=REPROVE_NODES, seconds=min(seconds, REPROVE_SECONDS))
    times = {a: 0.0 for a in algorithms}
    nodes = {a: 0 for a in algorithms}
    unsound = {a: 0 for a in algorithms}
    load_before = _load()
    for e in sample:
        line = []
        for a in algorithms:
            start = time.process_time()
            proof = solve(
                Position.from_fen(e["variant"], e["fen"]),
                e["goal"],
                e["moves_to_win"],
                budget,
                mode=e["mode"],
                algorithm=a,
            )
            spent = time.process_time() - start
            times[a] += spent
            nodes[a] += proof.nodes
            ok = proof.status == "sound_unique" and proof.key_moves[:1] == tuple(
                e["proof"]["keys"][:1]
            )
            unsound[a] += not ok
            line.append(f"{a} {proof.status} {_fmt(spent)}s")
        if verbose:
            print(f"{e['variant']} {e['mode']} {e['goal']} m{e['moves_to_win']} "
                  f"{e.get('title') or e['key']}: " + " | ".join(line), flush=True)  # fmt: skip
    print(f"\nBank re-proof, {len(sample)} of {len(read_bank())} shipped puzzles "
          f"({per_group or 'all'} per variant, mode, goal and length), at most "
          f"{budget.seconds:.0f} s and {REPROVE_NODES:,} nodes each, CPU time")  # fmt: skip
    print(f"before: {load_before}; after: {_load()}")
    for a in algorithms:
        rate = nodes[a] / times[a] if times[a] else 0.0
        print(f"{a:6}: {times[a]:8.1f} s, {nodes[a]:,} nodes, {rate:,.0f} nodes/s, "
              f"{unsound[a]} not sound with the stored key")  # fmt: skip
    peer = "search" if "search" in algorithms else algorithms[0]
    for a in algorithms:
        if a != peer and times[a]:
            print(f"{peer} / {a}: {times[peer] / times[a]:.2f}x")
    return 0


def mined(seconds: float, min_length: int, max_length: int, peer: Peer | None) -> int:
    """The prover on real mates: every master-game puzzle of the bank (``source`` game,
    traditional xiangqi) of ``min_length`` to ``max_length`` moves, proved again in full mode from
    nothing, as the bank proves them (``auto``): per length, the median and 95th percentile of
    CPU seconds for the first forced win (``find_win``) and for the whole proof (``solve``: every
    key and every defence, so the difference is the uniqueness check), nodes, and the peer's
    ``go mate N`` on the same positions."""
    entries = [
        e
        for e in read_bank()
        if e["source"] == "game"
        and e["variant"] == "xiangqi"
        and min_length <= e["moves_to_win"] <= max_length
    ]
    budget = Budget(seconds=seconds)
    rows: dict[int, Row] = {}
    pieces: dict[int, list[int]] = {}
    load_before = _load()
    for e in entries:
        n = e["moves_to_win"]
        row = rows.setdefault(n, Row())
        pos = Position.from_fen("xiangqi", e["fen"])
        start = time.process_time()
        find_win(pos, e["goal"], n, budget, mode="full", algorithm="auto")
        row.find.append(time.process_time() - start)
        start = time.process_time()
        proof = solve(pos, e["goal"], n, budget, mode="full", algorithm="auto")
        spent = time.process_time() - start
        row.proof.append(spent)
        row.nodes += proof.nodes
        row.seconds += spent
        row.exhausted += proof.status == "budget_exhausted"
        row.statuses[proof.status] = row.statuses.get(proof.status, 0) + 1
        pieces.setdefault(n, []).append(sum(ch.isalpha() for ch in e["fen"].split()[0]))
        if peer is not None:
            row.peer.append(peer.mate(e["fen"], n)[0])
    print(f"Master-game mates of the bank, full mode, auto prover, at most {seconds:.0f} s each, "
          f"CPU seconds; before: {load_before}")  # fmt: skip
    print(f"{'length':>6} {'count':>5} {'pieces':>6} {'find p50':>9} {'solve p50':>9} "
          f"{'solve p95':>9} {'nodes/s':>9} {'peer p50':>9} {'ratio':>6}  statuses")  # fmt: skip
    for n in sorted(rows):
        row = rows[n]
        rate = row.nodes / row.seconds if row.seconds else 0.0
        peer_median = statistics.median(row.peer) if row.peer else None
        solve_median = statistics.median(row.proof)
        print(f"{n:>6} {len(row.proof):>5} {statistics.median(pieces[n]):>6.0f} "
              f"{_fmt(statistics.median(row.find)):>9} {_fmt(solve_median):>9} "
              f"{_fmt(_p95(row.proof)):>9} {rate:>9,.0f} {_fmt(peer_median):>9} "
              f"{_ratio(solve_median, peer_median):>6}  "
              + ", ".join(f"{k} {v}" for k, v in sorted(row.statuses.items())))  # fmt: skip
    print(f"after: {_load()}")
    return 0


def phase_jobs(which: str, min_length: int, max_length: int) -> list[tuple[str, str, str, int]]:
    """(name, FEN, goal, length) of the traditional-xiangqi problems of a set: ``mined``, the
    bank's master-game puzzles; ``book``, the classics."""
    if which == "mined":
        return [
            (e.get("title") or e["key"], e["fen"], e["goal"], e["moves_to_win"])
            for e in read_bank()
            if e["source"] == "game"
            and e["variant"] == "xiangqi"
            and min_length <= e["moves_to_win"] <= max_length
        ]
    return [
        (p["title"] or p["collection"], p["fen"],
         "mate" if p["ending"] == "checkmate" else "win", p["mate_in"])
        for p in json.loads(DATA.read_text("utf-8"))["puzzles"]
        if min_length <= p["mate_in"] <= max_length
    ]  # fmt: skip


def phases(
    which: str,
    min_length: int,
    max_length: int,
    seconds: float,
    nodes: int | None,
    record: Path | None,
    verbose: bool,
    algorithm: str = "auto",
) -> int:
    """Full-mode proofs (``algorithm``, by default ``auto``) of a set of problems, with the work of each phase of
    ``solve`` (``Phases``): the shortest win, the uniqueness check (every first move decided
    at that length) and the solution tree, in nodes (what the machine's load does not change)
    and CPU seconds; per length, the median and the worst of each, and the statuses.
    ``record``: one JSON line per problem (status, length, keys, the phases), to compare two
    builds."""
    jobs = phase_jobs(which, min_length, max_length)
    budget = Budget(nodes=nodes, seconds=seconds)
    rows: dict[int, list[tuple[Proof, Phases]]] = {}
    out = record.open("w", encoding="utf-8") if record else None
    load_before = _load()
    for name, fen, goal, n in jobs:
        work = Phases()
        proof = solve(Position.from_fen("xiangqi", fen), goal, n, budget, mode="full",
                      algorithm=algorithm, phases=work)  # fmt: skip
        rows.setdefault(n, []).append((proof, work))
        line = {
            "name": name, "fen": fen, "n": n, "status": proof.status,
            "length": proof.moves_to_win, "keys": list(proof.key_moves), "nodes": proof.nodes,
            "phases": {p: [work.nodes[p], round(work.seconds[p], 3)] for p in PHASES},
        }  # fmt: skip
        if out is not None:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            out.flush()
        if verbose:
            print(f"m{n} {name}: {proof.status} {','.join(proof.key_moves)} {proof.nodes} nodes "
                  + " ".join(f"{p} {work.nodes[p]}/{_fmt(work.seconds[p])}s" for p in PHASES),
                  flush=True)  # fmt: skip
    if out is not None:
        out.close()
    limit = f"{nodes:,} nodes and " if nodes else ""
    print(f"{which} problems, full mode, {algorithm} prover, at most {limit}{seconds:.0f} s each; "
          f"nodes in thousands, CPU seconds; before: {load_before}")  # fmt: skip
    cols = " ".join(f"{p + ' p50':>15} {p + ' max':>15}" for p in (*PHASES, "total"))
    print(f"{'len':>3} {'count':>5} {cols}  statuses")
    for n in sorted(rows):
        cells = []
        for p in (*PHASES, "total"):
            ks = [sum(w.nodes.values()) if p == "total" else w.nodes[p] for _, w in rows[n]]
            ss = [sum(w.seconds.values()) if p == "total" else w.seconds[p] for _, w in rows[n]]
            cells.append(f"{statistics.median(ks) / 1000:>8.0f}k/{_fmt(statistics.median(ss)):>5}s")
            cells.append(f"{max(ks) / 1000:>8.0f}k/{_fmt(max(ss)):>5}s")
        statuses: dict[str, int] = {}
        for proof, _ in rows[n]:
            statuses[proof.status] = statuses.get(proof.status, 0) + 1
        share = sum(w.nodes["uniqueness"] for _, w in rows[n]) / max(
            1, sum(sum(w.nodes.values()) for _, w in rows[n])
        )
        print(f"{n:>3} {len(rows[n]):>5} " + " ".join(cells) + "  "
              + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
              + f"; uniqueness {share:.0%} of the nodes")  # fmt: skip
    print(f"after: {_load()}")
    return 0


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def memory(seconds: float, nodes: int | None, memory_mib: int) -> int:
    """df-pn's peak memory on the hardest classic (``HARDEST``, full mode) with the table's
    bound, in a fresh process: the peak resident size (``ru_maxrss``) less the size before the
    proof, the table's entries and how often it was full."""
    if os.environ.get("PROVER_BENCH_CHILD") != "memory":
        child = subprocess.run(
            [sys.executable, __file__, "--memory", "--seconds", str(seconds),
             "--memory-mib", str(memory_mib), *(["--nodes", str(nodes)] if nodes else [])],
            env={**os.environ, "PROVER_BENCH_CHILD": "memory"},
            check=True,
        )  # fmt: skip
        return child.returncode
    from engine.solver.prover import _search

    title, fen, goal, n = HARDEST
    pos = Position.from_fen("xiangqi", fen)
    _search(pos, goal, n, "full", None, "auto", memory_mib).distance(1)  # imports, caches
    before = _rss_mib()
    budget = Budget(nodes=nodes, seconds=seconds)
    search = _search(pos, goal, n, "full", budget, "auto", memory_mib)
    cpu = time.process_time()
    status = "finished"
    try:
        search.distance(n)
    except OutOfBudget:
        status = "out of budget"
    cpu = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    entries = getattr(search, "_entries", lambda: len(search.table))()
    print(f"{title} ({goal} in {n}, full mode), bound {memory_mib} MiB: {status} after "
          f"{search.nodes:,} nodes, {cpu:.0f} s CPU; resident before {before:.0f} MiB, peak "
          f"{peak:.0f} MiB (+{peak - before:.0f} MiB); {entries:,} table entries, "
          f"{getattr(search, 'purges', 0)} purges; {_load()}")  # fmt: skip
    return 0


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
    parser.add_argument("--bank", action="store_true", help="the bank's re-proof, each algorithm")
    parser.add_argument(
        "--per-group", type=int, default=2, help="bank entries per group (0: the whole bank)"
    )
    parser.add_argument("--memory", action="store_true", help="df-pn's peak memory")
    parser.add_argument("--mined", action="store_true", help="the bank's master-game mates")
    parser.add_argument("--min-length", type=int, default=3, help="--mined: shortest mate")
    parser.add_argument("--mined-max", type=int, default=30, help="--mined: longest mate")
    parser.add_argument("--nodes", type=int, default=None, help="node budget per proof")
    parser.add_argument(
        "--phases", choices=("mined", "book"), help="the work of each phase of a full proof"
    )
    parser.add_argument("--record", type=Path, help="--phases: one JSON line per problem")
    parser.add_argument("--algorithm", default="auto", help="--phases: the prover's algorithm")
    parser.add_argument("--memory-mib", type=int, default=DEFAULT_MEMORY_MIB, help="its bound")
    args = parser.parse_args()
    algorithms = [a for a in args.algorithms.split(",") if a]
    if args.bank:
        if args.algorithms == ",".join(ALGORITHMS):
            algorithms = list(BANK_ALGORITHMS)
        return bank(args.seconds, args.per_group, algorithms, args.verbose)
    if args.phases:
        top = args.mined_max if args.phases == "mined" else args.full_max
        return phases(args.phases, args.min_length, top, args.seconds, args.nodes,
                      args.record, args.verbose, args.algorithm)  # fmt: skip
    if args.memory:
        return memory(args.seconds, args.nodes, args.memory_mib)
    if args.mined:
        mined_peer = Peer(PEER) if not args.no_peer and shutil.which(PEER) else None
        status = mined(min(args.seconds, 60.0), args.min_length, args.mined_max, mined_peer)
        if mined_peer is not None:
            mined_peer.close()
        return status
    if args.compare:
        return compare(args.seconds, args.max_length, args.verbose)
    if args.hard:
        hard_peer = Peer(PEER) if not args.no_peer and shutil.which(PEER) else None
        hard(args.seconds, args.nodes, hard_peer, algorithms)
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
