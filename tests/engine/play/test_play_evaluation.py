"""The search's incremental evaluation sums equal a full count of the board:
material and tables (``psq``) and the generals' safety counts, after every
move and pass of seeded random games and after taking them all back."""

from __future__ import annotations

import random

import pytest

from engine import Position
from engine.play.evaluation import (
    DEFAULT_WEIGHTS,
    Weights,
    material_and_squares,
    positional,
    safety,
    safety_counts,
    tables,
)
from engine.play.search import Limits, Searcher

VARIANTS = ("xiangqi", "feidan", "xinban")
# weights with every safety term different from the default (mobility still 0)
OTHER = Weights(palace_intruder=170, attacker_in_half=7, attacker_per_missing_guard=11)


def games(variant: str, count: int = 6, plies: int = 140) -> list[list[int]]:
    """Seeded random games as move codes (captures preferred half the time, so
    that pieces, guards and defections come off the board)."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        pos = Position.start(variant)
        codes: list[int] = []
        for _ in range(plies):
            legal = pos.legal_codes()
            if not legal or pos.outcome() is not None:
                break
            captures = [m for m in legal if pos.board[m & 255]]
            m = rng.choice(captures if captures and rng.random() < 0.5 else legal)
            codes.append(m)
            pos.push_code(m)
        out.append(codes)
    return out


def full(searcher: Searcher) -> tuple[int, int]:
    board = searcher.pos.board
    return material_and_squares(board, searcher.t), safety_counts(board, searcher.t)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_safety_counts_score_as_the_full_scan(variant: str) -> None:
    t = tables(Position.start(variant).variant)
    for codes in games(variant):
        pos = Position.start(variant)
        for m in codes:
            pos.push_code(m)
            counts = safety_counts(pos.board, t)
            for weights in (DEFAULT_WEIGHTS, OTHER):
                assert safety(counts, weights) == positional(
                    pos.board, pos.occupied, pos.variant, weights
                )


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_incremental_sums_follow_every_move_and_pass(variant: str) -> None:
    for number, codes in enumerate(games(variant)):
        searcher = Searcher(Position.start(variant), Limits(nodes=1))
        seen = [full(searcher)]
        for i, m in enumerate(codes):
            if i % 7 == 3 and not searcher.pos.is_check():
                searcher.make_null()
                assert (searcher.psq, searcher.counts) == seen[-1]
                searcher.unmake()
            searcher.make(m)
            now = full(searcher)
            assert (searcher.psq, searcher.counts) == now, (number, i)
            seen.append(now)
        for _ in codes:
            searcher.unmake()
            seen.pop()
            assert (searcher.psq, searcher.counts) == seen[-1]


def test_the_pieces_of_xiangqi_read_the_fitted_tables() -> None:
    """The tables fitted to the master games (engine.play.tuned) give the value of a
    traditional piece on a point, material included; on the 11-file board the outer
    file reads the edge column; the hand-written tables stay for the other pieces and
    when ``tuned_squares`` is off."""
    from dataclasses import replace

    from engine.play.evaluation import DEFAULT_WEIGHTS, MATERIAL, base_square_bonus, tables
    from engine.play.tuned import SQUARES
    from engine.variants import FIGHTER, HORSE, VARIANTS

    xq = tables(VARIANTS["xiangqi"])
    # a red horse on h2 (file 7 of 9, rank 2): 3 files from the centre
    assert xq.psq[HORSE][2 * 9 + 7] == SQUARES[HORSE][2][3]
    # a black horse on its own rank 2 (row 7) on the edge file a: the edge column, negated
    black_horse = HORSE | 32
    assert xq.psq[black_horse][7 * 9 + 0] == -SQUARES[HORSE][2][4]
    fd = tables(VARIANTS["feidan"])
    # the 11-file board: file a is the edge, file b (4 from the centre) reads column 3
    assert fd.psq[HORSE][2 * 11 + 0] == SQUARES[HORSE][2][4]
    assert fd.psq[HORSE][2 * 11 + 1] == SQUARES[HORSE][2][3]
    # a fighter has no fitted table
    assert fd.psq[FIGHTER][3 * 11 + 5] == MATERIAL[FIGHTER] + base_square_bonus(FIGHTER, 0, 3, 5)
    hand = tables(VARIANTS["xiangqi"], replace(DEFAULT_WEIGHTS, tuned_squares=False))
    assert hand.psq[HORSE][2 * 9 + 7] == MATERIAL[HORSE] + base_square_bonus(HORSE, 3, 2, 4)
