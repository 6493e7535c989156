"""Xiangqi against Fairy-Stockfish (pyffish) on positions of seeded random
games: the same legal moves, the same check status, the same mates and
stalemates. Each position is given to pyffish as a FEN with no move history,
so that rules about repetition play no part."""

import random
import re

import pytest

from engine import Position

sf = pytest.importorskip("pyffish")

MIDDLEGAMES = [
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r1bakabr1/9/1cn3n1c/p3p1R1p/2p6/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 1 6",
    "r2akab1r/1c7/2n1b1nc1/pCp1p3p/6p2/2P6/P3P1P1P/2N3N1C/9/R1BAKAB1R w - - 10 6",
]

_SF_MOVE = re.compile(r"([a-i])(\d+)([a-i])(\d+)")


def iccs_of(sf_move: str) -> str:
    """Fairy-Stockfish numbers ranks 1-10 (b3b10); ICCS numbers them 0-9 (b2b9)."""
    match = _SF_MOVE.fullmatch(sf_move)
    assert match, sf_move
    a, r1, b, r2 = match.groups()
    return f"{a}{int(r1) - 1}{b}{int(r2) - 1}"


def test_move_conversion() -> None:
    assert iccs_of("h3e3") == "h2e2"
    assert iccs_of("b3b10") == "b2b9"
    assert iccs_of("a10a1") == "a9a0"
    start = Position.start("xiangqi")
    theirs = {iccs_of(m) for m in sf.legal_moves("xiangqi", start.fen(), [])}
    assert theirs == {m.iccs() for m in start.legal_moves}


def random_game_positions(start_fen: str, seed: int, plies: int, capture_bias: float) -> list[str]:
    """The positions of a random game (all of them, the start included)."""
    rng = random.Random(seed)
    pos = Position.from_fen("xiangqi", start_fen)
    fens = [pos.fen()]
    for _ in range(plies):
        moves = sorted(pos.legal_moves)
        if not moves:
            break
        captures = [m for m in moves if pos.move_effect(m).captured]
        pick = captures if captures and rng.random() < capture_bias else moves
        pos.push(rng.choice(pick))
        fens.append(pos.fen())
    return fens


def _opening_positions() -> list[str]:
    fens: list[str] = []
    seed = 0
    while len(fens) < 1000:
        fens += random_game_positions(Position.start("xiangqi").fen(), seed, 60, 0.3)
        seed += 1
    return fens


def _middlegame_positions() -> list[str]:
    fens: list[str] = []
    seed = 0
    while len(fens) < 300:
        start = MIDDLEGAMES[seed % len(MIDDLEGAMES)]
        fens += random_game_positions(start, 100 + seed, 50, 0.5)
        seed += 1
    return fens


def compare(fen: str) -> tuple[str, str]:
    """Assert both programs agree on ``fen``; return (status, in check as text)."""
    pos = Position.from_fen("xiangqi", fen)
    ours = {m.iccs() for m in pos.legal_moves}
    theirs = {iccs_of(m) for m in sf.legal_moves("xiangqi", fen, [])}
    assert ours == theirs, (fen, sorted(ours - theirs), sorted(theirs - ours))
    in_check = bool(sf.gives_check("xiangqi", fen, []))
    assert pos.is_check() == in_check, fen
    expected = "ongoing" if theirs else ("checkmate" if in_check else "stalemate")
    assert pos.status() == expected, fen
    return expected, str(in_check)


@pytest.mark.parametrize(
    ("name", "positions"),
    [("from-the-start", _opening_positions), ("from-middlegames", _middlegame_positions)],
)
def test_same_legal_moves_check_and_status_as_fairy_stockfish(name: str, positions) -> None:
    fens = positions()
    assert len(set(fens)) >= (900 if name == "from-the-start" else 250)
    seen = {compare(fen) for fen in fens}
    # the games reach checks (and, from the start, finished games), not only quiet play
    assert ("ongoing", "True") in seen
    if name == "from-the-start":
        assert any(status != "ongoing" for status, _ in seen)


@pytest.mark.parametrize(
    "fen",
    [
        "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1",  # checkmate
        "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1",  # stalemate
        "4k4/9/9/9/9/9/4N4/9/9/4K4 w - - 0 1",  # the horse between the generals
        "3k5/9/4c4/9/9/9/4N4/4R4/9/4K4 w - - 0 1",  # two screens
    ],
)
def test_hand_built_positions_agree(fen: str) -> None:
    compare(fen)
