"""The engine's vocabularies (engine/vocab.py): each set of names is written once, and the
engine's own tables and answers use only those names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine import Position, find_variant
from engine.rules import TERMINATIONS as RULES_TERMINATIONS
from engine.solver import VERDICTS as SOLVER_VERDICTS
from engine.solver.proof import STATUSES
from engine.variants import BLACK, PIECE_MASK, TURNCOAT, TYPE_MASK, VARIANTS
from engine.vocab import (
    BOARD_TERMINATIONS,
    CLAIM_TERMINATIONS,
    HISTORY_TERMINATIONS,
    MOVE_EFFECTS,
    OUTCOME_TERMINATIONS,
    PROOF_STATUSES,
    REPETITION_RULES,
    TERMINATIONS,
    VERDICTS,
)

VECTORS = Path(__file__).resolve().parent / "data" / "rules-vectors.json"


def _vectors() -> list[dict[str, Any]]:
    data = json.loads(VECTORS.read_text("utf-8"))
    return [v for group in data["variants"].values() for v in group]


def test_terminations_split_into_board_history_and_claims_without_overlap() -> None:
    parts = (BOARD_TERMINATIONS, HISTORY_TERMINATIONS, CLAIM_TERMINATIONS)
    assert sum(len(p) for p in parts) == len(set(TERMINATIONS)) == len(TERMINATIONS)
    assert OUTCOME_TERMINATIONS == BOARD_TERMINATIONS + HISTORY_TERMINATIONS
    assert RULES_TERMINATIONS is TERMINATIONS  # engine.rules re-exports, never copies


def test_the_board_ends_are_the_statuses_a_position_reports() -> None:
    """Over every position of the rules vectors (mates, stalemates, dead generals among
    them), a status other than ``ongoing`` is a board termination, and each occurs."""
    statuses = {Position.from_fen(v["variant"], v["fen"]).status() for v in _vectors()}
    assert statuses - {"ongoing"} == set(BOARD_TERMINATIONS)


def test_every_variant_names_a_known_repetition_rule() -> None:
    assert {v.repetition_rule for v in VARIANTS.values()} == set(REPETITION_RULES)
    assert find_variant("xinban").repetition_rule == "forced_variation"


def test_the_prover_and_judge_use_the_vocabulary() -> None:
    assert STATUSES is PROOF_STATUSES
    assert SOLVER_VERDICTS is VERDICTS


def test_move_effects_are_what_the_engine_reports() -> None:
    """Every legal move of every rules vector: each kind reported is in the vocabulary, and
    the vectors (collisions, the base, cannons on missiles, defections) show each kind."""
    kinds = set()
    for v in _vectors():
        pos = Position.from_fen(v["variant"], v["fen"])
        kinds |= {pos.move_effect(m).kind for m in pos.legal_moves}
    assert kinds == set(MOVE_EFFECTS)


def test_the_piece_mask_keeps_colour_and_type_and_drops_the_turncoat_mark() -> None:
    assert PIECE_MASK == BLACK | TYPE_MASK
    assert PIECE_MASK & TURNCOAT == 0


def test_the_dead_general_is_a_property_of_the_variant_not_of_its_name() -> None:
    assert [v.name for v in VARIANTS.values() if v.has_dead_general] == ["feidan"]
    assert not find_variant("feidan").with_changes(dead_general_types=frozenset()).has_dead_general
