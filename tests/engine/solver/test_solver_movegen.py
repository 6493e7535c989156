"""The prover's own move helpers must give exactly the engine's answers:
check evasions, checking moves, pseudo-legality and "has a move", on the
rules vectors and on positions reached by random play in every variant
(checks are preferred, to visit many positions in check)."""

import json
import random
from pathlib import Path

import pytest

from engine import Move, Position
from engine.solver.movegen import (
    checking_moves,
    gives_check,
    has_legal_move,
    is_pseudo_legal,
    legal_checks,
    legal_replies,
    status_of,
)

DATA = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "rules-vectors.json").read_text("utf-8")
)
STARTS = [
    (vector["variant"], vector["fen"])
    for vectors in DATA["variants"].values()
    for vector in vectors
] + [(name, Position.start(name).fen()) for name in ("xiangqi", "feidan", "xinban")]


def _positions(seed: int, games: int = 2, plies: int = 50):
    """Positions of random games from every start, preferring checks."""
    rng = random.Random(seed)
    for variant, fen in STARTS:
        for _ in range(games):
            pos = Position.from_fen(variant, fen)
            for _ in range(plies):
                yield pos
                legal = list(pos.legal_codes())
                if not legal:
                    break
                checks = []
                for m in legal:
                    pos.push_code(m)
                    if pos.is_check():
                        checks.append(m)
                    pos.pop_code()
                pos.push_code(rng.choice(checks if checks and rng.random() < 0.6 else legal))


def _fresh(pos: Position) -> Position:
    """The position without its legal moves computed (a copy computes nothing)."""
    fresh = pos.copy()
    assert fresh.cached_legal() is None
    return fresh


@pytest.mark.parametrize("seed", [1, 2])
def test_helpers_agree_with_the_engine(seed: int) -> None:
    in_check = dead = 0
    for pos in _positions(seed):
        reference = sorted(_fresh(pos).legal_codes())
        dead_reference = pos.is_dead_general()
        expected_checks = []
        for m in reference:
            pos.push_code(m)
            if pos.is_check():
                expected_checks.append(m)
            pos.pop_code()
        replies, checked, dead_general = legal_replies(_fresh(pos))
        assert sorted(replies) == reference, pos.fen()
        assert checked is pos.is_check()
        assert dead_general is dead_reference, pos.fen()
        assert status_of(_fresh(pos)) == pos.status(), pos.fen()
        assert has_legal_move(_fresh(pos)) is bool(reference)
        if not checked:
            # the stalemate test both searches make after a move without check
            assert has_legal_move(_fresh(pos), unchecked=True) is bool(reference), pos.fen()
        assert sorted(legal_checks(_fresh(pos))) == expected_checks, pos.fen()
        assert sorted(checking_moves(pos, reference)) == expected_checks
        assert [m for m in reference if gives_check(pos, m)] == expected_checks
        pseudo = set(pos.pseudo_codes())
        size = len(pos.board)
        others = [(m >> 8) << 8 | ((m & 255) + 1) % size for m in pseudo]
        for m in list(pseudo) + others:
            assert is_pseudo_legal(pos, m) is (m in pseudo), (pos.fen(), m)
        in_check += checked
        dead += dead_general
    # the walk really reached positions in check and dead generals
    assert in_check > 200
    assert dead > 0


def test_a_dead_general_has_no_move_even_where_a_block_exists() -> None:
    # the red missile on f8 checks from inside Black's palace; the advisor
    # on e9 could take it, but the general has nowhere to go
    pos = Position.from_fen("feidan", "4aka4/5M5/11/11/11/11/11/11/11/4K6 b - - 0 1")
    replies, checked, dead = legal_replies(pos)
    assert (replies, checked, dead) == ([], True, True)
    assert status_of(pos) == "dead_general"


def test_a_stalemated_general_has_no_move_without_a_check() -> None:
    # the horse's step to g7 leaves the lone black general no move, in no check
    pos = Position.from_fen("xiangqi", "4k4/9/9/9/7N1/9/9/9/9/3K5 w - - 0 1")
    pos.push_code(pos.encode(Move.from_iccs("h5g7")))
    assert not pos.is_check()
    assert has_legal_move(_fresh(pos), unchecked=True) is False
    assert has_legal_move(_fresh(pos)) is False
    assert status_of(_fresh(pos)) == "stalemate"
