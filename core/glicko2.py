"""Glicko-2 ratings, as described in Mark Glickman's "Example of the Glicko-2 system" (2013).

One module for every rating of the site, each kept apart from the others: the puzzle ratings
(puzzles: a solve is one game between the solver and the puzzle, the solver scoring 1 for a
solved puzzle and 0 for a failed one) and the live-game ratings per variant (live: a game between
two people, 1 / 0.5 / 0). Each game is its own rating period, as on the big sites.

Pure Python, no Django: ``rate`` takes a rating and the games of one period and returns the
new rating; ``rate_game`` rates both sides of one game; ``is_provisional`` says whether a
rating is still too uncertain to trust (shown with a "?", as Lichess does).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Glickman's conversion between the Glicko scale (1500 / 350) and the Glicko-2 scale (0 / 2.01).
SCALE = 173.7178
BASE_RATING = 1500.0

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
# The system constant: how fast volatility may change. The paper suggests 0.3 to 1.2.
DEFAULT_TAU = 0.75
# Convergence tolerance of the volatility iteration (the paper's epsilon).
EPSILON = 0.000001

# Bounds the site keeps ratings in, so that one game never moves a rating absurdly.
MIN_DEVIATION = 45.0
MAX_DEVIATION = 350.0
MIN_RATING = 400.0
MAX_RATING = 4000.0
MAX_VOLATILITY = 0.1
# A rating whose deviation is above this is provisional (Lichess's threshold).
PROVISIONAL_DEVIATION = 110.0


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the familiar scale: rating, deviation (RD) and volatility."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - BASE_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


# Time away: a rating's deviation grows by one rating period's volatility for every period
# without a game, as if that many empty rating periods had passed (Glickman's step for a player
# who does not compete). The length of a period, as Lichess counts it: 0.21436 of them a day,
# one every four and two thirds days, so that a year away turns a settled 60 into about 110.
RATING_PERIODS_PER_DAY = 0.21436


def aged(rating: Rating, days: float) -> Rating:
    """``rating`` after ``days`` without a game: its deviation widened as by that many empty
    rating periods (``RATING_PERIODS_PER_DAY``), at most ``MAX_DEVIATION``; the rating and the
    volatility stay."""
    periods = max(0.0, days) * RATING_PERIODS_PER_DAY
    if not periods:
        return rating
    phi = math.sqrt(rating.phi**2 + periods * rating.volatility**2)
    return Rating(rating.rating, min(MAX_DEVIATION, phi * SCALE), rating.volatility)


def is_provisional(deviation: float) -> bool:
    """Whether a rating with this deviation (RD) is still provisional: too few games to trust."""
    return deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (0 to 1)."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Rating,
    games: Sequence[tuple[Rating, float]],
    *,
    tau: float = DEFAULT_TAU,
    bounded: bool = True,
) -> Rating:
    """The player's rating after one rating period.

    ``games`` lists (opponent's rating before the period, player's score 0 / 0.5 / 1). With no
    games, only the deviation grows (step 6). ``bounded`` keeps the result within the site's
    limits (``MIN_DEVIATION`` … ``MAX_RATING``); the paper's arithmetic is unbounded.
    """
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        result = Rating(player.rating, phi_star * SCALE, sigma)
        return _bound(result) if bounded else result

    v_inv = 0.0
    improvement = 0.0
    for opponent, score in games:
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        v_inv += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inv
    delta = v * improvement

    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    result = Rating(new_mu * SCALE + BASE_RATING, new_phi * SCALE, new_sigma)
    return _bound(result) if bounded else result


def rate_game(
    first: Rating, second: Rating, first_score: float, *, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """Both sides' ratings after one game in which ``first`` scored ``first_score``."""
    return (
        rate(first, [(second, first_score)], tau=tau),
        rate(second, [(first, 1.0 - first_score)], tau=tau),
    )


def _bound(rating: Rating) -> Rating:
    return Rating(
        rating=min(MAX_RATING, max(MIN_RATING, rating.rating)),
        deviation=min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation)),
        volatility=min(MAX_VOLATILITY, rating.volatility),
    )
