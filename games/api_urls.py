"""The games JSON API, under /api/games/."""

from django.urls import include, path

from games import api

app_name = "games-api"

# What can be done to one game.
game = [
    path("", api.GameDetailApi.as_view(), name="detail"),
    path("moves/", api.GameMoveApi.as_view(), name="move"),
    path("setup/", api.GameSetupApi.as_view(), name="setup"),
    path("resign/", api.GameResignApi.as_view(), name="resign"),
    path("draw/", api.GameDrawApi.as_view(), name="draw"),
    path("draw/answer/", api.GameDrawAnswerApi.as_view(), name="draw-answer"),
    path("claim/", api.GameClaimApi.as_view(), name="claim"),
    path("takeback/", api.GameTakebackApi.as_view(), name="takeback"),
    path("share/", api.GameShareApi.as_view(), name="share"),
    path("analysis/", api.GameAnalysisApi.as_view(), name="game-analysis"),
]

urlpatterns = [
    path("", api.GameListCreateApi.as_view(), name="list"),
    path("setup/check/", api.SetupCheckApi.as_view(), name="setup-check"),
    path("analysis/", api.EngineAnalysisCreateApi.as_view(), name="analysis"),
    path(
        "analysis/<int:analysis_id>/",
        api.EngineAnalysisDetailApi.as_view(),
        name="analysis-detail",
    ),
    path("<int:game_id>/", include(game)),
]
