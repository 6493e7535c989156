"""Every table of words keyed by an engine vocabulary (engine/vocab.py) covers exactly that
vocabulary: a new termination cannot reach a page or a lesson without its label, and a lesson
file cannot name an ending the engine never gives."""

from __future__ import annotations

import pytest

from engine.vocab import (
    MOVE_EFFECTS,
    OUTCOME_TERMINATIONS,
    PROOF_STATUSES,
    TERMINATIONS,
    VERDICTS,
)
from puzzles import proving
from tutorials.curriculum import schema
from tutorials.curriculum.referees.moves import EFFECT_TEXT, TERMINATION_TEXT
from words.endings import ENDINGS, GAME_ENDS


def test_the_analysis_board_and_the_lessons_label_every_outcome() -> None:
    assert set(TERMINATION_TEXT) == set(OUTCOME_TERMINATIONS)
    assert set(EFFECT_TEXT) == set(MOVE_EFFECTS)


def test_one_table_words_every_ending_of_the_engine_and_of_a_game() -> None:
    assert set(ENDINGS) == set(TERMINATIONS) | set(GAME_ENDS)
    assert not set(GAME_ENDS) & set(TERMINATIONS)
    for key, ending in ENDINGS.items():
        for text in (ending.name, ending.headline, ending.sentence):
            assert text.zh and text.en, key
        assert "{" not in ending.name.zh + ending.name.en + ending.headline.zh + ending.headline.en


def test_lesson_files_are_checked_against_the_engines_words() -> None:
    assert schema.TERMINATIONS is OUTCOME_TERMINATIONS
    assert schema.EFFECTS is MOVE_EFFECTS
    assert "attack_power" not in schema.TERMINATIONS  # a declaration, never a move's outcome


def test_a_puzzle_result_status_is_one_of_the_listed_statuses() -> None:
    """An authored puzzle the engine refuses gets the status ``invalid``; it is listed beside
    the prover's own statuses."""
    assert proving.INVALID in proving.STATUSES
    assert set(proving.STATUSES) == {*PROOF_STATUSES, proving.INVALID}


def test_a_stored_verdict_is_read_back_only_if_the_engine_knows_it() -> None:
    for verdict in VERDICTS:
        assert proving.Verdict.from_data({"verdict": verdict}).verdict == verdict
    with pytest.raises(ValueError, match="unknown verdict 'maybe'"):
        proving.Verdict.from_data({"verdict": "maybe"})


def test_puzzle_goals_and_modes_are_the_provers() -> None:
    from engine.solver import GOALS, MODES
    from engine.vocab import BOARD_TERMINATIONS
    from puzzles.models import PROVED_GOALS, Goal

    assert set(PROVED_GOALS) == set(GOALS)
    # Beside them, a tactics puzzle's goal, judged by Fairy-Stockfish when it was mined.
    assert set(Goal.values) == {*GOALS, "material"}
    assert GOALS["win"] == set(BOARD_TERMINATIONS)  # docs/rules.md §10.1: any winning end
    assert (proving.FULL, proving.CHECKS_ONLY) == MODES
