"""The site's URLs plus two views under /api/ that show what a request's database session
allows (for test_query_bounds): its time limits, and a query that runs too long."""

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def session_limits(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        statement = cursor.fetchone()[0]
        cursor.execute("SHOW lock_timeout")
        lock = cursor.fetchone()[0]
    return JsonResponse({"statement_timeout": statement, "lock_timeout": lock})


def sleep(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(%s)", [float(request.GET["seconds"])])
    return JsonResponse({"slept": True})


urlpatterns = [
    path("api/test-session-limits/", session_limits),
    path("api/test-sleep/", sleep),
    *site_urlpatterns,
]

handler500 = "core.views.server_error"
