"""Fit the evaluation's piece-square tables to the results of the master games.

The evaluation's material and piece-square tables are one number a piece type,
a rank (counted from its owner's back rank) and a distance from the centre
file (``engine.play.evaluation``), summed over the pieces: a linear function
of how many pieces of each type stand on each such point. This script fits
those numbers to what the master games say, the way "Texel tuning" does for
chess engines: the probability that Red wins, ``1 / (1 + 10 ** (-K * e / 400))``
of the evaluation ``e`` from Red's side, should match the games' results (1,
1/2, 0) over many quiet positions of the games.

- ``extract``: positions of the shipped master games (``core/masters``) from
  ply 12 on, one in ``--every`` picked by a seeded draw, kept when the side to
  move is not in check and the quiescence search agrees with the static
  evaluation (a quiet position); games whose id ends in 0 are held out to
  check the fit. Written to ``var/bench/tune/positions.jsonl.gz``.
- ``fit``: the scale ``K`` for the current tables, then the tables by
  gradient descent (Adam) on the mean squared error, with a pull towards the
  current tables (``--l2``) so that rarely seen entries stay near them. The
  state is saved after every epoch (``var/bench/tune/state.json``): a run
  stopped at any time goes on from there.
- ``write``: the fitted tables as ``engine/play/tuned.py``, which the
  evaluation reads.

Deterministic: the same games, seed and settings give the same tables.

    .venv/bin/python bench/tune_eval.py extract --every 8
    .venv/bin/python bench/tune_eval.py fit --epochs 60
    .venv/bin/python bench/tune_eval.py write
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.masters import read_shipped  # noqa: E402
from engine import Move, Position  # noqa: E402
from engine.play.evaluation import (  # noqa: E402
    DEFAULT_WEIGHTS,
    MATERIAL,
    base_square_bonus,
    safety,
    safety_counts,
    tables,
)
from engine.play.search import Limits, Searcher  # noqa: E402
from engine.variants import (  # noqa: E402
    ADVISOR,
    BLACK,
    CANNON,
    CHARIOT,
    ELEPHANT,
    HORSE,
    KING,
    SOLDIER,
    VARIANTS,
)

WORK = ROOT / "var" / "bench" / "tune"
POSITIONS = WORK / "positions.jsonl.gz"
STATE = WORK / "state.json"
OUT = ROOT / "engine" / "play" / "tuned.py"
KINDS = (KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER)
NAMES = {
    KING: "KING",
    ADVISOR: "ADVISOR",
    ELEPHANT: "ELEPHANT",
    HORSE: "HORSE",
    CHARIOT: "CHARIOT",
    CANNON: "CANNON",
    SOLDIER: "SOLDIER",
}
OFFS = 5  # distance from the centre file: 0-3, and 4 for the edge of the 9-file board
PARAMS = len(KINDS) * 10 * OFFS
RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def index(kind: int, rank: int, off: int) -> int:
    return (KINDS.index(kind) * 10 + rank) * OFFS + off


def initial() -> list[float]:
    """The current tables (material plus the hand-written bonus), as parameters."""
    theta = [0.0] * PARAMS
    for kind in KINDS:
        for rank in range(10):
            for off in range(OFFS):
                theta[index(kind, rank, off)] = float(
                    MATERIAL[kind] + base_square_bonus(kind, off, rank, 4)
                )
    return theta


def features(pos: Position) -> list[int]:
    """The position's pieces as parameter indices, each times 2, plus 1 for Black's."""
    found = []
    w = pos.variant.width
    for sq, v in enumerate(pos.board):
        if not v:
            continue
        kind = v & 15
        black = bool(v & BLACK)
        f, r = sq % w, sq // w
        rank = 9 - r if black else r
        found.append(index(kind, rank, abs(f - w // 2)) * 2 + black)
    return found


def extract(args: argparse.Namespace) -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    variant = VARIANTS["xiangqi"]
    t = tables(variant)
    rng = random.Random(args.seed)
    kept = seen = games = 0
    t0 = time.perf_counter()
    tmp = POSITIONS.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as out:
        for game in read_shipped():
            if game.result not in RESULT or len(game.moves) < 20:
                continue
            if args.games and games >= args.games:
                break
            games += 1
            result = RESULT[game.result]
            pos = Position.start("xiangqi")
            for ply, iccs in enumerate(game.moves):
                pos.push(Move.from_iccs(iccs))
                if ply < 11 or rng.randrange(args.every):
                    continue
                if pos.outcome() is not None:
                    break
                seen += 1
                if pos.is_check():
                    continue
                searcher = Searcher(pos, Limits(nodes=4000, tt_mib=1))
                if searcher.quiet_value() != searcher.evaluate():
                    continue
                fixed = safety(safety_counts(pos.board, t), DEFAULT_WEIGHTS)
                fixed += DEFAULT_WEIGHTS.tempo if pos.turn == "red" else -DEFAULT_WEIGHTS.tempo
                line = {"g": game.id, "r": result, "x": fixed, "p": features(pos)}
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
                kept += 1
            if games % 2000 == 0:
                print(f"  {games} games, {kept}/{seen} positions kept", flush=True)
    tmp.replace(POSITIONS)
    print(f"{games} games, {kept} quiet positions of {seen} ({time.perf_counter() - t0:.0f} s)")


Row = tuple[float, float, list[int]]


def load() -> tuple[list[Row], list[Row]]:
    train: list[Row] = []
    held: list[Row] = []
    with gzip.open(POSITIONS, "rt", encoding="utf-8") as handle:
        for line in handle:
            d = json.loads(line)
            (held if d["g"] % 10 == 0 else train).append((d["r"], d["x"], d["p"]))
    return train, held


def value(theta: list[float], fixed: float, pieces: list[int]) -> float:
    e = fixed
    for p in pieces:
        e += -theta[p >> 1] if p & 1 else theta[p >> 1]
    return e


def sigmoid(k: float, e: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-k * e / 400.0))


def loss(theta: list[float], rows: list[Row], k: float) -> float:
    total = 0.0
    for r, x, pieces in rows:
        total += (r - sigmoid(k, value(theta, x, pieces))) ** 2
    return total / len(rows)


def fit_k(theta: list[float], rows: list[Row]) -> float:
    """The scale that fits the current tables best (golden-section search)."""
    lo, hi = 0.05, 3.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(30):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if loss(theta, rows, a) < loss(theta, rows, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit(args: argparse.Namespace) -> None:
    train, held = load()
    print(f"{len(train)} positions to fit, {len(held)} held out")
    theta0 = initial()
    if STATE.exists() and not args.restart:
        state = json.loads(STATE.read_text())
        theta, k, epoch = state["theta"], state["k"], state["epoch"]
        m, v = state["m"], state["v"]
        print(f"resumed at epoch {epoch}")
    else:
        theta, epoch = list(theta0), 0
        k = fit_k(theta, train)
        m, v = [0.0] * PARAMS, [0.0] * PARAMS
        print(
            f"K = {k:.4f}; loss of the current tables: train {loss(theta, train, k):.6f}, "
            f"held out {loss(theta, held, k):.6f}"
        )
    lr, b1, b2 = args.rate, 0.9, 0.999
    ln10 = math.log(10.0) / 400.0
    rng = random.Random(args.seed)
    while epoch < args.epochs:
        epoch += 1
        order = list(range(len(train)))
        rng.shuffle(order)
        for start in range(0, len(order), args.batch):
            grad = [0.0] * PARAMS
            batch = order[start : start + args.batch]
            for i in batch:
                r, x, pieces = train[i]
                s = sigmoid(k, value(theta, x, pieces))
                # d/de of (r - s)^2
                d = -2.0 * (r - s) * s * (1.0 - s) * k * ln10
                for p in pieces:
                    if p & 1:
                        grad[p >> 1] -= d
                    else:
                        grad[p >> 1] += d
            n = len(batch)
            for j in range(PARAMS):
                gj = grad[j] / n + args.l2 * (theta[j] - theta0[j])
                if gj == 0.0:
                    continue
                m[j] = b1 * m[j] + (1 - b1) * gj
                v[j] = b2 * v[j] + (1 - b2) * gj * gj
                theta[j] -= lr * m[j] / (math.sqrt(v[j]) + 1e-12)
        state = {"theta": theta, "k": k, "epoch": epoch, "m": m, "v": v}
        WORK.mkdir(parents=True, exist_ok=True)
        tmp = STATE.with_suffix(".tmp")
        tmp.write_text(json.dumps(state))
        tmp.replace(STATE)
        print(
            f"epoch {epoch}: train {loss(theta, train, k):.6f}, held out {loss(theta, held, k):.6f}",
            flush=True,
        )


def arrays(rows: list[Row]) -> tuple[Any, Any, Any, Any]:
    """The rows as NumPy arrays: results, fixed parts, parameter indices and signs (a
    position's pieces padded with a parameter that is always 0)."""
    import numpy as np

    width = max(len(p) for _r, _x, p in rows)
    idx = np.full((len(rows), width), PARAMS, dtype=np.int64)
    sign = np.zeros((len(rows), width))
    for i, (_r, _x, pieces) in enumerate(rows):
        for j, p in enumerate(pieces):
            idx[i, j] = p >> 1
            sign[i, j] = -1.0 if p & 1 else 1.0
    results = np.array([r for r, _x, _p in rows])
    fixed = np.array([x for _r, x, _p in rows], dtype=float)
    return results, fixed, idx, sign


def fit_full(args: argparse.Namespace) -> None:
    """Full-batch gradient descent (Adam) with NumPy: every step sees every position, so the
    steps are not noisy; resumable like ``fit``."""
    import numpy as np

    train, held = load()
    print(f"{len(train)} positions to fit, {len(held)} held out")
    r, x, idx, sign = arrays(train)
    hr, hx, hidx, hsign = arrays(held)
    theta0 = np.array(initial() + [0.0])
    if STATE.exists() and not args.restart:
        state = json.loads(STATE.read_text())
        theta = np.array(state["theta"] + [0.0])
        k, epoch = state["k"], state["epoch"]
        m = np.array(state["m"] + [0.0])
        v = np.array(state["v"] + [0.0])
        print(f"resumed at step {epoch}")
    else:
        theta, epoch = theta0.copy(), 0
        k = fit_k(list(theta0[:PARAMS]), train)
        m, v = np.zeros(PARAMS + 1), np.zeros(PARAMS + 1)
    c = k * math.log(10.0) / 400.0

    def mse(t: Any, rr: Any, xx: Any, ii: Any, ss: Any) -> float:
        e = xx + (t[ii] * ss).sum(axis=1)
        s = 1.0 / (1.0 + np.exp(-c * e))
        return float(((rr - s) ** 2).mean())

    print(f"K = {k:.4f}; held out: {mse(theta0, hr, hx, hidx, hsign):.6f} at the start")
    b1, b2 = 0.9, 0.999
    while epoch < args.epochs:
        epoch += 1
        e = x + (theta[idx] * sign).sum(axis=1)
        s = 1.0 / (1.0 + np.exp(-c * e))
        d = -2.0 * (r - s) * s * (1.0 - s) * c / len(r)
        grad = np.zeros(PARAMS + 1)
        np.add.at(grad, idx, sign * d[:, None])
        grad += args.l2 * (theta - theta0)
        grad[PARAMS] = 0.0
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        mhat = m / (1 - b1**epoch)
        vhat = v / (1 - b2**epoch)
        theta -= args.rate * mhat / (np.sqrt(vhat) + 1e-12)
        if epoch % 50 == 0 or epoch == args.epochs:
            state = {
                "theta": list(theta[:PARAMS]),
                "k": k,
                "epoch": epoch,
                "m": list(m[:PARAMS]),
                "v": list(v[:PARAMS]),
            }
            WORK.mkdir(parents=True, exist_ok=True)
            tmp = STATE.with_suffix(".tmp")
            tmp.write_text(json.dumps(state))
            tmp.replace(STATE)
            print(
                f"step {epoch}: train {mse(theta, r, x, idx, sign):.6f}, "
                f"held out {mse(theta, hr, hx, hidx, hsign):.6f}",
                flush=True,
            )


def write(args: argparse.Namespace) -> None:
    state = json.loads(STATE.read_text())
    theta = state["theta"]
    _, held = load()
    lines = [
        '"""Piece-square tables of traditional xiangqi fitted to the master games\' results.',
        "",
        "Written by ``bench/tune_eval.py write``; do not edit by hand. ``SQUARES[kind]`` holds",
        "ten rows (the rank from the owner's back rank) of five numbers (files from the centre:",
        "0-3, and 4 for the board's edge): material and position together, in centipawns.",
        f"Fit: {state['epoch']} epochs, K = {state['k']:.4f}; loss on the held-out games",
        f"{loss(initial(), held, state['k']):.6f} with the hand-written tables, "
        f"{loss(theta, held, state['k']):.6f} with these.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "from engine.variants import ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, KING, SOLDIER",
        "",
        "SQUARES: Final[dict[int, tuple[tuple[int, ...], ...]]] = {",
    ]
    for kind in KINDS:
        lines.append(f"    {NAMES[kind]}: (")
        for rank in range(10):
            row = ", ".join(str(round(theta[index(kind, rank, off)])) for off in range(OFFS))
            lines.append(f"        ({row}),")
        lines.append("    ),")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    e = sub.add_parser("extract")
    e.add_argument("--every", type=int, default=8, help="one position in this many plies")
    e.add_argument("--games", type=int, default=0, help="at most this many games (0: all)")
    e.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("fit")
    f.add_argument("--epochs", type=int, default=40)
    f.add_argument("--batch", type=int, default=4096)
    f.add_argument("--rate", type=float, default=1.0, help="Adam's step, centipawns")
    f.add_argument("--l2", type=float, default=1e-6, help="pull towards the current tables")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--restart", action="store_true", help="ignore a saved state")
    n = sub.add_parser("fit-full", help="full-batch fit with NumPy (pip install numpy)")
    n.add_argument("--epochs", type=int, default=1000, help="steps")
    n.add_argument("--rate", type=float, default=1.0, help="Adam's step, centipawns")
    n.add_argument("--l2", type=float, default=1e-7, help="pull towards the current tables")
    n.add_argument("--restart", action="store_true", help="ignore a saved state")
    sub.add_parser("write")
    args = parser.parse_args()
    commands = {"extract": extract, "fit": fit, "fit-full": fit_full, "write": write}
    commands[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
