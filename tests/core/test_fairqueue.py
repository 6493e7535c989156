"""core.fairqueue.release: oldest first, but no lane beyond its capacity; turn_order: when the
workers take few in all, the lanes served longest ago first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from core.fairqueue import Lane, release, turn_order


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


NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


def everyone(item: tuple[str, str, str]) -> list[Lane]:
    return [*lanes(item), ("all", "all")]


def test_with_one_place_in_all_the_address_served_last_waits_for_the_others() -> None:
    """A flood's next item is older than the honest one, but its address was just served."""
    flood = [(f"f{i}", f"visitor-{i}", "10.0.0.1") for i in range(3)]
    honest = ("h", "user-1", "10.0.0.2")
    served = {("address", "10.0.0.1"): NOW, ("owner", "visitor-0"): NOW}
    order = turn_order([*flood[1:], honest], lanes=everyone, served=served)
    assert order == [honest, flood[1], flood[2]]
    chosen = release(order, busy=[], lanes=everyone, capacity={"all": 1})
    assert chosen == [honest]


def test_the_owners_of_one_address_take_turns_and_the_rest_stays_oldest_first() -> None:
    school = [("a", "user-1", "10.0.0.5"), ("b", "user-2", "10.0.0.5"), ("c", "user-3", "10.0.0.5")]
    served = {("address", "10.0.0.5"): NOW, ("owner", "user-1"): NOW - timedelta(seconds=5)}
    assert turn_order(school, lanes=lanes, served=served) == [school[1], school[2], school[0]]
    assert turn_order(school, lanes=lanes, served={}) == school  # nobody served: oldest first
