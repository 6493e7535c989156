from django.urls import path

from pages import live_games, views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/profile/", views.profile, name="profile"),
    # Under /puzzles/ with the trainer, but shown here: it names each pattern's lesson too.
    path("puzzles/patterns/", views.patterns, name="patterns"),
    # Under /puzzles/ with the trainer, but shown here: it shows the live ratings too.
    path("puzzles/dashboard/", views.dashboard, name="dashboard"),
    # Under /play/, but shown here: the games against the computer and the live games together.
    path("play/games/", live_games.my_games, name="my-games"),
    # A live game after its end, for its two players (the live app keeps it, the games app
    # replays and analyses it, the puzzles app finds the wins each player missed).
    path("play/live/<int:game_id>/replay/", live_games.live_replay, name="live-replay"),
    path("play/live/<int:game_id>/learn/", live_games.live_learn, name="live-learn"),
]
