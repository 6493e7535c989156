"""The shape every JSON API view of the site shares: read the request through a serializer
(a fault is a 400 from the one exception handler, ``core.exceptions``), find what it is about
or answer 404, call one service, answer the result."""

from __future__ import annotations

from typing import Any, TypeVar

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.request import Request

T = TypeVar("T")


def request_body(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request's body, checked and cleaned by ``serializer``; raises the 400 otherwise."""
    body = serializer(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def request_query(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request's query parameters, checked and cleaned by ``serializer``."""
    params = serializer(data=request.query_params)
    params.is_valid(raise_exception=True)
    return dict(params.validated_data)


def found_or_404(found: T | None) -> T:
    """``found``, or a 404 when there is nothing (someone else's is answered the same way)."""
    if found is None:
        raise Http404
    return found


class SizedDictField(serializers.DictField):
    """A JSON object of at most ``max_length`` entries (a placement: point -> piece). Too many
    is refused as ``input.too_many`` with the limit, like a list's, before any entry is read."""

    default_error_messages = {
        "max_length": _("Ensure this field has no more than {max_length} elements.")
    }

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        self.max_length = max_length
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[Any, Any]:
        if isinstance(data, dict) and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)
