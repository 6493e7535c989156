"""The games' work takes turns: one fair queue in front of the workers' ``playing`` queues.

Three kinds of work wait in the database until the dispatcher (``dispatch``) hands them to the
workers:

- the computer's moves (``Game.computer_queued_at`` set until the move is played; the task
  ``games.computer_move``): below ``COMPUTER_DEEP_LEVEL`` on the ``playing`` queue, from it on
  ``playing_deep``, whose workers run at a lower CPU priority;
- the analysis board's searches (``EngineAnalysis`` pending; ``games.engine_analysis``, a search
  of a fraction of a second to a few seconds, deeper while a position stays shown), on
  ``playing_deep``; a search its owner no longer waits for (they asked about another
  position) keeps its lanes until the worker has stopped it, within a moment;
- the analyses of finished games (``GameAnalysis`` pending; ``games.game_analysis``), on
  ``playing_deep`` a chunk at a time: a chunk searches positions for about a second
  (``games.game_analysis.GAME_ANALYSIS_RUN_SECONDS``), then the analysis waits here for its
  next turn, behind everyone else's work that came meanwhile.

First looks go first. A board search of at most ``FIRST_LOOK_NODES`` (a visitor's first
question about a position: the judges' first budgets) is small; the rest is long work (deeper
board searches, game analyses). A first look from an address that has had none handed over
for ``GIVE_WAY_AFTER`` (a visitor who looks at a new position now and then, not a client that
asks one after another) is *due*: it goes before every other analysis waiting, and long work
being run stops for it within a moment (``first_look_waiting(due=True)``, asked by the
worker's ``GiveWay`` every ``GIVE_WAY_EVERY``): a deeper board search is done with the lines it
found so far (``cut_short``: the board asks that budget again), a game analysis's search is
dropped and its chunk ends, to be searched again at its next turn. Any first look waiting ends
a game analysis's chunk after the position it is searching (nothing is lost there). So a
first look waits behind a moment of someone's long work, not seconds of it; and long work is
stopped at most once every ``GIVE_WAY_AFTER`` by each address, so a flood of first looks from
one address cannot starve it.

Each item has lanes (``core.fairqueue``): its owner's and its address's. The computer's moves
have lanes of their own: one move of each owner, ``COMPUTER_SEARCHES_PER_ADDRESS`` of each
address with the workers at a time, oldest first; so the workers' queue holds at most one move
per owner and per address, and another player's move waits behind at most one of a flood's.
The analyses (both kinds) share other lanes: one of each owner, ``COMPUTER_SEARCHES_PER_ADDRESS``
of each address, and ``ANALYSIS_SEARCHES_AT_ONCE`` from everyone together. When a place is
free, the analysis whose owner and address were served longest ago goes first
(``core.fairqueue.turn_order``), so a client who keeps many analyses waiting gets one turn in
each round like everyone else, and an honest visitor's search waits behind at most the
analysis a worker is running. The deep workers never hold more than ``ANALYSIS_SEARCHES_AT_ONCE``
analyses: with fewer than they have processes, a computer move always finds a process free of
them, and waits behind no analysis; with as many, behind at most the one being run (a search,
or a chunk, of a few seconds).

The two families' lanes are apart, so the dispatcher serves each on its own, under a lock of
its own: a computer move asked for, played or polled costs no look at the analyses, and the
other way round. It runs for a family when work of it is asked for (once the transaction
commits), when a worker finishes an item (its lanes are free again), when a poll finds its
item waiting (or handed over too long ago), and for both every minute (``games.sweep``,
Celery beat). A poll never waits for a lock: if another dispatcher holds it, that one does
the work; so a flood of polls cannot serialise the web workers on the lock. An item handed
over longer ago than ``REQUEUE_AFTER`` and still not done (a lost message) is handed over
again: every one of these tasks is idempotent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q, QuerySet
from django.utils import timezone

from core.exceptions import ApplicationError
from core.fairqueue import Lane, dispatch_lock, release, turn_order
from games.models import EngineAnalysis, Game, GameAnalysis

# Work handed to the workers this long ago and not done is handed over again.
REQUEUE_AFTER = timedelta(seconds=60)
# A board search of at most this many nodes is a first look at a position (the judges' first
# budgets, games.analysis.ANALYSIS_BUDGETS); one from an address that has had none handed over
# this long is due: it goes first, and long work being run gives way to it, asked this often.
FIRST_LOOK_NODES = 40_000
GIVE_WAY_AFTER = timedelta(seconds=1.5)
GIVE_WAY_EVERY = 0.1
# How many waiting items of each kind, oldest first, one dispatch looks at.
DISPATCH_SCAN = 500
# An analysis lane served within this long goes after those that were not (``turn_order``).
SERVED_WINDOW = timedelta(seconds=60)
MOVE = "games.computer_move"
SEARCH = "games.engine_analysis"
GAME_ANALYSIS = "games.game_analysis"
# The tasks this dispatcher sends, and only it (tests/core/test_fair_dispatch.py).
DISPATCHED_TASKS = (MOVE, SEARCH, GAME_ANALYSIS)
# The two families of work: their lanes are apart, so each is dispatched on its own, under a
# lock of its own (``core.fairqueue.dispatch_lock``): a move done, or polled, costs no look at
# the analyses, and the other way round.
MOVES = "moves"
ANALYSES = "analyses"
FAMILIES = (MOVES, ANALYSES)
LOCKS = {MOVES: "games.work.moves", ANALYSES: "games.work.analyses"}


class TooMuchWaiting(ApplicationError):
    """More work waiting for the workers from one address than it may have (HTTP 429)."""


@dataclass(frozen=True)
class Work:
    """One item waiting for the workers: the task's name, the row's id, its owner and
    address, and where and with what the task is sent."""

    task: str
    pk: int
    owner: str
    address: str
    queue: str
    args: tuple[int, ...]
    first_look: bool = False  # a board search of at most ``FIRST_LOOK_NODES``


def owner_key(user_id: int | None, visitor_id: str | None) -> str:
    return f"user-{user_id}" if user_id is not None else f"visitor-{visitor_id or ''}"


def work_lanes(item: Work) -> list[Lane]:
    if item.task == MOVE:
        return [("owner", item.owner), ("address", item.address)]
    return analysis_lanes(item.owner, item.address)


def analysis_lanes(owner: str, address: str) -> list[Lane]:
    return [("analysis_owner", owner), ("analysis_address", address), ("analyses", "all")]


def _client_lanes(item: Work) -> list[Lane]:
    """An item's owner's and address's lanes: whose turn it is (the place in all is
    everyone's)."""
    return [lane for lane in work_lanes(item) if lane[0] != "analyses"]


def _capacity() -> dict[str, int]:
    per_address = settings.COMPUTER_SEARCHES_PER_ADDRESS
    return {
        "owner": 1,
        "address": per_address,
        "analysis_owner": 1,
        "analysis_address": per_address,
        "analyses": settings.ANALYSIS_SEARCHES_AT_ONCE,
    }


# -- the computer's moves --------------------------------------------------------------------


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


def computer_queue(level: int | None) -> str:
    """The workers' queue for a computer move at ``level``: the deep levels' searches go to a
    queue of their own, whose workers run at a lower CPU priority than the quick levels'."""
    if level is not None and level >= settings.COMPUTER_DEEP_LEVEL:
        return str(settings.CELERY_PLAYING_DEEP_QUEUE)
    return str(settings.CELERY_PLAYING_QUEUE)


def _moves_waiting(fresh: datetime) -> list[Work]:
    games = (
        computer_waiting()
        .filter(Q(computer_dispatched_at__isnull=True) | Q(computer_dispatched_at__lt=fresh))
        .only("id", "user_id", "visitor_id", "address", "moves", "status", "start_fen", "level")
        .order_by("computer_queued_at", "id")[:DISPATCH_SCAN]
    )
    return [
        Work(MOVE, game.pk, owner_key(game.user_id, game.visitor_id), game.address,
             computer_queue(game.level), (game.pk, game.ply))
        for game in games
    ]  # fmt: skip


def _moves_busy(fresh: datetime) -> Iterable[Lane]:
    handed = computer_waiting().filter(computer_dispatched_at__gte=fresh)
    for user_id, visitor_id, address in handed.values_list("user_id", "visitor_id", "address"):
        yield ("owner", owner_key(user_id, visitor_id))
        yield ("address", address)


# -- the analyses ----------------------------------------------------------------------------


def _searches() -> QuerySet[EngineAnalysis]:
    return EngineAnalysis.objects.filter(status=EngineAnalysis.Status.PENDING)


def _game_analyses() -> QuerySet[GameAnalysis]:
    return GameAnalysis.objects.filter(status=GameAnalysis.Status.PENDING)


def _not_handed(fresh: datetime) -> Q:
    return Q(dispatched_at__isnull=True) | Q(dispatched_at__lt=fresh)


def _analyses_waiting(fresh: datetime) -> list[Work]:
    """The searches and the game analyses waiting for a turn, oldest first."""
    deep = str(settings.CELERY_PLAYING_DEEP_QUEUE)
    found: list[tuple[datetime, Work]] = []
    searches = (
        _searches()
        .filter(_not_handed(fresh))
        .order_by("created_at", "id")
        .values_list("id", "user_id", "visitor_id", "address", "created_at", "nodes")[
            :DISPATCH_SCAN
        ]
    )
    for pk, user_id, visitor_id, address, asked, nodes in searches:
        owner = owner_key(user_id, visitor_id)
        look = nodes <= FIRST_LOOK_NODES
        found.append((asked, Work(SEARCH, pk, owner, address, deep, (pk,), first_look=look)))
    analyses = (
        _game_analyses()
        .filter(_not_handed(fresh))
        .order_by("queued_at", "id")
        .values_list("id", "user_id", "visitor_id", "address", "queued_at", "created_at")[
            :DISPATCH_SCAN
        ]
    )
    for pk, user_id, visitor_id, address, queued, created in analyses:
        work = Work(GAME_ANALYSIS, pk, owner_key(user_id, visitor_id), address, deep, (pk,))
        found.append((queued or created, work))
    found.sort(key=lambda pair: pair[0])
    return [work for _, work in found]


def _first_looks_handed_since(since: datetime) -> QuerySet[EngineAnalysis]:
    return EngineAnalysis.objects.filter(nodes__lte=FIRST_LOOK_NODES, dispatched_at__gte=since)


def first_look_waiting(*, due: bool, now: datetime | None = None) -> bool:
    """Whether a first look at a position waits for its turn (with ``due``, one that is due:
    its address has had no first look handed over for ``GIVE_WAY_AFTER``)."""
    now = now or timezone.now()
    waiting = _searches().filter(_not_handed(now - REQUEUE_AFTER), nodes__lte=FIRST_LOOK_NODES)
    if due:
        lately = _first_looks_handed_since(now - GIVE_WAY_AFTER).filter(address=OuterRef("address"))
        waiting = waiting.filter(~Exists(lately))
    return waiting.exists()


class GiveWay:
    """``stop`` for long work's searches: True once a due first look waits (asked of the
    database at most every ``GIVE_WAY_EVERY`` seconds), and from then on."""

    def __init__(self) -> None:
        self.asked = time.monotonic()
        self.gave_way = False

    def __call__(self) -> bool:
        if not self.gave_way and time.monotonic() - self.asked >= GIVE_WAY_EVERY:
            self.asked = time.monotonic()
            self.gave_way = first_look_waiting(due=True)
        return self.gave_way


def _searches_running() -> QuerySet[EngineAnalysis]:
    """The searches a worker may be running: pending, or given way to another position of
    their owner's while handed over (the worker stops within a moment and finishes them)."""
    return EngineAnalysis.objects.filter(finished_at__isnull=True)


def _analyses_busy(fresh: datetime) -> list[Lane]:
    busy: list[Lane] = []
    for rows in (_searches_running(), _game_analyses()):
        handed = rows.filter(dispatched_at__gte=fresh)
        for user_id, visitor_id, address in handed.values_list("user_id", "visitor_id", "address"):
            busy += analysis_lanes(owner_key(user_id, visitor_id), address)
    return busy


def _analyses_served(since: datetime, waiting: list[Work]) -> dict[Lane, datetime]:
    """When each lane of the waiting analyses was last served, within ``SERVED_WINDOW``."""
    addresses = {item.address for item in waiting if item.address}
    users = [int(i.owner[5:]) for i in waiting if i.owner.startswith("user-")]
    visitors = [i.owner[8:] for i in waiting if i.owner.startswith("visitor-")]
    served: dict[Lane, datetime] = {}

    def keep(lane: Lane, last: datetime | None) -> None:
        if last is not None and (lane not in served or last > served[lane]):
            served[lane] = last

    recents: tuple[tuple[QuerySet[EngineAnalysis] | QuerySet[GameAnalysis], str], ...] = (
        (EngineAnalysis.objects.filter(dispatched_at__gte=since), "dispatched_at"),
        (GameAnalysis.objects.filter(served_at__gte=since), "served_at"),
    )
    for recent, field in recents:
        by_address = (
            recent.filter(address__in=addresses).values("address").annotate(last=Max(field))
        )
        for row in by_address:
            keep(("analysis_address", row["address"]), row["last"])
        by_owner = (
            recent.filter(Q(user_id__in=users) | Q(visitor_id__in=visitors))
            .values("user_id", "visitor_id")
            .annotate(last=Max(field))
        )
        for row in by_owner:
            keep(("analysis_owner", owner_key(row["user_id"], row["visitor_id"])), row["last"])
    return served


def _moves_release(now: datetime, fresh: datetime, capacity: dict[str, int]) -> list[Work]:
    moves = _moves_waiting(fresh)
    if not moves:
        return []
    return release(moves, busy=_moves_busy(fresh), lanes=work_lanes, capacity=capacity)


def _analyses_release(now: datetime, fresh: datetime, capacity: dict[str, int]) -> list[Work]:
    busy = _analyses_busy(fresh)
    if sum(1 for lane in busy if lane[0] == "analyses") >= capacity["analyses"]:
        return []  # no place free: nothing to look at
    waiting = _analyses_waiting(fresh)
    if not waiting:
        return []
    served = _analyses_served(now - SERVED_WINDOW, waiting)
    lately = set(_first_looks_handed_since(now - GIVE_WAY_AFTER).values_list("address", flat=True))
    is_due = [item.first_look and item.address not in lately for item in waiting]
    due = [item for item, first in zip(waiting, is_due, strict=True) if first]
    rest = [item for item, first in zip(waiting, is_due, strict=True) if not first]
    ordered = [
        *turn_order(due, lanes=_client_lanes, served=served),
        *turn_order(rest, lanes=_client_lanes, served=served),
    ]
    return release(ordered, busy=busy, lanes=work_lanes, capacity=capacity)


# -- the dispatcher --------------------------------------------------------------------------


def _mark(chosen: list[Work], now: datetime) -> None:
    def ids(task: str) -> list[int]:
        return [item.pk for item in chosen if item.task == task]

    if moves := ids(MOVE):
        Game.objects.filter(pk__in=moves).update(computer_dispatched_at=now)
    if searches := ids(SEARCH):
        EngineAnalysis.objects.filter(pk__in=searches).update(dispatched_at=now)
    if analyses := ids(GAME_ANALYSIS):
        GameAnalysis.objects.filter(pk__in=analyses).update(dispatched_at=now, served_at=now)


def _sender(item: Work) -> Callable[[], object]:
    from games.tasks import engine_analysis_task, game_analysis_task, game_computer_move_task

    task = {
        MOVE: game_computer_move_task,
        SEARCH: engine_analysis_task,
        GAME_ANALYSIS: game_analysis_task,
    }[item.task]
    return lambda: task.apply_async(item.args, queue=item.queue)


def family(task: str) -> str:
    return MOVES if task == MOVE else ANALYSES


def dispatch(
    now: datetime | None = None, *, wait: bool = True, families: Iterable[str] = FAMILIES
) -> list[Work]:
    """Hand to the workers every item of ``families`` whose turn has come; the items. With
    ``wait=False`` (a poll), a family is left alone while another dispatcher runs it: that one
    does the work, and polls never queue up behind one another."""
    now = now or timezone.now()
    fresh = now - REQUEUE_AFTER
    capacity = _capacity()
    choosers = {MOVES: _moves_release, ANALYSES: _analyses_release}
    chosen: list[Work] = []
    for name in FAMILIES:
        if name not in families:
            continue
        with transaction.atomic():
            if not dispatch_lock(LOCKS[name], wait=wait):
                continue
            found = choosers[name](now, fresh, capacity)
            if found:
                _mark(found, now)
                for item in found:
                    transaction.on_commit(_sender(item))
        chosen += found
    return chosen


def dispatch_moves() -> None:
    """Once a computer move is asked for, or played: its family's turn (``transaction.on_commit``)."""
    dispatch(families=(MOVES,))


def dispatch_analyses() -> None:
    """Once an analysis is asked for, or a search or chunk done: its family's turn."""
    dispatch(families=(ANALYSES,))


def handed(chosen: Iterable[Work], task: str, pk: int) -> bool:
    """Whether ``dispatch`` handed over the item ``pk`` of ``task``."""
    return any(item.task == task and item.pk == pk for item in chosen)


# When this process last ran the dispatcher for a poll, by family (``time.monotonic()``).
_POLL_DISPATCHED: dict[str, float] = {}


def poll_dispatch(
    *, task: str, pk: int, dispatched_at: datetime | None, now: datetime | None = None
) -> bool:
    """A poll of an item not yet done: when it waits for its turn (or was handed over longer
    than ``REQUEUE_AFTER`` ago: its message lost), run the dispatcher unless another one is
    running; True if the item was handed over. An item handed over lately is left to the
    workers: polling it costs no dispatch. A web process runs it for polls at most every
    ``POLL_DISPATCH_EVERY_SECONDS`` a family (a flood of polls of waiting work costs a
    dispatch a second, not one a poll): the commits that ask for work and the items done run
    it anyway, and polls only take up a turn that was lost."""
    now = now or timezone.now()
    if dispatched_at is not None and dispatched_at >= now - REQUEUE_AFTER:
        return False
    name = family(task)
    every = settings.POLL_DISPATCH_EVERY_SECONDS
    if every > 0:
        moment = time.monotonic()
        if moment - _POLL_DISPATCHED.get(name, -every) < every:
            return False
        _POLL_DISPATCHED[name] = moment
    return handed(dispatch(now, wait=False, families=(name,)), task, pk)
