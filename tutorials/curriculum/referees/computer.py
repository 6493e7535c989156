"""The computer's moves in an endgame step (``goal = "endgame"``).

The computer plays at level 8 with a fixed node budget instead of level 8's clock: the same
learner moves always get the same replies (on any machine, under any load), so a step is
fair and can be tested, and the server can replay a try from its start on every request. The
budget is sized so that a reply takes well under the ~300 ms a lesson may wait for it (see
``tests/tutorials/test_endgames.py``, which measures every endgame step's replies). A replayed
try asks again for replies it has had before: they are remembered (per process).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from engine.play import bestmove

COMPUTER_LEVEL: Final = 8
# The computer's node budget in a lesson endgame: at most about 250 ms a reply on one loaded
# core of the reference machine; with few pieces the search reaches 8-10 plies on it and
# usually sees the mates it can give or must meet.
COMPUTER_NODES: Final = 16_000
# The learner's side when the engine plays it (the lesson tests, ``solve``): stronger, since
# it must show that every step is won (or held) within its moves.
LEARNER_NODES: Final = 120_000
TT_MIB: Final = 16


@lru_cache(maxsize=16_384)
def _best(variant: str, fen: str, moves: tuple[str, ...], nodes: int) -> str:
    return bestmove(
        variant, fen, moves, level=COMPUTER_LEVEL, nodes=nodes, seed=0, tt_mib=TT_MIB
    ).move


def computer_move(variant: str, fen: str, moves: Sequence[str]) -> str:
    """The computer's move (ICCS) after ``moves`` from ``fen``; the game must not be over."""
    return _best(variant, fen, tuple(moves), COMPUTER_NODES)


def engine_move(variant: str, fen: str, moves: Sequence[str], *, nodes: int = LEARNER_NODES) -> str:
    """The engine's move for the learner's side (tests and authoring only)."""
    return _best(variant, fen, tuple(moves), nodes)
