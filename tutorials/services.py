"""Writes: loading the lesson files, judging attempts and recording progress, and handing a
visitor's progress over to an account.

Every attempt is judged here, on the server, by replaying it from the step's start position
with the engine; the client only ever sends what the learner did (moves, a point, a setup).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.owners import Owner, owner_rows_of_visitor, owner_transfer
from core.exceptions import ApplicationError, IllegalTry
from core.messages import render
from tutorials import curriculum
from tutorials.curriculum.schema import LESSONS_DIR
from tutorials.models import Lesson, StepProgress
from tutorials.models import Step as StepRow
from tutorials.selectors import step_rules
from words.explain import Explanation
from words.texts import Text

if TYPE_CHECKING:
    from accounts.models import User

# How far back a "this moment" board (today's plum-blossom setup) may have been shown.
MOMENT_WINDOW = timedelta(hours=24)
MOMENT_SKEW = timedelta(minutes=5)


# ---------------------------------------------------------------------------------------------
# Loading


@dataclass(frozen=True)
class LoadReport:
    added: int
    updated: int
    unchanged: int
    retired: int
    steps: int

    def summary(self) -> str:
        return (
            f"{self.added + self.updated + self.unchanged} lessons, {self.steps} steps "
            f"({self.added} added, {self.updated} updated, {self.unchanged} unchanged, "
            f"{self.retired} retired)"
        )


@transaction.atomic
def lessons_load(*, root: Path = LESSONS_DIR) -> LoadReport:
    """Put every lesson file under ``root`` into the database. Idempotent: a lesson whose
    content hash has not changed is left alone; a lesson whose file is gone is retired
    (hidden, progress kept). Raises LessonFileError, naming the file, for a broken file."""
    lessons = curriculum.read_lessons(root)
    updated = unchanged = 0
    steps = 0
    rows = {row.slug: row for row in Lesson.objects.all()}  # one query, not one a lesson
    new: list[tuple[Lesson, curriculum.Lesson]] = []
    for lesson in lessons:
        steps += len(lesson.steps)
        row = rows.get(lesson.slug)
        if row is not None and row.content_hash == lesson.content_hash and row.is_active:
            unchanged += 1
            continue
        fields = {
            "course": lesson.course,
            "order": lesson.order,
            "title_zh": lesson.title.zh,
            "title_en": lesson.title.en,
            "summary_zh": lesson.summary.zh,
            "summary_en": lesson.summary.en,
            "rulings": [r.as_dict() for r in lesson.rulings],
            "coordinates": lesson.coordinates,
            "source": lesson.source,
            "content_hash": lesson.content_hash,
            "is_active": True,
        }
        if row is None:
            new.append((Lesson(slug=lesson.slug, **fields), lesson))
            continue
        for name, value in fields.items():
            setattr(row, name, value)
        row.save()
        updated += 1
        keep = []
        for step, raw in zip(lesson.steps, lesson.raw_steps, strict=True):
            StepRow.objects.update_or_create(
                lesson=row,
                key=step.key,
                defaults={
                    "index": step.index,
                    "goal": step.goal.kind,
                    "par": step.par,
                    "data": dict(raw),
                },
            )
            keep.append(step.key)
        row.steps.exclude(key__in=keep).delete()
    # New lessons and all their steps are written in two statements (an empty database takes
    # every lesson at once: the site's first start, and every test that loads the course).
    Lesson.objects.bulk_create([row for row, _ in new])
    StepRow.objects.bulk_create(
        StepRow(
            lesson=row,
            key=step.key,
            index=step.index,
            goal=step.goal.kind,
            par=step.par,
            data=dict(raw),
        )
        for row, lesson in new
        for step, raw in zip(lesson.steps, lesson.raw_steps, strict=True)
    )
    added = len(new)
    slugs = [lesson.slug for lesson in lessons]
    retired = Lesson.objects.filter(is_active=True).exclude(slug__in=slugs).update(is_active=False)
    return LoadReport(added, updated, unchanged, retired, steps)


# ---------------------------------------------------------------------------------------------
# Attempts


@dataclass(frozen=True)
class Recorded:
    """What an attempt did to the learner's record."""

    stars: int | None  # stars earned by this attempt (None: not completed)
    best_stars: int  # the learner's best on this step so far (0: never completed)
    best_moves: int | None
    mistakes: int


def _refused(error: curriculum.StepRefused) -> ApplicationError:
    text = error.explanation.text
    extra: dict[str, object] = {"code": error.explanation.code, "zh": text.zh, "en": text.en}
    if error.index is not None:
        extra["index"] = error.index
    if error.move is not None:
        extra["move"] = error.move
    refusal = IllegalTry if error.illegal else ApplicationError
    return refusal.coded("lesson.refused", {"explanation": text.as_dict()}, extra)


def _progress_row(learner: Owner, step: StepRow) -> StepProgress:
    """The learner's row for the step, locked for this transaction (created if missing)."""
    row, _ = StepProgress.objects.select_for_update().get_or_create(step=step, **learner.fields())
    return row


def _record_completion(learner: Owner, step: StepRow, *, stars: int, moves: int | None) -> Recorded:
    row = _progress_row(learner, step)
    now = timezone.now()
    row.stars = max(row.stars, stars)
    if moves is not None:
        row.best_moves = moves if row.best_moves is None else min(row.best_moves, moves)
    row.completions += 1
    row.completed_at = row.completed_at or now
    row.save()
    return Recorded(stars, row.stars, row.best_moves, row.mistakes)


def _record_mistake(learner: Owner, step: StepRow) -> Recorded:
    row = _progress_row(learner, step)
    if not row.completed:
        row.mistakes += 1
    row.save()
    return Recorded(None, row.stars, row.best_moves, row.mistakes)


def _record_answer(learner: Owner, step: StepRow, *, right: bool) -> Recorded:
    """A question or a setup answered: when right, the stars for the mistakes made before (3 at
    the first try); when wrong, one more mistake (until the step is done)."""
    if right:
        before = _peek(learner, step)
        stars = curriculum.stars_for_mistakes(before.mistakes)
        return _record_completion(learner, step, stars=stars, moves=None)
    return _record_mistake(learner, step)


def _peek(learner: Owner, step: StepRow) -> Recorded:
    row = StepProgress.objects.filter(step=step, **learner.fields()).first()
    if row is None:
        return Recorded(None, 0, None, 0)
    return Recorded(None, row.stars, row.best_moves, row.mistakes)


@dataclass(frozen=True)
class MoveAttempt:
    state: curriculum.MoveState
    recorded: Recorded


@transaction.atomic
def step_moves_play(*, learner: Owner, step: StepRow, moves: Sequence[str]) -> MoveAttempt:
    """Replay the learner's moves on a move step; record the stars when the goal is met.

    Raises IllegalTry (with the reason in both languages) for a move the rules do not allow,
    ApplicationError for one that cannot be read or comes after the step has ended.
    """
    rules = step_rules(step)
    if rules.goal.answered_with != "moves":
        raise ApplicationError.coded(
            "lesson.not_moves", extra={"code": "wrong_kind", "goal": rules.goal.kind}
        )
    try:
        # the computer's replies in an endgame are kept in the shared cache
        state = curriculum.play_moves(rules, list(moves), memory=cache)
    except curriculum.StepRefused as error:
        raise _refused(error) from None
    if state.status == "complete":
        recorded = _record_completion(
            learner,
            step,
            stars=curriculum.stars_for(state.moves_used, rules.par),
            moves=state.moves_used,
        )
    else:
        recorded = _peek(learner, step)
    return MoveAttempt(state, recorded)


@dataclass(frozen=True)
class PointAttempt:
    state: curriculum.PointState
    recorded: Recorded


def _moment_check(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    if timezone.is_naive(moment):
        raise ApplicationError.coded("lesson.moment_naive", extra={"field": "moment"})
    now = timezone.now()
    if moment > now + MOMENT_SKEW or moment < now - MOMENT_WINDOW:
        raise ApplicationError.coded(
            "lesson.moment_expired", extra={"field": "moment", "code": "moment_expired"}
        )
    return moment


@transaction.atomic
def step_point_answer(
    *, learner: Owner, step: StepRow, point: str, moment: datetime | None = None
) -> PointAttempt:
    """Judge a clicked point; a wrong one counts as a mistake until the step is done."""
    rules = step_rules(step)
    try:
        state = curriculum.answer_point(rules, point, _moment_check(moment))
    except curriculum.StepRefused as error:
        raise _refused(error) from None
    recorded = _record_answer(learner, step, right=state.correct)
    return PointAttempt(state, recorded)


@dataclass(frozen=True)
class SetupAttempt:
    state: curriculum.SetupState
    recorded: Recorded


@transaction.atomic
def step_setup_submit(
    *, learner: Owner, step: StepRow, placement: Mapping[str, str]
) -> SetupAttempt:
    """Judge a secret-setup half; every broken rule is explained."""
    rules = step_rules(step)
    try:
        state = curriculum.check_setup(rules, placement)
    except curriculum.StepRefused as error:
        raise _refused(error) from None
    recorded = _record_answer(learner, step, right=state.valid)
    return SetupAttempt(state, recorded)


def _say(code: str, params: Mapping[str, object]) -> Text:
    """An engine error in the site's words, in both languages."""
    return Text(render(code, params, "zh"), render(code, params, "en"))


@dataclass(frozen=True)
class WriteAttempt:
    state: curriculum.WriteState
    recorded: Recorded


@transaction.atomic
def step_write_answer(*, learner: Owner, step: StepRow, text: str) -> WriteAttempt:
    """Judge a move written in Chinese notation; a wrong one counts as a mistake until the step
    is done (an empty text is refused, not counted)."""
    rules = step_rules(step)
    try:
        state = curriculum.answer_written(rules, text, _say)
    except curriculum.StepRefused as error:
        raise _refused(error) from None
    recorded = _record_answer(learner, step, right=state.correct)
    return WriteAttempt(state, recorded)


# ---------------------------------------------------------------------------------------------
# Visitors who sign up


def lesson_progress_merge(visitor_id: str, user: User) -> None:
    """Move an anonymous visitor's lesson progress to ``user`` (registered with accounts.merge).

    Where the account already has a record for a step, the better of the two is kept: more
    stars, fewer moves, the earlier completion. Idempotent: the visitor's rows are gone after
    the first call.
    """
    account = Owner(user=user)
    moved = []
    for row in owner_rows_of_visitor(StepProgress.objects.select_for_update(), visitor_id):
        mine = (
            StepProgress.objects.select_for_update()
            .filter(account.q(), step_id=row.step_id)
            .first()
        )
        if mine is None:
            moved.append(row.pk)
            continue
        mine.stars = max(mine.stars, row.stars)
        moves = [m for m in (mine.best_moves, row.best_moves) if m is not None]
        mine.best_moves = min(moves) if moves else None
        mine.mistakes = min(mine.mistakes, row.mistakes) if mine.completed else row.mistakes
        mine.completions = F("completions") + row.completions
        times = [t for t in (mine.completed_at, row.completed_at) if t is not None]
        mine.completed_at = min(times) if times else None
        if mine.stars == 0:
            mine.completed_at = None
        mine.save()
        row.delete()
    owner_transfer(StepProgress.objects.filter(pk__in=moved), user)


__all__ = [
    "Explanation",
    "LoadReport",
    "MoveAttempt",
    "PointAttempt",
    "Recorded",
    "SetupAttempt",
    "WriteAttempt",
    "lesson_progress_merge",
    "lessons_load",
    "step_moves_play",
    "step_point_answer",
    "step_setup_submit",
    "step_write_answer",
]
