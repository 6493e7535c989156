"""The referees of the lesson steps, one module per way a step is answered
(``Goal.answered_with``):

* ``moves``: the step is played with moves (every goal of ``MOVE_GOALS``), replayed from its
  start on every request;
* ``points``: a question answered by clicking a point, and the boards computed when it is shown;
* ``setups``: a secret setup (Missile Xiangqi), every broken placement rule explained;
* ``writing``: a move written in Chinese notation, read by the engine and judged by the move.

``refusal`` holds what they share (``StepRefused``, raised for an answer that cannot be played or
read) and ``stars`` what a completed step earns. A new goal that is played with moves touches
``moves`` only (and the lesson schema); a new way of answering is a new module here.
"""

from tutorials.curriculum.referees.moves import (
    MoveRun,
    MoveState,
    Ply,
    play_moves,
    start_state,
    success_text,
)
from tutorials.curriculum.referees.points import (
    Dynamic,
    PointState,
    answer_point,
    dynamic_board,
    point_answers,
)
from tutorials.curriculum.referees.refusal import StepRefused
from tutorials.curriculum.referees.setups import SetupState, SetupViolation, check_setup
from tutorials.curriculum.referees.stars import stars_for, stars_for_mistakes
from tutorials.curriculum.referees.writing import WriteState, answer_written

__all__ = [
    "Dynamic",
    "MoveRun",
    "MoveState",
    "Ply",
    "PointState",
    "SetupState",
    "SetupViolation",
    "StepRefused",
    "WriteState",
    "answer_point",
    "answer_written",
    "check_setup",
    "dynamic_board",
    "play_moves",
    "point_answers",
    "stars_for",
    "stars_for_mistakes",
    "start_state",
    "success_text",
]
