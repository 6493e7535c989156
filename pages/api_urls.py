"""The JSON views of the pages that read from several apps (under /api/)."""

from django.urls import path

from pages import live_games

app_name = "pages-api"

urlpatterns = [
    path(
        "live/<int:game_id>/analysis/",
        live_games.LiveGameAnalysisApi.as_view(),
        name="live-analysis",
    ),
]
