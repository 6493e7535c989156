"""Every puzzle shipped in the bank is proved again with the current engine: still sound and
unique, same length, same key, and its stored proof still judges its main line as a solve.
(CI can run the same check as ``manage.py reprove_bank``.)"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from puzzles.bankfile import (
    CLASSIC_FULL_NODES,
    CLASSIC_FULL_SECONDS,
    REPROVE_NODES,
    REPROVE_SECONDS,
    read_bank,
    reprove_entry,
)

pytestmark = pytest.mark.slow


def test_every_shipped_puzzle_proves_sound_again() -> None:
    entries = read_bank()
    assert entries, "the bank file is missing or empty"
    workers = max(1, min(2, os.cpu_count() or 1))
    # Fresh interpreters, not forks: a forked child inherits the broker connections of earlier
    # tests, and kombu's after-fork clean-up can then wait forever on one of their sockets.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=spawn) as pool:
        results = list(pool.map(reprove_entry, entries, chunksize=4))
    failed = [f"{r.key}: {r.problem}" for r in results if not r.ok]
    assert not failed, "\n".join(failed)


def test_the_proving_budgets_are_set_by_their_nodes() -> None:
    # the seconds are wall clock: on a loaded machine (a few times slower than
    # 100,000 nodes a second) they must still allow every node of the budget
    assert REPROVE_SECONDS >= REPROVE_NODES / 20_000
    assert CLASSIC_FULL_SECONDS >= CLASSIC_FULL_NODES / 20_000
