"""Who is solving: a logged-in user or an anonymous visitor (by the session's visitor id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Q

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class Player:
    user: User | None = None
    visitor_id: str | None = None

    def __post_init__(self) -> None:
        if (self.user is None) == (not self.visitor_id):
            raise ValueError("a player is either a user or an anonymous visitor")

    @property
    def is_user(self) -> bool:
        return self.user is not None

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    def owner_fields(self) -> dict[str, Any]:
        """The model fields that name this player as an owner."""
        if self.user is not None:
            return {"user": self.user, "visitor_id": ""}
        return {"user": None, "visitor_id": self.visitor_id}

    def owner_q(self, prefix: str = "") -> Q:
        if self.user is not None:
            return Q(**{f"{prefix}user_id": self.user.pk})
        return Q(**{f"{prefix}user__isnull": True, f"{prefix}visitor_id": self.visitor_id})


def player_from_request(request: Any, *, create: bool = True) -> Player | None:
    """The logged-in user, or the anonymous visitor of this browser session (``None`` when the
    session has no visitor id yet and ``create`` is false)."""
    from accounts.visitors import visitor_id_get

    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Player(user=user)
    django_request = getattr(request, "_request", request)  # a DRF Request wraps Django's
    visitor = visitor_id_get(django_request, create=create)
    return Player(visitor_id=visitor) if visitor else None
