"""Command line: ``python -m engine moves|perft|status|solve|bestmove|patterns VARIANT "FEN" ...``.

``patterns VARIANT FEN --line M1 M2 ...`` names the kill patterns of the mate the line (ICCS,
the attacker's move first) ends in, as one JSON line ``{"patterns": [codes]}``; ``patterns
--list`` prints the catalogue.

Bad input exits with status 2 and a one-line message on stderr; nothing is
printed on stdout then.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import EngineError
from engine.perft import divide, perft
from engine.position import Position


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    moves = sub.add_parser("moves", help="legal moves in ICCS, one per line")
    moves.add_argument("variant")
    moves.add_argument("fen")
    moves.add_argument("--chinese", action="store_true", help="add Chinese notation")
    p = sub.add_parser("perft", help="count leaf nodes; the total is the last line")
    p.add_argument("variant")
    p.add_argument("fen")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="print the count below each move first")
    s = sub.add_parser("status", help="checkmate | stalemate | dead_general | ongoing")
    s.add_argument("variant")
    s.add_argument("fen")
    bm = sub.add_parser(
        "bestmove", help="the engine's move; one JSON line with move, score, depth, nodes, pv"
    )
    bm.add_argument("variant")
    bm.add_argument("fen")
    bm.add_argument(
        "--moves", nargs="*", default=[], metavar="MOVE", help="ICCS moves played first"
    )
    bm.add_argument("--level", type=int, default=8, help="1 (beginner) to 8 (strongest)")
    bm.add_argument(
        "--movetime",
        type=int,
        default=None,
        metavar="MS",
        help="time budget (default: the level's own, capped at 1.9 s of wall time)",
    )
    bm.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="node budget (exact and deterministic: no time cap unless --movetime)",
    )
    bm.add_argument("--seed", type=int, default=0, help="seed of the low levels' randomness")
    bm.add_argument("--hash", type=int, default=64, metavar="MIB", help="transposition table size")
    pt = sub.add_parser(
        "patterns",
        help='the named kill patterns of a mate, as JSON {"patterns": [codes]}; --list: all',
    )
    pt.add_argument("variant", nargs="?")
    pt.add_argument("fen", nargs="?")
    pt.add_argument(
        "--line", nargs="*", default=[], metavar="MOVE", help="ICCS moves, the attacker's first"
    )
    pt.add_argument("--list", action="store_true", help="the catalogue of patterns")
    try:
        from engine.solver.cli import add_solve_parser
    except ImportError:
        pass
    else:
        add_solve_parser(sub)
    return parser


def _patterns(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    from engine import patterns

    if args.list:
        if args.variant is not None or args.line:
            parser.error("patterns --list takes no position or line")
        found: object = [
            {"code": p.code, "zh": p.zh, "en": p.en, "variants": list(p.variants)}
            for p in patterns.PATTERNS
        ]
    else:
        if args.variant is None or args.fen is None:
            parser.error("patterns needs VARIANT and FEN (or --list)")
        found = patterns.detect(args.variant, args.fen, args.line)
    return [json.dumps({"patterns": found}, ensure_ascii=False, separators=(",", ":"))]


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "patterns":
            lines = _patterns(parser, args)
        elif args.command == "solve":
            from engine.solver.cli import run_solve

            lines = run_solve(args)
        elif args.command == "bestmove":
            from engine.play import bestmove

            found = bestmove(
                args.variant,
                args.fen,
                args.moves,
                level=args.level,
                movetime_ms=args.movetime,
                nodes=args.nodes,
                seed=args.seed,
                tt_mib=args.hash,
            )
            lines = [json.dumps(found.to_json(), separators=(",", ":"))]
        else:
            pos = Position.from_fen(args.variant, args.fen)
            if args.command == "moves":
                moves = sorted(pos.legal_moves, key=lambda m: m.iccs())
                if args.chinese:
                    lines = [f"{m.iccs()} {pos.chinese(m)}" for m in moves]
                else:
                    lines = [m.iccs() for m in moves]
            elif args.command == "perft":
                if args.depth < 0 or args.depth > 8:
                    raise EngineError("cli.depth", {"value": args.depth})
                lines = []
                if args.divide and args.depth >= 1:
                    lines = [f"{m} {n}" for m, n in sorted(divide(pos, args.depth).items())]
                lines.append(str(perft(pos, args.depth)))
            else:
                lines = [pos.status()]
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if lines:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
