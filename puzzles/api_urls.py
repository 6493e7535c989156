"""The puzzles JSON API, under /api/puzzles/ (the views are in ``puzzles/api/``)."""

from django.urls import include, path

from puzzles.api import authoring, dashboard, missed, runs, solving

app_name = "puzzles-api"

# One published puzzle and the attempts at it.
puzzle = [
    path("", solving.PuzzleDetailApi.as_view(), name="detail"),
    path("judge/", solving.PuzzleJudgeApi.as_view(), name="judge"),
    path("hint/", solving.PuzzleHintApi.as_view(), name="hint"),
    path("give-up/", solving.PuzzleGiveUpApi.as_view(), name="give-up"),
    path("attempts/", solving.AttemptOpenApi.as_view(), name="attempt-open"),
]

# The puzzles I made.
authored = [
    path("", authoring.AuthoredListApi.as_view(), name="authored"),
    path("check/", authoring.PositionCheckApi.as_view(), name="position-check"),
    path("<int:puzzle_id>/", authoring.AuthoredDetailApi.as_view(), name="authored-detail"),
    path("<int:puzzle_id>/submit/", authoring.AuthoredSubmitApi.as_view(), name="authored-submit"),
]

# Puzzle Streak and Puzzle Storm.
run_urls = [
    path("", runs.RunsApi.as_view(), name="runs"),
    path("leaderboard/", runs.LeaderboardApi.as_view(), name="run-leaderboard"),
    path("<int:run_id>/", runs.RunDetailApi.as_view(), name="run"),
    path("<int:run_id>/move/", runs.RunMoveApi.as_view(), name="run-move"),
    path("<int:run_id>/skip/", runs.RunSkipApi.as_view(), name="run-skip"),
    path("<int:run_id>/stop/", runs.RunStopApi.as_view(), name="run-stop"),
]

urlpatterns = [
    path("", solving.PuzzleListApi.as_view(), name="list"),
    path("themes/", solving.ThemeListApi.as_view(), name="themes"),
    path("next/", solving.PuzzleNextApi.as_view(), name="next"),
    path("daily/", solving.DailyPuzzleApi.as_view(), name="daily"),
    path("dashboard/", dashboard.DashboardApi.as_view(), name="dashboard"),
    path("missed/", missed.MissedListApi.as_view(), name="missed"),
    path("<int:puzzle_id>/", include(puzzle)),
    path("attempts/<int:attempt_id>/", solving.AttemptDetailApi.as_view(), name="attempt"),
    path("authored/", include(authored)),
    path("runs/", include(run_urls)),
]
