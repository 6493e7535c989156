"""The curriculum without the web: lesson files (``schema``), the referees that check every step
(``referees``: moves, points, setups), the explanations of wrong moves (``explain``), and the
search that proves each step can be done (``solve``, ``audit``).

Nothing here imports Django; the app's services call it.
"""

from tutorials.curriculum.explain import Explanation, explain_illegal, pattern_moves
from tutorials.curriculum.referees import (
    Dynamic,
    MoveState,
    PointState,
    SetupState,
    StepRefused,
    answer_point,
    check_setup,
    dynamic_board,
    play_moves,
    stars_for,
    stars_for_mistakes,
    start_state,
)
from tutorials.curriculum.schema import (
    COURSES,
    GOAL_KINDS,
    MOVE_GOALS,
    Goal,
    Lesson,
    LessonFileError,
    Step,
    lesson_files,
    read_lesson_file,
    read_lessons,
    step_from_data,
)
from tutorials.curriculum.texts import Text, language_key

__all__ = [
    "COURSES",
    "GOAL_KINDS",
    "MOVE_GOALS",
    "Dynamic",
    "Explanation",
    "Goal",
    "Lesson",
    "LessonFileError",
    "MoveState",
    "PointState",
    "SetupState",
    "Step",
    "StepRefused",
    "Text",
    "answer_point",
    "check_setup",
    "dynamic_board",
    "explain_illegal",
    "language_key",
    "lesson_files",
    "pattern_moves",
    "play_moves",
    "read_lesson_file",
    "read_lessons",
    "stars_for",
    "stars_for_mistakes",
    "start_state",
    "step_from_data",
]
