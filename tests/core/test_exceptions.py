"""The domain error and the API exception handler (no database needed)."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions

from core.exceptions import ApplicationError, api_exception_handler


def test_application_error_becomes_a_json_400() -> None:
    response = api_exception_handler(ApplicationError("bad FEN", {"field": "fen"}), {})
    assert response is not None
    assert response.status_code == 400
    assert response.data == {
        "error": {"message": "bad FEN", "code": None, "params": {}, "extra": {"field": "fen"}}
    }


def test_application_error_extra_defaults_to_empty() -> None:
    response = api_exception_handler(ApplicationError("no"), {})
    assert response is not None and response.data["error"]["extra"] == {}


def test_validation_error_names_the_first_field() -> None:
    error = exceptions.ValidationError({"moves": {1: ["Too long."]}, "variant": ["Required."]})
    response = api_exception_handler(error, {})
    assert response is not None and response.status_code == 400
    # without the serializer the kind of field is unknown: DRF's sentence is the reason
    assert response.data["error"]["code"] == "input.invalid"
    assert response.data["error"]["params"] == {"field": "moves.1", "reason": "Too long"}
    assert set(response.data["error"]["extra"]["fields"]) == {"moves", "variant"}


def test_django_validation_error_is_a_400() -> None:
    response = api_exception_handler(DjangoValidationError("Nope."), {})
    assert response is not None and response.status_code == 400
    assert response.data["error"]["code"] == "input.invalid_request"
    assert response.data["error"]["params"] == {"reason": "Nope"}


def test_not_found_keeps_its_status() -> None:
    response = api_exception_handler(Http404("missing"), {})
    assert response is not None and response.status_code == 404
    assert response.data["error"]["message"]


def test_unexpected_errors_are_left_to_django() -> None:
    assert api_exception_handler(RuntimeError("boom"), {}) is None
