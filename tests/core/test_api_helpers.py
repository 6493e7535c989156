"""The shape the API views share (core.api_helpers): a body or query read through a
serializer raises DRF's 400 on a fault and answers the cleaned data; nothing found is a 404."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from core.api_helpers import CommaSeparatedField, found_or_404, request_body, request_query


class Body(serializers.Serializer):
    n = serializers.IntegerField(min_value=1)
    word = serializers.CharField(default="x")


def _request(path: str, data: object | None = None) -> Request:
    factory = APIRequestFactory()
    if data is None:
        return Request(factory.get(path))
    return Request(factory.post(path, data, format="json"), parsers=[JSONParser()])


def test_a_body_is_checked_and_cleaned() -> None:
    assert request_body(Body, _request("/", {"n": "3"})) == {"n": 3, "word": "x"}
    with pytest.raises(ValidationError) as raised:
        request_body(Body, _request("/", {"n": 0}))
    assert "n" in raised.value.detail


def test_a_query_is_checked_and_cleaned() -> None:
    assert request_query(Body, _request("/?n=2&word=y")) == {"n": 2, "word": "y"}
    with pytest.raises(ValidationError):
        request_query(Body, _request("/?n=zero"))


class Query(serializers.Serializer):
    n = serializers.IntegerField(required=False)


def test_an_empty_query_parameter_is_absent_or_refused() -> None:
    assert request_query(Query, _request("/?n=")) == {}  # as DRF reads a form
    with pytest.raises(ValidationError) as raised:
        request_query(Query, _request("/?n="), blank_is_absent=False)
    assert "n" in raised.value.detail


class Lists(serializers.Serializer):
    names = CommaSeparatedField(max_items=3, default=list)
    ids = CommaSeparatedField(digits=True, max_items=5, item_length=3, default=list)
    known = CommaSeparatedField(choices=["mate", "fork"], max_items=2, default=list)


def test_a_comma_separated_list_keeps_its_stripped_items_once() -> None:
    query = _request("/?names=mate, ,fork,mate,&ids=3, x,²,12,")
    assert request_query(Lists, query) == {"names": ["mate", "fork"], "ids": [3, 12], "known": []}
    assert request_query(Lists, _request("/")) == {"names": [], "ids": [], "known": []}


@pytest.mark.parametrize(
    ("query", "field", "code"),
    [
        ("/?names=a,b,c,d", "names", "max_items"),  # four different items
        ("/?ids=1,2,3,4,5,6", "ids", "max_items"),
        ("/?ids=" + "1" * 21, "ids", "max_length"),  # longer than 5 items of 3 digits could be
        ("/?known=mate,pin,fork,skewer", "known", "max_items"),
        ("/?known=pin,mate", "known", "unknown_items"),
    ],
)
def test_a_comma_separated_list_is_bounded(query: str, field: str, code: str) -> None:
    with pytest.raises(ValidationError) as raised:
        request_query(Lists, _request(query))
    assert raised.value.detail[field][0].code == code  # type: ignore[index]
    assert request_query(Lists, _request("/?names=a,b,c,a,b&known=fork,mate,fork"))["known"] == [
        "fork",
        "mate",
    ]


def test_nothing_found_is_a_404() -> None:
    assert found_or_404(0) == 0  # a falsy thing is still something
    with pytest.raises(Http404):
        found_or_404(None)
