"""The live-play pages, under /play/live/ (the games and the lobby talk over /ws/live/)."""

from django.urls import path

from live import views

app_name = "live"

urlpatterns = [
    path("", views.new, name="new"),
    path("lobby/", views.lobby, name="lobby"),
    path("blocks/<int:user_id>/unblock/", views.unblock, name="unblock"),
    path("<str:slug>/", views.game, name="game"),
    path("<str:slug>/accept/", views.accept, name="accept"),
    path("<str:slug>/block/", views.block, name="block"),
]
