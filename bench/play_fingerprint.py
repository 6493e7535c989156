"""The playing engine's fixed-node results, to check that a change leaves them alone.

Runs ``engine.play.bestmove`` with explicit node budgets (no clock) on the
start and random-walk middlegames of each variant, at every level's own node
budget and a few seeds, and writes one JSON line per search (move, score,
mate, depth, nodes, pv). ``--check FILE`` compares against a saved run and
exits 1 on the first difference (the saved run may hold more positions:
a slow plain-Python run can be checked on the first few). Benchmark game
records replay only while these stay the same.

    python bench/play_fingerprint.py --out before.jsonl
    ENGINE_PURE=1 python bench/play_fingerprint.py --positions 3 --check before.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator

from engine import _native
from engine.play import LEVEL_TABLE, LEVELS, bestmove
from engine.position import Position

VARIANTS = ("xiangqi", "feidan", "xinban")


def walks(variant: str, count: int) -> Iterator[tuple[str, list[str]]]:
    """The start, then random walks of 12-60 plies (the moves are kept, so
    the search sees the game's history)."""
    start = Position.start(variant)
    yield start.fen(), []
    for seed in range(1, count):
        rng = random.Random(f"{variant}-{seed}")
        pos = start.copy()
        moves: list[str] = []
        for _ in range(rng.randrange(12, 61)):
            legal = sorted(m.iccs() for m in pos.legal_moves)
            text = rng.choice(legal)
            pos.push_iccs(text)
            if pos.outcome() is not None:
                pos.pop()
                break
            moves.append(text)
        yield start.fen(), moves


def cases(positions: int) -> Iterator[dict[str, object]]:
    for variant in VARIANTS:
        for index, (fen, moves) in enumerate(walks(variant, positions)):
            for level in LEVELS:
                seed = (index * 7 + level) % 3
                yield {
                    "variant": variant,
                    "fen": fen,
                    "moves": moves,
                    "level": level,
                    "seed": seed,
                }


def key(case: dict[str, object]) -> str:
    return json.dumps([case["variant"], case["fen"], case["moves"], case["level"], case["seed"]])


def run(case: dict[str, object]) -> dict[str, object]:
    level, seed, moves = case["level"], case["seed"], case["moves"]
    assert isinstance(level, int) and isinstance(seed, int) and isinstance(moves, list)
    found = bestmove(
        str(case["variant"]),
        str(case["fen"]),
        moves,
        level=level,
        nodes=LEVEL_TABLE[level].nodes,
        seed=seed,
    )
    return {**case, **found.to_json(), "mate": found.mate}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10, help="a variant (start included)")
    parser.add_argument("--out", help="write the results here")
    parser.add_argument("--check", help="compare with the results saved here")
    args = parser.parse_args()
    saved: dict[str, dict[str, object]] = {}
    if args.check:
        with open(args.check) as f:
            for line in f:
                case = json.loads(line)
                saved[key(case)] = case
    out = open(args.out, "w") if args.out else None  # noqa: SIM115 - closed below
    t0 = time.process_time()
    count = 0
    for case in cases(args.positions):
        got = run(case)
        count += 1
        if out is not None:
            out.write(json.dumps(got) + "\n")
        if args.check and saved.get(key(case)) != got:
            print(f"DIFFERENT at search {count}:\n  saved {saved.get(key(case))}\n  now   {got}")
            return 1
    if out is not None:
        out.close()
    build = "compiled" if _native.compiled else "plain Python"
    same = ", identical to the saved run" if args.check else ""
    print(f"{count} searches ({build}), {time.process_time() - t0:.1f} CPU s{same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
