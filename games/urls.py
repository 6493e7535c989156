"""The games app's pages (under /play/) and JSON API (under /api/games/)."""

from django.urls import include, path

from games import api, views

page_patterns = [
    path("", views.play, name="play"),
    path("games/", views.mine, name="mine"),
    path("<int:game_id>/", views.game, name="game"),
]

api_patterns = [
    path("", api.GameListCreateApi.as_view(), name="list"),
    path("setup/check/", api.SetupCheckApi.as_view(), name="setup-check"),
    path("<int:game_id>/", api.GameDetailApi.as_view(), name="detail"),
    path("<int:game_id>/moves/", api.GameMoveApi.as_view(), name="move"),
    path("<int:game_id>/setup/", api.GameSetupApi.as_view(), name="setup"),
    path("<int:game_id>/resign/", api.GameResignApi.as_view(), name="resign"),
    path("<int:game_id>/draw/", api.GameDrawApi.as_view(), name="draw"),
    path("<int:game_id>/claim/", api.GameClaimApi.as_view(), name="claim"),
    path("<int:game_id>/takeback/", api.GameTakebackApi.as_view(), name="takeback"),
]

urlpatterns = [
    path("play/", include((page_patterns, "games"))),
    path("api/games/", include((api_patterns, "games-api"))),
]
