"""The whole API against its own OpenAPI schema, with generated requests (schemathesis).

Every operation of ``/api/schema/`` is called with requests generated from the schema, valid
and invalid ones, as an anonymous visitor and as a logged-in user (with the CSRF token, as
the site's pages send it). No answer may be a server error, and every answer must match the
schema: a documented status code, the documented content type, and a body of the documented
shape (errors included: ``{"error": {"message", "code", "params", "extra"}}``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
EXAMPLES = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def api_schema(db: None) -> Iterator[Any]:
    # Requests run in this thread, inside the test's transaction: like Django's test client,
    # keep the connection open between requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
        schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
        yield schema
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def logged_in(django_user_model: Any) -> dict[str, Any]:
    """A logged-in session and its CSRF token, as cookies and header for generated requests."""
    client = Client()
    client.force_login(django_user_model.objects.create_user(username="fuzzer", password="x"))
    client.get("/")  # the page sets the CSRF cookie
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    # The test client connected the signals again after its requests: keep the connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    return {"cookies": cookies, "headers": {"X-CSRFToken": cookies["csrftoken"]}}


@schema.parametrize()
@EXAMPLES
def test_api_as_an_anonymous_visitor(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)


@schema.parametrize()
@EXAMPLES
def test_api_as_a_logged_in_user(case: Any, logged_in: dict[str, Any]) -> None:
    # The session is sent with every request, so a request generated without it is still
    # authenticated: leave the check of such requests to the anonymous run.
    response = case.call(cookies=logged_in["cookies"], headers=logged_in["headers"])
    case.validate_response(response, checks=[c for c in CHECKS if c is not negative_data_rejection])
