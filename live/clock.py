"""The clock arithmetic of a live game: plain values in, plain values out (no database).

The server keeps, for each side, the time it had left when its running turn began, and when
that turn began. The time left now is that minus the time since; a move is charged from the
server's receipt of it, and the mover's increment is added after the move. No clock runs
before each side has made its first move (the first two plies are free): a game can still be
aborted then, and nobody loses time to a friend who has not sat down yet.
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

    def left(self, side: str, now: datetime) -> int:
        """``side``'s time left at ``now`` in ms, never below zero."""
        left = self.stored(side)
        if side == self.running and self.started_at is not None:
            left -= elapsed_ms(self.started_at, now)
        return max(left, 0)

    def flagged(self, now: datetime) -> str | None:
        """The side whose time has run out at ``now``, if any."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def after_move(self, mover: str, now: datetime, *, ply_after: int, playing: bool) -> Clock:
        """The clock once ``mover``'s move, received at ``now``, is recorded (the caller has
        checked it was in time): the mover is charged and gets the increment (from the first
        timed move on); the other side's time runs from ``now`` unless the game is over or
        the clocks have not started (``ply_after`` plies played)."""
        timed = self.running == mover and self.started_at is not None
        left = self.left(mover, now) + (self.increment_ms if timed else 0)
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
