"""Mining the master games (puzzles.mining, strategy ``master``): every position of a game is
looked at by quick searches, a mate they see is proved in full, and a puzzle keeps its game and
ply; at most two a game, never two from one line, no position twice (mirror images included),
no mate in 1 a reader finds without looking."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.masters import SHIPPED_FILE, read_shipped, write_shipped
from engine import Position
from puzzles import proving
from puzzles.mining import (
    MASTER_FIRST_PLY,
    MASTER_PER_GAME,
    Chunk,
    master_candidates,
    mine,
    mirrored_board,
    position_key,
    trivial,
)

CAPTURE_MATE = "3rkr3/4n4/9/3N5/9/9/9/9/4R4/4K4 w - - 0 1"  # 车五进七 takes the horse: mate


def shipped_games(tmp_path: Path, ids: set[int]) -> Path:
    path = tmp_path / "games.jsonl.gz"
    write_shipped((g for g in read_shipped(SHIPPED_FILE) if g.id in ids), path)
    return path


def test_a_position_and_its_mirror_image_are_one_puzzle() -> None:
    fen = "3k5/4a4/2R6/9/9/9/9/9/9/4K4 w - - 0 1"
    mirror = f"{mirrored_board(fen)} w - - 0 1"
    assert mirrored_board(fen) == "5k3/4a4/6R2/9/9/9/9/9/9/4K4"
    assert mirrored_board(mirror) == fen.split(" ")[0]
    assert position_key(fen) == position_key(mirror)
    assert position_key(fen) != position_key(fen.replace(" w ", " b "))
    assert mirrored_board("+R8/9/9/9/9/9/9/9/9/4K4") == "8+R/9/9/9/9/9/9/9/9/4K4"


def test_a_mate_in_one_by_a_capture_is_too_plain_to_be_a_puzzle() -> None:
    assert proving.find_win(variant="xiangqi", fen=CAPTURE_MATE, goal="mate", max_moves=1) == 1
    result = proving.prove(variant="xiangqi", fen=CAPTURE_MATE, goal="mate", moves_to_win=1)
    assert result.sound and result.main_line == ["e1e8"]
    assert trivial(CAPTURE_MATE, result.main_line, 1)
    assert not trivial(CAPTURE_MATE, result.main_line, 2)  # longer mates are never "plain"


def test_a_game_gives_its_positions_from_the_tenth_ply_with_their_game_and_ply(
    tmp_path: Path,
) -> None:
    game = next(read_shipped(shipped_games(tmp_path, {1})))
    candidates = list(master_candidates(game))
    assert candidates[0].ply == MASTER_FIRST_PLY
    assert {c.source_game for c in candidates} == {"ccpd:1"}
    assert [c.ply for c in candidates] == list(range(MASTER_FIRST_PLY, len(game.moves) + 1))[
        : len(candidates)
    ]
    position = Position.start("xiangqi")
    for text in game.moves[: candidates[5].ply]:
        position.push(position.parse_move(text))
    assert candidates[5].fen.split(" ")[:2] == position.fen().split(" ")[:2]


def test_a_master_game_gives_the_mate_its_players_had_and_not_the_rest_of_its_line(
    tmp_path: Path,
) -> None:
    """Game 73 of the collection: at ply 106 the side to move mates in 3 by checks; ply 108 is
    the same line two moves on (a mate in 2) and is not a second puzzle."""
    path = shipped_games(tmp_path, {73})
    chunk = Chunk(variant="xiangqi", strategy="master", seed=1, count=5, max_moves=7, games=1)
    from puzzles.mining import mine_master

    found = mine_master(chunk, path=path)
    assert [(p.source_game, p.ply, p.moves_to_win) for p in found] == [("ccpd:73", 106, 3)]
    puzzle = found[0]
    assert puzzle.source == "game" and puzzle.origin == "master" and puzzle.mode == "full"
    assert puzzle.game is not None and puzzle.game["red"] and puzzle.game["year"]
    entry = puzzle.as_entry()
    assert (entry["source_game"], entry["ply"]) == ("ccpd:73", 106)
    again = proving.prove(variant="xiangqi", fen=puzzle.fen, goal="mate", moves_to_win=3)
    assert again.sound and again.main_line == puzzle.main_line
    assert len(found) <= MASTER_PER_GAME


def test_the_master_games_are_traditional_xiangqi_only() -> None:
    with pytest.raises(ValueError, match="traditional"):
        mine(Chunk(variant="feidan", strategy="master", seed=1, count=1, games=1))


def test_a_chunk_of_master_games_travels_to_a_worker_and_back() -> None:
    chunk = Chunk(variant="xiangqi", strategy="master", seed=3, count=4, first=200, games=50)
    assert Chunk(**chunk.as_json()) == chunk
