"""Stars: what a completed step earns."""

from __future__ import annotations


def stars_for(moves_used: int, par: int) -> int:
    """3 stars at or under par, 2 up to twice par, else 1."""
    if moves_used <= par:
        return 3
    if moves_used <= 2 * par:
        return 2
    return 1


def stars_for_mistakes(mistakes: int) -> int:
    """Questions and setups: 3 stars at the first try, 2 at the second, then 1."""
    return max(1, 3 - mistakes)
