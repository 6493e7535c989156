"""core.fairqueue.release: oldest first, but no lane beyond its capacity."""

from __future__ import annotations

from core.fairqueue import Lane, release


def lanes(item: tuple[str, str, str]) -> list[Lane]:
    _, owner, address = item
    return [("owner", owner), ("address", address)]


def test_a_flood_takes_one_place_and_the_others_go_ahead() -> None:
    flood = [(f"f{i}", f"visitor-{i}", "10.0.0.1") for i in range(10)]
    honest = ("h", "user-1", "10.0.0.2")
    chosen = release([*flood, honest], busy=[], lanes=lanes, capacity={"address": 1})
    assert chosen == [flood[0], honest]


def test_busy_lanes_count_and_a_kind_without_capacity_holds_one() -> None:
    waiting = [("a", "user-1", "10.0.0.1"), ("b", "user-1", "10.0.0.3"), ("c", "user-2", "")]
    busy = [("owner", "user-2"), ("address", "10.0.0.9")]
    assert release(waiting, busy=busy, lanes=lanes, capacity={}) == [waiting[0]]
    # an empty key is no lane; a larger capacity lets more through
    assert release(waiting, busy=[], lanes=lanes, capacity={"owner": 2}) == waiting
