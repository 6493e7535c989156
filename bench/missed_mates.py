"""Missed mates: does the site's search find every short forced mate a player let slip, and
only real ones?

A sample of games (``--games``, chosen with ``--seed``) is searched for missed mates, both
sides of every game, three ways: as the site searches a finished game
(``puzzles.missed.missed_mates`` with the site's judge and its budgets: for traditional
xiangqi Fairy-Stockfish, where it is installed, a look of 20,000 nodes a position and one of
200,000 where the side to move is well ahead; for Missile and New-version Xiangqi the site's
own engine, on its own budgets; a win of up to five moves, proved by the prover in full mode),
as a reference searching ``--factor`` times as long (every budget, the prover's included), and
with the quick searches alone (three moves deep; what looked in Missile and New-version
Xiangqi before the site's own engine did). A moment is a ply where the side to move had a
forced win (a mate; in Missile Xiangqi also a dead general) and played none of its winning
moves. Every moment any of them reports has been proved by the prover over every defence, so
none can be a false mate; the question is how many of the reference's the site finds
(recall), and what the site's search costs a game.

Games (``--source``): the shipped master games (``master``, traditional xiangqi only; players
who rarely miss a mate), the engine's own games at its weakest levels (``engine``: games
played here from the variant's start between levels 1 and 2, seeded, which miss mates often),
or the self-play games shipped for Missile and New-version Xiangqi (``selfplay``:
``puzzles/data/selfplay-<variant>.jsonl.gz``, levels 3 to 8).

Run: ``python bench/missed_mates.py --variant feidan --source engine --games 12`` (a few
minutes on this 2-core machine); ``--source master --games 200`` takes hours (the reference's
searches): ``--cache FILE`` keeps each game's searches as it ends, so such a run can be
stopped and taken up again. ``--record FILE`` appends the figures as a JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import samples  # noqa: E402
from bench.samples import engine_game  # noqa: E402
from engine import Position  # noqa: E402
from judge import judge_for  # noqa: E402
from puzzles.missed import missed_mates, site_budgets  # noqa: E402
from puzzles.selfplay import read_games, selfplay_path  # noqa: E402


def master_games(count: int, seed: int) -> list[tuple[str, str, list[str]]]:
    """``count`` shipped master games (name, start FEN, moves), chosen with ``seed``."""
    start = Position.start("xiangqi").fen()
    return sorted(
        (f"master {id_}", start, moves) for id_, moves in samples.master_games(count, seed)
    )


def selfplay_games(variant: str, count: int, seed: int) -> list[tuple[str, str, list[str]]]:
    """``count`` of the shipped self-play games of ``variant`` (name, start FEN, moves),
    chosen with ``seed``."""
    pool = [
        (f"self-play {game.n}", game.fen, list(game.moves))
        for game in read_games(selfplay_path(variant))
        if len(game.moves) >= 20
    ]
    return sorted(random.Random(seed).sample(pool, min(count, len(pool))))


def measure(variant: str, game: tuple[str, str, list[str]], factor: int) -> dict[str, Any]:
    """The three searches of one game: the moments each reports, and its seconds (CPU of this
    process and, for Fairy-Stockfish, the wall clock it waited for the judge)."""
    name, fen, moves = game
    judge = judge_for(variant)
    search: dict[str, Any] = {
        "variant": variant,
        "start_fen": fen,
        "moves": moves,
        "sides": {"red", "black"},
    }
    started, cpu = time.perf_counter(), time.process_time()
    site = missed_mates(**search, judge=judge)
    site_seconds = time.perf_counter() - started
    site_cpu = time.process_time() - cpu
    started = time.perf_counter()
    reference = missed_mates(**search, judge=judge, budgets=site_budgets(judge).times(factor))
    reference_seconds = time.perf_counter() - started
    started, cpu = time.perf_counter(), time.process_time()
    quick = missed_mates(**search)
    quick_seconds = time.perf_counter() - started
    quick_cpu = time.process_time() - cpu

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
        "quick": moments(quick),
        "site_seconds": site_seconds,
        "reference_seconds": reference_seconds,
        "quick_seconds": quick_seconds,
        "site_cpu": site_cpu,
        "quick_cpu": quick_cpu,
    }


def _measure(job: tuple[str, tuple[str, str, list[str]], int]) -> dict[str, Any]:
    return measure(*job)


def read_cache(path: Path | None, judged: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The games measured before under the same variant, source, seed, factor and judge, by
    name (a line of another run is passed over; the moments' plies back to numbers)."""
    if path is None or not path.exists():
        return {}
    kept = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if any(entry.get(key) != value for key, value in judged.items()):
            continue
        for search in ("site", "reference", "quick"):
            entry[search] = {int(ply): moment for ply, moment in entry[search].items()}
        kept[entry["game"]] = entry
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=("xiangqi", "feidan", "xinban"), default="xiangqi")
    parser.add_argument("--source", choices=("master", "engine", "selfplay"), default="engine")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--factor", type=int, default=4, help="the reference's budgets over the site's"
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--record", type=Path, help="append the figures here as a JSON line")
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep each game's searches here as it ends, and read them back: a long run "
        "stopped goes on where it was",
    )
    args = parser.parse_args()

    if (args.source == "master") != (args.variant == "xiangqi") and args.source != "engine":
        parser.error("master games are traditional xiangqi; self-play games are feidan or xinban")
    judge = judge_for(args.variant)
    print(f"{args.variant}: judge {judge.label}; site budgets {site_budgets(judge)}; "
          f"reference x{args.factor}")  # fmt: skip
    started = time.perf_counter()
    if args.source == "master":
        games = master_games(args.games, args.seed)
    elif args.source == "selfplay":
        games = selfplay_games(args.variant, args.games, args.seed)
    else:
        with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
            games = pool.starmap(
                engine_game, [(args.variant, i, args.seed) for i in range(args.games)]
            )
    print(f"{len(games)} games, {sum(len(g[2]) for g in games)} plies "
          f"({time.perf_counter() - started:.0f} s to make or read)")  # fmt: skip
    judged = {"variant": args.variant, "source": args.source, "seed": args.seed,
              "factor": args.factor, "judge": judge.label}  # fmt: skip
    kept = read_cache(args.cache, judged)
    results = [kept[game[0]] for game in games if game[0] in kept]
    todo = [game for game in games if game[0] not in kept]
    if results:
        print(f"{len(results)} games read back from {args.cache}, {len(todo)} to search")
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        jobs = [(args.variant, game, args.factor) for game in todo]
        for result in pool.imap_unordered(_measure, jobs):
            results.append(result)
            if args.cache:
                with args.cache.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps({**judged, **result}) + "\n")
            print(f"  {result['game']}: {len(result['reference'])} moments "
                  f"({len(results)}/{len(games)})", flush=True)  # fmt: skip

    both = site_only = reference_only = quick_found = quick_only = 0
    for result in results:
        site, reference, quick = result["site"], result["reference"], result["quick"]
        both += len(site.keys() & reference.keys())
        site_only += len(site.keys() - reference.keys())
        reference_only += len(reference.keys() - site.keys())
        quick_found += len(quick.keys() & reference.keys())
        quick_only += len(quick.keys() - reference.keys())
        for ply in sorted(site.keys() ^ reference.keys()):
            side = "site only" if ply in site else "reference only"
            moment = site.get(ply) or reference[ply]
            print(f"  {result['game']} ply {ply}: {side}: mate in {moment['moves']}, "
                  f"played {moment['played']}, keys {','.join(moment['keys'])}")  # fmt: skip
        for ply in sorted(quick.keys() - reference.keys()):
            moment = quick[ply]
            print(f"  {result['game']} ply {ply}: quick searches only: mate in {moment['moves']}, "
                  f"played {moment['played']} (site: {'yes' if ply in site else 'no'})")  # fmt: skip
    found = both + reference_only
    lengths = [m["moves"] for r in results for m in r["reference"].values()]
    site_seconds = [r["site_seconds"] for r in results]
    plies = max(1, sum(r["plies"] for r in results))
    per_ply = sum(site_seconds) / plies
    quick_per_ply = sum(r["quick_seconds"] for r in results) / plies
    site_cpu = sum(r["site_cpu"] for r in results) / plies
    quick_cpu = sum(r["quick_cpu"] for r in results) / plies
    print()
    print(f"reference moments: {found} (mates in {sorted(lengths)})")
    print(f"found by the site: {both} of {found}"
          + (f" ({100 * both / found:.0f} %)" if found else ""))  # fmt: skip
    print(f"reported by the site and not by the reference: {site_only} (each proved by the prover)")
    print(f"site's search: {statistics.median(site_seconds):.1f} s a game at the median, "
          f"{per_ply * 100:.1f} s per 100 plies ({site_cpu * 100:.1f} s of this process's CPU); "
          "reference: "
          f"{statistics.median(r['reference_seconds'] for r in results):.1f} s a game")  # fmt: skip
    print(f"quick searches alone (3 moves): {quick_found} of {found} found, {quick_only} not "
          f"in the reference; {quick_per_ply * 100:.1f} s per 100 plies "
          f"({quick_cpu * 100:.1f} s of CPU)")  # fmt: skip
    if args.record:
        figures = {
            "variant": args.variant, "source": args.source, "games": len(results),
            "plies": plies, "seed": args.seed, "factor": args.factor, "reference": found,
            "found": both, "site_only": site_only, "quick_found": quick_found,
            "quick_only": quick_only, "site_seconds_per_100_plies": round(per_ply * 100, 2),
            "quick_seconds_per_100_plies": round(quick_per_ply * 100, 2),
            "site_cpu_per_100_plies": round(site_cpu * 100, 2),
            "quick_cpu_per_100_plies": round(quick_cpu * 100, 2),
        }  # fmt: skip
        with args.record.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
