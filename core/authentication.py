"""Session authentication for the API, with CSRF checked on every request that carries a session.

DRF's own class checks CSRF only for logged-in users. Anonymous visitors keep their progress in
the session too (``accounts.visitors``), so an unsafe request (POST, PATCH ...) that carries the
session cookie must come with the CSRF token as well, logged in or not. Requests without a
session cookie (programs calling the public API) change no one's data and need no token.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import authentication
from rest_framework.request import Request


class SessionAuthentication(authentication.SessionAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        user = getattr(request._request, "user", None)
        if user is not None and user.is_active:
            self.enforce_csrf(request)
            return (user, None)
        if settings.SESSION_COOKIE_NAME in request._request.COOKIES:
            self.enforce_csrf(request)  # passes safe methods (GET, HEAD, OPTIONS) untouched
        return None
