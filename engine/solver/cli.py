"""``python -m engine solve VARIANT FEN --goal GOAL --max N [--checks-only]``.

Prints one JSON line: status, moves_to_win, key_moves (ICCS), mode, nodes,
seconds.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.position import Position
from engine.solver.proof import SolverInputError
from engine.solver.prover import solve
from engine.solver.search import GOALS, Budget


def add_solve_parser(subparsers: Any) -> None:
    """Add the ``solve`` command to the engine's command line."""
    p = subparsers.add_parser(
        "solve", help="prove a puzzle; one JSON line with the status and the key moves"
    )
    p.add_argument("variant")
    p.add_argument("fen")
    p.add_argument("--goal", choices=tuple(GOALS), default="mate")
    p.add_argument(
        "--max",
        dest="max_moves",
        type=int,
        required=True,
        metavar="N",
        help="the puzzle's length in attacker moves",
    )
    p.add_argument("--checks-only", action="store_true", help="every attacker move must give check")
    p.add_argument("--nodes", type=int, default=None, help="node budget")
    p.add_argument("--seconds", type=float, default=None, help="time budget")


def run_solve(args: argparse.Namespace) -> list[str]:
    """Run the ``solve`` command; returns the lines to print."""
    if args.nodes is not None and args.nodes <= 0:
        raise SolverInputError("solver.bad_budget", {"name": "nodes", "value": args.nodes})
    if args.seconds is not None and not args.seconds > 0:
        raise SolverInputError("solver.bad_budget", {"name": "seconds", "value": args.seconds})
    pos = Position.from_fen(args.variant, args.fen)
    proof = solve(
        pos,
        goal=args.goal,
        max_moves=args.max_moves,
        budget=Budget(nodes=args.nodes, seconds=args.seconds),
        mode="checks_only" if args.checks_only else "full",
    )
    summary: dict[str, Any] = proof.summary()
    return [json.dumps(summary, ensure_ascii=False, separators=(",", ":"))]
