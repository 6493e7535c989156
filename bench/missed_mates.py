"""Missed mates: does the site's search find every short forced mate a player let slip, and
only real ones?

A sample of games (``--games``, chosen with ``--seed``) is searched for missed mates twice,
both sides of every game: as the site searches a finished game (``puzzles.missed.missed_mates``
with the site's judge and budgets: Fairy-Stockfish for traditional xiangqi, a look of 20,000
nodes a position and one of 200,000 where the side to move is well ahead, a mate of up to five
moves, proved by the prover in full mode), and as a reference searching ``--factor`` times as
long (every budget, the prover's included). A moment is a ply where the side to move had a
forced mate and played none of its winning moves. Every moment either reports has been proved
by the prover over every defence, so none can be a false mate; the question is how many of
the reference's the site finds (recall), and what the site's search costs a game.

Traditional xiangqi is measured on the shipped master games (``--source master``, players
who rarely miss a mate) or on the engine's own games at its weakest levels (``--source
engine``: games played here from the start position between levels 1 and 2, seeded, which
miss mates often). Without Fairy-Stockfish there is no judge, and the quick searches (three
moves deep) look.

Run: ``python bench/missed_mates.py --source engine --games 20`` (a few minutes on this
2-core machine); ``--source master --games 200`` takes hours (the reference's searches).
``--record FILE`` appends the figures as a JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import Position, bestmove  # noqa: E402
from engine.play import level_limits  # noqa: E402
from judge import FAIRY_STOCKFISH, judge_for  # noqa: E402
from puzzles.missed import SITE_BUDGETS, missed_mates  # noqa: E402

ENGINE_GAME_PLIES = 160


def master_games(count: int, seed: int) -> list[tuple[str, str, list[str]]]:
    """``count`` shipped master games (name, start FEN, moves), chosen with ``seed``."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from core.masters import read_shipped

    start = Position.start("xiangqi").fen()
    pool = []
    for game in read_shipped():
        moves = list(game.moves[: game.rules_end[0]] if game.rules_end else game.moves)
        if game.stop is None and len(moves) >= 20:
            pool.append((f"master {game.id}", start, moves))
    return sorted(random.Random(seed).sample(pool, min(count, len(pool))))


def engine_game(index: int, seed: int) -> tuple[str, str, list[str]]:
    """A game of the engine against itself at levels 1 and 2 (the beginner's opponents), from
    the start, seeded: weak moves, and mates left on the board."""
    pos = Position.start("xiangqi")
    start = pos.fen()
    moves: list[str] = []
    levels = (1, 2) if index % 2 else (2, 1)
    while pos.outcome() is None and len(moves) < ENGINE_GAME_PLIES:
        level = levels[len(moves) % 2]
        found = bestmove(
            "xiangqi", start, moves, level=level, nodes=level_limits(level).nodes,
            seed=seed * 1000 + index,
        )  # fmt: skip
        moves.append(found.move)
        pos.push_iccs(found.move)
    return f"engine game {index}", start, moves


def measure(game: tuple[str, str, list[str]], factor: int) -> dict[str, Any]:
    """Both searches of one game: the moments each reports, and its seconds."""
    name, fen, moves = game
    judge = judge_for("xiangqi")
    used = judge if judge.name == FAIRY_STOCKFISH else None
    search: dict[str, Any] = {
        "variant": "xiangqi",
        "start_fen": fen,
        "moves": moves,
        "sides": {"red", "black"},
    }
    started = time.perf_counter()
    site = missed_mates(**search, judge=used)
    site_seconds = time.perf_counter() - started
    started = time.perf_counter()
    reference = missed_mates(**search, judge=used, budgets=SITE_BUDGETS.times(factor))
    reference_seconds = time.perf_counter() - started

    def moments(found: list[Any]) -> dict[int, dict[str, Any]]:
        return {
            m.ply: {
                "moves": m.puzzle.moves_to_win,
                "keys": m.puzzle.proof.get("keys", m.puzzle.main_line[:1]),
                "played": m.played,
            }
            for m in found
        }

    return {
        "game": name,
        "plies": len(moves),
        "site": moments(site),
        "reference": moments(reference),
        "site_seconds": site_seconds,
        "reference_seconds": reference_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", choices=("master", "engine"), default="engine")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--factor", type=int, default=5, help="the reference's budgets over the site's"
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--record", type=Path, help="append the figures here as a JSON line")
    args = parser.parse_args()

    judge = judge_for("xiangqi")
    print(f"judge: {judge.label if judge.name == FAIRY_STOCKFISH else 'none (quick searches)'}; "
          f"site budgets {SITE_BUDGETS}; reference x{args.factor}")  # fmt: skip
    started = time.perf_counter()
    if args.source == "master":
        games = master_games(args.games, args.seed)
    else:
        with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
            games = pool.starmap(engine_game, [(i, args.seed) for i in range(args.games)])
    print(f"{len(games)} games, {sum(len(g[2]) for g in games)} plies "
          f"({time.perf_counter() - started:.0f} s to make or read)")  # fmt: skip
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        results = pool.starmap(measure, [(game, args.factor) for game in games])

    both = site_only = reference_only = 0
    for result in results:
        site, reference = result["site"], result["reference"]
        both += len(site.keys() & reference.keys())
        site_only += len(site.keys() - reference.keys())
        reference_only += len(reference.keys() - site.keys())
        for ply in sorted(site.keys() ^ reference.keys()):
            side = "site only" if ply in site else "reference only"
            moment = site.get(ply) or reference[ply]
            print(f"  {result['game']} ply {ply}: {side}: mate in {moment['moves']}, "
                  f"played {moment['played']}, keys {','.join(moment['keys'])}")  # fmt: skip
    found = both + reference_only
    lengths = [m["moves"] for r in results for m in r["reference"].values()]
    site_seconds = [r["site_seconds"] for r in results]
    per_ply = sum(site_seconds) / max(1, sum(r["plies"] for r in results))
    print()
    print(f"reference moments: {found} (mates in {sorted(lengths)})")
    print(f"found by the site: {both} of {found}"
          + (f" ({100 * both / found:.0f} %)" if found else ""))  # fmt: skip
    print(f"reported by the site and not by the reference: {site_only} (each proved by the prover)")
    print(f"site's search: {statistics.median(site_seconds):.1f} s a game at the median, "
          f"{per_ply * 100:.1f} s per 100 plies; reference: "
          f"{statistics.median(r['reference_seconds'] for r in results):.1f} s a game")  # fmt: skip
    if args.record:
        figures = {
            "source": args.source, "games": len(results), "seed": args.seed,
            "factor": args.factor, "reference": found, "found": both, "site_only": site_only,
            "site_seconds_per_100_plies": round(per_ply * 100, 2),
        }  # fmt: skip
        with args.record.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
