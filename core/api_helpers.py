"""The shape every JSON API view of the site shares: read the request through a serializer
(a fault is a 400 from the one exception handler, ``core.exceptions``), find what it is about
or answer 404, call one service, answer the result."""

from __future__ import annotations

from typing import Any, TypeVar

from django.http import Http404
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
