"""Glicko-2 (``core.glicko2``: the one module of the puzzle ratings and the live-game ratings)
against Glickman's worked example, and the properties the site relies on."""

from __future__ import annotations

import pytest

from core.glicko2 import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    PROVISIONAL_DEVIATION,
    RATING_PERIODS_PER_DAY,
    Rating,
    aged,
    expected_score,
    is_provisional,
    rate,
    rate_game,
)


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2013): a 1500/200 player beats a 1400/30
    # player and loses to 1550/100 and 1700/300, with tau = 0.5.
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5, bounded=False)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.02)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    player = Rating(1700, 100, 0.06)
    after = rate(player, [], bounded=False)
    assert after.rating == 1700
    assert after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5, rel=1e-6)


def test_time_away_widens_the_deviation_as_empty_rating_periods_do() -> None:
    settled = Rating(1800, 60, 0.06)
    assert aged(settled, 0) == settled and aged(settled, -3) == settled
    a_year = aged(settled, 365)
    assert a_year.rating == 1800 and a_year.volatility == 0.06
    periods = 365 * RATING_PERIODS_PER_DAY
    assert a_year.deviation == pytest.approx((60**2 + periods * (0.06 * 173.7178) ** 2) ** 0.5)
    assert 100 < a_year.deviation < 120 and is_provisional(a_year.deviation)
    # the same as rating that many empty periods one by one
    stepped = settled
    for _ in range(10):
        stepped = rate(stepped, [], bounded=False)
    assert aged(settled, 10 / RATING_PERIODS_PER_DAY).deviation == pytest.approx(stepped.deviation)
    assert aged(settled, 100_000).deviation == MAX_DEVIATION


def test_a_solve_raises_the_solver_and_lowers_the_puzzle() -> None:
    user, puzzle = Rating(1500, 350, 0.06), Rating(1500, 250, 0.06)
    user_after, puzzle_after = rate_game(user, puzzle, 1.0)
    assert user_after.rating > 1500 > puzzle_after.rating
    assert user_after.deviation < 350 and puzzle_after.deviation < 250


def test_a_failure_lowers_the_solver_and_raises_the_puzzle() -> None:
    user_after, puzzle_after = rate_game(Rating(1500, 80), Rating(1500, 80), 0.0)
    assert user_after.rating < 1500 < puzzle_after.rating


def test_beating_a_much_easier_puzzle_gains_little() -> None:
    easy_gain = rate(Rating(1800, 80), [(Rating(1000, 80), 1.0)]).rating - 1800
    even_gain = rate(Rating(1800, 80), [(Rating(1800, 80), 1.0)]).rating - 1800
    assert 0 <= easy_gain < even_gain / 5


def test_expected_score_is_symmetric_for_equal_deviations() -> None:
    a, b = Rating(1600, 100), Rating(1400, 100)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    assert expected_score(a, b) > 0.5


def test_bounds_keep_the_deviation_in_range() -> None:
    after = rate(Rating(1500, 350), [])
    assert after.deviation == MAX_DEVIATION
    many = [(Rating(1500, 30), 1.0), (Rating(1500, 30), 0.0)] * 200
    assert rate(Rating(1500, 50), many).deviation == MIN_DEVIATION


def test_a_rating_is_provisional_while_its_deviation_is_high() -> None:
    assert is_provisional(Rating().deviation)
    assert is_provisional(PROVISIONAL_DEVIATION + 0.5)
    assert not is_provisional(PROVISIONAL_DEVIATION)
    assert not is_provisional(MIN_DEVIATION)


def test_a_draw_between_equals_moves_no_rating_and_narrows_both_deviations() -> None:
    first, second = rate_game(Rating(), Rating(), 0.5)
    for after in (first, second):
        assert after.rating == pytest.approx(1500.0)
        assert after.deviation < Rating().deviation
