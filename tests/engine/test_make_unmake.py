"""Make/unmake: push and pop restore the position exactly (FEN, hash, legal
moves), in every variant and through every kind of move effect."""

import random

import pytest

from engine import Position

# positions rich in collisions, self-destructs and defections
SPECIAL = [
    ("feidan", "m2b7/4k6/11/11/1r5b3/7B3/11/1C9/11/M4KA4 b - - 0 1"),
    ("feidan", "6k3m/11/6a4/2C8/3F7/3B3B3/4m3C2/Nc3K5/4pA5/5R4M b - - 0 1"),
    ("xinban", "r4+C2+n/4+n4/1+r3k3/4P4/9/2C2+r2+N/9/2C6/9/n2K5 w - - 0 1"),
    ("xinban", "P7+r/9/b2aka3/8+C/7r1/9/9/B2A1+C3/5K3/9 b - - 0 1"),
]


def _random_game(pos: Position, rng: random.Random, plies: int) -> list[tuple[str, int, list[str]]]:
    """Play random legal moves; return (fen, hash, legal moves) before each."""
    seen = []
    for _ in range(plies):
        moves = sorted(m.iccs() for m in pos.legal_moves)
        if not moves:
            break
        seen.append((pos.fen(), pos.hash, moves))
        pos.push_iccs(rng.choice(moves))
    return seen


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
@pytest.mark.parametrize("seed", range(4))
def test_push_pop_restores_fen_hash_and_moves_after_a_random_game(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    pos = Position.start(variant)
    seen = _random_game(pos, rng, 120)
    for fen, h, moves in reversed(seen):
        pos.pop()
        assert pos.fen() == fen
        assert pos.hash == h
        assert sorted(m.iccs() for m in pos.legal_moves) == moves
    assert pos.move_stack == []
    assert pos.fen() == Position.start(variant).fen()


@pytest.mark.parametrize(("variant", "fen"), SPECIAL)
def test_push_pop_restores_every_move_of_special_positions(variant: str, fen: str) -> None:
    pos = Position.from_fen(variant, fen)
    before = (pos.fen(), pos.hash, pos.board[:], pos.kings[:])
    kinds = set()
    for move in list(pos.legal_moves):
        kinds.add(pos.move_effect(move).kind)
        pos.push(move)
        for reply in list(pos.legal_moves):
            pos.push(reply)
            pos.pop()
        assert pos.pop() == move
        assert (pos.fen(), pos.hash, pos.board, pos.kings) == before
    assert kinds - {"move", "capture"}


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_the_hash_depends_only_on_the_board_and_the_side(variant: str) -> None:
    rng = random.Random(7)
    pos = Position.start(variant)
    for _ in range(60):
        moves = list(pos.legal_moves)
        if not moves:
            break
        pos.push(rng.choice(moves))
        fresh = Position.from_fen(variant, pos.fen())
        assert fresh.hash == pos.hash
        assert fresh == pos


def test_the_hash_tells_the_side_to_move_apart() -> None:
    red = Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    black = Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1")
    assert red.hash != black.hash
    assert red != black


def test_counters_are_restored() -> None:
    pos = Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/p8/9/R2AK4 w - - 7 12")
    pos.push_iccs("d0e1")
    assert (pos.halfmove, pos.fullmove) == (8, 12)
    pos.push_iccs("d9d8")
    assert (pos.halfmove, pos.fullmove) == (9, 13)
    pos.push_iccs("a0a2")
    assert (pos.halfmove, pos.fullmove) == (0, 13)
    for _ in range(3):
        pos.pop()
    assert pos.fen() == "3k5/9/9/9/9/9/9/p8/9/R2AK4 w - - 7 12"


def test_pop_without_moves_raises() -> None:
    with pytest.raises(IndexError):
        Position.start("xiangqi").pop()


def test_copy_is_independent_and_keeps_the_history() -> None:
    pos = Position.start("feidan")
    pos.push_iccs("i2f2")
    twin = pos.copy()
    twin.push_iccs("i7f7")
    assert pos.move_stack == [twin.move_stack[0]]
    assert len(twin.move_stack) == 2
    assert pos.turn == "black"
    assert twin.turn == "red"
    twin.pop()
    twin.pop()
    assert twin.fen() == Position.start("feidan").fen()
    assert pos.piece_at("f2") == "C"
