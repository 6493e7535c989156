"""The real-game kills benchmark: its set is what its docstring says (positions of shipped
master games, each the winner's to move, 6 to 20 moves from a forced mate by the peer, none in
the bank), and a tiny run prints every figure."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Move, Position

ROOT = Path(__file__).resolve().parents[2]
SET = ROOT / "bench" / "records" / "kills.json"
GAMES = ROOT / "core" / "data" / "master-games" / "master-games.jsonl.gz"


def test_the_kills_are_positions_of_master_games_kept_out_of_the_bank() -> None:
    kills = json.loads(SET.read_text(encoding="utf-8"))["kills"]
    assert len(kills) == 40
    wanted = {int(k["game"].split(":")[1]): k for k in kills}
    assert len(wanted) == len(kills)  # one a game
    bank = json.loads((ROOT / "puzzles" / "data" / "bank.json").read_text(encoding="utf-8"))
    banked = {(e.get("source_game"), e.get("ply")) for e in bank["puzzles"]}
    with gzip.open(GAMES, "rt", encoding="utf-8") as handle:
        games = {g["id"]: g for g in map(json.loads, handle) if g["id"] in wanted}
    for number, kill in wanted.items():
        game = games[number]
        moves = game["moves"].split()
        position = Position.start("xiangqi")
        for text in moves[: kill["ply"]]:
            position.push(Move.from_iccs(text))
        assert position.fen() == Position.from_fen("xiangqi", kill["fen"]).fen(), kill["game"]
        assert position.outcome() is None
        # the winner: as the record says, or the side that gave the mate on the board
        mated = "red" if len(moves) % 2 == 0 else "black"
        winner = {"1-0": "red", "0-1": "black"}.get(game["result"])
        winner = winner or {"red": "black", "black": "red"}[mated]
        assert position.turn == winner, kill["game"]
        assert 6 <= kill["moves"] <= 20
        if kill["played"] is not None:  # the kill as played ends in mate on the board
            assert game["rules_end"] == [len(moves), "checkmate"]
            assert kill["ply"] == len(moves) - (2 * kill["played"] - 1)
        assert (kill["game"], kill["ply"]) not in banked


@pytest.mark.skipif(
    not (shutil.which("fairy-stockfish") or Path("/usr/games/fairy-stockfish").exists()),
    reason="Fairy-Stockfish is not installed",
)
def test_a_tiny_run_prints_every_figure() -> None:
    result = subprocess.run(
        [sys.executable, "bench/kills.py", "--measure", "--limit", "2", "--seconds", "0.5",
         "--peer-seconds", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert len(re.findall(r"^ +ccpd:\d+ mate in +\d+: \w+ +[\d.]+ s CPU", out, re.M)) == 2
    assert "Real-game kills, full mode, at most 0.5 s each" in out
    assert re.search(r"^ +all +2 +\d+ \( *\d+%\)", out, re.M), out
