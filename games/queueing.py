"""The computer's moves take turns: a fair queue in front of the workers' ``playing`` queue.

A computer move asked for (``Game.computer_queued_at`` set) first waits in the database; the
dispatcher hands it to the workers (``games.computer_move``, ``computer_dispatched_at`` set)
when its lanes have room: one move of each owner at a time, and
``COMPUTER_SEARCHES_PER_ADDRESS`` of each address (``core.fairqueue``); a move at
``COMPUTER_DEEP_LEVEL`` or above goes to the ``playing_deep`` queue, whose workers run at a
lower CPU priority, so that deep searches never slow the quick levels' replies. So the workers' queue
holds at most one move per owner and per address, in the order they were asked for: however
many games one client keeps busy, another player's move waits behind at most one of theirs.

The dispatcher runs when a move is asked for, when a worker finishes one (a lane is free
again), when a game whose move is still waiting (or was handed over too long ago) is polled,
and every minute (``games.sweep``, Celery beat). A poll never waits for the dispatcher's lock:
if another dispatcher holds it, that one does the work; so a flood of polls cannot serialise
the web workers on the lock. A move
handed over longer ago than ``COMPUTER_REQUEUE_AFTER`` and still not played (a lost message)
is handed over again: playing a ply is idempotent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.fairqueue import Lane, dispatch_lock, release
from games.models import Game

# A computer move handed to the workers this long ago and not played is handed over again.
COMPUTER_REQUEUE_AFTER = timedelta(seconds=60)
# How many waiting moves, oldest first, one dispatch looks at.
DISPATCH_SCAN = 500


def _owner_key(user_id: int | None, visitor_id: str | None) -> str:
    return f"user-{user_id}" if user_id is not None else f"visitor-{visitor_id or ''}"


def computer_lanes(game: Game) -> list[Lane]:
    return [("owner", _owner_key(game.user_id, game.visitor_id)), ("address", game.address)]


def computer_waiting() -> QuerySet[Game]:
    """Games whose computer move has been asked for and not yet played."""
    return Game.objects.filter(status=Game.Status.PLAYING, computer_queued_at__isnull=False)


def computer_pending(*, owner_q: Q, address: str, exclude: int | None = None) -> tuple[int, int]:
    """How many computer moves an owner, and an address, are waiting for."""
    waiting = computer_waiting()
    if exclude is not None:
        waiting = waiting.exclude(pk=exclude)
    by_owner = waiting.filter(owner_q).count()
    by_address = waiting.filter(address=address).count() if address else 0
    return by_owner, by_address


def _capacity() -> dict[str, int]:
    return {"owner": 1, "address": settings.COMPUTER_SEARCHES_PER_ADDRESS}


def computer_queue(level: int | None) -> str:
    """The workers' queue for a computer move at ``level``: the deep levels' searches go to a
    queue of their own, whose workers run at a lower CPU priority than the quick levels'."""
    if level is not None and level >= settings.COMPUTER_DEEP_LEVEL:
        return str(settings.CELERY_PLAYING_DEEP_QUEUE)
    return str(settings.CELERY_PLAYING_QUEUE)


def _sender(game_id: int, ply: int, level: int | None) -> Callable[[], object]:
    from games.tasks import game_computer_move_task

    queue = computer_queue(level)
    return lambda: game_computer_move_task.apply_async((game_id, ply), queue=queue)


def computer_dispatch(now: datetime | None = None, *, wait: bool = True) -> list[int]:
    """Hand to the workers every computer move whose turn has come; the games' ids. With
    ``wait=False`` (a poll), nothing is done while another dispatcher runs: it does the work,
    and polls never queue up behind one another."""
    now = now or timezone.now()
    fresh = now - COMPUTER_REQUEUE_AFTER
    with transaction.atomic():
        if not dispatch_lock("games.computer_move", wait=wait):
            return []
        waiting = computer_waiting()
        busy: Iterable[Lane] = (
            lane
            for user_id, visitor_id, address in waiting.filter(
                computer_dispatched_at__gte=fresh
            ).values_list("user_id", "visitor_id", "address")
            for lane in (("owner", _owner_key(user_id, visitor_id)), ("address", address))
        )
        candidates = (
            waiting.filter(
                Q(computer_dispatched_at__isnull=True) | Q(computer_dispatched_at__lt=fresh)
            )
            .only("id", "user_id", "visitor_id", "address", "moves", "status", "start_fen", "level")
            .order_by("computer_queued_at", "id")[:DISPATCH_SCAN]
        )
        chosen = release(candidates, busy=busy, lanes=computer_lanes, capacity=_capacity())
        if not chosen:
            return []
        Game.objects.filter(pk__in=[game.pk for game in chosen]).update(computer_dispatched_at=now)
        for game in chosen:
            transaction.on_commit(_sender(game.pk, game.ply, game.level))
    return [game.pk for game in chosen]
