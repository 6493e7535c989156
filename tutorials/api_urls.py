"""The lessons' JSON API, under /api/learn/."""

from django.urls import include, path

from tutorials import api

app_name = "tutorials-api"

# One endpoint per kind of answer to a step.
step_answers = [
    path("moves/", api.StepMovesApi.as_view(), name="step-moves"),
    path("answer/", api.StepAnswerApi.as_view(), name="step-answer"),
    path("setup/", api.StepSetupApi.as_view(), name="step-setup"),
    path("write/", api.StepWriteApi.as_view(), name="step-write"),
]

urlpatterns = [
    path("courses/", api.CourseListApi.as_view(), name="courses"),
    path("lessons/<slug:slug>/", api.LessonDetailApi.as_view(), name="lesson"),
    path("lessons/<slug:slug>/steps/<str:key>/", include(step_answers)),
]
