"""Model pieces shared by the apps: timestamps and the variants as database choices."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class Variant(models.TextChoices):
    XIANGQI = "xiangqi", _("Xiangqi")
    FEIDAN = "feidan", _("Missile Xiangqi")
    XINBAN = "xinban", _("New-version Xiangqi")
