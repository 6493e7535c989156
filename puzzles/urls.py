"""The puzzles app's pages, under /puzzles/ (the JSON API is in ``puzzles/api_urls.py``)."""

from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.solve, name="solve"),
    path("daily/", views.daily, name="daily"),
    path("daily/<str:variant>/", views.daily_variant, name="daily-variant"),
    path("streak/", views.streak, name="streak"),
    path("storm/", views.storm, name="storm"),
    path("create/", views.editor, name="create"),
    path("create/<int:puzzle_id>/", views.editor, name="edit"),
    path("mine/", views.mine, name="mine"),
    path("p/<str:slug>/", views.share, name="share"),
]
