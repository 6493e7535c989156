"""Missed material wins: what the site's look (``puzzles.missed_material``) finds in a game and
what it costs, in each variant.

Games: the engine's own, from the start position between levels 1 and 2 (seeded: the weak
play of a beginner's opponents, which leaves material hanging), in traditional xiangqi, Missile
Xiangqi and New-version Xiangqi, and shipped master games (``--masters N``). Both sides of
every game are looked at, as at one board, with the site's judge (Fairy-Stockfish for
traditional xiangqi where it is installed, the site's engine otherwise). Printed per variant:
games, plies, moments found (and of how many solver moves), candidates examined and why they
failed, and the look's time a game (wall clock, which counts Fairy-Stockfish's process; and
this process's CPU).

With ``--reference F`` each game is looked at a second time with a scan F times deeper, every
candidate examined and no net of time, and the moments compared by ply (the site's look passes
over the plies of a moment's line, so a moment one move later counts as another).

Run: ``python bench/missed_material.py --games 6 --seed 2026 [--masters 10] [--reference 5]``
(minutes; the reference's scan in Missile and New-version Xiangqi takes about as long again).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import samples  # noqa: E402
from engine import Position  # noqa: E402
from judge import judge_for  # noqa: E402
from puzzles.missed_material import (  # noqa: E402
    PER_GAME,
    SCAN_NODES,
    MaterialStats,
    missed_material,
)

ENGINE_GAME_PLIES = 120


def engine_game(
    variant: str, index: int, seed: int, levels: tuple[int, int] = (1, 2)
) -> tuple[str, str, list[str]]:
    """A seeded game of the engine against itself at two levels, from the start (start FEN,
    variant, moves): ``bench.samples.engine_game``, at most ``ENGINE_GAME_PLIES`` plies."""
    _name, start, moves = samples.engine_game(variant, index, seed, levels, ENGINE_GAME_PLIES)
    return start, variant, moves


def master_games(count: int, seed: int) -> list[tuple[str, str, list[str]]]:
    start = Position.start("xiangqi").fen()
    return [(start, "xiangqi", moves) for _id, moves in samples.master_games(count, seed)]


def look(game: tuple[str, str, list[str]], reference: int = 0) -> dict[str, Any]:
    """The site's look at ``game``; with ``reference``, the reference's: a scan that many times
    deeper, every candidate examined, no net of time."""
    start, variant, moves = game
    judge = judge_for(variant)
    stats = MaterialStats()
    wall = time.monotonic()
    deeper: dict[str, Any] = {}
    if reference:
        deeper = {
            "scan_nodes": SCAN_NODES[judge.name] * reference,
            "max_examined": 10_000,
            "max_seconds": 1e9,
        }
    found = missed_material(
        variant=variant, start_fen=start, moves=moves, sides={"red", "black"}, judge=judge,
        stats=stats, limit=10_000 if reference else PER_GAME, **deeper,
    )  # fmt: skip
    return {
        "variant": variant,
        "judge": judge.name,
        "plies": len(moves),
        "found": [
            {"ply": m.ply, "moves": m.moves_to_win, "won": m.proof["won"], "lost": m.proof["lost"]}
            for m in found
        ],
        "wall": round(time.monotonic() - wall, 2),
        **stats.as_json(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="engine games a variant")
    parser.add_argument("--masters", type=int, default=0, help="master games")
    parser.add_argument("--levels", default="1,2", help="the engine games' two levels")
    parser.add_argument("--variants", default="xiangqi,feidan,xinban")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--reference", type=int, default=0, help="also a reference scan this many times deeper"
    )
    parser.add_argument("--record", type=Path, help="append the figures as a JSON line")
    args = parser.parse_args()
    low, high = (int(level) for level in args.levels.split(","))
    groups: dict[str, list[tuple[str, str, list[str]]]] = {
        f"engine {v}": [engine_game(v, i, args.seed, (low, high)) for i in range(args.games)]
        for v in args.variants.split(",")
        if args.games
    }
    if args.masters:
        groups["master xiangqi"] = master_games(args.masters, args.seed)
    summary = {}
    for name, games in groups.items():
        results = [look(game) for game in games]
        moments = [m for r in results for m in r["found"]]
        rejected: dict[str, int] = {}
        for r in results:
            for why, n in r["rejected"].items():
                rejected[why] = rejected.get(why, 0) + n
        summary[name] = {
            "games": len(results),
            "judge": results[0]["judge"] if results else None,
            "plies": sum(r["plies"] for r in results),
            "moments": len(moments),
            "moments_by_moves": dict(
                sorted(
                    {
                        n: sum(1 for m in moments if m["moves"] == n)
                        for n in {m["moves"] for m in moments}
                    }.items()
                )
            ),
            "examined": sum(r["examined"] for r in results),
            "rejected": rejected,
            "stopped": sum(1 for r in results if r["stopped_at"] is not None),
            "wall_median": statistics.median(r["wall"] for r in results) if results else 0,
            "wall_max": max((r["wall"] for r in results), default=0),
            "cpu_median": statistics.median(r["seconds"] for r in results) if results else 0,
            "wall_per_100_plies": round(
                100 * sum(r["wall"] for r in results) / max(1, sum(r["plies"] for r in results)), 1
            ),
            "examples": moments[:5],
        }
        if args.reference:
            references = [look(game, args.reference) for game in games]
            theirs = {(i, m["ply"]) for i, r in enumerate(references) for m in r["found"]}
            ours = {(i, m["ply"]) for i, r in enumerate(results) for m in r["found"]}
            summary[name]["reference"] = {
                "factor": args.reference,
                "moments": len(theirs),
                "found_by_the_site": len(theirs & ours),
                "the_site_only": len(ours - theirs),
                "wall_median": statistics.median(r["wall"] for r in references),
            }
        print(name, json.dumps(summary[name], ensure_ascii=False), flush=True)
    if args.record:
        with args.record.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"seed": args.seed, **summary}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
