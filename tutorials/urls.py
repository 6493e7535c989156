"""Pages under /learn/ and the lessons' JSON API under /api/learn/."""

from django.urls import include, path

from tutorials import api, views

app_name = "tutorials"

api_patterns = [
    path("courses/", api.CourseListApi.as_view(), name="api-courses"),
    path("lessons/<slug:slug>/", api.LessonDetailApi.as_view(), name="api-lesson"),
    path(
        "lessons/<slug:slug>/steps/<str:key>/moves/",
        api.StepMovesApi.as_view(),
        name="api-step-moves",
    ),
    path(
        "lessons/<slug:slug>/steps/<str:key>/answer/",
        api.StepAnswerApi.as_view(),
        name="api-step-answer",
    ),
    path(
        "lessons/<slug:slug>/steps/<str:key>/setup/",
        api.StepSetupApi.as_view(),
        name="api-step-setup",
    ),
]

urlpatterns = [
    path("learn/", views.course_map_page, name="course-map"),
    path("learn/<slug:slug>/", views.lesson_page, name="lesson"),
    path("api/learn/", include(api_patterns)),
]
