"""Model pieces shared by the apps: timestamps, the variants as database choices and the
slugs of share links."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

SLUG_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read aloud
SLUG_LENGTH = 8


def new_share_slug() -> str:
    """A share link's random part: 8 of 31 letters, about 8.5 * 10**11 links."""
    return "".join(secrets.choice(SLUG_ALPHABET) for _ in range(SLUG_LENGTH))


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class Variant(models.TextChoices):
    XIANGQI = "xiangqi", _("Xiangqi")
    FEIDAN = "feidan", _("Missile Xiangqi")
    XINBAN = "xinban", _("New-version Xiangqi")
