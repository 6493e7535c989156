"""A long command's worker processes go with it (``core.pools.worker_pool``): stopped with
SIGTERM or an interrupt, it ends them instead of leaving them to finish their work unseen (a
fault: ``reprove_bank`` and ``selfplay_games``, stopped, left their workers at work)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import os, sys, time
from pathlib import Path

def hold(n):
    with open(sys.argv[1], "a") as out:
        out.write(f"{os.getpid()}\\n")
    time.sleep(120)
    return n

if __name__ == "__main__":
    from core.pools import worker_pool
    with worker_pool(2) as pool:
        print(sum(pool.map(hold, range(4))), flush=True)
"""


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its parent to reap it counts)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_command_ends_its_workers(tmp_path: Path, how: signal.Signals) -> None:
    script, pids = tmp_path / "command.py", tmp_path / "pids"
    script.write_text(SCRIPT)
    command = subprocess.Popen(
        [sys.executable, str(script), str(pids)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # as from a terminal: an interrupt a test process ignores (another test in it may have
        # set that) would be ignored by the command too, and never reach it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        if pids.exists():
            workers = [int(line) for line in pids.read_text().split()]
    assert len(workers) == 2, command.communicate(timeout=10)
    assert not any(_gone(pid) for pid in workers)

    command.send_signal(how)
    command.wait(timeout=30)
    assert command.returncode == 128 + how  # stopped, not finished
    deadline = time.monotonic() + 20
    while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(_gone(pid) for pid in workers), workers
