"""A request's first invalid field, said as one of the site's codes (``input.*``) with params.

DRF refuses a missing or wrongly typed field with its own sentence ("This field is required.",
"A valid integer is required.") and a short code (``required``, ``invalid``). The API answers
every error as a code, its params and a message in the reader's language
(``core.messages``); this module turns DRF's first error into that: the field's path
(``moves.2``), and what the field declares (its limits, its choices) or the value sent.

The serializer that refused the request rides on DRF's error tree (``ReturnDict.serializer``),
so the field behind an error is found by its path; without it (a Django ``ValidationError``)
the kind of field is unknown and the DRF sentence is kept as the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import fields, serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.utils.serializer_helpers import ReturnDict, ReturnList

Path = tuple[str, ...]

# DRF's "wrong type" (its code ``invalid``) by the kind of field.
NOT_OF_KIND: tuple[tuple[type[fields.Field], str], ...] = (
    (fields.BooleanField, "input.not_boolean"),
    (fields.IntegerField, "input.not_integer"),
    (fields.FloatField, "input.not_number"),
    (fields.DecimalField, "input.not_number"),
    (fields.DateTimeField, "input.not_datetime"),
    (fields.DateField, "input.not_date"),
    (fields.UUIDField, "input.not_uuid"),
    (fields.JSONField, "input.not_json"),
)
LISTS = (fields.ListField, fields.MultipleChoiceField, serializers.ListSerializer)
OBJECTS = (fields.DictField, serializers.Serializer)


def first_error(detail: Any, path: Path = ()) -> tuple[Path, ErrorDetail] | None:
    """The first error in a DRF error tree, with the path of the field it belongs to."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            found = first_error(value, path if key == "non_field_errors" else (*path, str(key)))
            if found:
                return found
        return None
    if isinstance(detail, list | tuple):
        for index, value in enumerate(detail):
            where = (*path, str(index)) if isinstance(value, Mapping | list | tuple) else path
            found = first_error(value, where)
            if found:
                return found
        return None
    text = detail if isinstance(detail, ErrorDetail) else ErrorDetail(str(detail), "invalid")
    return path, text


def _field_at(root: fields.Field | None, path: Path) -> fields.Field | None:
    field = root
    for part in path:
        if isinstance(field, serializers.ListSerializer | fields.ListField | fields.DictField):
            field = field.child
        elif isinstance(field, serializers.Serializer):
            field = field.fields.get(part)
        else:
            return None
    return field


def _value_at(data: Any, path: Path) -> Any:
    for part in path:
        if isinstance(data, Mapping) and part in data:
            data = data[part]
        elif isinstance(data, list | tuple) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        else:
            return None
    return data


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, Mapping):
        return "object"
    return "null" if value is None else type(value).__name__


def coded(detail: Any) -> tuple[str, dict[str, object]] | None:
    """The site's code and params for the first error of ``detail``, or None when it holds
    none."""
    found = first_error(detail)
    if found is None:
        return None
    path, error = found
    serializer = detail.serializer if isinstance(detail, ReturnDict | ReturnList) else None
    field = _field_at(serializer, path) if serializer is not None else None
    data = getattr(serializer, "initial_data", None)
    value = _value_at(data, path)
    code = error.code or "invalid"
    reason = str(error).rstrip(" .。")  # the sentence that holds it gives the stop
    if not path:  # about the request as a whole
        if serializer is not None and code == "invalid" and not isinstance(data, Mapping):
            return "input.body_not_object", {"type": _type_name(data)}
        return "input.invalid_request", {"reason": reason}
    params: dict[str, object] = {"field": ".".join(path)}
    if code in ("required", "null"):
        return f"input.{code}", params
    if code in ("blank", "empty"):
        return "input.empty", params
    if field is None:
        return "input.invalid", {**params, "reason": reason}
    if code == "invalid_choice":
        choices = getattr(field, "choices", {}) or {}
        bad = _first_bad(value, choices) if isinstance(value, list | tuple) else value
        known = ", ".join(str(choice) for choice in choices)
        return "input.not_a_choice", {**params, "input": str(bad), "known": known}
    if code == "unknown_items" and hasattr(field, "unknown_items"):  # CommaSeparatedField
        unknown = field.unknown_items(field.items(str(value)))  # type: ignore[attr-defined]
        known = ", ".join(getattr(field, "choices", None) or ())
        return "input.not_choices", {**params, "input": ", ".join(unknown), "known": known}
    limit = getattr(field, code, None) if code.startswith(("max_", "min_")) else None
    if code == "max_items" and limit is not None:
        return "input.too_many", {**params, "limit": limit}
    if code in ("max_length", "min_length") and limit is not None:
        if isinstance(field, LISTS + OBJECTS):  # items of a list, entries of an object
            return ("input.too_many" if code == "max_length" else "input.too_few"), {
                **params,
                "limit": limit,
            }
        return ("input.too_long" if code == "max_length" else "input.too_short"), {
            **params,
            "limit": limit,
        }
    if code in ("max_value", "min_value") and limit is not None:
        word = "input.too_large" if code == "max_value" else "input.too_small"
        return word, {**params, "limit": limit}
    if code == "not_a_list" or (code == "invalid" and isinstance(field, LISTS)):
        return "input.not_list", params
    if code == "not_a_dict" or (code == "invalid" and isinstance(field, OBJECTS)):
        return "input.not_object", params
    if code in ("invalid", "max_string_length", "date", "datetime", "make_aware", "overflow"):
        for kind, word in NOT_OF_KIND:
            if isinstance(field, kind):
                return word, params
        # a CharField refuses only what is not text; its subclasses (a URL, a pattern) also
        # text of the wrong form, which their own sentence explains
        if isinstance(field, fields.CharField) and not isinstance(value, str):
            return "input.not_string", params
    return "input.invalid", {**params, "reason": reason}


def _first_bad(values: list[Any] | tuple[Any, ...], choices: Mapping[Any, Any]) -> Any:
    for item in values:
        if item not in choices and str(item) not in choices:
            return item
    return values[0] if values else ""
