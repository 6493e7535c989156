"""The site's URLs plus views under /api/ that fail the ways a bug would (for test_api_errors)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


def suspicious(request: HttpRequest) -> HttpResponse:
    from django.core.exceptions import SuspiciousOperation

    raise SuspiciousOperation("a suspicious request")


urlpatterns = [
    path("api/test-broken/", broken),
    path("api/test-suspicious/", suspicious),
    *site_urlpatterns,
]

handler400 = "core.views.bad_request"
handler403 = "core.views.permission_denied"
handler404 = "core.views.page_not_found"
handler500 = "core.views.server_error"
