"""Session authentication for the API, and its guards against requests made by other sites.

DRF's own class checks CSRF only for logged-in users. Anonymous visitors keep their progress in
the session too (``accounts.visitors``), so an unsafe request (POST, PATCH ...) that carries the
session cookie must come with the CSRF token as well, logged in or not.

A request without a session cookie needs no token (programs calling the public API), but a
web page elsewhere could still make its visitors' browsers send one: a form posted to the API
starts a game from the visitor's address. So every unsafe API request, cookie or not:

- is refused (403, ``foreign_origin``) when its ``Origin`` names another site, or, over HTTPS
  without an ``Origin``, when its ``Referer`` does (``CSRF_TRUSTED_ORIGINS`` count as the
  site's own); a request with neither (a program) passes;
- carries JSON or no body at all: a form (even an empty one), a multipart upload or any other
  body that is not JSON (plain text: what a page elsewhere can send without the browser asking
  the site first) is refused with 415, whether or not the endpoint reads a body.

The site's own pages post JSON with the token (``core/static/core/api.js``); their forms (log
in, sign up ...) post to pages, which Django's CSRF middleware guards, ``Origin`` included.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.utils.http import is_same_domain
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
JSON_MEDIA_TYPE = "application/json"


class ForeignOrigin(exceptions.PermissionDenied):
    default_detail = _(
        "This request comes from another site (its Origin or Referer is not this site's) "
        "and is refused."
    )
    default_code = "foreign_origin"


class NotJson(exceptions.UnsupportedMediaType):
    default_detail = _("The API reads JSON only: send the body as application/json.")
    default_code = "unsupported_media_type"


def _site_origin(request: HttpRequest) -> str | None:
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'https' if request.is_secure() else 'http'}://{host}"


def origin_is_the_site(request: HttpRequest, origin: str) -> bool:
    """Whether ``origin`` (``scheme://host[:port]``) is the site's own or a trusted one."""
    if origin == _site_origin(request) or origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    parts = urlsplit(origin)
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        allowed = urlsplit(trusted)
        if (
            "*" in allowed.netloc
            and parts.scheme == allowed.scheme
            and is_same_domain(parts.netloc, allowed.netloc.replace("*", "", 1))
        ):
            return True
    return False


def cross_site(request: HttpRequest) -> bool:
    """Whether an unsafe request says it was sent by a page of another site."""
    origin = request.META.get("HTTP_ORIGIN")
    if origin is not None:
        return not origin_is_the_site(request, origin)  # "null" (a sandboxed page) too
    referer = request.META.get("HTTP_REFERER")
    if request.is_secure() and referer:
        parts = urlsplit(referer)
        return not origin_is_the_site(request, f"{parts.scheme}://{parts.netloc}")
    return False


FORM_MEDIA_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def is_json_or_empty(request: HttpRequest) -> bool:
    """Whether a request's body is JSON, or empty and not a form (some servers, such as
    wsgiref, say ``text/plain`` for a request that names no type)."""
    media_type = request.META.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
    if media_type == JSON_MEDIA_TYPE:
        return True
    empty = request.META.get("CONTENT_LENGTH") in (None, "", "0")
    return empty and media_type not in FORM_MEDIA_TYPES


class SessionAuthentication(authentication.SessionAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        django_request = request._request
        if request.method not in SAFE_METHODS:
            if cross_site(django_request):
                raise ForeignOrigin()
            if not is_json_or_empty(django_request):
                raise NotJson(django_request.META.get("CONTENT_TYPE", ""))
        user = getattr(django_request, "user", None)
        if user is not None and user.is_active:
            self.enforce_csrf(request)
            return (user, None)
        if settings.SESSION_COOKIE_NAME in django_request.COOKIES:
            self.enforce_csrf(request)  # passes safe methods (GET, HEAD, OPTIONS) untouched
        return None
