"""Every vector of data/rules-vectors.json: legal moves, status, check, perft
and the positions after the moves with a special effect."""

import json
from pathlib import Path

import pytest

from engine import Move, Position, perft

DATA = json.loads((Path(__file__).parent / "data" / "rules-vectors.json").read_text("utf-8"))
VECTORS = [vector for vectors in DATA["variants"].values() for vector in vectors]


def _id(vector: dict) -> str:
    return f"{vector['variant']}:{vector['name']}".replace(" ", "-")


def _perft_cases() -> list:
    return [
        pytest.param(vector, depth, nodes, id=f"{_id(vector)}:d{depth}")
        for vector in VECTORS
        for depth, nodes in enumerate(vector["perft"], start=1)
    ]


def _key_move_cases() -> list:
    return [
        pytest.param(vector, key, id=f"{_id(vector)}:{key['move']}")
        for vector in VECTORS
        for key in vector.get("key_moves", [])
    ]


def test_the_file_covers_all_three_variants() -> None:
    assert {v["variant"] for v in VECTORS} == {"xiangqi", "feidan", "xinban"}
    assert len(VECTORS) >= 30


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_legal_moves(vector: dict) -> None:
    pos = Position.from_fen(vector["variant"], vector["fen"])
    assert sorted(m.iccs() for m in pos.legal_moves) == vector["moves"]
    assert len(pos.legal_moves) == len(vector["moves"])


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_status_and_check(vector: dict) -> None:
    pos = Position.from_fen(vector["variant"], vector["fen"])
    assert pos.status() == vector["status"]
    assert pos.is_check() is vector["in_check"]


@pytest.mark.parametrize(("vector", "depth", "nodes"), _perft_cases())
def test_perft(vector: dict, depth: int, nodes: int) -> None:
    pos = Position.from_fen(vector["variant"], vector["fen"])
    assert perft(pos, depth) == nodes
    assert pos.fen() == Position.from_fen(vector["variant"], vector["fen"]).fen()


@pytest.mark.parametrize(("vector", "key"), _key_move_cases())
def test_key_move(vector: dict, key: dict) -> None:
    pos = Position.from_fen(vector["variant"], vector["fen"])
    move = Move.from_iccs(key["move"])
    assert move in pos.legal_moves
    pos.push(move)
    board, side = key["fen_after"].split()[:2]
    assert pos.fen().split()[:2] == [board, side]
    assert (
        pos.fen().split()[:2]
        == Position.from_fen(vector["variant"], key["fen_after"]).fen().split()[:2]
    )
