"""The lessons' JSON API, under /api/learn/."""

from django.urls import path

from tutorials import api

app_name = "tutorials-api"

urlpatterns = [
    path("courses/", api.CourseListApi.as_view(), name="courses"),
    path("lessons/<slug:slug>/", api.LessonDetailApi.as_view(), name="lesson"),
    path(
        "lessons/<slug:slug>/steps/<str:key>/moves/",
        api.StepMovesApi.as_view(),
        name="step-moves",
    ),
    path(
        "lessons/<slug:slug>/steps/<str:key>/answer/",
        api.StepAnswerApi.as_view(),
        name="step-answer",
    ),
    path(
        "lessons/<slug:slug>/steps/<str:key>/setup/",
        api.StepSetupApi.as_view(),
        name="step-setup",
    ),
]
