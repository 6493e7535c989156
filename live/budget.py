"""How many messages one WebSocket connection may send: a sliding window of the times of the
last messages (plain values, no database, no cache: the budget is the connection's own).

A page sends a message for each move, button and clock claim, a few a minute; a flood from
one connection is refused message by message (each refused message is said to the sender,
and the game is not touched) until the window has room again."""

from __future__ import annotations

from collections import deque


class MessageBudget:
    """At most ``count`` messages in any ``seconds``: ``spend(now)`` returns None when the
    message may go on, else the seconds to wait before the next one will be read."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self.times: deque[float] = deque()

    def spend(self, now: float) -> float | None:
        while self.times and self.times[0] <= now - self.seconds:
            self.times.popleft()
        if len(self.times) >= self.count:
            return self.times[0] + self.seconds - now
        self.times.append(now)
        return None
