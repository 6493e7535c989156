"""Every classical problem of puzzles/data/classic-puzzles.json, proved with
its stated length: in checks-only mode where the book's line checks at every
move (连将杀), up to mate in 9 in full mode too where the line has quiet moves
or where it takes seconds. Each comes out sound and unique unless listed
below: the cooks (with every key) and the problems that mate sooner than
the book says are findings of the prover, each confirmed by
Fairy-Stockfish's ``go mate N searchmoves KEY``.
"""

import json
import re
from pathlib import Path

import pytest

from engine import Position
from engine.solver import Budget, solve

DATA = json.loads(
    (Path(__file__).resolve().parents[3] / "puzzles" / "data" / "classic-puzzles.json").read_text(
        "utf-8"
    )
)
PUZZLES = [p for p in DATA["puzzles"] if p["mate_in"] <= 9]
# the longer ones whose line checks throughout (mates in 12 to 23)
LONG_CHECKS = [p for p in DATA["puzzles"] if p["mate_in"] > 9 and p["all_checks"]]

# FEN -> every key move (the book's length, more than one key)
COOKED = {
    # 去其蝥贼 (烂柯神机)
    "3k5/4PP3/4bN3/9/9/9/9/3n5/4r1p2/2R2K3 w - - 0 1": {"e8e9", "e8d8"},
    # 第068局 鸿门碎斗 (适情雅趣)
    "2Ck1a3/2R1aR3/9/5N3/r8/r8/9/3C5/4p1n2/3K5 w - - 0 1": {"f8f9", "f6d7"},
    # 单车投井 (烂柯神机)
    "1c2k4/5PN2/n3b4/9/3P2b2/9/9/9/4p1p2/2Rp1K1C1 w - - 0 1": {"c0c9", "f8e8", "f8f9"},
    # 马穴寻踪 (烂柯神机)
    "2n6/8r/2rnk4/5PRC1/9/9/9/9/4p4/5K3 w - - 0 1": {"f6f7", "f6e6"},
    # 第052局 担雪填井 (适情雅趣)
    "3ak3r/4a1R2/b1C1bc3/1N2C3N/9/3p5/2n6/3K5/9/r8 w - - 0 1": {"c7c9", "g8g9"},
    # 一夫拼命 (烂柯神机)
    "3rk1N2/5P3/2n6/2pP5/9/9/2n1p4/8R/2r1p4/3K4C w - - 0 1": {"f8f9", "f8e8"},
    # 四面楚歌 (烂柯神机)
    "1n1k4C/2NcR4/4b3N/9/6b2/9/C1r6/9/4p1p2/5K3 w - - 0 1": {"i7h9", "a3a9"},
    # 第163局 选将练兵 (适情雅趣)
    "c4a3/1r1kaP2C/b1R1b2c1/4CN3/9/9/9/9/4p3r/5K3 w - - 0 1": {"f8e8", "c7d7"},
    # 第188局 载沉载浮 (适情雅趣)
    "2bak3C/4a4/2P1b4/6RR1/9/9/9/9/c1nr1p3/4K4 w - - 0 1": {"g6g9", "h6h9"},
    # 填塞道路 (橘中秘): stalemate in 9 with quiet moves; the book's key is e2b2
    "2b6/3k5/9/4P4/9/9/9/4C4/5K3/9 w - - 0 1": {"e2b2", "e2d2", "e2e0", "e6d6", "e6e7"},
}
# FEN -> (the real shortest win, its key)
SHORTER = {
    # 第234局 居中反祸 (适情雅趣): stated 4
    "2bk5/r3aR3/n1r1b4/9/9/6R2/9/3n5/4p4/1C3K3 w - - 0 1": (3, "b0b9"),
    # 第162局 朱云折槛 (适情雅趣): stated 5
    "2bakab2/5RP2/7P1/2N6/9/9/9/4Cp2C/r3p4/5K3 w - - 0 1": (4, "c6e7"),
    # 象局汇存 (untitled): stated 8
    "2nnPab2/3k5/3ab4/C3p4/4Rcp2/1N3r3/9/4Bp1R1/4p4/5K3 w - - 0 1": (7, "h2h8"),
    # 第一百零二局 老兵新功 (某古谱): stated 12
    "5c1P1/3kan2C/4b3b/5n3/3N3c1/9/3R2r2/5p1r1/4p4/1R3K3 w - - 0 1": (8, "b0b8"),
}
# Problems whose line has quiet moves, for full mode only, within a node
# budget. (副夺魁 (湖涯集), a mate in 7 with quiet moves, takes the
# proof-number prover about half a million nodes; 填塞道路 (橘中秘) about 11
# million, most of them to show that the first moves other than its five keys
# do not win in 9 and that there is no win in 8.)
FULL_BUDGET = Budget(nodes=6_000_000)
LONG_BUDGET = {"2b6/3k5/9/4P4/9/9/9/4C4/5K3/9 w - - 0 1": Budget(nodes=40_000_000)}
# Longer problems with quiet moves that the budget does not finish (they are
# not in the bank): 第427局 踊跃用兵 (适情雅趣), stalemate in 11
NOT_FINISHED_IN_FULL = {"4kab2/4a4/4b4/4P4/9/9/9/9/3K5/7C1 w - - 0 1"}


def _iccs(book_move: str) -> str:
    """The book writes ranks 1-10; ICCS counts 0-9."""
    files = re.findall(r"[a-i]", book_move)
    ranks = [int(n) - 1 for n in re.findall(r"\d+", book_move)]
    return f"{files[0]}{ranks[0]}{files[1]}{ranks[1]}"


def _check(puzzle: dict, mode: str, budget: Budget | None = None) -> None:
    fen = puzzle["fen"]
    goal = "mate" if puzzle["ending"] == "checkmate" else "win"
    proof = solve(Position.from_fen("xiangqi", fen), goal, puzzle["mate_in"], budget, mode=mode)
    if fen in SHORTER:
        n, key = SHORTER[fen]
        assert (proof.status, proof.moves_to_win) == ("shorter", n)
        assert key in proof.key_moves
        return
    assert proof.moves_to_win == puzzle["mate_in"], proof.reason
    if fen in COOKED:
        assert proof.status == "cooked"
        assert set(proof.key_moves) == COOKED[fen]
        assert proof.second_key in COOKED[fen]
    else:
        assert proof.status == "sound_unique", proof.reason
        assert proof.key_moves == (_iccs(puzzle["solution"][0]),)
    assert proof.tree is not None and proof.tree_complete


def _id(puzzle: dict) -> str:
    return f"m{puzzle['mate_in']}-{puzzle['title'] or puzzle['collection']}"


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", [p for p in PUZZLES + LONG_CHECKS if p["all_checks"]], ids=_id)
def test_classic_checks_only(puzzle: dict) -> None:
    _check(puzzle, "checks_only")


@pytest.mark.slow
@pytest.mark.parametrize(
    "puzzle",
    [p for p in PUZZLES if not p["all_checks"] or p["mate_in"] <= 4],
    ids=_id,
)
def test_classic_full(puzzle: dict) -> None:
    _check(puzzle, "full", LONG_BUDGET.get(puzzle["fen"], FULL_BUDGET))


@pytest.mark.slow
@pytest.mark.parametrize("fen", sorted(NOT_FINISHED_IN_FULL))
def test_classics_beyond_the_full_budget_are_never_called_sound(fen: str) -> None:
    puzzle = next(p for p in DATA["puzzles"] if p["fen"] == fen)
    goal = "mate" if puzzle["ending"] == "checkmate" else "win"
    proof = solve(Position.from_fen("xiangqi", fen), goal, puzzle["mate_in"], Budget(nodes=200_000))
    assert proof.status == "budget_exhausted"


def test_the_book_notation_is_read() -> None:
    assert _iccs("g9g10") == "g8g9"
    assert _iccs("h10f10") == "h9f9"
    assert _iccs("a1a2") == "a0a1"


def test_the_data_set_is_the_one_described() -> None:
    assert len(PUZZLES) == 85
    assert {p["ending"] for p in PUZZLES} == {"checkmate", "stalemate"}
    assert len(LONG_CHECKS) == 16
    known = set(COOKED) | set(SHORTER) | NOT_FINISHED_IN_FULL
    assert known <= {p["fen"] for p in DATA["puzzles"]}
