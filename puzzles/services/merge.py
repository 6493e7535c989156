"""Handing an anonymous visitor's puzzle history over to the account they sign in to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzles.models import PuzzleAttempt, PuzzleReplay

if TYPE_CHECKING:
    from accounts.models import User


def puzzle_progress_merge(visitor_id: str, user: User) -> None:
    """Move the visitor's attempts and replays to ``user`` (idempotent).

    Attempts stay unrated: they were made anonymously. A replay the account already has for
    the same puzzle is kept, and the visitor's is dropped.
    """
    if not visitor_id:
        return
    attempts = PuzzleAttempt.objects.filter(user__isnull=True, visitor_id=visitor_id)
    taken = set(PuzzleAttempt.objects.filter(user=user).values_list("puzzle_id", "client_id"))
    clashing = [a.pk for a in attempts if (a.puzzle_id, a.client_id) in taken]
    attempts.filter(pk__in=clashing).delete()
    attempts.update(user=user, visitor_id="")

    replays = PuzzleReplay.objects.filter(user__isnull=True, visitor_id=visitor_id)
    owned = set(PuzzleReplay.objects.filter(user=user).values_list("puzzle_id", flat=True))
    replays.filter(puzzle_id__in=owned).delete()
    replays.update(user=user, visitor_id="")
