"""Writes of the puzzles app, split by concern; import them from here."""

from puzzles.services.authoring import (
    ProvingQueueFullError,
    proving_queue_next,
    proving_queue_order,
    puzzle_draft_create,
    puzzle_draft_submit,
    puzzle_draft_update,
    puzzle_position_check,
    puzzle_verifications_requeue,
    puzzle_verify,
)
from puzzles.services.bank import bank_load, puzzle_publish, theme_catalogue_sync
from puzzles.services.daily import daily_puzzles_choose, daily_puzzles_ensure
from puzzles.services.merge import puzzle_progress_merge
from puzzles.services.solving import (
    AttemptPosition,
    JudgeResult,
    attempt_position,
    puzzle_attempt_give_up,
    puzzle_attempt_hint,
    puzzle_attempt_move,
    puzzle_attempt_open,
    puzzle_attempt_score,
    puzzle_attempts_score_waiting,
    puzzle_judge,
    puzzle_line_hint,
    puzzle_tryable_check,
)

__all__ = [
    "AttemptPosition",
    "JudgeResult",
    "attempt_position",
    "ProvingQueueFullError",
    "proving_queue_next",
    "proving_queue_order",
    "bank_load",
    "daily_puzzles_choose",
    "daily_puzzles_ensure",
    "puzzle_attempt_give_up",
    "puzzle_attempt_hint",
    "puzzle_attempt_move",
    "puzzle_attempt_open",
    "puzzle_attempt_score",
    "puzzle_attempts_score_waiting",
    "puzzle_draft_create",
    "puzzle_draft_submit",
    "puzzle_draft_update",
    "puzzle_judge",
    "puzzle_line_hint",
    "puzzle_tryable_check",
    "puzzle_position_check",
    "puzzle_progress_merge",
    "puzzle_publish",
    "puzzle_verifications_requeue",
    "puzzle_verify",
    "theme_catalogue_sync",
]
