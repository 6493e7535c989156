"""The Celery queues and which task goes to which.

Six queues, so that one kind of work never waits behind another:

``<prefix>celery``   everything else (health checks, the daily choice)
``<prefix>proving``  verifying authored puzzles: long searches, minutes each; looking for the
                     mates missed in a finished game (seconds each)
``<prefix>mining``   mining puzzles from games (``manage.py mine_puzzles --celery``): chunks of
                     up to an hour each, CPU-bound, run by hand; a worker per core of the
                     machines given to it. No worker needs to read it between runs, so the
                     health check does not ask for one (``CeleryQueues.required``)
``<prefix>scoring``  scoring attempts: milliseconds each, and players wait for them
``<prefix>playing``  the computer's moves in games below ``COMPUTER_DEEP_LEVEL``: milliseconds
                     of search each, a player waits
``<prefix>playing_deep``  the computer's moves at ``COMPUTER_DEEP_LEVEL`` and above: up to a
                     second or two of search each; the analysis board's engine (a search of
                     about two seconds, and the proof of a short mate); the analyses of
                     finished games, a chunk of about a second at a time. Its workers run at a
                     lower CPU priority (``nice``), so that deep searches, however many, take
                     only the CPU the quick replies leave (docs/deployment.md)

Nothing is sent to the two ``playing`` queues directly: the work waits in the database and one
fair dispatcher (``games.queueing``) hands it over when its turn comes, at most one item of
each owner and of each address and ``ANALYSIS_SEARCHES_AT_ONCE`` analyses in all; every other
task says why it need not take turns (tests/core/test_fair_dispatch.py). A flood of authored
puzzles fills ``proving`` only; workers that read ``scoring`` keep scoring; a mining run of
thousands of chunks never delays an authored puzzle's verification.
``prefix`` (``CELERY_QUEUE_PREFIX``) lets several sites or test sessions share one broker.
"""

from __future__ import annotations

from dataclasses import dataclass

from kombu import Exchange, Queue

# Task name -> the queue kind it runs on. Tasks not listed go to the default queue.
TASK_QUEUES = {
    "puzzles.verify_puzzle": "proving",
    "puzzles.missed_mates": "proving",
    "puzzles.mine_chunk": "mining",
    "puzzles.score_attempt": "scoring",
    "games.computer_move": "playing",
    "games.engine_analysis": "playing_deep",
    "games.game_analysis": "playing_deep",
}


@dataclass(frozen=True)
class CeleryQueues:
    default: str
    proving: str
    scoring: str
    playing: str
    playing_deep: str
    mining: str

    @property
    def queues(self) -> tuple[Queue, ...]:
        """Durable queues on durable exchanges: with persistent messages, a restarted broker
        still holds every message that was queued."""
        return tuple(
            Queue(name, Exchange(name, type="direct", durable=True), routing_key=name, durable=True)
            for name in self.names
        )

    @property
    def routes(self) -> dict[str, dict[str, str]]:
        return {
            task: {"queue": getattr(self, kind), "routing_key": getattr(self, kind)}
            for task, kind in TASK_QUEUES.items()
        }

    @property
    def names(self) -> list[str]:
        return [
            self.default, self.proving, self.scoring, self.playing, self.playing_deep, self.mining
        ]  # fmt: skip

    @property
    def required(self) -> list[str]:
        """The queues a worker must always read (the health check): all but ``mining``."""
        return [name for name in self.names if name != self.mining]


def celery_queues(prefix: str, default: str | None = None) -> CeleryQueues:
    return CeleryQueues(
        default=default or f"{prefix}celery",
        proving=f"{prefix}proving",
        scoring=f"{prefix}scoring",
        playing=f"{prefix}playing",
        playing_deep=f"{prefix}playing_deep",
        mining=f"{prefix}mining",
    )
