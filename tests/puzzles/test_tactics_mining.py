"""The tactics miner (puzzles.tactics_mining) on fixed positions, judged by Fairy-Stockfish:
a shipped puzzle found again from its game, a position where two moves win (no puzzle), a
quiet opening (no candidate), and a log that resumes. Skipped where Fairy-Stockfish is not
installed: the site itself never needs it for these puzzles (their answers are stored)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge import fairy_stockfish_path, shared_fairy_stockfish
from puzzles.mining import master_games
from puzzles.tactics_bank import read_tactics
from puzzles.tactics_mining import (
    Rejected,
    Stats,
    examine,
    game_positions,
    judge_step,
    mine_games,
    read_log,
    scan,
)

pytestmark = pytest.mark.skipif(
    fairy_stockfish_path() is None,
    reason="Fairy-Stockfish is not installed (Debian: apt-get install fairy-stockfish)",
)

# Red, a piece up, can take the loose horse on a5 or the loose cannon on i5: two moves win.
TWO_WINS = "2bakab2/4r4/9/9/n7c/9/9/1C5C1/9/RN1K3NR w - - 0 1"


def _shipped_with_game() -> tuple[dict, list[tuple[int, str]]]:
    masters = [e for e in read_tactics() if e["variant"] == "xiangqi"]
    entry = min(masters, key=lambda e: (len(e["main_line"]), e["key"]))
    number = int(entry["source_game"].split(":")[1])
    (game,) = [g for g in master_games(number - 1, 1) if g.id == number]
    return entry, list(game_positions(game))


def test_a_shipped_tactic_is_found_again_from_its_game() -> None:
    entry, positions = _shipped_with_game()
    index = next(i for i, (ply, _fen) in enumerate(positions) if ply == entry["ply"])
    found = examine(entry["source_game"], positions, index, shared_fairy_stockfish(), Stats())
    assert found.main_line == entry["main_line"]
    assert [s.accepted for s in found.steps] == [s["accepted"] for s in entry["proof"]["steps"]]
    assert [s.good for s in found.steps] == [s["good"] for s in entry["proof"]["steps"]]
    assert found.eval_before == entry["eval_before"]


def test_a_position_with_two_winning_moves_is_no_puzzle() -> None:
    positions = [(40, TWO_WINS.replace(" w ", " b ")), (41, TWO_WINS)]
    with pytest.raises(Rejected, match="not_only"):
        examine("test", positions, 1, shared_fairy_stockfish(), Stats())
    judge = shared_fairy_stockfish()
    evaluation = judge.evaluate(variant="xiangqi", fen=TWO_WINS, nodes=50_000, multipv=5)
    step, best = judge_step(evaluation)
    assert len(step.accepted) >= 2 and best >= 250


def test_a_quiet_opening_gives_no_candidate() -> None:
    (game,) = master_games(0, 1)
    positions = list(game_positions(game))[:16]
    stats = Stats()
    assert scan(positions, shared_fairy_stockfish(), stats, first=0) == []
    assert stats.positions == 16


def test_a_log_resumes_and_a_cut_last_line_is_mined_again(tmp_path: Path) -> None:
    games = [g for g in master_games(0, 3)]
    log = tmp_path / "run.jsonl"
    mine_games(games[:1], shared_fairy_stockfish(), log)
    first = read_log(log)
    assert [r["game"] for r in first] == [games[0].id]
    log.write_text(log.read_text() + '{"game": 99, "tac', encoding="utf-8")  # a stopped run
    again = mine_games(games[:2], shared_fairy_stockfish(), log)
    records = read_log(log)
    assert [r["game"] for r in records] == [games[0].id, games[1].id]
    assert again.games == 1  # the first game was not mined twice
    assert all(json.loads(line) for line in log.read_text().splitlines())
