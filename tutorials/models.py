"""Lessons, their steps, and each learner's progress.

Lessons are written as files (``tutorials/lessons/<course>/*.toml``) and loaded into these tables
by ``manage.py load_lessons`` (also run by ``manage.py load_content``). A step keeps its table
from the file in ``data``; the referee rebuilds the step from it on every attempt.

Progress belongs to exactly one owner: a user, or an anonymous visitor (``visitor_id`` from the
session). When a visitor signs up or logs in, the visitor's rows move to the account.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.owners import OwnerScopedModel, owner_check, owner_unique, owner_user_field
from core.models import TimeStampedModel
from core.models import Variant as Course


class Lesson(TimeStampedModel):
    slug = models.SlugField(max_length=80, unique=True)
    course = models.CharField(max_length=16, choices=Course.choices)
    order = models.PositiveIntegerField()
    title_zh = models.CharField(max_length=120)
    title_en = models.CharField(max_length=120)
    summary_zh = models.TextField()
    summary_en = models.TextField()
    rulings = models.JSONField(default=list, blank=True)  # [{"zh": …, "en": …}]
    # The texts name points in ICCS: the board shows ICCS coordinates unless the user hid them.
    coordinates = models.BooleanField(default=False)
    source = models.CharField(max_length=200, help_text=_("the lesson file it was loaded from"))
    content_hash = models.CharField(max_length=64)
    # A lesson whose file was removed is hidden, not deleted, so that progress is kept.
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["course", "order", "slug"]
        indexes = [models.Index(fields=["course", "order"])]

    def __str__(self) -> str:
        return f"{self.course}/{self.slug}"


class Step(models.Model):
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="steps")
    key = models.CharField(max_length=40)
    index = models.PositiveSmallIntegerField()
    goal = models.CharField(max_length=20)
    par = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField(help_text=_("the step's table from the lesson file"))

    class Meta:
        ordering = ["lesson", "index"]
        constraints = [
            models.UniqueConstraint(fields=["lesson", "key"], name="tutorials_step_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.lesson.slug} step {self.index + 1}"


class StepProgress(OwnerScopedModel):
    """One owner's record on one step: the best result, and mistakes made before completing it.

    ``stars`` is 0 until the step is completed (questions and setups count their wrong answers
    in ``mistakes`` first), then 1 to 3 for the best completion.
    """

    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="progress")
    user = owner_user_field("lesson_progress")
    stars = models.PositiveSmallIntegerField(default=0)
    best_moves = models.PositiveSmallIntegerField(null=True, blank=True)
    mistakes = models.PositiveSmallIntegerField(default=0)
    completions = models.PositiveIntegerField(default=0)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            owner_check("tutorials_progress_one_owner"),
            *owner_unique(
                "tutorials_progress_{owner}_step_unique",
                "step",
                visitor_when={"visitor_id__isnull": False},
            ),
            models.CheckConstraint(
                condition=Q(stars__lte=3), name="tutorials_progress_stars_at_most_3"
            ),
            models.CheckConstraint(
                condition=Q(stars=0, completed_at__isnull=True)
                | Q(stars__gte=1, completed_at__isnull=False),
                name="tutorials_progress_completed_has_stars",
            ),
        ]

    @property
    def completed(self) -> bool:
        return self.stars > 0
