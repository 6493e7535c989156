"""The clock arithmetic of a live game: plain values in, plain values out (no database).

The server keeps, for each side, the time it had left when its running turn began, and when
that turn began. The time left now is that minus the time since; a move is charged from the
server's receipt of it, and the mover's increment is added after the move. No clock runs
before each side has made its first move (the first two plies are free): a game can still be
aborted then, and nobody loses time to a friend who has not sat down yet.

The lag allowance (``LagAllowance``): a move is charged from the receipt of the opponent's move
to the receipt of this one, so a mover on a slow network pays the way of the state down to
their page and of their move up, one round trip. The server measures each connection's round
trip itself (live.consumers: a probe it times on its own monotonic clock, ``smoothed_rtt``), and
credits the mover that much back, at most ``cap_ms`` a move and at most what the side's quota
holds (after Lichess's lag tracker: the quota starts at three moves' gain, gains ``cap_ms / 2``
a timed move, holds at most seven): a client that answers its probes late gains no more.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

# Plies played before the clocks start: Red's first move and Black's first move are free
# (though each must come within ``settings.LIVE_FIRST_MOVE_SECONDS``: live.selectors).
FREE_PLIES = 2


def other_side(side: str) -> str:
    return "black" if side == "red" else "red"


@dataclass(frozen=True)
class Clock:
    """Both sides' time, as stored: ``red_ms`` / ``black_ms`` left when the running turn
    began; ``running`` the side whose time runs since ``started_at`` (None: none runs)."""

    red_ms: int
    black_ms: int
    increment_ms: int
    running: str | None
    started_at: datetime | None

    def stored(self, side: str) -> int:
        return self.red_ms if side == "red" else self.black_ms

    def with_time(self, side: str, ms: int) -> Clock:
        return replace(self, red_ms=ms) if side == "red" else replace(self, black_ms=ms)

    def spent(self, side: str, now: datetime) -> int:
        """The ms ``side``'s running turn has lasted at ``now`` (0: its time does not run)."""
        if side == self.running and self.started_at is not None:
            return elapsed_ms(self.started_at, now)
        return 0

    def left(self, side: str, now: datetime, *, lag_ms: int = 0) -> int:
        """``side``'s time left at ``now`` in ms, never below zero; with ``lag_ms`` of its
        turn given back (never more than the turn has lasted: ``credit``)."""
        spent = self.spent(side, now)
        return max(self.stored(side) - spent + min(lag_ms, spent), 0)

    def credit(self, side: str, now: datetime, lag_ms: int) -> int:
        """How much of ``lag_ms`` ``side`` gets back at ``now``: no more than its turn has
        lasted (nothing if its time does not run)."""
        return max(0, min(lag_ms, self.spent(side, now)))

    def flagged(self, now: datetime, *, lag_ms: int = 0) -> str | None:
        """The side whose time has run out at ``now``, if any (``lag_ms``: the lag allowance
        the running side's move now arriving is credited)."""
        if self.running is not None and self.left(self.running, now, lag_ms=lag_ms) <= 0:
            return self.running
        return None

    def after_move(
        self, mover: str, now: datetime, *, ply_after: int, playing: bool, lag_ms: int = 0
    ) -> Clock:
        """The clock once ``mover``'s move, received at ``now``, is recorded (the caller has
        checked it was in time): the mover is charged, less the lag allowance ``lag_ms``, and
        gets the increment (from the first timed move on); the other side's time runs from
        ``now`` unless the game is over or the clocks have not started (``ply_after`` plies
        played)."""
        timed = self.running == mover and self.started_at is not None
        left = self.left(mover, now, lag_ms=lag_ms) + (self.increment_ms if timed else 0)
        clock = self.with_time(mover, left)
        runs = playing and ply_after >= FREE_PLIES
        return replace(
            clock,
            running=other_side(mover) if runs else None,
            started_at=now if runs else None,
        )

    def stopped(self, now: datetime) -> Clock:
        """The clock stopped at ``now`` (the game is over): the running side is charged."""
        if self.running is None:
            return self
        side = self.running
        return replace(self.with_time(side, self.left(side, now)), running=None, started_at=None)


def elapsed_ms(since: datetime, now: datetime) -> int:
    """Whole milliseconds from ``since`` to ``now`` (zero if ``now`` is earlier)."""
    return max(0, int((now - since).total_seconds() * 1000))


# Smoothing of the measured round trips: each new sample moves the estimate by a quarter of
# the way (an exponential moving average), so one slow answer does not make the estimate.
RTT_WEIGHT = 4


def smoothed_rtt(estimate: int | None, sample_ms: int) -> int:
    """The round-trip estimate after a new measured ``sample_ms`` (the first sample is taken
    as it is)."""
    sample = max(0, sample_ms)
    if estimate is None:
        return sample
    return (estimate * (RTT_WEIGHT - 1) + sample) // RTT_WEIGHT


@dataclass(frozen=True)
class LagAllowance:
    """The lag credited to a mover: at most the measured round trip, ``cap_ms`` a move, and
    the side's quota. The quota starts at ``3 * gain``, each timed move adds ``gain``
    (``cap_ms // 2``) and takes away what was credited, and it never holds more than
    ``7 * gain`` (Lichess's proportions): a steady round trip up to ``gain`` is given back on
    every move; a longer one, or answers held back on purpose, at most ``cap_ms`` on a move
    and ``gain`` a move over a game (beyond the quota's start)."""

    cap_ms: int

    @property
    def gain_ms(self) -> int:
        return self.cap_ms // 2

    @property
    def start_quota_ms(self) -> int:
        return 3 * self.gain_ms

    @property
    def max_quota_ms(self) -> int:
        return 7 * self.gain_ms

    def credit(self, rtt_ms: int | None, quota_ms: int) -> int:
        """What a move may be credited: the round trip (none measured: nothing), capped."""
        if rtt_ms is None:
            return 0
        return max(0, min(rtt_ms, self.cap_ms, quota_ms))

    def quota_after(self, quota_ms: int, credited_ms: int) -> int:
        """The side's quota after a timed move credited ``credited_ms``."""
        return max(0, min(quota_ms + self.gain_ms - credited_ms, self.max_quota_ms))
