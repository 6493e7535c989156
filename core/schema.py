"""OpenAPI schema hooks (drf-spectacular ``POSTPROCESSING_HOOKS``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension

ERROR_COMPONENT = "Error"
ERROR_SCHEMA = {
    "type": "object",
    "description": "Every error of the API has this shape.",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "message": {
                    "type": "string",
                    "description": "what went wrong, in the reader's language (Accept-Language)",
                },
                "code": {
                    "type": "string",
                    "nullable": True,
                    "description": "a stable code of the error (e.g. fen.two_generals)",
                },
                "params": {
                    "type": "object",
                    "additionalProperties": {},
                    "description": "the values the code's message is made from",
                },
                "extra": {"type": "object", "additionalProperties": {}},
            },
            "required": ["message", "code", "params", "extra"],
        }
    },
    "required": ["error"],
}
ERROR_DESCRIPTIONS = {
    "400": "The request is invalid: the message names the field and the problem.",
    "403": "Not allowed: not logged in, not the owner, or no CSRF token with a session.",
    "404": "No such object (or not one this user may see).",
    "413": "The request body is too large.",
    "429": "Too many requests of this kind: wait Retry-After seconds.",
    "503": "The database is unavailable for a moment: try again.",
}
METHODS = {"get", "put", "post", "patch", "delete"}


def document_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Add the error answers every operation can give, in the one error shape."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault(ERROR_COMPONENT, ERROR_SCHEMA)
    reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            statuses = ["400", "403", "404", "429", "503"]
            if "requestBody" in operation:
                statuses.append("413")
            for status in statuses:
                responses.setdefault(
                    status,
                    {
                        "description": ERROR_DESCRIPTIONS[status],
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result


class SessionScheme(OpenApiAuthenticationExtension):
    """The API's session authentication (``core.authentication``) in the schema."""

    target_class = "core.authentication.SessionAuthentication"
    name = "cookieAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "cookie", "name": settings.SESSION_COOKIE_NAME}
