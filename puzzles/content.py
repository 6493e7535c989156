"""The puzzles app's content loader (run by ``manage.py load_content``, see core.content_loaders).

Loads the shipped bank (``puzzles/data/bank.json``: mined puzzles and the classical problems
that prove sound, each with its proof) and makes sure today's daily puzzles are chosen.
"""

from __future__ import annotations

from django.utils import timezone

from puzzles.services import bank_load, daily_puzzles_choose


def load_content() -> str:
    counts = bank_load()
    daily = daily_puzzles_choose(date=timezone.localdate())
    return (
        f"{counts['total']} shipped puzzles ({counts['added']} added, {counts['updated']} updated, "
        f"{counts['retired']} retired); "
        f"daily puzzles for {len(daily)} variant(s)"
    )
