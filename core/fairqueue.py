"""A fair queue in front of a worker queue.

Work that waits for a worker is kept as rows in the database (the waiting ones, and the ones
handed to the workers); ``release`` picks, oldest first, the waiting items whose every *lane*
has room, a lane being a kind and a key (``("owner", "user-7")``, ``("address", "10.0.0.1")``)
with a capacity per kind. So the worker queue holds at most a lane's capacity of each lane's
work: a client with many requests waits for its own to be done, one after another, while
everyone else's go ahead in the order they came; nobody's request waits behind more than one
of another client's (with capacity 1). The caller hands the released items to the workers and
marks them handed over, inside the transaction that holds ``dispatch_lock``, so that two
dispatchers never fill a lane twice.

When the workers take only a few items of a kind in all (a lane whose key is the same for
every item, say ``("analyses", "all")``), oldest first is not fair any more: a client with a
backlog would have its next item, older than anyone else's, ready the moment its last one is
done. ``turn_order`` then puts first the items whose lanes were served longest ago (or never),
so that each client gets one turn in each round, however many items it keeps waiting.

Used by the games' deep work (``games.queueing``: the computer's moves, the analysis board's
searches and the analyses of finished games); any queue that must be shared fairly between
clients can use it the same way.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import TypeVar

from django.db import connection

T = TypeVar("T")
Lane = tuple[str, str]  # (kind, key); an empty key is no lane
NEVER = datetime.min.replace(tzinfo=UTC)


def dispatch_lock(name: str, *, wait: bool = True) -> bool:
    """Inside a transaction: take the queue ``name``'s lock, held until the transaction ends
    (a PostgreSQL advisory lock; on another database, such as a SQLite file, writes are
    serialised anyway). With ``wait=False``, give up at once when another dispatcher holds it
    (False): that one is doing the work, and whoever asked need not queue behind it."""
    if connection.vendor != "postgresql":
        return True
    key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
            return True
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key])
        row = cursor.fetchone()
        return bool(row and row[0])


def release(
    waiting: Iterable[T],
    *,
    busy: Iterable[Lane],
    lanes: Callable[[T], Iterable[Lane]],
    capacity: Mapping[str, int],
) -> list[T]:
    """The waiting items to hand to the workers now: walking ``waiting`` in its order (oldest
    first), each item whose every lane has room, counting the lanes of the items already with
    the workers (``busy``, one entry per item and lane) and of those released before it. A
    kind missing from ``capacity`` holds one item at a time."""
    load = Counter(lane for lane in busy if lane[1])
    chosen: list[T] = []
    for item in waiting:
        its = [lane for lane in lanes(item) if lane[1]]
        if all(load[lane] < capacity.get(lane[0], 1) for lane in its):
            load.update(its)
            chosen.append(item)
    return chosen


def turn_order(
    waiting: Iterable[T],
    *,
    lanes: Callable[[T], Iterable[Lane]],
    served: Mapping[Lane, datetime],
) -> list[T]:
    """``waiting`` (oldest first) in the order their turns come: by when the latest of an
    item's lanes was last served (``served``; a lane missing from it, never), then by the
    earliest, then in the given order. So a client (an address) served a moment ago goes after
    everyone who was not, and the clients of one address (a school) take turns among
    themselves too. A lane that every item shares (the place in all) says nothing of whose
    turn it is: leave it out of ``lanes``."""

    def turn(item: T) -> tuple[datetime, datetime]:
        times = [served.get(lane, NEVER) for lane in lanes(item) if lane[1]] or [NEVER]
        return max(times), min(times)

    return sorted(waiting, key=turn)  # stable: oldest first among equal turns
