"""Games between levels run to their end in every variant and start: every
move legal, the result the engine's ``outcome()``, no move that loses by
rule played while another move did not."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from engine import GameOverError, Move, Position, bestmove
from engine.setups import arrangement_fen, combine_secret_setups, random_secret_half

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from reference_rules import RefPosition  # noqa: E402

RULE_LOSSES = {"perpetual_check", "perpetual_chase", "forced_variation"}


def secret_start(method: str, seed: int) -> str:
    rng = random.Random(seed)
    while True:
        reveal = combine_secret_setups(
            random_secret_half("red", method, rng),  # type: ignore[arg-type]
            random_secret_half("black", method, rng),  # type: ignore[arg-type]
            method,  # type: ignore[arg-type]
        )
        if not reveal.void:
            return reveal.fen


STARTS = [
    ("xiangqi", Position.start("xiangqi").fen()),
    ("feidan", Position.start("feidan").fen()),
    ("feidan", arrangement_fen(1234)),
    ("feidan", secret_start("five_soldiers", 3)),
    ("feidan", secret_start("middle_soldier", 4)),
    *[("xinban", fen) for _, fen in Position.start("xinban").variant.starts],
]


def loses_by_rule_needlessly(pos: Position, move: Move) -> bool:
    """Does ``move`` lose by a repetition rule while some other move does not?"""
    mover = pos.turn

    def loses(m: Move) -> bool:
        pos.push(m)
        try:
            outcome = pos.outcome()
            return (
                outcome is not None
                and outcome.termination in RULE_LOSSES
                and outcome.winner != mover
            )
        finally:
            pos.pop()

    return loses(move) and not all(loses(m) for m in pos.legal_moves)


# (Red's level, Black's level, nodes a move): a beginner pair and a strong one, at small
# budgets so the games stay quick; the levels still differ in depth cap, noise,
# quiescence and check extensions
PAIRS = [(1, 2, 250), (8, 5, 600)]


@pytest.mark.parametrize(("red", "black", "nodes"), PAIRS, ids=[f"{r}v{b}" for r, b, _ in PAIRS])
@pytest.mark.parametrize(
    ("variant", "fen"), STARTS, ids=[f"{v}-{i}" for i, (v, _) in enumerate(STARTS)]
)
def test_a_game_between_levels_runs_to_its_end(
    variant: str, fen: str, red: int, black: int, nodes: int
) -> None:
    # a halfmove clock near the natural limit keeps the games short
    fields = fen.split()
    fields[4] = "40"
    fen = " ".join(fields)
    pos = Position.from_fen(variant, fen)
    played: list[str] = []
    check_reference = variant == "xiangqi" or fen.startswith("+")
    levels = {"red": red, "black": black}
    while pos.outcome() is None:
        assert len(played) < 1000
        found = bestmove(
            variant, fen, played, level=levels[pos.turn], nodes=nodes, seed=len(played)
        )
        move = Move.from_iccs(found.move)
        assert move in pos.legal_moves
        if check_reference:
            ref = RefPosition.from_fen(variant, pos.fen())
            assert found.move in ref.legal_moves()
        assert not loses_by_rule_needlessly(pos, move)
        pos.push(move)
        played.append(found.move)
    outcome = pos.outcome()
    assert outcome is not None
    if outcome.termination in {"checkmate", "stalemate", "dead_general"}:
        assert pos.status() == outcome.termination
        if check_reference:
            assert RefPosition.from_fen(variant, pos.fen()).status() == outcome.termination
    with pytest.raises(GameOverError) as caught:
        bestmove(variant, fen, played, level=1)
    assert caught.value.outcome == outcome
