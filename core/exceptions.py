"""The one domain error, and the API exception handler that turns errors into JSON.

Services raise ``ApplicationError(message, extra)`` when a request cannot be carried out
(a bad FEN, an illegal move, ...). Every API error has one shape::

    {"error": {"message": "<what went wrong, for people>", "extra": {<details, for programs>}}}

``ApplicationError`` becomes HTTP 400; DRF's own errors keep their status (400 for invalid
input, with the field errors in ``extra["fields"]``; 403, 404, 405 ...); a body Django refuses
as suspicious (too many fields) is a 400, one too large a 413.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler


class ApplicationError(Exception):
    """A request that the domain refuses; ``message`` is for people, ``extra`` for programs."""

    def __init__(self, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


def error_body(message: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "extra": extra or {}}}


def _first_field_error(detail: Any, path: str = "") -> str | None:
    """The first message in a DRF error tree, prefixed by the field it belongs to."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            where = path if key == "non_field_errors" else (f"{path}.{key}" if path else str(key))
            found = _first_field_error(value, where)
            if found:
                return found
        return None
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            where = f"{path}[{index}]" if isinstance(value, dict | list) else path
            found = _first_field_error(value, where)
            if found:
                return found
        return None
    return f"{path}: {detail}" if path else str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.message, exc.extra), status=status.HTTP_400_BAD_REQUEST)

    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(str(exc), {}), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, SuspiciousOperation):  # too many form fields, a malformed upload ...
        exc = exceptions.ParseError(str(exc))
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None  # an unexpected error: let Django report it (HTTP 500)

    if isinstance(exc, exceptions.ValidationError):
        fields = (
            response.data
            if isinstance(response.data, dict)
            else {"non_field_errors": response.data}
        )
        message = _first_field_error(response.data) or "Invalid input."
        response.data = error_body(message, {"fields": fields})
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        response.data = error_body(str(detail or exc), {})
    return response
