"""Anonymous visitors.

Every visitor without an account gets a random id, kept in the session under ``visitor_id``.
Apps store an anonymous visitor's progress against that id; when the visitor signs up or logs
in, ``accounts.merge`` hands the progress over to the account.
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest

VISITOR_SESSION_KEY = "visitor_id"


def visitor_id_get(request: HttpRequest, *, create: bool = True) -> str | None:
    """The visitor id of this browser session, created on first use unless ``create`` is false."""
    visitor_id = request.session.get(VISITOR_SESSION_KEY)
    if visitor_id is None and create:
        visitor_id = uuid.uuid4().hex
        request.session[VISITOR_SESSION_KEY] = visitor_id
    return visitor_id
