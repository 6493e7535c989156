"""The puzzles JSON API, one module per concern: ``solving`` (themes, lists, one puzzle, the
next and the daily puzzles, playing an attempt), ``dashboard`` and ``authoring``; the shared
serializers are in ``serializers``. ``puzzles/api_urls.py`` routes them, importing this
package only. One view per operation: each parses, calls one service or selector, and
serialises."""

from puzzles.api.authoring import (
    AuthoredDetailApi,
    AuthoredListApi,
    AuthoredSubmitApi,
    PositionCheckApi,
)
from puzzles.api.dashboard import DashboardApi
from puzzles.api.solving import (
    AttemptDetailApi,
    AttemptOpenApi,
    DailyPuzzleApi,
    PuzzleDetailApi,
    PuzzleGiveUpApi,
    PuzzleHintApi,
    PuzzleJudgeApi,
    PuzzleListApi,
    PuzzleNextApi,
    ThemeListApi,
)

__all__ = [
    "AttemptDetailApi",
    "AttemptOpenApi",
    "AuthoredDetailApi",
    "AuthoredListApi",
    "AuthoredSubmitApi",
    "DailyPuzzleApi",
    "DashboardApi",
    "PositionCheckApi",
    "PuzzleDetailApi",
    "PuzzleGiveUpApi",
    "PuzzleHintApi",
    "PuzzleJudgeApi",
    "PuzzleListApi",
    "PuzzleNextApi",
    "ThemeListApi",
]
