"""The puzzles JSON API, under /api/puzzles/ (the views are in ``puzzles/api/``)."""

from django.urls import path

from puzzles.api import authoring, dashboard, solving

app_name = "puzzles-api"

urlpatterns = [
    path("", solving.PuzzleListApi.as_view(), name="list"),
    path("themes/", solving.ThemeListApi.as_view(), name="themes"),
    path("next/", solving.PuzzleNextApi.as_view(), name="next"),
    path("daily/", solving.DailyPuzzleApi.as_view(), name="daily"),
    path("dashboard/", dashboard.DashboardApi.as_view(), name="dashboard"),
    path("<int:puzzle_id>/", solving.PuzzleDetailApi.as_view(), name="detail"),
    path("<int:puzzle_id>/judge/", solving.PuzzleJudgeApi.as_view(), name="judge"),
    path("<int:puzzle_id>/hint/", solving.PuzzleHintApi.as_view(), name="hint"),
    path("<int:puzzle_id>/give-up/", solving.PuzzleGiveUpApi.as_view(), name="give-up"),
    path("<int:puzzle_id>/attempts/", solving.AttemptOpenApi.as_view(), name="attempt-open"),
    path("attempts/<int:attempt_id>/", solving.AttemptDetailApi.as_view(), name="attempt"),
    path("authored/", authoring.AuthoredListApi.as_view(), name="authored"),
    path("authored/check/", authoring.PositionCheckApi.as_view(), name="position-check"),
    path(
        "authored/<int:puzzle_id>/", authoring.AuthoredDetailApi.as_view(), name="authored-detail"
    ),
    path(
        "authored/<int:puzzle_id>/submit/",
        authoring.AuthoredSubmitApi.as_view(),
        name="authored-submit",
    ),
]
