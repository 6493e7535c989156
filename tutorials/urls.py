"""The lessons' pages, under /learn/ (the JSON API is in ``tutorials/api_urls.py``)."""

from django.urls import path

from tutorials import views

app_name = "tutorials"

urlpatterns = [
    path("", views.course_map_page, name="course-map"),
    path("<slug:slug>/", views.lesson_page, name="lesson"),
]
