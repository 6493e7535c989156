"""How far the game analysis's marks can be trusted: the site's judge at the site's budget
against a reference judge searching much longer, on the same moves.

A sample of games (``--games``, chosen with ``--seed``; a window of ``--window`` plies of each,
from a random ply, so that openings, middlegames and endings all come up) is judged move by
move with the site's ``classify`` (the same thresholds) twice: on the evaluations of the
site's judge (``games.game_analysis.analysis_judge``: Fairy-Stockfish for traditional xiangqi,
the site's engine for Missile Xiangqi and New-version Xiangqi) at each budget of ``--nodes``,
and on the reference's at ``--factor`` times the largest of them (by default the same engine:
10 times for Fairy-Stockfish, 30 times for ours; ``--reference`` names another, e.g.
``fairy-stockfish`` to judge our engine's marks on xiangqi). Traditional xiangqi is judged on
the shipped master games, the other two on the engine's own games (puzzles/data), unless
``--source engine`` asks for games played here between two weak levels of the engine
(``--levels``, 1 and 2 by default): players who err often and by every amount, the sample that
can show a precision or a recall to a few points, where master games hold a handful of
mistakes in hundreds of moves.

Each move is judged as the site judges it: the move played searched alone from the position
before it, against the best move from the same position (``position_evaluation(played=...)``),
and, for comparison, as the analysis judged before: by the search of the position it led to.
Printed for each budget: the seconds a position (and so a game of 100 plies), the median
depth, the counts of blunders and of mistakes or worse, their precision and recall against the
reference (both ways of judging), the same for other mistake thresholds (``--thresholds``), and how often the two
choose the same move. ``--record FILE`` appends the figures as one JSON line.

The site judges as it does on the game page: a close call at the budget is searched again on
``SETTLE_FACTOR`` times it (``games.game_analysis.close_call``); the figures without that are
printed beside. The reference is a plain search at its budget.

Run: ``python bench/analysis_agreement.py --games 40 --window 15 --cache var/bench/x.jsonl``
(xiangqi, about an hour on an idle core of the 2-core machine: the reference's searches are most
of it). ``--cache`` keeps every search in a file and reads it back, so a run stopped can go on
where it stopped, and ``--first K`` prints the figures of the first K games of the same sample.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from bench.samples import engine_game  # noqa: E402
from core.masters import read_shipped  # noqa: E402
from engine import Position  # noqa: E402
from games import game_analysis  # noqa: E402
from games.game_analysis import (  # noqa: E402
    GAME_ANALYSIS_NODES,
    SETTLE_FACTOR,
    analysis_judge,
    game_verdicts,
    position_evaluation,
)
from judge import FAIRY_STOCKFISH, OURS, Evaluation, Judge, Line, OurEngine, judge_for  # noqa: E402

SELFPLAY = ROOT / "puzzles" / "data"
DEFAULT_FACTOR = {FAIRY_STOCKFISH: 10, OURS: 30}


def games_of(variant: str, source: str) -> Iterator[tuple[str, str, list[str]]]:
    """(id, start FEN, moves) of the shipped games a variant is measured on: the master games
    (traditional xiangqi) or the engine's self-play games (the other two)."""
    if source == "master":
        start = Position.start("xiangqi").fen()
        for game in read_shipped():
            moves = list(game.moves[: game.rules_end[0]] if game.rules_end else game.moves)
            if game.stop is None:
                yield f"master {game.id}", start, moves
        return
    with gzip.open(SELFPLAY / f"selfplay-{variant}.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                game = json.loads(line)
                yield f"engine game {game['n']}", game["fen"], game["moves"].split()


def sample(
    variant: str,
    games: int,
    window: int,
    seed: int,
    source: str = "",
    levels: tuple[int, int] = (1, 2),
) -> list[tuple[str, str, list[str], int]]:
    """``games`` games of at least ``window`` plies, each with a window start. ``source``
    ``engine`` plays them here between two of the engine's ``levels`` (seeded, so the same
    sample every run); the others are drawn from the shipped games."""
    rng = random.Random(seed)
    source = source or ("master" if variant == "xiangqi" else "selfplay")
    if source == "engine":
        played = (engine_game(variant, i, seed, levels) for i in range(games * 2))
        # played one by one until enough are long enough: no game is played for nothing
        chosen = list(itertools.islice((g for g in played if len(g[2]) >= window), games))
    else:
        pool = [g for g in games_of(variant, source) if len(g[2]) >= window]
        chosen = sorted(rng.sample(pool, min(games, len(pool))))
    return [
        (name, fen, moves, rng.randrange(0, len(moves) - window + 1)) for name, fen, moves in chosen
    ]


def entries_of(
    variant: str, fen: str, moves: list[str], offset: int, evaluations: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The judged plies of the window (``game_verdicts`` from the window's first position)."""
    pos = Position.from_fen(variant, fen)
    for text in moves[:offset]:
        pos.push_iccs(text)
    first = pos.fen()
    said = []
    for text in moves[offset : offset + len(evaluations) - 1]:
        move = pos.parse_move(text)
        said.append({"iccs": move.iccs(), "chinese": pos.chinese(move)})
        pos.push(move)
    return game_verdicts(fen=first, moves=said, evaluations=evaluations)


def ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.0%}" if whole else f"{part}/0"


def flagged(entries: list[dict[str, Any]], mistake: float | None = None) -> set[int]:
    """The plies marked a mistake or worse (with another mistake threshold when given)."""
    if mistake is None:
        return {i for i, e in enumerate(entries) if e["verdict"] in ("mistake", "blunder")}
    return {
        i
        for i, e in enumerate(entries)
        if e["verdict"] == "blunder" or (e["verdict"] and e["drop"] >= mistake)
    }


def apart(evaluations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The evaluations without the played move's search from the position before."""
    return [{k: v for k, v in e.items() if k != "played"} for e in evaluations]


class Remembered:
    """A judge whose answers are kept in a file (``--cache``): the same question (engine,
    position, budget, root moves) is answered from the file, so that a run can be stopped and
    resumed, and the site's judgement measured again, changed, against the same reference
    without searching it again. Both engines are deterministic at a node budget, so a kept
    answer is the answer a new search would give."""

    def __init__(self, judge: Judge, path: Path | None) -> None:
        self.judge = judge
        self.name = judge.name
        self.path = path
        self.kept: dict[str, Evaluation] = {}
        self.asked = 0
        if path is not None and path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    self.kept[row["key"]] = Evaluation(
                        engine=row["engine"], turn=row["turn"], depth=row["depth"],
                        nodes=row["nodes"],
                        lines=tuple(Line(tuple(m), cp, mate) for m, cp, mate in row["lines"]),
                    )  # fmt: skip

    @property
    def label(self) -> str:
        return self.judge.label

    def plays(self, variant: str) -> bool:
        return self.judge.plays(variant)

    def evaluate(self, **asked: Any) -> Evaluation:
        key = json.dumps(
            [self.name, asked["variant"], asked["fen"], " ".join(asked.get("moves") or ()),
             asked["nodes"], list(asked.get("only") or ()), asked.get("multipv", 1)]
        )  # fmt: skip
        found = self.kept.get(key)
        if found is not None:
            return found
        self.asked += 1
        found = self.judge.evaluate(**asked)
        self.kept[key] = found
        if self.path is not None:
            row = {
                "key": key, "engine": found.engine, "turn": found.turn, "depth": found.depth,
                "nodes": found.nodes, "lines": [[list(x.moves), x.cp, x.mate] for x in found.lines],
            }  # fmt: skip
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")
        return found


def reference_judge(name: str, variant: str) -> Judge:
    if name == OURS:
        return OurEngine()  # no time limit: the budget alone
    return judge_for(variant, engine=name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="xiangqi", choices=("xiangqi", "feidan", "xinban"))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--window", type=int, default=15, help="plies judged a game")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--source",
        choices=("master", "selfplay", "engine"),
        help="the games: shipped master games (xiangqi's default), shipped self-play games (the "
        "others' default), or games played here between two of the engine's --levels",
    )
    parser.add_argument("--levels", default="1,2", help="the two levels of --source engine")
    parser.add_argument("--engine", choices=(FAIRY_STOCKFISH, OURS), help="the site's judge")
    parser.add_argument("--nodes", default="", help="site budgets, comma-separated")
    parser.add_argument("--reference", choices=(FAIRY_STOCKFISH, OURS), help="default: --engine")
    parser.add_argument("--factor", type=int, help="the reference's budget over the largest")
    parser.add_argument("--thresholds", default="0.15,0.20,0.25", help="mistake drops to try")
    parser.add_argument("--record", type=Path, help="append the figures here as a JSON line")
    parser.add_argument("--cache", type=Path, help="keep every search here, and read it back")
    parser.add_argument(
        "--first", type=int, help="judge only the first K games of the sample (the same windows)"
    )
    parser.add_argument(
        "--shard",
        default="0/1",
        help="i/k: judge only the games i, i + k, i + 2k ... (several processes filling one "
        "--cache; a run without it then prints the figures of the whole sample from the cache)",
    )
    args = parser.parse_args()

    site: Judge = Remembered(analysis_judge(args.variant, engine=args.engine), args.cache)
    budgets = [int(n) for n in args.nodes.split(",") if n] or [GAME_ANALYSIS_NODES[site.name]]
    reference_name = args.reference or site.name
    factor = args.factor or DEFAULT_FACTOR[reference_name]
    reference: Judge = Remembered(reference_judge(reference_name, args.variant), args.cache)
    reference_nodes = factor * max(budgets)
    thresholds = [float(t) for t in args.thresholds.split(",") if t]

    ours_all: dict[int, list[dict[str, Any]]] = {n: [] for n in budgets}
    theirs_all: list[dict[str, Any]] = []
    # the same, each move judged by the search of the position it led to (the played move's
    # own search from the position before left out): how the analysis judged before
    ours_apart: dict[int, list[dict[str, Any]]] = {n: [] for n in budgets}
    # the same, close calls left at the budget (``settle=False``): the site's judging before
    ours_plain: dict[int, list[dict[str, Any]]] = {n: [] for n in budgets}
    settled = dict.fromkeys(budgets, 0)
    theirs_apart: list[dict[str, Any]] = []
    seconds = dict.fromkeys(budgets, 0.0)
    depths: dict[int, list[int]] = {n: [] for n in budgets}
    same = dict.fromkeys(budgets, 0)
    reference_seconds = 0.0
    reference_depths: list[int] = []
    positions = 0
    shard, shards = (int(x) for x in args.shard.split("/"))
    first_level, second_level = (int(x) for x in args.levels.split(","))
    chosen = sample(
        args.variant, args.games, args.window, args.seed, args.source or "",
        (first_level, second_level),
    )[: args.first][shard::shards]  # fmt: skip
    for name, fen, moves, offset in chosen:
        ours: dict[int, list[dict[str, Any]]] = {n: [] for n in budgets}
        plain: dict[int, list[dict[str, Any]]] = {n: [] for n in budgets}
        theirs: list[dict[str, Any]] = []
        last = min(offset + args.window, len(moves))
        for index in range(offset, last + 1):
            line = moves[:index]
            played = moves[index] if index < last else None
            for n in budgets:
                started = time.perf_counter()
                ours[n].append(
                    position_evaluation(
                        variant=args.variant, fen=fen, moves=line, judge=site, nodes=n,
                        played=played,
                    )
                )  # fmt: skip
                seconds[n] += time.perf_counter() - started
                plain[n].append(
                    position_evaluation(
                        variant=args.variant, fen=fen, moves=line, judge=site, nodes=n,
                        played=played, settle=False,
                    )
                )  # fmt: skip
                settled[n] += bool(ours[n][-1].get("settled"))
            started = time.perf_counter()
            theirs.append(
                position_evaluation(
                    variant=args.variant, fen=fen, moves=line, judge=reference,
                    nodes=reference_nodes, played=played, settle=False,
                )
            )  # fmt: skip
            reference_seconds += time.perf_counter() - started
            if theirs[-1]["best"] is None:
                continue
            positions += 1
            reference_depths.append(theirs[-1]["depth"])
            for n in budgets:
                depths[n].append(ours[n][-1]["depth"])
                same[n] += ours[n][-1]["best"] == theirs[-1]["best"]
        for n in budgets:
            ours_plain[n] += entries_of(args.variant, fen, moves, offset, plain[n])
            ours_all[n] += entries_of(args.variant, fen, moves, offset, ours[n])
            ours_apart[n] += entries_of(args.variant, fen, moves, offset, apart(ours[n]))
        theirs_all += entries_of(args.variant, fen, moves, offset, theirs)
        theirs_apart += entries_of(args.variant, fen, moves, offset, apart(theirs))
        print(f"{name}: plies {offset + 1}-{offset + len(theirs) - 1}", flush=True)

    per = max(positions, 1)
    print()
    print(
        f"{args.variant}: {len(chosen)} games (seed {args.seed}), {len(theirs_all)} moves judged; "
        f"reference {reference.label} at {reference_nodes:,} nodes a position "
        f"({reference_seconds / per:.2f} s, median depth {statistics.median(reference_depths or [0])})"
    )
    figures: dict[str, Any] = {
        "variant": args.variant,
        "games": len(chosen),
        "moves": len(theirs_all),
        "seed": args.seed,
        "source": args.source or ("master" if args.variant == "xiangqi" else "selfplay"),
        "levels": args.levels if args.source == "engine" else None,
        "window": args.window,
        "engine": site.name,
        "reference": reference_name,
        "reference_nodes": reference_nodes,
        "budgets": {},
    }
    peer_mistakes = flagged(theirs_all)
    for n in budgets:
        entries = ours_all[n]
        mine = flagged(entries)
        both = mine & peer_mistakes
        blunders = {i for i, e in enumerate(entries) if e["verdict"] == "blunder"}
        peer_blunders = {i for i, e in enumerate(theirs_all) if e["verdict"] == "blunder"}
        precision = len(both) / len(mine) if mine else 1.0
        recall = len(both) / len(peer_mistakes) if peer_mistakes else 1.0
        a_position = seconds[n] / per
        print(
            f"\n{site.label} at {n:,} nodes: {a_position:.3f} s a position "
            f"({a_position * 101:.0f} s for a game of 100 plies), median depth "
            f"{statistics.median(depths[n] or [0])}, the reference's move "
            f"{ratio(same[n], positions)}"
        )
        print(
            f"  mistake or worse: site {len(mine)}, reference {len(peer_mistakes)}, both "
            f"{len(both)}; precision {ratio(len(both), len(mine))}, recall "
            f"{ratio(len(both), len(peer_mistakes))}"
        )
        print(
            f"  blunder: site {len(blunders)}, reference {len(peer_blunders)}; precision "
            f"{ratio(len(blunders & peer_blunders), len(blunders))}, recall "
            f"{ratio(len(blunders & peer_blunders), len(peer_blunders))}"
        )
        tried = {}
        for t in thresholds:
            a, b = flagged(entries, t), flagged(theirs_all, t)
            tried[str(t)] = [len(a & b), len(a), len(b)]
            print(
                f"  mistake from a drop of {t:.2f}: precision {ratio(len(a & b), len(a))}, "
                f"recall {ratio(len(a & b), len(b))}"
            )
        mine_plain = flagged(ours_plain[n])
        print(
            f"  {ratio(settled[n], positions)} positions were close calls, searched again on "
            f"{n * SETTLE_FACTOR:,} nodes; without that: site {len(mine_plain)}, both "
            f"{len(mine_plain & peer_mistakes)}; precision "
            f"{ratio(len(mine_plain & peer_mistakes), len(mine_plain))}, recall "
            f"{ratio(len(mine_plain & peer_mistakes), len(peer_mistakes))}"
        )
        mine_apart, peer_apart = flagged(ours_apart[n]), flagged(theirs_apart)
        print(
            f"  judged by the position each move led to (as before): site {len(mine_apart)}, "
            f"reference {len(peer_apart)}, both {len(mine_apart & peer_apart)}; precision "
            f"{ratio(len(mine_apart & peer_apart), len(mine_apart))}, recall "
            f"{ratio(len(mine_apart & peer_apart), len(peer_apart))}"
        )
        figures["budgets"][str(n)] = {
            "seconds_a_position": round(a_position, 4),
            "depth": statistics.median(depths[n] or [0]),
            "precision": round(precision, 3),
            "recall": round(recall, 3),
            "site": len(mine),
            "reference": len(peer_mistakes),
            "thresholds": tried,
            "apart": [len(mine_apart & peer_apart), len(mine_apart), len(peer_apart)],
            "settled": settled[n],
            "unsettled": [len(mine_plain & peer_mistakes), len(mine_plain), len(peer_mistakes)],
        }
    print(f"\n(mistake threshold in use: {game_analysis.MISTAKE_DROP})")
    if args.record:
        with args.record.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
