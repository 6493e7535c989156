"""Handing an anonymous visitor's puzzle history over to the account they sign in to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from accounts.owners import Owner, owner_rows_of_visitor, owner_transfer
from puzzles.models import GameReview, MergedVisitor, MissedMate, PuzzleAttempt, PuzzleReplay
from puzzles.services.missed import visitor_lock

if TYPE_CHECKING:
    from accounts.models import User


def puzzle_progress_merge(visitor_id: str, user: User) -> None:
    """Move the visitor's attempts and replays to ``user`` (idempotent).

    Finished attempts stay unrated: they were made anonymously, and the reason was recorded when
    they ended (``unrated_reason``), so a scoring that runs after this merge honours it. Where the account has tried
    the same puzzle too, the visitor's attempts are not first tries (only one try is first),
    and a visitor's attempt still open is abandoned when the account has one open as well.
    An attempt still open with no such clash goes on as the account's. A replay the account
    already has for the same puzzle is kept, and the visitor's is dropped.

    The visitor's missed mates (``MissedMate``) and the searches of their games (``GameReview``)
    go to the account too, and the visitor is recorded (``MergedVisitor``), under the visitor's lock, so that a search of one of their
    games that ends after this gives what it finds to the account.
    """
    account = Owner(user=user)
    if visitor_id:
        visitor_lock(visitor_id)
        MergedVisitor.objects.update_or_create(visitor=visitor_id, defaults={"user": user})
        owner_transfer(owner_rows_of_visitor(MissedMate.objects.all(), visitor_id), user)
        owner_transfer(owner_rows_of_visitor(GameReview.objects.all(), visitor_id), user)
    attempts = owner_rows_of_visitor(PuzzleAttempt.objects.all(), visitor_id)
    mine = PuzzleAttempt.objects.filter(account.q())
    taken = set(mine.values_list("puzzle_id", "client_id"))
    clashing = [a.pk for a in attempts if (a.puzzle_id, a.client_id) in taken]
    attempts.filter(pk__in=clashing).delete()
    tried = set(mine.values_list("puzzle_id", flat=True))
    attempts.filter(puzzle_id__in=tried, first_try=True).update(first_try=False)
    open_ = set(mine.filter(state=PuzzleAttempt.State.STARTED).values_list("puzzle_id", flat=True))
    attempts.filter(puzzle_id__in=open_, state=PuzzleAttempt.State.STARTED).update(
        state=PuzzleAttempt.State.ABANDONED
    )
    owner_transfer(attempts, user)

    replays = owner_rows_of_visitor(PuzzleReplay.objects.all(), visitor_id)
    owned = set(PuzzleReplay.objects.filter(account.q()).values_list("puzzle_id", flat=True))
    replays.filter(puzzle_id__in=owned).delete()
    owner_transfer(replays, user)
