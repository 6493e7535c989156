"""The live-play pages, under /play/live/ (the games and the lobby talk over /ws/live/)."""

from django.urls import path

from live import views

app_name = "live"

urlpatterns = [
    path("", views.new, name="new"),
    path("lobby/", views.lobby, name="lobby"),
    path("<str:slug>/", views.game, name="game"),
    path("<str:slug>/accept/", views.accept, name="accept"),
]
