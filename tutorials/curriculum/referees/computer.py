"""The computer's moves in an endgame step (``goal = "endgame"``).

The computer plays at level 8 with a fixed node budget instead of level 8's clock, with the
search and evaluation the endgames were proved against (no ``TECHNIQUES``, the hand-written
tables: the engine before its stronger search, move for move): the same
learner moves always get the same replies (on any machine, under any load), so a step is
fair and can be tested, and the server can replay a try from its start on every request. The
budget is sized so that a reply takes well under the ~300 ms a lesson may wait for it (see
``tests/tutorials/test_endgames.py``, which measures every endgame step's replies). A replayed
try asks again for replies it has had before: they are remembered in the process, and in a
shared ``Memory`` where the caller gives one (the site's cache: a try's requests may land on
different web workers, and a worker that has not seen the try would otherwise search every
reply again).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final, Protocol

from engine.play import CLASSIC_WEIGHTS, bestmove

COMPUTER_LEVEL: Final = 8
# The computer's node budget in a lesson endgame: at most about 250 ms a reply on one loaded
# core of the reference machine; with few pieces the search reaches 8-10 plies on it and
# usually sees the mates it can give or must meet.
COMPUTER_NODES: Final = 16_000
# The learner's side when the engine plays it (the lesson tests, ``solve``): stronger, since
# it must show that every step is won (or held) within its moves.
LEARNER_NODES: Final = 120_000
TT_MIB: Final = 16


class Memory(Protocol):
    """Somewhere to keep replies between requests (Django's cache fits)."""

    def get(self, key: str) -> Any: ...

    def set(self, key: str, value: Any) -> None: ...


@cache
def _engine_stamp() -> str:
    """A digest of the playing engine's sources: a remembered reply belongs to the engine that
    found it."""
    digest = hashlib.sha256()
    root = Path(bestmove.__code__.co_filename).resolve().parent
    for path in sorted(root.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def memory_key(variant: str, fen: str, moves: Sequence[str], nodes: int = COMPUTER_NODES) -> str:
    line = "|".join([_engine_stamp(), variant, fen, str(nodes), " ".join(moves)])
    return "lesson-reply:" + hashlib.sha256(line.encode()).hexdigest()


@lru_cache(maxsize=16_384)
def _best(variant: str, fen: str, moves: tuple[str, ...], nodes: int) -> str:
    return bestmove(
        variant,
        fen,
        moves,
        level=COMPUTER_LEVEL,
        nodes=nodes,
        seed=0,
        tt_mib=TT_MIB,
        techniques=0,
        weights=CLASSIC_WEIGHTS,
    ).move


def computer_move(
    variant: str, fen: str, moves: Sequence[str], memory: Memory | None = None
) -> str:
    """The computer's move (ICCS) after ``moves`` from ``fen``; the game must not be over.
    With a ``memory``, a reply found before (by any process sharing it) is not searched
    again."""
    if memory is None:
        return _best(variant, fen, tuple(moves), COMPUTER_NODES)
    key = memory_key(variant, fen, moves)
    found = memory.get(key)
    if isinstance(found, str):
        return found
    move = _best(variant, fen, tuple(moves), COMPUTER_NODES)
    memory.set(key, move)
    return move


def engine_move(variant: str, fen: str, moves: Sequence[str], *, nodes: int = LEARNER_NODES) -> str:
    """The engine's move for the learner's side (tests and authoring only)."""
    return _best(variant, fen, tuple(moves), nodes)
