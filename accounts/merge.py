"""Handing an anonymous visitor's progress over to an account.

Apps that keep progress for anonymous visitors (by ``visitor_id``, see ``accounts.visitors``)
register one merge function each, usually in their ``AppConfig.ready()``::

    from accounts.merge import visitor_merge_register

    class PuzzlesConfig(AppConfig):
        def ready(self) -> None:
            from puzzles.services import puzzle_progress_merge
            visitor_merge_register("puzzles", puzzle_progress_merge)

A merge function is called as ``merge(visitor_id, user)`` when a visitor with that id signs up
or logs in, inside one database transaction with every other app's merge. It must be
idempotent (a second call with the same arguments changes nothing) and must decide itself what
to do when the account already has progress of its own (keep the better record, say).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db import transaction

if TYPE_CHECKING:
    from accounts.models import User

VisitorMerge = Callable[[str, "User"], None]

_merges: dict[str, VisitorMerge] = {}


def visitor_merge_register(name: str, merge: VisitorMerge) -> None:
    """Call ``merge(visitor_id, user)`` whenever a visitor becomes a logged-in user.

    ``name`` identifies the registration (usually the app label); registering the same name
    again replaces the earlier function.
    """
    _merges[name] = merge


def visitor_merge_unregister(name: str) -> None:
    _merges.pop(name, None)


def visitor_merge_names() -> list[str]:
    return list(_merges)


def visitor_merge_run(*, visitor_id: str, user: User) -> list[str]:
    """Run every registered merge, in registration order, in one transaction.

    Returns the names of the merges that ran. An error in any of them rolls all back and
    propagates.
    """
    ran = []
    with transaction.atomic():
        for name, merge in list(_merges.items()):
            merge(visitor_id, user)
            ran.append(name)
    return ran
