"""How far Fairy-Stockfish agrees with the game analysis (games.game_analysis) on master games.

A sample of the shipped master games (``--games``, chosen with ``--seed``; a window of
``--window`` plies of each, from a random ply, so that openings, middlegames and endings all
come up) is judged twice, move by move, with the same ``classify`` (the same thresholds):
once on our engine's evaluations at the product's budget (``GAME_ANALYSIS_NODES`` a position),
once on Fairy-Stockfish's (``go nodes --fsf-nodes``, one thread). Fairy-Stockfish is the
reference. Printed: each side's count of blunders (and of mistakes or worse), agreement on
"is a blunder" (both, only ours, only Fairy-Stockfish's; our precision and recall), the same
for "a mistake or worse", how often the two engines choose the same move in a position, and
whether they name the same better move where both call the move a blunder.

Run: ``python bench/analysis_agreement.py`` (about 5 minutes on the 2-core machine).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from play_bench import Peer  # noqa: E402

from core.masters import read_shipped  # noqa: E402
from engine import Position  # noqa: E402
from games.game_analysis import (  # noqa: E402
    GAME_ANALYSIS_NODES,
    game_verdicts,
    position_evaluation,
)

FAIRY_STOCKFISH = "fairy-stockfish"
START = Position.start("xiangqi").fen()


class Judge(Peer):
    """Fairy-Stockfish's evaluation of a position, kept as ``position_evaluation`` keeps
    ours: from Red's side, with its best move."""

    def evaluation(self, moves: list[str]) -> dict[str, Any]:
        pos = Position.from_fen("xiangqi", START)
        for text in moves:
            pos.push_iccs(text)
        outcome = pos.outcome()
        if outcome is not None:
            return {"cp": None, "mate": None, "winner": outcome.winner or "draw", "best": None}
        line = " ".join(self.to_peer(m) for m in moves)
        self._send(f"position fen {START}" + (f" moves {line}" if line else ""))
        self._send(f"go nodes {self.nodes}")
        lines = self._wait("bestmove")
        score: dict[str, int | None] = {"cp": None, "mate": None}
        for text in lines:
            words = text.split()
            if text.startswith("info") and "score" in words and "pv" in words:
                at = words.index("score")
                kind, value = words[at + 1], int(words[at + 2])
                score = {"cp": value, "mate": None} if kind == "cp" else {"cp": None, "mate": value}
        sign = 1 if pos.turn == "red" else -1
        best = pos.parse_move(self.from_peer(lines[-1].split()[1]))
        return {
            "cp": None if score["cp"] is None else sign * score["cp"],
            "mate": None if score["mate"] is None else sign * score["mate"],
            "winner": None,
            "best": {"iccs": best.iccs(), "chinese": pos.chinese(best)},
        }


def sample(games: int, window: int, seed: int) -> list[tuple[int, list[str], int]]:
    """``games`` complete master games of at least ``window`` plies, each with a window start."""
    rng = random.Random(seed)
    pool = []
    for game in read_shipped():
        moves = list(game.moves[: game.rules_end[0]] if game.rules_end else game.moves)
        if game.stop is None and len(moves) >= window:
            pool.append((game.id, moves))
    chosen = sorted(rng.sample(pool, games))
    return [(i, moves, rng.randrange(0, len(moves) - window + 1)) for i, moves in chosen]


def entries_of(moves: list[str], offset: int, evaluations: list[dict[str, Any]]) -> list[Any]:
    """The judged plies of the window (``game_verdicts`` from the window's first position)."""
    pos = Position.from_fen("xiangqi", START)
    for text in moves[:offset]:
        pos.push_iccs(text)
    said = []
    for text in moves[offset : offset + len(evaluations) - 1]:
        move = pos.parse_move(text)
        said.append({"iccs": move.iccs(), "chinese": pos.chinese(move)})
        pos.push(move)
    fen = Position.from_fen("xiangqi", START)
    for text in moves[:offset]:
        fen.push_iccs(text)
    return game_verdicts(fen=fen.fen(), moves=said, evaluations=evaluations)


def ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.0%}" if whole else f"{part}/0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--window", type=int, default=20, help="plies judged a game")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--nodes", type=int, default=GAME_ANALYSIS_NODES, help="ours a position")
    parser.add_argument("--fsf-nodes", type=int, default=100_000)
    args = parser.parse_args()
    path = shutil.which(FAIRY_STOCKFISH) or shutil.which("/usr/games/fairy-stockfish")
    if path is None:
        sys.exit("Fairy-Stockfish is not installed")
    judge = Judge(path, args.fsf_nodes)
    ours_all: list[dict[str, Any]] = []
    theirs_all: list[dict[str, Any]] = []
    same_choice = positions = 0
    ours_seconds = theirs_seconds = 0.0
    for game_id, moves, offset in sample(args.games, args.window, args.seed):
        ours, theirs = [], []
        for index in range(offset, offset + args.window + 1):
            if index > len(moves):
                break
            started = time.perf_counter()
            ours.append(
                position_evaluation(
                    variant="xiangqi", fen=START, moves=moves[:index], nodes=args.nodes
                )
            )
            ours_seconds += time.perf_counter() - started
            started = time.perf_counter()
            theirs.append(judge.evaluation(moves[:index]))
            theirs_seconds += time.perf_counter() - started
            if ours[-1]["best"] is not None:
                positions += 1
                same_choice += ours[-1]["best"] == theirs[-1]["best"]
        ours_all += entries_of(moves, offset, ours)
        theirs_all += entries_of(moves, offset, theirs)
        print(f"game {game_id}: plies {offset + 1}-{offset + len(ours) - 1}", flush=True)
    judge.close()

    def flagged(entries: list[dict[str, Any]], verdicts: tuple[str, ...]) -> set[int]:
        return {i for i, e in enumerate(entries) if e["verdict"] in verdicts}

    print()
    print(
        f"{args.games} master games (seed {args.seed}), {len(ours_all)} moves judged; ours at "
        f"{args.nodes:,} nodes a position ({ours_seconds / max(positions, 1):.2f} s), "
        f"Fairy-Stockfish at {args.fsf_nodes:,} ({theirs_seconds / max(positions, 1):.2f} s)"
    )
    for label, verdicts in (
        ("blunder", ("blunder",)),
        ("mistake or worse", ("mistake", "blunder")),
    ):
        mine, peer = flagged(ours_all, verdicts), flagged(theirs_all, verdicts)
        both = mine & peer
        print(
            f"{label}: ours {len(mine)}, Fairy-Stockfish {len(peer)}; both {len(both)}, only "
            f"ours {len(mine - peer)}, only Fairy-Stockfish {len(peer - mine)}; precision "
            f"{ratio(len(both), len(mine))}, recall {ratio(len(both), len(peer))}"
        )
        if label == "blunder":
            better = sum(ours_all[i]["better"] == theirs_all[i]["better"] for i in both)
            print(
                f"  the same better move where both call it a blunder: {ratio(better, len(both))}"
            )
    print(f"the same choice of move in a position: {ratio(same_choice, positions)}")


if __name__ == "__main__":
    main()
