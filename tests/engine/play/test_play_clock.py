"""The playing search under a time budget, driven by a made-up clock: when it
looks at the clock, when it stops, and what it plays then. No test here
depends on the real time."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import Position
from engine.play import _root
from engine.play.search import CLOCK_MASK, FINISH_SHARE, MIN_MARGIN, Limits, Result, Searcher

LOOK = CLOCK_MASK + 1  # nodes between two looks at the clock


def middlegame(variant: str = "xiangqi") -> Position:
    """The start and eight plies chosen by a seeded random walk."""
    rng = random.Random(8)
    pos = Position.start(variant)
    for _ in range(8):
        pos.push_iccs(rng.choice(sorted(m.iccs() for m in pos.legal_moves)))
    assert pos.outcome() is None
    return pos


class Clock:
    """A clock that moves ``step`` seconds at each reading, and ``jumps[n]``
    more at the n-th (counted from 1; reading 0 is the searcher's own, when it
    is made)."""

    def __init__(self, step: float, jumps: dict[int, float] | None = None) -> None:
        self.step = step
        self.jumps = jumps or {}
        self.readings = 0
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.jumps.get(self.readings, 0.0)
        value = self.now
        self.readings += 1
        self.now += self.step
        return value


def search(
    pos: Position, limits: Limits, clock: Callable[[], float], started: float = 0.0
) -> Result:
    root, won = _root(pos)
    return Searcher(pos, limits, started, clock=clock).run(root, won)


def first_stopping_look(clock: Clock, deadline: float) -> int:
    """The number of the look at which the rule stops the search: the first
    from which the longest gap seen, twice over (the wait for the next look
    and the finishing; at least ``MIN_MARGIN`` or a tenth of the budget), and
    ``FINISH_SHARE`` of the time spent reach past the deadline (the budget)."""
    probe = Clock(clock.step, clock.jumps)
    last = probe()  # the searcher's reading when it is made
    longest = 0.0
    look = 0
    while True:
        look += 1
        now = probe()
        longest = max(longest, now - last)
        last = now
        floor = min(MIN_MARGIN, deadline / 10)
        if now + max(2 * longest, floor) + FINISH_SHARE * now > deadline:
            return look


def test_a_search_at_a_node_budget_never_reads_the_clock() -> None:
    def clock() -> float:
        raise AssertionError("the clock was read")

    found = search(middlegame(), Limits(nodes=5_000), clock)
    assert found.nodes == 5_000


def test_the_clock_is_looked_at_every_64_nodes() -> None:
    clock = Clock(step=0.0)  # time stands still: the search runs to its node budget
    found = search(middlegame(), Limits(nodes=3_000, movetime_ms=1_000), clock)
    assert found.nodes == 3_000
    assert clock.readings == 1 + 3_000 // LOOK


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_it_stops_at_the_first_look_that_could_not_wait_for_another(variant: str) -> None:
    # 10 ms between looks, a 1 s budget: it stops when the wait and the
    # finishing (the 0.1 s kept in hand at least) and 2 % of the time spent
    # would pass the deadline
    clock = Clock(step=0.01)
    found = search(middlegame(variant), Limits(nodes=10**6, movetime_ms=1_000), clock)
    look = first_stopping_look(clock, 1.0)
    assert 85 < look < 90  # at about 0.88 s
    assert found.nodes == look * LOOK
    assert clock.readings == 1 + look


def test_a_short_budget_keeps_a_tenth_of_itself_in_hand() -> None:
    # 1 ms between looks, a 100 ms budget: 10 ms in hand, not 0.1 s
    clock = Clock(step=0.001)
    found = search(middlegame(), Limits(nodes=10**6, movetime_ms=100), clock)
    look = first_stopping_look(clock, 0.1)
    assert 85 < look < 90  # at about 88 ms
    assert found.nodes == look * LOOK


def test_a_long_wait_for_the_cpu_makes_it_keep_a_wider_margin() -> None:
    # the 10th look comes 0.2 s late (the process waited for the CPU): from
    # then on it keeps twice that in hand before the deadline, not 0.1 s
    steady = first_stopping_look(Clock(step=0.01), 1.0)
    clock = Clock(step=0.01, jumps={10: 0.2})
    found = search(middlegame(), Limits(nodes=10**6, movetime_ms=1_000), clock)
    look = first_stopping_look(clock, 1.0)
    assert found.nodes == look * LOOK
    assert steady - look > 40  # 0.3 s more in hand and 0.2 s lost: 50 looks of 10 ms earlier
    # the stopping look's time stays about 0.4 s short of the deadline
    assert 1.0 - (0.2 + look * 0.01) > 0.4


def test_the_deadline_counts_from_the_callers_start() -> None:
    # the budget ran out before the search began: the first look stops it
    pos = middlegame()
    clock = Clock(step=0.001)
    found = search(pos, Limits(nodes=10**6, movetime_ms=100), clock, started=-1.0)
    assert found.nodes == LOOK
    assert clock.readings == 2
    assert pos.decode(found.move) in pos.legal_moves


def test_stopped_by_the_clock_it_plays_its_last_completed_iteration() -> None:
    # the clock stops the search at the node where a node budget would stop
    # it: the same move, score, depth and line; that is the last completed
    # iteration's move, which a search capped at that depth finds
    pos = middlegame("feidan")
    timed = search(pos, Limits(nodes=10**6, movetime_ms=300), Clock(step=0.001))
    assert timed.nodes % LOOK == 0
    counted = search(pos, Limits(nodes=timed.nodes - 1), Clock(step=0.0))
    assert (timed.move, timed.score, timed.depth, timed.pv) == (
        counted.move,
        counted.score,
        counted.depth,
        counted.pv,
    )
    assert timed.depth >= 3
    completed = search(pos, Limits(depth=timed.depth, nodes=10**6), Clock(step=0.0))
    assert completed.depth == timed.depth
    assert completed.move == timed.move


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_the_callers_stop_is_asked_at_every_look_and_ends_the_search(variant: str) -> None:
    """``stop`` is asked as often as the clock is looked at, with or without a time budget;
    once it answers True the search ends with the best it found, well inside its nodes."""
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked >= 20

    def clock() -> float:
        raise AssertionError("the clock was read")

    root, won = _root(middlegame(variant))
    found = Searcher(middlegame(variant), Limits(nodes=10**6), clock=clock, stop=stop).run(
        root, won
    )
    assert asked == 20
    assert found.nodes == 20 * LOOK
    assert found.move in root and found.depth >= 1


def test_a_stop_that_never_answers_true_changes_nothing() -> None:
    pos = middlegame()
    root, won = _root(pos)
    plain = Searcher(pos, Limits(nodes=20_000)).run(root, won)
    watched = Searcher(pos, Limits(nodes=20_000), stop=lambda: False).run(root, won)
    assert (watched.move, watched.score, watched.depth, watched.nodes, watched.pv) == (
        plain.move, plain.score, plain.depth, plain.nodes, plain.pv
    )  # fmt: skip
