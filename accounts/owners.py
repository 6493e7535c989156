"""Who owns a row: a logged-in user or an anonymous visitor (the session's visitor id).

Every app that keeps something for "whoever is at the keyboard" (puzzle attempts and replays,
lesson progress, games) stores it the same way, with exactly one of two columns set:

- ``user``: the account's foreign key, NULL for a visitor's row;
- ``visitor_id``: the session's visitor id (``accounts.visitors``), NULL for a user's row.

A new owner-scoped model subclasses ``OwnerScopedModel`` (the pair of columns and the
timestamps; it declares ``user = owner_user_field(related_name)`` again to name the reverse
accessor), adds ``owner_check(name)`` to its constraints and ``*owner_unique(...)`` for "one row
per owner and …", reads and writes
through an ``Owner`` (``owner.q()`` / ``owner_filter(owner)`` to filter, ``owner.fields()`` to
create, ``owner.owns(row)`` to check one row), takes the owner of a request from
``owner_for_request(request)``, and hands a visitor's rows to an account in a merge function
registered with ``accounts.merge`` (``owner_rows_of_visitor`` / ``owner_transfer`` do the
plain part of it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models import Q, QuerySet

from core.models import TimeStampedModel

if TYPE_CHECKING:
    from accounts.models import User

VISITOR_ID_MAX_LENGTH = 64


def owner_user_field(related_name: str) -> models.ForeignKey[Any, Any]:
    """The ``user`` column of an owner-scoped model (NULL for a visitor's row)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name=related_name,
    )


def owner_visitor_field() -> models.CharField[Any, Any]:
    """The ``visitor_id`` column of an owner-scoped model (NULL for a user's row)."""
    return models.CharField(max_length=VISITOR_ID_MAX_LENGTH, null=True, blank=True, db_index=True)


def owner_check(name: str) -> models.CheckConstraint:
    """The constraint that a row has exactly one owner: a user or a visitor."""
    return models.CheckConstraint(
        condition=(Q(user__isnull=False) & Q(visitor_id__isnull=True))
        | (Q(user__isnull=True) & Q(visitor_id__isnull=False)),
        name=name,
    )


def owner_unique(
    name: str,
    *fields: str,
    when: Mapping[str, object] | None = None,
    visitor_when: Mapping[str, object] | None = None,
) -> tuple[models.UniqueConstraint, models.UniqueConstraint]:
    """One row per owner and ``fields`` (where ``when`` holds): the constraint on the users'
    rows and the one on the visitors' rows, named ``name`` with ``{owner}`` read as ``user``,
    then ``visitor``. A visitor's row is told by ``visitor_when`` (default: no user)."""
    extra = dict(when or {})
    visitor = dict(visitor_when or {"user__isnull": True})
    return (
        models.UniqueConstraint(
            fields=["user", *fields],
            condition=Q(user__isnull=False, **extra),
            name=name.format(owner="user"),
        ),
        models.UniqueConstraint(
            fields=["visitor_id", *fields],
            condition=Q(**visitor, **extra),
            name=name.format(owner="visitor"),
        ),
    )


def owner_indexes(*fields: str) -> list[models.Index]:
    """Two indexes, ``user`` then ``fields`` and ``visitor_id`` then ``fields``: to list one
    owner's rows (a user's or a visitor's) in the order of ``fields``."""
    return [models.Index(fields=[owner, *fields]) for owner in ("user", "visitor_id")]


class OwnerScopedModel(TimeStampedModel):
    """A row kept for a user or for an anonymous visitor (exactly one; ``owner_check``).
    A model that lists the newest first extends ``OwnerScopedModel.Meta``."""

    user = owner_user_field("%(app_label)s_%(class)s_set")
    visitor_id = owner_visitor_field()

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]


@dataclass(frozen=True)
class Owner:
    """A user or an anonymous visitor, exactly one of the two."""

    user: User | None = None
    visitor_id: str | None = None

    def __post_init__(self) -> None:
        if (self.user is None) == (not self.visitor_id):
            raise ValueError("an owner is either a user or an anonymous visitor")

    @property
    def is_user(self) -> bool:
        return self.user is not None

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    def fields(self) -> dict[str, Any]:
        """The owner columns of a row of this owner: for ``create()``, or as filter keywords."""
        if self.user is not None:
            return {"user": self.user, "visitor_id": None}
        return {"user": None, "visitor_id": self.visitor_id}

    def q(self, prefix: str = "") -> Q:
        """Rows of this owner; ``prefix`` reaches the owner columns across a relation
        (``"attempts__"``)."""
        if self.user is not None:
            return Q(**{f"{prefix}user_id": self.user.pk})
        return Q(**{f"{prefix}user__isnull": True, f"{prefix}visitor_id": self.visitor_id})

    def owns(self, row: Any) -> bool:
        """Whether the owner-scoped ``row`` (already loaded) is this owner's."""
        if self.user is not None:
            return bool(row.user_id == self.user.pk)
        return row.user_id is None and row.visitor_id == self.visitor_id


def owner_filter(owner: Owner | None, prefix: str = "") -> Q:
    """Rows of ``owner``; nothing at all for no owner (a visitor who has no id yet)."""
    if owner is None:
        return Q(pk__in=[])
    return owner.q(prefix)


def owner_columns(row: Any) -> dict[str, Any]:
    """The owner columns of an owner-scoped row, to give another row the same owner."""
    return {"user_id": row.user_id, "visitor_id": row.visitor_id}


def owner_of_row_q(row: Any, prefix: str = "") -> Q:
    """Rows with the same owner as the owner-scoped ``row`` (no query to load its user)."""
    if row.user_id is not None:
        return Q(**{f"{prefix}user_id": row.user_id})
    return Q(**{f"{prefix}user__isnull": True, f"{prefix}visitor_id": row.visitor_id})


def owner_for_request(request: Any, *, create: bool = True) -> Owner | None:
    """The logged-in user, or the anonymous visitor of this browser session (``None`` when the
    session has no visitor id yet and ``create`` is false). Takes a Django or a DRF request."""
    from accounts.visitors import visitor_id_get

    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Owner(user=user)
    django_request = getattr(request, "_request", request)  # a DRF Request wraps Django's
    visitor = visitor_id_get(django_request, create=create)
    return Owner(visitor_id=visitor) if visitor else None


def owner_rows_of_visitor(queryset: QuerySet[Any], visitor_id: str) -> QuerySet[Any]:
    """The rows of ``queryset`` that belong to the visitor ``visitor_id`` (none for no id)."""
    if not visitor_id:
        return queryset.none()
    return queryset.filter(Owner(visitor_id=visitor_id).q())


def owner_transfer(queryset: QuerySet[Any], user: User) -> int:
    """Give the rows of ``queryset`` to ``user`` (in one UPDATE); returns how many moved."""
    return queryset.update(**Owner(user=user).fields())
