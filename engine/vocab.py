"""The engine's words: every fixed set of names the engine answers with, defined once.

Apps, lesson files and tests import these instead of writing the names again: a lesson's
``outcome`` goal, the labels of a finished game, a puzzle's proof status and a judge's verdict
all come from here. Each set is a ``Literal`` type and, read from it, a tuple of the same names
(to check input against and to list in messages). The rules behind
the names are in docs/rules.md (§7 and §8 for the terminations, §10 for the prover's words).
This module imports nothing of the engine, so every part of the engine can use it.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

# -- how a game ends (docs/rules.md §7) ----------------------------------------------------

BoardTermination = Literal["checkmate", "stalemate", "dead_general"]
HistoryTermination = Literal[
    "perpetual_check",
    "perpetual_chase",
    "repetition",
    "forced_variation",
    "natural_limit",
]
ClaimTermination = Literal["attack_power"]
OutcomeTermination = BoardTermination | HistoryTermination
Termination = OutcomeTermination | ClaimTermination

#: Read from the board alone (``Position.status()`` besides ``ongoing``).
BOARD_TERMINATIONS: Final[tuple[BoardTermination, ...]] = get_args(BoardTermination)
#: Need the moves that led to the position (docs/rules.md §8).
HISTORY_TERMINATIONS: Final[tuple[HistoryTermination, ...]] = get_args(HistoryTermination)
#: What ``engine.rules.outcome`` can answer, in the order it judges them.
OUTCOME_TERMINATIONS: Final[tuple[OutcomeTermination, ...]] = (
    *BOARD_TERMINATIONS,
    *HISTORY_TERMINATIONS,
)
#: Ended by a side's declaration, never by ``outcome`` (xinban's attack power, §8.6).
CLAIM_TERMINATIONS: Final[tuple[ClaimTermination, ...]] = get_args(ClaimTermination)
#: Every termination the engine knows.
TERMINATIONS: Final[tuple[Termination, ...]] = (*OUTCOME_TERMINATIONS, *CLAIM_TERMINATIONS)

# -- what a move does (``Position.move_effect``) -------------------------------------------

MoveEffectKind = Literal[
    "move", "capture", "collision", "self_destruct", "cannon_takes_missile", "defection"
]
MOVE_EFFECTS: Final[tuple[MoveEffectKind, ...]] = get_args(MoveEffectKind)

# -- how a repetition that no perpetual decides ends (``Variant.repetition_rule``, §8.5) ---

RepetitionRule = Literal["draw", "forced_variation"]
REPETITION_RULES: Final[tuple[RepetitionRule, ...]] = get_args(RepetitionRule)

# -- the prover (docs/rules.md §10) --------------------------------------------------------

ProofStatus = Literal["sound_unique", "cooked", "shorter", "no_win", "budget_exhausted"]
PROOF_STATUSES: Final[tuple[ProofStatus, ...]] = get_args(ProofStatus)

# ``good`` (also good, but not the best: the move is not played, try again) is answered from a
# tactics puzzle's stored answers, never by the prover.
Verdict = Literal["continue", "solved", "wrong", "unknown", "good"]
VERDICTS: Final[tuple[Verdict, ...]] = get_args(Verdict)
