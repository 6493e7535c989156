"""Every puzzle shipped in the bank is proved again with the current engine: still sound and
unique, same length, same key, and its stored proof still judges its main line as a solve.
(CI can run the same check as ``manage.py reprove_bank``.)

The whole bank is re-proved whenever what a proof depends on (the engine's sources, the proving
code, the bank file) differs from the last full re-proof on record (puzzles/data/bank-proof.json,
written by ``manage.py reprove_bank --record``); while nothing of it has changed, one puzzle in
``SAMPLE_EVERY`` is (a different slice each day), and a test fails until the record is brought
up to date."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from datetime import date

import pytest

from puzzles.bankfile import (
    CLASSIC_FULL_NODES,
    CLASSIC_FULL_SECONDS,
    REPROVE_NODES,
    REPROVE_SECONDS,
    proof_inputs,
    proof_inputs_digest,
    read_bank,
    read_proof_record,
    reprove_entry,
)

pytestmark = pytest.mark.slow

SAMPLE_EVERY = 10


def test_every_shipped_puzzle_proves_sound_again() -> None:
    entries = read_bank()
    assert entries, "the bank file is missing or empty"
    record = read_proof_record()
    if record is not None and record["digest"] == proof_inputs_digest():
        # Proved whole with these very sources and bank: a slice still runs, a new one each day.
        entries = entries[date.today().toordinal() % SAMPLE_EVERY :: SAMPLE_EVERY]
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


def test_the_last_full_reproof_is_of_the_engine_and_bank_as_they_are() -> None:
    record = read_proof_record()
    assert record is not None and record["digest"] == proof_inputs_digest(), (
        "the engine, the proving code or the bank changed since the last full re-proof on "
        "record: run `manage.py reprove_bank --record` and commit puzzles/data/bank-proof.json"
    )
    assert record["puzzles"] == len(read_bank())


def test_the_record_covers_the_engine_the_prover_and_the_bank() -> None:
    names = {path.name for path in proof_inputs()}
    assert {"rules.py", "position.py", "proving.py", "bankfile.py", "bank.json"} <= names
    assert any(path.parent.name == "solver" for path in proof_inputs())
