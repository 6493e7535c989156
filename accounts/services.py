"""Writes of the accounts app: creating users and logging them in."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest

from accounts.merge import visitor_merge_run
from accounts.models import User
from accounts.visitors import VISITOR_SESSION_KEY

AUTH_BACKEND = "django.contrib.auth.backends.ModelBackend"


def user_login(*, request: HttpRequest, user: User) -> list[str]:
    """Log ``user`` in and hand the anonymous visitor's progress over to the account.

    Returns the names of the merges that ran (empty when the session had no visitor id).
    """
    visitor_id = request.session.get(VISITOR_SESSION_KEY)
    login(request, user, backend=AUTH_BACKEND)  # keeps the session data, under a new key
    if not visitor_id:
        return []
    ran = visitor_merge_run(visitor_id=visitor_id, user=user)
    # The progress now belongs to the account; a later anonymous visit starts afresh.
    request.session.pop(VISITOR_SESSION_KEY, None)
    return ran


def user_create(*, username: str, password: str, email: str = "") -> User:
    return User.objects.create_user(username=username, password=password, email=email)
