"""The games JSON API, under /api/games/."""

from django.urls import path

from games import api

app_name = "games-api"

urlpatterns = [
    path("", api.GameListCreateApi.as_view(), name="list"),
    path("setup/check/", api.SetupCheckApi.as_view(), name="setup-check"),
    path("<int:game_id>/", api.GameDetailApi.as_view(), name="detail"),
    path("<int:game_id>/moves/", api.GameMoveApi.as_view(), name="move"),
    path("<int:game_id>/setup/", api.GameSetupApi.as_view(), name="setup"),
    path("<int:game_id>/resign/", api.GameResignApi.as_view(), name="resign"),
    path("<int:game_id>/draw/", api.GameDrawApi.as_view(), name="draw"),
    path("<int:game_id>/draw/answer/", api.GameDrawAnswerApi.as_view(), name="draw-answer"),
    path("<int:game_id>/claim/", api.GameClaimApi.as_view(), name="claim"),
    path("<int:game_id>/takeback/", api.GameTakebackApi.as_view(), name="takeback"),
]
