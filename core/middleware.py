"""Middleware of the whole site: request size limit, no NUL character in what reaches the
database, the Content-Security-Policy header, JSON for every error under /api/ (even Django's
debug pages under the local settings), the throttle of API reads per client address, and the
throttles of page views' unsafe requests."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.exceptions import error_body
from core.messages import render as render_message


def is_api_request(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


class RequestSizeLimitMiddleware:
    """Refuse a request whose body is larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (HTTP 413).

    Django checks that limit only when a view reads ``request.body`` or form data; the API's
    parsers read the body as a stream, so the limit is applied here, before anything reads it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            message = f"The request body is too large: {length} bytes (at most {limit})."
            if is_api_request(request):
                return JsonResponse(
                    error_body(message, {"limit": limit, "length": length}), status=413
                )
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def has_nul(text: str | bytes) -> bool:
    """Whether ``text``, or what its %-escapes stand for, holds a NUL character."""
    raw = text.encode("latin-1", "replace") if isinstance(text, str) else text
    return b"\x00" in raw or b"\x00" in unquote_to_bytes(raw)


class NulCharacterMiddleware:
    """Refuse a request whose path, query string or cookies hold a NUL character (HTTP 400).

    PostgreSQL cannot store or compare text holding NUL, so such a value reaching a query is
    a server error; no URL, parameter or cookie of the site has any use for one. (Form fields
    refuse NUL themselves, and the API's JSON parser refuses it in a body.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        parts = [meta.get("PATH_INFO", ""), meta.get("QUERY_STRING", "")]
        parts += [text for cookie in request.COOKIES.items() for text in cookie]
        if any(part and has_nul(part) for part in parts):
            message = render_message("input.nul_character")
            if is_api_request(request):
                body = error_body(message, {}, code="input.nul_character")
                return JsonResponse(body, status=400)
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def content_security_policy(directives: dict[str, list[str]]) -> str:
    return "; ".join(f"{name} {' '.join(values)}" for name, values in directives.items())


class ContentSecurityPolicyMiddleware:
    """Send ``CONTENT_SECURITY_POLICY`` (a dict of directives) with every response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = content_security_policy(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.header and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.header
        return response


def api_error_message(status: int, reason: str) -> str:
    messages = {
        400: _("Bad request."),
        403: _("Permission denied."),
        404: _("Not found."),
        500: _("Server error."),
    }
    return messages.get(status, reason)


class ApiJsonErrorMiddleware:
    """Under /api/, answer in the API's JSON error shape when an error response is not JSON.

    The API's own views and the site's error handlers already answer JSON there; what is left
    are Django's debug pages (``DEBUG`` on: a URL that matches nothing, an error no view
    caught), which would otherwise be HTML. The browsable API's error pages (DRF responses)
    are kept. Django still logs the error with its traceback.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from rest_framework.response import Response

        response = self.get_response(request)
        if (
            response.status_code < 400
            or not is_api_request(request)
            or isinstance(response, Response)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        extra = {"path": request.path} if response.status_code == 404 else {}
        answer = JsonResponse(
            error_body(api_error_message(response.status_code, response.reason_phrase), extra),
            status=response.status_code,
        )
        for header in ("Retry-After", "Allow"):
            if header in response:
                answer[header] = response[header]
        return answer


class ReadThrottleMiddleware:
    """Count every API read (GET, HEAD under /api/) in the scope ``reads`` per client address,
    whoever asks (visitor or account), and refuse one over the rate with 429 and
    ``Retry-After`` before anything else is done for it: no session or user is loaded, no view
    runs and no log line is written, so that a refused read costs next to nothing and a flood
    of polls cannot fill the web workers everyone else's requests wait for."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from rest_framework.exceptions import Throttled

        from core.throttles import READS, client_address, throttle_hit

        if request.method not in ("GET", "HEAD") or not is_api_request(request):
            return self.get_response(request)
        wait = throttle_hit(READS, f"addr-{client_address(request)}")
        if wait is None:
            return self.get_response(request)
        seconds = math.ceil(wait)
        detail = Throttled(wait=seconds).detail
        response = JsonResponse(error_body(str(detail), {}, code="throttled"), status=429)
        response["Retry-After"] = str(seconds)
        response._has_been_logged = True  # type: ignore[attr-defined]  # one line per refusal
        return response  # would make the log a second flood


class PageThrottleMiddleware:
    """Throttle the unsafe requests (POST, PUT, PATCH, DELETE) of page views whose URL name has
    a scope in ``THROTTLE_SCOPES_BY_URL_NAME``, per user or per client address, like
    ``core.throttles.ScopedThrottle`` does for API views (which it leaves to DRF)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Callable[..., Any], *args: Any
    ) -> HttpResponse | None:
        from core.throttles import SAFE_METHODS, request_key, throttle_hit

        if request.method in SAFE_METHODS or hasattr(view_func, "cls"):  # DRF throttles its own
            return None
        match = request.resolver_match
        scope = settings.THROTTLE_SCOPES_BY_URL_NAME.get(match.view_name) if match else None
        if scope is None:
            return None
        wait = throttle_hit(scope, request_key(request))
        if wait is None:
            return None
        seconds = math.ceil(wait)
        response = render(
            request,
            "accounts/throttled.html",
            {"minutes": max(1, math.ceil(seconds / 60))},
            status=429,
        )
        response["Retry-After"] = str(seconds)
        return response
