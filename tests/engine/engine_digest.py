"""Everything the engine answers on a fixed workload, as one JSON document.

``python tests/engine/engine_digest.py`` prints it; ``test_compiled.py`` runs
it once on the compiled engine and once with ``ENGINE_PURE=1`` and compares
the two. The workload: the perft files (every depth up to ``MAX_NODES``
leaves), every rules vector (legal moves, status, check, perft, the effect
and Chinese name of each legal move), seeded random games of each variant
(at each ply the sorted legal moves, status, check, checkers, FEN and hash,
and perft(2) and the Chinese names of the legal moves every tenth ply,
playing to the end or ``PLIES`` plies, then taking every move back), two
proofs of the prover and the playing engine's choice (a node budget, no
clock) in a few positions.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import Budget, Position, bestmove, perft, solve  # noqa: E402

DATA = Path(__file__).parent / "data"
MAX_NODES = 200_000
GAMES = 10  # per variant
PLIES = 120
PROOFS = [
    ("xiangqi", "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1", "mate", 2),
    ("xiangqi", "4k4/9/9/9/7N1/9/9/9/9/3K5 w - - 0 1", "win", 3),
    # a master game's mate in 4 with two keys: the depth-first search's shortest win, then
    # df-pn's uniqueness check and tree
    ("xiangqi", "C1bak4/4a4/4b3c/2P5p/9/N3P4/5r1nP/5A3/9/1R1AK4 b - - 2 34", "mate", 4),
]


def perft_files() -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for path in sorted(DATA.glob("*.perft")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            variant, fen, *counts = (field.strip() for field in line.split(";"))
            pos = Position.from_fen(variant, fen)
            found = []
            for count in counts:
                depth, nodes = (int(x) for x in count.split())
                if nodes <= MAX_NODES:
                    found.append(perft(pos, depth))
            out[f"{path.stem}:{number}"] = found
    return out


def describe(pos: Position) -> dict[str, object]:
    return {
        "fen": pos.fen(),
        "hash": pos.hash,
        "moves": sorted(m.iccs() for m in pos.legal_moves),
        "status": pos.status(),
        "check": pos.is_check(),
        "checkers": sorted(pos.checkers()),
    }


def vectors() -> list[object]:
    data = json.loads((DATA / "rules-vectors.json").read_text("utf-8"))
    out: list[object] = []
    for group in data["variants"].values():
        for vector in group:
            pos = Position.from_fen(vector["variant"], vector["fen"])
            effects = {}
            for move in sorted(pos.legal_moves, key=lambda m: m.iccs()):
                effect = pos.move_effect(move)
                effects[move.iccs()] = [
                    effect.kind,
                    effect.captured,
                    effect.defected,
                    pos.chinese(move),
                ]
            counts = [perft(pos, d) for d in range(1, len(vector["perft"]) + 1)]
            out.append([vector["name"], describe(pos), effects, counts])
    return out


def random_games() -> list[object]:
    rng = random.Random(20261201)
    out: list[object] = []
    for variant in ("xiangqi", "feidan", "xinban"):
        for _ in range(GAMES):
            pos = Position.start(variant)
            trace: list[object] = []
            for ply in range(PLIES):
                trace.append(describe(pos))
                if ply % 10 == 0:
                    trace.append(perft(pos, 2))
                    trace.append(sorted(pos.chinese(m) for m in pos.legal_moves))
                moves = sorted(pos.legal_moves, key=lambda m: m.iccs())
                if not moves:
                    break
                pos.push(rng.choice(moves))
            twin = pos.copy()
            while pos.ply_count():
                pos.pop()
            trace.append([describe(twin), pos.fen(), pos.hash])
            out.append(trace)
    return out


def proofs() -> list[object]:
    out: list[object] = []
    for variant, fen, goal, max_moves in PROOFS:
        proof = solve(
            Position.from_fen(variant, fen), goal, max_moves, budget=Budget(nodes=200_000)
        )
        data = proof.to_data()
        data.pop("seconds")  # everything else, the node count included, must agree
        out.append(data)
    return out


PLAY = [
    ("xiangqi", Position.start("xiangqi").fen(), 20000),
    ("xiangqi", "r1bakabr1/9/1cn3n1c/p3p1R1p/2p6/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 1 6", 20000),
    ("feidan", Position.start("feidan").fen(), 10000),
    ("xinban", Position.start("xinban").fen(), 10000),
]


def play() -> list[object]:
    out: list[object] = []
    for variant, fen, nodes in PLAY:
        out.append(bestmove(variant, fen, nodes=nodes, seed=7).to_json())
    return out


def digest() -> dict[str, object]:
    return {
        "perft_files": perft_files(),
        "vectors": vectors(),
        "random_games": random_games(),
        "proofs": proofs(),
        "play": play(),
    }


if __name__ == "__main__":
    print(json.dumps({"compiled": engine.COMPILED, "digest": digest()}, sort_keys=True))
