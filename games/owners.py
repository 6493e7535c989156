"""Who owns a game: a logged-in user or an anonymous visitor (the session's visitor id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Q

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class Owner:
    user: User | None = None
    visitor_id: str = ""

    def __post_init__(self) -> None:
        if (self.user is None) == (not self.visitor_id):
            raise ValueError("a game belongs to a user or to an anonymous visitor")

    def fields(self) -> dict[str, Any]:
        if self.user is not None:
            return {"user": self.user, "visitor_id": ""}
        return {"user": None, "visitor_id": self.visitor_id}

    def q(self) -> Q:
        if self.user is not None:
            return Q(user_id=self.user.pk)
        return Q(user__isnull=True, visitor_id=self.visitor_id)


def owner_from_request(request: Any, *, create: bool = True) -> Owner | None:
    """The logged-in user, or this browser session's visitor (None if it has none yet and
    ``create`` is false)."""
    from accounts.visitors import visitor_id_get

    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Owner(user=user)
    django_request = getattr(request, "_request", request)
    visitor = visitor_id_get(django_request, create=create)
    return Owner(visitor_id=visitor) if visitor else None
