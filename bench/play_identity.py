"""Does the playing engine still search exactly as before? Run by hand.

A change made for speed must not change what the playing engine does: the
game records in ``bench/records/`` hold only while a search with an
explicit node budget gives the same move, score, mate, depth, node count
and principal variation. This script runs such searches and writes their
answers, one JSON line each, so that two builds (or the compiled build and
``ENGINE_PURE=1``) can be compared line by line:

- positions: per variant the start, positions reached by seeded random
  walks of 8 to 120 plies (the walk's moves are played from the start, so
  the search knows the repetition history), and one whose history holds
  the start twice (so the repetition rules are looked up in the tree);
- per position every level 1-8 at its own node budget (``LEVEL_TABLE``),
  passed explicitly (no clock), with a seed drawn per search; then
  ``evaluate`` and ``accepts_draw`` at level 4.

    .venv/bin/python bench/play_identity.py --out /tmp/before.jsonl
    ENGINE_PURE=1 .venv/bin/python bench/play_identity.py --against /tmp/before.jsonl
    .venv/bin/python bench/play_identity.py --levels 8 --variants feidan --one 2

``--against FILE`` compares with a file written before and exits 1 on any
difference; ``--one N`` runs only the N-th position of each variant (for a
profiler). Prints the searches' total nodes and CPU seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import Position  # noqa: E402
from engine.play import (  # noqa: E402
    LEVEL_TABLE,
    LEVELS,
    accepts_draw,
    evaluate,
    level_limits,
    search_position,
)

VARIANTS = ("xiangqi", "feidan", "xinban")
WALKS = (8, 16, 24, 32, 40, 60, 80, 100, 120)  # plies of the random walks, one seed each


def walk(variant: str, plies: int, seed: int) -> list[str]:
    """The moves of a seeded random walk from the start, stopped before the
    game would end."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    moves: list[str] = []
    for _ in range(plies):
        legal = sorted(m.iccs() for m in pos.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        pos.push_iccs(move)
        if pos.outcome() is not None:
            pos.pop()
            break
        moves.append(move)
    return moves


def shuffle(variant: str) -> list[str]:
    """A horse of each side out and back, then out again: the start and the
    position after the first move have each stood twice."""
    start = Position.start(variant)
    horses: dict[str, list[str]] = {"red": [], "black": []}
    for m in sorted(start.legal_moves, key=lambda mv: mv.iccs()):
        if (start.piece_at(m.iccs()[:2]) or "").lstrip("+").upper() == "N":
            horses["red"].append(m.iccs())
    black = start.with_turn("black")
    for m in sorted(black.legal_moves, key=lambda mv: mv.iccs()):
        if (black.piece_at(m.iccs()[:2]) or "").lstrip("+").upper() == "N":
            horses["black"].append(m.iccs())
    for red in horses["red"]:
        for blk in horses["black"]:
            line = [red, blk, red[2:] + red[:2], blk[2:] + blk[:2], red]
            pos = Position.start(variant)
            try:
                for move in line:
                    pos.push_iccs(move)
            except ValueError:
                continue
            if pos.outcome() is None:
                return line
    raise AssertionError(f"no horse shuffle in {variant}")


def positions(variant: str) -> list[list[str]]:
    """The move lists from the start of each position of ``variant``."""
    out: list[list[str]] = [[]]
    for i, plies in enumerate(WALKS):
        out.append(walk(variant, plies, 100 * (VARIANTS.index(variant) + 1) + i))
    out.append(shuffle(variant))
    return out


def answers(
    variant: str, index: int, moves: list[str], levels: list[int]
) -> list[dict[str, object]]:
    start = Position.start(variant).fen()
    pos = Position.start(variant)
    for move in moves:
        pos.push_iccs(move)
    out: list[dict[str, object]] = []
    for level in levels:
        seed = 1000 * VARIANTS.index(variant) + 10 * index + level
        limits = level_limits(level, nodes=LEVEL_TABLE[level].nodes, seed=seed)
        found = search_position(pos, limits)
        out.append(
            {"variant": variant, "position": index, "level": level, "seed": seed} | found.to_json()
        )
    out.append(
        {
            "variant": variant,
            "position": index,
            "evaluate": evaluate(variant, start, moves),
            "accepts_draw_4": accepts_draw(variant, start, moves, level=4),
        }
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="write the answers here")
    parser.add_argument("--against", type=Path, default=None, help="compare with this file")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--levels", default=",".join(str(lv) for lv in LEVELS))
    parser.add_argument("--one", type=int, default=None, help="only this position a variant")
    args = parser.parse_args()
    levels = [int(lv) for lv in args.levels.split(",")]
    lines: list[str] = []
    nodes = 0
    c0 = time.process_time()
    for variant in args.variants.split(","):
        for index, moves in enumerate(positions(variant)):
            if args.one is not None and index != args.one:
                continue
            for answer in answers(variant, index, moves, levels):
                nodes += int(str(answer.get("nodes", 0)))
                lines.append(json.dumps(answer, separators=(",", ":")))
    cpu = time.process_time() - c0
    text = "".join(line + "\n" for line in lines)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    print(
        f"{len(lines)} answers, digest {digest}, compiled={engine.COMPILED}: "
        f"{nodes:,} nodes in {cpu:.1f} CPU s ({nodes / max(cpu, 1e-6):,.0f} nodes/CPU-s)"
    )
    if args.out is not None:
        args.out.write_text(text, "utf-8")
    if args.against is not None:
        before = args.against.read_text("utf-8").splitlines()
        differ = [
            (i, old, new)
            for i, (old, new) in enumerate(zip(before, lines, strict=False))
            if old != new
        ]
        if len(before) != len(lines):
            print(f"DIFFERENT: {len(before)} answers before, {len(lines)} now")
        for i, old, new in differ[:10]:
            print(f"DIFFERENT at answer {i}:\n  before {old}\n  now    {new}")
        if differ or len(before) != len(lines):
            print(f"{len(differ)} answers differ")
            return 1
        print(f"identical to {args.against}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
