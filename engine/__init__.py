"""The rules engine of xiangqi, Missile Xiangqi (feidan) and New-version
Xiangqi (xinban): positions, legal moves, notation, outcomes and setups.

Typed Python, its hot modules compiled ahead of time by ``scripts/setup``
when a C compiler is present (``engine._native``; ``ENGINE_PURE=1`` runs
the plain sources). It knows nothing of the web or the database.
"""

# ruff: noqa: E402 - the compiled modules are switched on before the imports below
from engine import _native

# before any compiled module is imported: the build directory goes first
COMPILED = _native.activate(__path__)

from engine.errors import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    UnknownVariantError,
)
from engine.move import Move
from engine.perft import divide, perft
from engine.play import LEVELS, BestMove, GameOverError, accepts_draw, bestmove, evaluate
from engine.position import LegalMoves, MoveEffect, Position
from engine.rules import Outcome, attack_power, can_claim_draw
from engine.setups import (
    PlumBlossomSetup,
    SecretReveal,
    SetupError,
    Violation,
    combine_secret_setups,
    plum_blossom,
    random_secret_half,
    validate_secret_half,
)
from engine.solver import Budget, Judgement, Proof, SolverInputError, find_win, judge, solve
from engine.variants import VARIANTS, Variant, find_variant

__all__ = [
    "COMPILED",
    "LEVELS",
    "VARIANTS",
    "AmbiguousMoveError",
    "BestMove",
    "Budget",
    "EngineError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Judgement",
    "LegalMoves",
    "Move",
    "MoveEffect",
    "Outcome",
    "PlumBlossomSetup",
    "Proof",
    "SecretReveal",
    "SetupError",
    "SolverInputError",
    "Violation",
    "Position",
    "UnknownVariantError",
    "Variant",
    "accepts_draw",
    "attack_power",
    "bestmove",
    "can_claim_draw",
    "combine_secret_setups",
    "divide",
    "evaluate",
    "find_variant",
    "find_win",
    "judge",
    "perft",
    "plum_blossom",
    "random_secret_half",
    "solve",
    "validate_secret_half",
]
