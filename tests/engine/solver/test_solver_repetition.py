"""The prover rules on a repetition inside its tree as the engine's rules do
(engine.rules.repetition_outcome): cycles of random positions, played
twice, in every variant."""

import random

import pytest

from engine import Position
from engine.rules import repetition_outcome
from engine.solver.search import Search
from engine.variants import SOLDIER


def _cycle(pos: Position, rng: random.Random) -> list[int] | None:
    """Four plies (a move and a move back for each side) that return to
    ``pos``, or ``None``."""
    start = pos.hash
    plies: list[int] = []
    for _ in range(2):
        quiet = [
            m
            for m in pos.legal_codes()
            if not pos.board[m & 255] and pos.board[m >> 8] & 15 != SOLDIER
        ]
        if not quiet:
            return None
        m = rng.choice(quiet)
        plies.append(m)
        pos.push_code(m)
    for m in plies[:]:
        back = (m & 255) << 8 | m >> 8
        if back not in pos.legal_codes():
            for _ in plies:
                pos.pop_code()
            return None
        plies.append(back)
        pos.push_code(back)
    # the moves back must come in the order the pieces left
    ok = pos.hash == start
    for _ in plies:
        pos.pop_code()
    return plies if ok else None


def _check_cycle(pos: Position) -> list[int] | None:
    """Four plies that return to ``pos`` in which the side to move checks
    twice (a perpetual check if played on), or ``None``."""
    start = pos.hash
    for m in pos.legal_codes():
        if pos.board[m & 255]:
            continue
        pos.push_code(m)
        if pos.is_check():
            for b in pos.legal_codes():
                if pos.board[b & 255]:
                    continue
                pos.push_code(b)
                back = (m & 255) << 8 | m >> 8
                if back in pos.legal_codes():
                    pos.push_code(back)
                    checks = pos.is_check()
                    b_back = (b & 255) << 8 | b >> 8
                    if checks and b_back in pos.legal_codes():
                        pos.push_code(b_back)
                        home = pos.hash == start
                        pos.pop_code()
                        if home:
                            for _ in range(3):
                                pos.pop_code()
                            return [m, b, back, b_back]
                    pos.pop_code()
                pos.pop_code()
        pos.pop_code()
    return None


def _cases(seed: int, count: int, checking: int) -> list:
    """``count`` cycles, ``checking`` of them with a side checking twice."""
    rng = random.Random(seed)
    plain: list = []
    checks: list = []
    while len(plain) < count - checking or len(checks) < checking:
        variant = rng.choice(["xiangqi", "feidan", "xinban"])
        pos = Position.start(variant)
        for _ in range(rng.randrange(10, 80)):
            legal = pos.legal_codes()
            if not legal:
                break
            pos.push_code(rng.choice(legal))
        if pos.status() != "ongoing":
            continue
        plies = _check_cycle(pos) if len(checks) < checking else None
        bucket = checks
        if plies is None and len(plain) < count - checking:
            plies, bucket = _cycle(pos, rng), plain
        if plies is not None:
            bucket.append((variant, pos.fen(), [pos.decode(m).iccs() for m in plies]))
    return plain + checks


@pytest.mark.parametrize(("variant", "fen", "cycle"), _cases(11, 80, 20))
def test_the_ruling_matches_the_engine(variant: str, fen: str, cycle: list[str]) -> None:
    pos = Position.from_fen(variant, fen)
    for move in cycle + cycle:
        pos.push_iccs(move)
    outcome = repetition_outcome(pos)
    assert outcome is not None
    for colour in (pos.turn, "black" if pos.turn == "red" else "red"):
        # the same ruling whichever side the prover takes as the attacker
        search = Search(pos, "mate", False)
        search.attacker = 0 if colour == "red" else 32
        assert search.judge_repetition() is (outcome.winner == colour)
