"""Benchmark of the playing engine (engine/play), run by hand.

Sections (``--sections``, comma-separated; all by default):

- ``speed``: nodes per second and the depth reached in 1 s, per variant
  (the start and two middlegames);
- ``levels``: time per move at each level, per variant;
- ``strength``: the top level against a random mover and a greedy capturer;
- ``ladder``: each level against the one below;
- ``peer``: xiangqi against Fairy-Stockfish over UCI at fixed node limits;
- ``tactics``: the shipped xiangqi classics up to mate in 3: does the top
  level play the key within 2 s?
- ``tune``: self-play between evaluation versions (default weights against
  one changed weight), the way the weights were chosen.

Games are judged by the engine's own ``outcome()``; a game still running
after ``--max-plies`` is counted as a draw and reported as adjudicated.
Scores are from the first-named player's side: win 1, draw 1/2.

    .venv/bin/python bench/play_bench.py --quick      # a smoke run (tiny settings)
    .venv/bin/python bench/play_bench.py --games 10 --top-nodes 20000
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from uci import UciEngine  # noqa: E402

from engine import Move, Position  # noqa: E402
from engine.play import (  # noqa: E402
    DEFAULT_WEIGHTS,
    LEVELS,
    Limits,
    Weights,
    level_limits,
    search_position,
)
from engine.play.evaluation import MATERIAL  # noqa: E402

DATA = ROOT / "puzzles" / "data" / "classic-puzzles.json"
VARIANTS = ("xiangqi", "feidan", "xinban")
Player = Callable[[Position], str]


# -- players -----------------------------------------------------------------


def engine_player(limits: Limits) -> Player:
    def play(pos: Position) -> str:
        return search_position(pos, limits).move

    return play


def random_player(seed: int) -> Player:
    rng = random.Random(seed)

    def play(pos: Position) -> str:
        return rng.choice(sorted(m.iccs() for m in pos.legal_moves))

    return play


def greedy_player(seed: int) -> Player:
    """Takes the most valuable piece it can (any capture, collision or
    defection), otherwise moves at random."""
    rng = random.Random(seed)

    def play(pos: Position) -> str:
        best: list[str] = []
        best_value = 0
        for m in sorted(pos.legal_moves, key=lambda mv: mv.iccs()):
            captured = pos.move_effect(m).captured
            if captured is None:
                continue
            value = MATERIAL[_kind(captured)]
            if value > best_value:
                best, best_value = [m.iccs()], value
            elif value == best_value:
                best.append(m.iccs())
        if best:
            return rng.choice(best)
        return rng.choice(sorted(m.iccs() for m in pos.legal_moves))

    return play


def _kind(letter: str) -> int:
    from engine.variants import TYPE_OF_LETTER

    return TYPE_OF_LETTER[letter.lstrip("+").lower()]


class Peer(UciEngine):
    """Fairy-Stockfish over UCI (xiangqi, one thread, ``go nodes N``).
    Its moves write ranks 1-10; ICCS writes 0-9."""

    def __init__(self, path: str, nodes: int) -> None:
        self.nodes = nodes
        super().__init__(path, Threads=1, Hash=16)

    @staticmethod
    def to_peer(iccs: str) -> str:
        return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"

    @staticmethod
    def from_peer(text: str) -> str:
        f1, rest = text[0], text[1:]
        i = 1
        while rest[i].isdigit():
            i += 1
        r1, f2, r2 = int(rest[:i]), rest[i], int(rest[i + 1 :])
        return f"{f1}{r1 - 1}{f2}{r2 - 1}"

    def player(self, start_fen: str) -> Player:
        def play(pos: Position) -> str:
            moves = " ".join(self.to_peer(m.iccs()) for m in pos.move_stack)
            self._send(f"position fen {start_fen}" + (f" moves {moves}" if moves else ""))
            self._send(f"go nodes {self.nodes}")
            line = self._wait("bestmove")[-1]
            return self.from_peer(line.split()[1])

        return play

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


# -- games -------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    adjudicated: int = 0
    endings: dict[str, int] | None = None

    def add(self, result: float, ending: str) -> None:
        self.games += 1
        self.points += result
        if result == 1:
            self.wins += 1
        elif result == 0:
            self.losses += 1
        else:
            self.draws += 1
        if ending == "adjudicated":
            self.adjudicated += 1
        if self.endings is None:
            self.endings = {}
        self.endings[ending] = self.endings.get(ending, 0) + 1

    def line(self) -> str:
        share = 100 * self.points / self.games if self.games else 0.0
        endings = ", ".join(f"{k} {v}" for k, v in sorted((self.endings or {}).items()))
        return (
            f"{self.points:g}/{self.games} ({share:.0f}%)  +{self.wins} ={self.draws} "
            f"-{self.losses}  [{endings}]"
        )


def play_game(
    variant: str, fen: str, red: Player, black: Player, max_plies: int
) -> tuple[str | None, str, int]:
    """(winner or None, ending, plies). Every move is checked legal."""
    pos = Position.from_fen(variant, fen)
    while True:
        outcome = pos.outcome()
        if outcome is not None:
            return outcome.winner, outcome.termination, pos.ply_count()
        if pos.ply_count() >= max_plies:
            return None, "adjudicated", pos.ply_count()
        mover = red if pos.turn == "red" else black
        move = Move.from_iccs(mover(pos))
        if move not in pos.legal_moves:
            raise RuntimeError(f"illegal move {move} in {pos.fen()}")
        pos.push(move)


def openings(variant: str, count: int, seed: int = 1) -> list[str]:
    """``count`` start positions: the standard start, then two random plies from it."""
    rng = random.Random(seed)
    starts = [Position.start(variant).fen()]
    while len(starts) < count:
        pos = Position.start(variant)
        for _ in range(2):
            pos.push(rng.choice(sorted(pos.legal_moves, key=lambda m: m.iccs())))
        if pos.fen() not in starts:
            starts.append(pos.fen())
    return starts


def match(
    variant: str,
    first: Callable[[int], Player],
    second: Callable[[int], Player],
    games: int,
    max_plies: int,
    label: str,
) -> Tally:
    """``games`` games (openings played with both colours); the score is ``first``'s."""
    tally = Tally()
    starts = openings(variant, (games + 1) // 2)
    t0 = time.perf_counter()
    for i in range(games):
        fen = starts[i // 2]
        first_red = i % 2 == 0
        a, b = first(i), second(i)
        red, black = (a, b) if first_red else (b, a)
        winner, ending, _plies = play_game(variant, fen, red, black, max_plies)
        mine = "red" if first_red else "black"
        tally.add(0.5 if winner is None else float(winner == mine), ending)
    print(f"  {variant:8} {label:34} {tally.line()}  ({time.perf_counter() - t0:.0f} s)")
    sys.stdout.flush()
    return tally


# -- sections ----------------------------------------------------------------


def sample_positions(variant: str) -> list[Position]:
    out = [Position.start(variant)]
    for seed in (1, 2):
        rng = random.Random(seed)
        pos = Position.start(variant)
        for _ in range(30):
            legal = sorted(pos.legal_moves, key=lambda m: m.iccs())
            pos.push(rng.choice(legal))
            if pos.outcome() is not None:
                pos.pop()
                break
        out.append(pos)
    return out


def section_speed(args: argparse.Namespace) -> None:
    ms = 200 if args.quick else 1000
    print(f"\n## speed: nodes/s and depth in {ms} ms (start, two middlegames)")
    for variant in VARIANTS:
        cells = []
        for pos in sample_positions(variant):
            limits = Limits(nodes=None, movetime_ms=ms)
            t0 = time.perf_counter()
            found = search_position(pos, limits)
            dt = time.perf_counter() - t0
            cells.append(f"{found.nodes / dt:,.0f} n/s depth {found.depth}")
        print(f"  {variant:8} " + " | ".join(cells))


def section_levels(args: argparse.Namespace) -> None:
    print("\n## time per move at each level (mean over start and two middlegames)")
    levels = [1, 4, 8] if args.quick else list(LEVELS)
    for variant in VARIANTS:
        cells = []
        for level in levels:
            limits = level_limits(level)
            if args.quick:
                limits = replace(limits, nodes=min(limits.nodes or 0, 500))
            total = 0.0
            depth = 0
            positions = sample_positions(variant)
            for pos in positions:
                t0 = time.perf_counter()
                found = search_position(pos, limits)
                total += time.perf_counter() - t0
                depth += found.depth
            cells.append(f"L{level} {total / len(positions):.2f}s d{depth / len(positions):.1f}")
        print(f"  {variant:8} " + "  ".join(cells))


def _top(args: argparse.Namespace, seed: int = 0) -> Limits:
    return level_limits(8, nodes=args.top_nodes, seed=seed)


def section_strength(args: argparse.Namespace) -> None:
    print(
        f"\n## top level ({args.top_nodes:,} nodes a move) against a random mover and a "
        f"greedy capturer, {args.games} games each"
    )

    def top(i: int) -> Player:
        return engine_player(_top(args, seed=i))

    for variant in VARIANTS:
        match(
            variant,
            top,
            random_player,
            args.games,
            args.max_plies,
            "top vs random",
        )
        match(
            variant,
            top,
            greedy_player,
            args.games,
            args.max_plies,
            "top vs greedy",
        )


def section_ladder(args: argparse.Namespace) -> None:
    scale = args.ladder_scale
    print(
        f"\n## each level against the one below, {args.ladder_games} games a pair "
        f"(node budgets x{scale:g})"
    )
    for variant in args.ladder_variants.split(","):
        for level in [int(x) for x in args.ladder_levels.split(",")]:

            def player(lv: int) -> Callable[[int], Player]:
                def make(i: int) -> Player:
                    limits = level_limits(lv, seed=i)
                    nodes = max(50, int((limits.nodes or 0) * scale))
                    return engine_player(replace(limits, nodes=nodes))

                return make

            match(
                variant,
                player(level),
                player(level - 1),
                args.ladder_games,
                args.max_plies,
                f"level {level} vs level {level - 1}",
            )


def section_peer(args: argparse.Namespace) -> None:
    path = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
    if not Path(path).exists():
        print("\n## Fairy-Stockfish: not installed, skipped")
        return
    print(
        f"\n## xiangqi: top level ({args.top_nodes:,} nodes) against Fairy-Stockfish "
        f"(go nodes N), {args.peer_games} games each"
    )
    for peer_nodes in [int(n) for n in args.peer_nodes.split(",")]:
        peer = Peer(path, peer_nodes)
        try:
            starts = openings("xiangqi", (args.peer_games + 1) // 2)
            tally = Tally()
            t0 = time.perf_counter()
            for i in range(args.peer_games):
                fen = starts[i // 2]
                ours = engine_player(_top(args))
                theirs = peer.player(fen)
                first_red = i % 2 == 0
                red, black = (ours, theirs) if first_red else (theirs, ours)
                winner, ending, _ = play_game("xiangqi", fen, red, black, args.max_plies)
                mine = "red" if first_red else "black"
                tally.add(0.5 if winner is None else float(winner == mine), ending)
            dt = time.perf_counter() - t0
            print(f"  vs Fairy-Stockfish {peer_nodes:>6} nodes: {tally.line()}  ({dt:.0f} s)")
            sys.stdout.flush()
        finally:
            peer.close()


def section_tactics(args: argparse.Namespace) -> None:
    puzzles = [p for p in json.loads(DATA.read_text("utf-8"))["puzzles"] if p["mate_in"] <= 3]
    ms = 300 if args.quick else 2000
    print(f"\n## tactics: xiangqi classics up to mate in 3, top level, {ms} ms a problem")
    solved = 0
    for p in puzzles:
        key = Peer.from_peer(p["solution"][0])
        pos = Position.from_fen("xiangqi", p["fen"])
        found = search_position(pos, replace(level_limits(8), nodes=None, movetime_ms=ms))
        ok = found.move == key
        solved += ok
        mate = f"mate {found.mate}" if found.mate is not None else f"{found.score} cp"
        print(
            f"  {'ok ' if ok else 'MISS'} mate in {p['mate_in']} {p['title']}: "
            f"played {found.move}, key {key} ({mate}, depth {found.depth})"
        )
    print(f"  solved {solved}/{len(puzzles)}")


# (name of the version, weights) for the tuning matches
TUNING: list[tuple[str, str, Weights]] = [
    ("xinban", "turncoat_discount=0", replace(DEFAULT_WEIGHTS, turncoat_discount=0.0)),
    ("xinban", "turncoat_discount=0.3", replace(DEFAULT_WEIGHTS, turncoat_discount=0.3)),
    ("feidan", "palace_intruder=0", replace(DEFAULT_WEIGHTS, palace_intruder=0)),
    ("xiangqi", "mobility 2/4", replace(DEFAULT_WEIGHTS, mobility_line=2, mobility_leg=4)),
    ("feidan", "mobility 2/4", replace(DEFAULT_WEIGHTS, mobility_line=2, mobility_leg=4)),
    ("xinban", "mobility 2/4", replace(DEFAULT_WEIGHTS, mobility_line=2, mobility_leg=4)),
    (
        "xiangqi",
        "no king pressure",
        replace(DEFAULT_WEIGHTS, attacker_in_half=0, attacker_per_missing_guard=0),
    ),
]


def section_tune(args: argparse.Namespace) -> None:
    print(
        f"\n## tuning: default weights against one change, {args.tune_games} games each, "
        f"{args.tune_nodes:,} nodes a move (score of the default)"
    )
    for variant, name, weights in TUNING:
        if args.tune_only and f"{variant}:{name}" not in args.tune_only.split(","):
            continue

        def version(w: Weights) -> Callable[[int], Player]:
            def make(i: int) -> Player:
                return engine_player(
                    replace(level_limits(8, nodes=args.tune_nodes, seed=i), weights=w)
                )

            return make

        match(
            variant,
            version(DEFAULT_WEIGHTS),
            version(weights),
            args.tune_games,
            args.max_plies,
            f"default vs {name}",
        )


SECTIONS = {
    "speed": section_speed,
    "levels": section_levels,
    "strength": section_strength,
    "ladder": section_ladder,
    "peer": section_peer,
    "tactics": section_tactics,
    "tune": section_tune,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny settings (a smoke run)")
    parser.add_argument("--sections", default=",".join(SECTIONS))
    parser.add_argument("--games", type=int, default=50, help="games against random/greedy")
    parser.add_argument("--top-nodes", type=int, default=None, help="top level's node budget")
    parser.add_argument("--ladder-games", type=int, default=4)
    parser.add_argument("--ladder-scale", type=float, default=1.0, help="scale level budgets")
    parser.add_argument("--ladder-variants", default=",".join(VARIANTS))
    parser.add_argument(
        "--ladder-levels", default="2,3,4,5,6,7,8", help="upper levels of the pairs"
    )
    parser.add_argument("--peer-games", type=int, default=4)
    parser.add_argument("--peer-nodes", default="100,1000,10000")
    parser.add_argument("--tune-games", type=int, default=8)
    parser.add_argument("--tune-nodes", type=int, default=4000)
    parser.add_argument(
        "--tune-only", default="", help="comma-separated variant:version, e.g. xinban:mobility 2/4"
    )
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args()
    if args.top_nodes is None:
        args.top_nodes = level_limits(8).nodes
    if args.quick:
        args.games = min(args.games, 1)
        args.top_nodes = min(args.top_nodes, 300)
        args.ladder_games = min(args.ladder_games, 1)
        args.ladder_scale = min(args.ladder_scale, 0.02)
        args.ladder_variants = "xiangqi"
        args.peer_games = min(args.peer_games, 1)
        args.peer_nodes = "100"
        args.tune_games = min(args.tune_games, 1)
        args.tune_nodes = min(args.tune_nodes, 200)
        args.max_plies = min(args.max_plies, 60)
    for name in args.sections.split(","):
        SECTIONS[name](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
