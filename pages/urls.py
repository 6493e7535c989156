from django.urls import path

from pages import views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/profile/", views.profile, name="profile"),
    # Under /puzzles/ with the trainer, but shown here: it names each pattern's lesson too.
    path("puzzles/patterns/", views.patterns, name="patterns"),
    # Under /puzzles/ with the trainer, but shown here: it shows the live ratings too.
    path("puzzles/dashboard/", views.dashboard, name="dashboard"),
]
