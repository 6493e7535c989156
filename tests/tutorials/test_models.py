"""The database keeps progress honest: one owner per row, one row per owner and step, stars
only with a completion."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from tutorials.models import Step, StepProgress

pytestmark = pytest.mark.usefixtures("lessons")


def refused(**fields: object) -> bool:
    try:
        with transaction.atomic():
            StepProgress.objects.create(**fields)
    except IntegrityError:
        return True
    return False


def test_progress_constraints() -> None:
    step = Step.objects.get(lesson__slug="xiangqi-horse", key="1")
    user = User.objects.create_user(username="lin", password="a-long-pass-phrase-42")
    now = timezone.now()
    assert refused(step=step)  # no owner
    assert refused(step=step, user=user, visitor_id="v1")  # two owners
    assert refused(step=step, user=user, stars=2)  # stars without a completion
    assert refused(step=step, user=user, stars=4, completed_at=now)  # more than three stars
    assert not refused(step=step, user=user, stars=3, completed_at=now)
    assert refused(step=step, user=user)  # a second row for the same owner and step
    assert not refused(step=step, visitor_id="v1")
    assert refused(step=step, visitor_id="v1")
