"""The puzzle prover: exact proofs of forced wins (docs/rules.md §10).

``solve`` proves a puzzle (sound and unique, cooked, shorter, no win) and
returns a ``Proof`` with its solution tree; ``find_win`` finds the
shortest forced win without the uniqueness check; ``judge`` follows a
solver's moves through a proof.
"""

# ruff: noqa: E402 - the compiled modules are switched on before the imports below
from engine import _native

_native.activate_subpackage("solver", __path__)

from engine.solver.judge import VERDICTS, Judgement, judge
from engine.solver.proof import Node, Proof, SolverInputError
from engine.solver.prover import MAX_MOVES, FoundWin, find_win, solve
from engine.solver.search import GOALS, MODES, STAGES, Budget, Progress

__all__ = [
    "GOALS",
    "MAX_MOVES",
    "MODES",
    "STAGES",
    "VERDICTS",
    "Budget",
    "FoundWin",
    "Judgement",
    "Node",
    "Progress",
    "Proof",
    "SolverInputError",
    "find_win",
    "judge",
    "solve",
]
