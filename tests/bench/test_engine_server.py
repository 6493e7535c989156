"""The engine server of the baseline matches (bench/engine_server.py) answers a move over its
line protocol: here for this checkout's own engine (the frozen build is the same program run
from another tree)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine import Position

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_server_answers_a_legal_move_for_the_games_moves() -> None:
    ask = {
        "variant": "xiangqi",
        "fen": Position.start("xiangqi").fen(),
        "moves": ["h2e2", "h9g7"],
        "level": 8,
        "nodes": 500,
        "seed": 1,
    }
    result = subprocess.run(
        [sys.executable, "bench/engine_server.py", "--root", str(ROOT)],
        input=json.dumps(ask) + "\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    hello, answer = (json.loads(line) for line in result.stdout.splitlines())
    assert hello["ready"] is True
    pos = Position.start("xiangqi")
    for move in ask["moves"]:
        pos.push_iccs(move)
    assert answer["move"] in {m.iccs() for m in pos.legal_moves}
    assert answer["nodes"] <= 500
