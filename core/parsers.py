"""The API's JSON parser: DRF's, refusing JSON nested too deep to be a real request, and any
NUL character in a string or a key (PostgreSQL cannot store or compare text holding one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from core.messages import render


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0), without recursion."""
    return _walk(value)[0]


def _walk(value: Any) -> tuple[int, bool]:
    """How deeply ``value`` nests, and whether a string or key in it holds a NUL character."""
    deepest = 0
    nul = False
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            nul = nul or any("\x00" in str(key) for key in item)
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            nul = nul or (isinstance(item, str) and "\x00" in item)
            continue
        deepest = max(deepest, depth + 1)
        stack.extend((child, depth + 1) for child in children)
    return deepest, nul


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        limit = settings.API_MAX_JSON_DEPTH
        depth, nul = _walk(data)
        if depth > limit:
            raise ParseError(f"JSON parse error - nested deeper than {limit} levels.")
        if nul:
            raise ParseError(render("input.nul_character"), code="input.nul_character")
        return data
