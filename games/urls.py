"""The games app's pages, under /play/ (the JSON API is in ``games/api_urls.py``)."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.play, name="play"),
    path("<int:game_id>/", views.game, name="game"),
    path("<int:game_id>/learn/", views.learn, name="learn"),
    path("g/<str:slug>/", views.shared, name="shared"),
    path("masters/", views.masters, name="masters"),
    path("masters/<int:game_id>/", views.master_game, name="master-game"),
]
