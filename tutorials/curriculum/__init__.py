"""The curriculum without the web: lesson files (``schema``), the referees that check every step
(``referees``: moves, points, setups), and the search that proves each step can be done
(``solve``, ``audit``). The words they say (``Text``, piece names, endings, why a move is
illegal) are the site's shared ``words`` package.

Nothing here imports Django; the app's services call it.
"""

from tutorials.curriculum.referees import (
    Dynamic,
    MoveState,
    PointState,
    SetupState,
    StepRefused,
    WriteState,
    answer_point,
    answer_written,
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

__all__ = [
    "COURSES",
    "GOAL_KINDS",
    "MOVE_GOALS",
    "Dynamic",
    "Goal",
    "Lesson",
    "LessonFileError",
    "MoveState",
    "PointState",
    "SetupState",
    "Step",
    "StepRefused",
    "WriteState",
    "answer_point",
    "answer_written",
    "check_setup",
    "dynamic_board",
    "lesson_files",
    "play_moves",
    "read_lesson_file",
    "read_lessons",
    "stars_for",
    "stars_for_mistakes",
    "start_state",
    "step_from_data",
]
