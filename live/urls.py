"""The live-play pages, under /play/live/ (the games themselves talk over /ws/live/)."""

from django.urls import path

from live import views

app_name = "live"

urlpatterns = [
    path("", views.new, name="new"),
    path("<str:slug>/", views.game, name="game"),
    path("<str:slug>/accept/", views.accept, name="accept"),
]
