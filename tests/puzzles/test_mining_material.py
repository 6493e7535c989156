"""docs/rules.md §3.5, Ruling (material a game can reach): the miner builds only positions a game can
produce, and the shipped bank holds none that it cannot."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import InvalidFenError, Position
from puzzles.bankfile import read_bank
from puzzles.mining import sparse_fen

LIMITS = {"a": 2, "b": 2, "n": 2, "r": 2, "c": 2, "p": 5, "f": 2, "m": 2, "k": 1}


def _material(fen: str) -> Counter[str]:
    board = fen.split()[0]
    return Counter(ch for ch in board if ch.isalpha())


@pytest.mark.parametrize(
    ("variant", "strategy"),
    [("feidan", "dead_general"), ("feidan", "collision"), ("feidan", "sparse"),
     ("xiangqi", "sparse"), ("xiangqi", "cannons"), ("xinban", "defection")],
)  # fmt: skip
def test_material_a_game_can_reach_the_miner_builds_no_more(variant: str, strategy: str) -> None:
    rng = random.Random(f"material:{variant}:{strategy}")
    built = 0
    for _ in range(400):
        fen = sparse_fen(variant, rng, strategy)
        if fen is None:
            continue
        built += 1
        for letter, n in _material(fen).items():
            limit = LIMITS[letter.lower()]
            if variant == "xinban" and letter.lower() in "rnc":
                limit = 4
            assert n <= limit, (fen, letter, n)
        try:
            Position.from_fen(variant, fen)
        except InvalidFenError as error:
            assert "a game" not in str(error) and "never gains" not in str(error), fen
    assert built > 300


def test_material_a_game_can_reach_every_bank_puzzle_is_reachable() -> None:
    entries = read_bank()
    assert entries
    for entry in entries:
        Position.from_fen(entry["variant"], entry["fen"])
        for letter, n in _material(entry["fen"]).items():
            if entry["variant"] == "xinban" and letter.lower() in "rnc":
                continue
            assert n <= LIMITS[letter.lower()], (entry["key"], entry["fen"])


def test_the_cannons_strategy_builds_both_cannons_on_the_generals_lines() -> None:
    """The biased kind for the cannon patterns (空头炮, 天地炮, 十字炮, 炮碾丹砂): both red
    cannons, one on the black general's file below it with a point between, the other on the
    general's rank or on Black's back rank."""
    rng = random.Random("cannons")
    built = 0
    for _ in range(200):
        fen = sparse_fen("xiangqi", rng, "cannons")
        if fen is None:
            continue
        try:
            pos = Position.from_fen("xiangqi", fen)
        except InvalidFenError:
            continue  # a cannon checking already: the miner passes such a board by
        built += 1
        pieces = pos.pieces()
        general = next(point for point, piece in pieces.items() if piece == "k")
        cannons = [point for point, piece in pieces.items() if piece == "C"]
        assert len(cannons) == 2, fen
        file, rank = general[0], int(general[1:])
        assert any(c[0] == file and int(c[1:]) <= rank - 2 for c in cannons), fen
        assert any(c[0] != file and int(c[1:]) in (rank, 9) for c in cannons), fen
    assert built > 50
