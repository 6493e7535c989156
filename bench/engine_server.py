"""The playing engine of one source tree, answering moves over stdin/stdout.

    python bench/engine_server.py --root DIR

``DIR`` holds an ``engine/`` package (this checkout, or a frozen copy made by
``bench/baseline.py``); it is imported from there, compiled when its build is
current. One JSON object a line in, one a line out:

    {"variant": "xiangqi", "fen": "...", "moves": ["h2e2", ...], "level": 8, "nodes": 20000,
     "seed": 3}
    {"move": "h9g7", "depth": 9, "nodes": 20000}

The position is the ``fen`` after ``moves`` (so the repetition history is the
game's), searched at ``level``'s limits with the explicit node budget and seed.
Only the public API every version has is used (``Position.from_fen``,
``Move.from_iccs``, ``level_limits``, ``search_position``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from engine import Move, Position, _native
    from engine.play import level_limits, search_position

    print(json.dumps({"ready": True, "compiled": _native.compiled}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        ask = json.loads(line)
        pos = Position.from_fen(ask["variant"], ask["fen"])
        for iccs in ask["moves"]:
            pos.push(Move.from_iccs(iccs))
        limits = level_limits(int(ask["level"]), nodes=int(ask["nodes"]), seed=int(ask["seed"]))
        found = search_position(pos, limits)
        answer = {"move": str(found.move), "depth": found.depth, "nodes": found.nodes}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
