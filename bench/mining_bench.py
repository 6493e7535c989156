"""Benchmark of mining puzzles from the master games (puzzles.mining, strategy ``master``).

Mines the same games twice in one run, once with the quick searches of today
(``MASTER_QUICK``) and once with the previous ones (``MASTER_QUICK_BEFORE``, the named
peer), and prints for each, in CPU time of this process:

- games read per second and candidate positions filtered per second;
- proved puzzles per CPU-hour (puzzles kept, after the triviality filter);
- where the time goes: reading and replaying the games, the quick searches, the proofs;
- how many positions the quick searches passed on, how many proved sound and unique;

then which puzzles one filter found and the other did not. The machine's load average is
printed with the results (a loaded machine slows both alike).

    .venv/bin/python bench/mining_bench.py                       # games 100-199
    .venv/bin/python bench/mining_bench.py --first 100 --games 30  # a smoke run
    .venv/bin/python bench/mining_bench.py --only new              # today's filter alone
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles.mining import (  # noqa: E402 - after the path is set
    MASTER_QUICK,
    MASTER_QUICK_BEFORE,
    Chunk,
    MinedPuzzle,
    MiningStats,
    QuickSearch,
    mine_master,
)


def run(chunk: Chunk, quick: tuple[QuickSearch, ...]) -> tuple[MiningStats, list[MinedPuzzle]]:
    stats = MiningStats()
    found = mine_master(chunk, quick=quick, stats=stats)
    return stats, found


def report(name: str, stats: MiningStats, found: list[MinedPuzzle]) -> None:
    cpu = stats.seconds or 1e-9
    lengths: dict[int, int] = {}
    for puzzle in found:
        lengths[puzzle.moves_to_win] = lengths.get(puzzle.moves_to_win, 0) + 1
    print(f"{name}:")
    print(
        f"  {stats.games} games, {stats.candidates} positions, {stats.searches} quick searches, "
        f"{stats.seen} seen, {stats.proofs} proofs, {stats.proved} sound, {stats.kept} kept "
        f"(lengths {dict(sorted(lengths.items()))})"
    )
    print(
        f"  {stats.games / cpu:.2f} games/s, {stats.candidates / cpu:.0f} positions/s, "
        f"{stats.kept * 3600 / cpu:.0f} proved puzzles per CPU-hour"
    )
    print(
        f"  CPU {cpu:.1f}s: reading {stats.read_seconds:.1f}s "
        f"({100 * stats.read_seconds / cpu:.0f}%), filter {stats.filter_seconds:.1f}s "
        f"({100 * stats.filter_seconds / cpu:.0f}%, "
        f"{1000 * stats.filter_seconds / max(1, stats.candidates):.2f} ms a position), "
        f"prove {stats.prove_seconds:.1f}s ({100 * stats.prove_seconds / cpu:.0f}%)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-moves", type=int, default=7)
    parser.add_argument("--only", choices=("new", "before"))
    parser.add_argument(
        "--quick", type=json.loads, help="today's filter replaced by this one, as JSON: "
        '[["checks_only", 7, 5000, "everywhere"], ["full", 3, 3000, "near_end"]]',
    )  # fmt: skip
    args = parser.parse_args()
    from engine import _native

    chunk = Chunk(
        variant="xiangqi",
        strategy="master",
        seed=1,
        count=10**6,
        max_moves=args.max_moves,
        first=args.first,
        games=args.games,
    )
    print(
        f"games {args.first}-{args.first + args.games - 1}, mates up to {args.max_moves}, "
        f"compiled engine: {_native.compiled}, load average {os.getloadavg()[0]:.1f}"
    )
    results = {}
    today = tuple(tuple(q) for q in args.quick) if args.quick else MASTER_QUICK
    for name, quick in (("new", today), ("before", MASTER_QUICK_BEFORE)):
        if args.only and args.only != name:
            continue
        stats, found = run(chunk, quick)  # type: ignore[arg-type]
        label = "today's filter" if name == "new" else "the previous filter (peer)"
        report(f"{label} {quick}", stats, found)
        results[name] = (stats, found)
    if len(results) == 2:
        new = {(p.source_game, p.ply) for p in results["new"][1]}
        before = {(p.source_game, p.ply) for p in results["before"][1]}
        new_rate = results["new"][0].kept / (results["new"][0].seconds or 1e-9)
        before_rate = results["before"][0].kept / (results["before"][0].seconds or 1e-9)
        print(
            f"both {len(new & before)}, only today's {sorted(new - before)}, "
            f"only the previous {sorted(before - new)}; puzzles per CPU-second "
            f"{new_rate / (before_rate or 1e-9):.1f}x the previous filter's"
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
