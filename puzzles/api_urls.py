"""The puzzles JSON API, under /api/puzzles/ (the views are in ``puzzles/api/``)."""

from django.urls import path

from puzzles import api

app_name = "puzzles-api"

urlpatterns = [
    path("", api.PuzzleListApi.as_view(), name="list"),
    path("themes/", api.ThemeListApi.as_view(), name="themes"),
    path("next/", api.PuzzleNextApi.as_view(), name="next"),
    path("daily/", api.DailyPuzzleApi.as_view(), name="daily"),
    path("dashboard/", api.DashboardApi.as_view(), name="dashboard"),
    path("<int:puzzle_id>/", api.PuzzleDetailApi.as_view(), name="detail"),
    path("<int:puzzle_id>/judge/", api.PuzzleJudgeApi.as_view(), name="judge"),
    path("<int:puzzle_id>/hint/", api.PuzzleHintApi.as_view(), name="hint"),
    path("<int:puzzle_id>/give-up/", api.PuzzleGiveUpApi.as_view(), name="give-up"),
    path("<int:puzzle_id>/attempts/", api.AttemptOpenApi.as_view(), name="attempt-open"),
    path("attempts/<int:attempt_id>/", api.AttemptDetailApi.as_view(), name="attempt"),
    path("authored/", api.AuthoredListApi.as_view(), name="authored"),
    path("authored/check/", api.PositionCheckApi.as_view(), name="position-check"),
    path("authored/<int:puzzle_id>/", api.AuthoredDetailApi.as_view(), name="authored-detail"),
    path(
        "authored/<int:puzzle_id>/submit/", api.AuthoredSubmitApi.as_view(), name="authored-submit"
    ),
]
