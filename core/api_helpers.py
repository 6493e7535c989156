"""The shape every JSON API view of the site shares: read the request through a serializer
(a fault is a 400 from the one exception handler, ``core.exceptions``), find what it is about
or answer 404, call one service, answer the result."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.views import APIView

T = TypeVar("T")
V = TypeVar("V", bound=type[APIView])
NO_BODY: Any = object()  # an operation on GET: its request is not documented


class ErrorSerializer(serializers.Serializer):
    """The shape of every API error."""

    error = inline_serializer(
        "ErrorBody",
        fields={"message": serializers.CharField(), "extra": serializers.DictField()},
    )


class IllegalTrySerializer(ErrorSerializer):
    """A move or position the rules do not allow (``core.exceptions.IllegalTry``): an answer
    (HTTP 200), the reason in ``error``."""

    legal = serializers.BooleanField(help_text="always false: the rules do not allow it")


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def operation(
    operation_id: str,
    answer: Any,
    *,
    status: int = 200,
    also: dict[int, Any] | None = None,
    request: Any = NO_BODY,
    errors: Sequence[int] = (400, 404),
    illegal: bool = False,
    **schema: Any,
) -> Any:
    """The schema of one API operation: the ``answer`` it gives with ``status`` (and ``also``
    with other statuses), and the error statuses it may answer instead, each in the one shape
    of ``ErrorSerializer``. With ``illegal``, a try the rules refuse is answered with
    ``status`` too, in the shape of ``IllegalTrySerializer``."""
    if request is not NO_BODY:
        schema["request"] = request
    if illegal:
        answer = PolymorphicProxySerializer(
            component_name=f"{_camel(operation_id)}Answer",
            serializers=[answer, IllegalTrySerializer],
            resource_type_field_name=None,
        )
    responses = {status: answer, **(also or {}), **{code: ErrorSerializer for code in errors}}
    return extend_schema(operation_id=operation_id, responses=responses, **schema)


def post_operation(
    operation_id: str, *, errors: Sequence[int] = (400, 404), illegal: bool = False
) -> Callable[[V], V]:
    """The schema of a view whose ``post`` is shared by a family of views: the request is the
    view's ``InputSerializer`` (no body when it is ``None``), the answer its
    ``OutputSerializer`` (or, with ``illegal``, the rules' refusal: see ``operation``)."""

    def document(view: V) -> V:
        schema = operation(
            operation_id,
            view.OutputSerializer,  # type: ignore[attr-defined]
            request=view.InputSerializer,  # type: ignore[attr-defined]
            errors=errors,
            illegal=illegal,
        )
        return extend_schema_view(post=schema)(view)

    return document


def request_body(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request's body, checked and cleaned by ``serializer``; raises the 400 otherwise."""
    body = serializer(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def request_query(
    serializer: type[serializers.Serializer], request: Request, *, blank_is_absent: bool = True
) -> dict[str, Any]:
    """The request's query parameters, checked and cleaned by ``serializer``. An empty one
    (``?date=``) counts as not given, as DRF reads a form; with ``blank_is_absent=False`` it is
    the value ``""``, which the field then checks (an empty number is refused)."""
    query = request.query_params if blank_is_absent else request.query_params.dict()
    params = serializer(data=query)
    params.is_valid(raise_exception=True)
    return dict(params.validated_data)


class CommaSeparatedField(serializers.CharField):
    """A query parameter that lists values separated by commas (``?themes=mate,fork``): the
    stripped items, empty ones and repeats left out, in their order; with ``digits`` only the
    whole numbers, as ints (anything else in the list is passed over); with ``choices`` only
    those (any other is refused, all of them named: ``input.not_choices``).

    Every list is bounded: more than ``max_items`` different items are refused
    (``input.too_many``) before any is looked at, and so is a text longer than
    ``max_items`` items of ``item_length`` characters could be (``input.too_long``), so that
    neither the work of reading it nor the query it feeds grows without limit."""

    default_error_messages = {
        "max_items": _("Ensure this field has no more than {max_items} elements."),
        "unknown_items": _("Unknown values: {unknown}."),
    }

    def __init__(
        self,
        *,
        max_items: int,
        digits: bool = False,
        choices: Iterable[str] | None = None,
        item_length: int = 40,
        **kwargs: Any,
    ) -> None:
        self.digits = digits
        self.choices = tuple(choices) if choices is not None else None
        self.max_items = max_items
        # The longest text read, checked on the text below; CharField's own check of it (on
        # the list returned, never that long) only puts it in the schema.
        super().__init__(max_length=max_items * (item_length + 1), **kwargs)

    def unknown_items(self, items: Sequence[str]) -> list[str]:
        """The items that are not among ``choices`` (none without choices)."""
        known = set(self.choices or ())
        return [item for item in items if self.choices is not None and item not in known]

    def items(self, text: str) -> list[str]:
        stripped = (item.strip() for item in text.split(","))
        return list(dict.fromkeys(item for item in stripped if item))

    # Read as a string (the schema says so), cleaned into a list.
    def to_internal_value(self, data: Any) -> list[Any]:  # type: ignore[override]
        text = str(super().to_internal_value(data))
        if self.max_length is not None and len(text) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        items = self.items(text)
        if len(items) > self.max_items:
            self.fail("max_items", max_items=self.max_items)
        unknown = self.unknown_items(items)
        if unknown:
            self.fail("unknown_items", unknown=", ".join(unknown))
        if self.digits:
            return [int(item) for item in items if item.isdecimal() and len(item) <= 18]
        return items


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
