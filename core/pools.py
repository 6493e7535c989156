"""A pool of worker processes for a long management command that goes when the command goes.

``ProcessPoolExecutor`` leaves its workers running when the command that made it is stopped
(SIGTERM, Ctrl-C): each goes on with its share of the work, unseen, until it is done, holding a
core. ``worker_pool`` ends them with the command.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from types import FrameType


class _Stopped(SystemExit):
    """The command was stopped by a signal while its pool was open."""


def _stop(signum: int, _frame: FrameType | None) -> None:
    raise _Stopped(128 + signum)


def _stop_code(error: BaseException) -> int | None:
    """The exit status of a command stopped by a signal (SIGTERM or an interrupt), else None."""
    if isinstance(error, KeyboardInterrupt):
        return 128 + signal.SIGINT
    if isinstance(error, _Stopped) and isinstance(error.code, int):
        return error.code
    return None


@contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """``jobs`` (at least one) worker processes, each a fresh interpreter (spawned, not a fork
    of a process that may hold database or broker connections). Stopped by SIGTERM or an
    interrupt, the command ends its workers and exits at once (status 128 + the signal);
    otherwise they finish and go as usual. SIGTERM is turned into ``SystemExit`` while the pool
    is open (the main thread only, as a management command runs)."""
    pool = ProcessPoolExecutor(
        max_workers=max(1, jobs), mp_context=multiprocessing.get_context("spawn")
    )
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        yield pool
    except BaseException as error:
        # The executor keeps its processes by pid; Python 3.11 offers no public way to end them.
        processes = list((pool._processes or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
        code = _stop_code(error)
        if code is not None:
            # Stopped: leave now, the workers ended. The executor's shutdown, and the join of
            # its manager thread at the interpreter's exit, can wait for ever on the queues of
            # the workers just ended (a loaded test run saw the command still there 30 s after
            # an interrupt).
            print("Stopped: the worker processes are ended.", file=sys.stderr)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
