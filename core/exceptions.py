"""The one domain error, and the API exception handler that turns errors into JSON.

Services raise ``ApplicationError.coded(code, params, extra)`` (or ``.from_engine(error)``)
when a request cannot be carried out (a bad FEN, an illegal move, ...). Every API error has
one shape::

    {"error": {"message": "<what went wrong, for people, in their language>",
               "code": "<stable code, or null>", "params": {<the code's values>},
               "extra": {<details, for programs>}}}

``ApplicationError`` becomes HTTP 400, except ``IllegalTry``: a move (or a position) the rules
do not allow, tried by a player, is an answer and not a fault. It is HTTP 200 with
``"legal": false`` beside the same ``error`` object (the reason, explained)::

    {"legal": false, "error": {"message": ..., "code": ..., "params": ..., "extra": ...}}

DRF's own errors keep their status (400 for invalid input, said by its first field error as
an ``input.*`` code with the field's path in ``params["field"]`` (``core.field_errors``), and
every field's errors in ``extra["fields"]``; 403, 404, 405 ...); a body Django refuses as suspicious (too many fields) is a 400, one too
large a 413.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler

from core import field_errors
from core.messages import render
from engine import EngineError


class ApplicationError(Exception):
    """A request that the domain refuses; ``message`` is for people, ``extra`` for programs.

    With a ``code`` (an engine error code or one of ``core.messages.APP_EN``) and its
    ``params``, the message is said in the reader's language when it is shown
    (``core.messages.render``); ``message`` is then the English text, for logs.
    """

    def __init__(
        self,
        message: str,
        extra: dict[str, Any] | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}
        self.code = code
        self.params: dict[str, object] = dict(params or {})

    @classmethod
    def coded(
        cls,
        code: str,
        params: Mapping[str, object] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> Self:
        """An error said by its code; ``message`` is its English sentence."""
        return cls(render(code, params, "en"), extra, code=code, params=params)

    @classmethod
    def from_engine(
        cls, error: EngineError, extra: dict[str, Any] | None = None, **more: object
    ) -> Self:
        """An engine error, with ``more`` params (e.g. ``index`` of a move in a list)."""
        params = {**error.params, **more}
        return cls(render(error.code, params, "en"), extra, code=error.code, params=params)

    def localized(self) -> str:
        """The message in the active language."""
        if self.code is None:
            return self.message
        return render(self.code, self.params)


class IllegalTry(ApplicationError):
    """A move or position the rules do not allow, tried by a player (a learner trying moves, an
    author placing pieces): answered with HTTP 200 and ``"legal": false`` beside the reason,
    since trying is not a mistake of the request. A request that cannot be read (bad JSON, a
    malformed FEN, a move in no notation) stays an ``ApplicationError`` (HTTP 400)."""

    def as_fault(self) -> ApplicationError:
        """The same refusal as a fault of the request (HTTP 400): where the request was not a
        try but a save (a puzzle's draft with an illegal position)."""
        return ApplicationError(self.message, self.extra, code=self.code, params=self.params)


def error_body(
    message: str,
    extra: dict[str, Any] | None = None,
    *,
    code: str | None = None,
    params: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    return {
        "error": {
            "message": message,
            "code": code,
            "params": dict(params or {}),
            "extra": extra or {},
        }
    }


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        body = error_body(exc.localized(), exc.extra, code=exc.code, params=exc.params)
        if isinstance(exc, IllegalTry):
            return Response({"legal": False, **body}, status=status.HTTP_200_OK)
        return Response(body, status=status.HTTP_400_BAD_REQUEST)

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
        found = field_errors.coded(exc.detail)
        if found is None:
            response.data = error_body(str(_("Invalid input.")), {"fields": fields}, code="invalid")
        else:
            field_code, params = found
            response.data = error_body(
                render(field_code, params), {"fields": fields}, code=field_code, params=params
            )
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        code = getattr(detail, "code", None) or getattr(exc, "default_code", None)
        response.data = error_body(str(detail or exc), {}, code=code)
    return response
