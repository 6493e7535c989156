"""A pool of worker processes for a long management command that goes when the command goes.

``ProcessPoolExecutor`` leaves its workers running when the command that made it is stopped
(SIGTERM, Ctrl-C): each goes on with its share of the work, unseen, until it is done, holding a
core. ``worker_pool`` ends them with the command.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from types import FrameType


def _stop(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """``jobs`` (at least one) worker processes, each a fresh interpreter (spawned, not a fork
    of a process that may hold database or broker connections). Stopped by SIGTERM or an
    interrupt, the command ends its workers before it exits; otherwise they finish and go as
    usual. SIGTERM is turned into ``SystemExit`` while the pool is open (the main thread only,
    as a management command runs)."""
    pool = ProcessPoolExecutor(
        max_workers=max(1, jobs), mp_context=multiprocessing.get_context("spawn")
    )
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        yield pool
    except BaseException:
        # The executor keeps its processes by pid; Python 3.11 offers no public way to end them.
        for process in list((pool._processes or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
