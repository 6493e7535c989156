"""Reads: courses, lessons, steps, and a learner's progress."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import get_language

from accounts.owners import Owner, owner_for_request
from core.exceptions import ApplicationError
from engine import find_variant
from tutorials.curriculum import COURSES, Step, step_from_data
from tutorials.curriculum.schema import is_tactic
from tutorials.models import Lesson, StepProgress
from tutorials.models import Step as StepRow
from words.texts import Text, language_key


def learner_get(request: HttpRequest, *, create: bool = False) -> Owner | None:
    """The learner making the request; an anonymous visitor gets an id only when ``create``."""
    return owner_for_request(request, create=create)


def text(data: dict[str, str] | Text | None, language: str | None = None) -> str:
    """One side of a bilingual text, in the given (default: current) language."""
    if data is None:
        return ""
    key = language_key(language or get_language())
    if isinstance(data, Text):
        return data.get(key)
    return data.get(key) or data.get("en", "")


def course_title(course: str, language: str | None = None) -> str:
    variant = find_variant(course)
    return (
        variant.title_zh if language_key(language or get_language()) == "zh" else variant.title_en
    )


def lesson_list(*, course: str | None = None) -> QuerySet[Lesson]:
    lessons = Lesson.objects.filter(is_active=True).prefetch_related("steps")
    if course is not None:
        lessons = lessons.filter(course=course)
    return lessons.order_by("order", "slug")


def lesson_get(*, slug: str) -> Lesson:
    lesson = Lesson.objects.filter(slug=slug, is_active=True).prefetch_related("steps").first()
    if lesson is None:
        raise ApplicationError.coded("lesson.unknown", {"lesson": slug}, {"lesson": slug})
    return lesson


def step_get(*, lesson: Lesson, key: str) -> StepRow:
    for row in lesson.steps.all():
        if row.key == key:
            return row
    where = {"lesson": lesson.slug, "step": key}
    raise ApplicationError.coded("lesson.unknown_step", where, where)


def lesson_step_get(*, slug: str, key: str) -> StepRow:
    """One step of an active lesson, with its lesson, in one query (an answer to a step needs
    no other step): ``lesson.unknown`` or ``lesson.unknown_step`` as ``lesson_get`` and
    ``step_get`` say them."""
    row = (
        StepRow.objects.select_related("lesson")
        .filter(lesson__slug=slug, lesson__is_active=True, key=key)
        .first()
    )
    if row is None:
        lesson_get(slug=slug)  # no such lesson: lesson.unknown
        where = {"lesson": slug, "step": key}
        raise ApplicationError.coded("lesson.unknown_step", where, where)
    return row


@dataclass(frozen=True)
class LessonLink:
    url: str
    title: str


def pattern_lessons() -> dict[str, LessonLink]:
    """The lesson of each kill pattern that has one (its steps name the pattern to practise,
    ``practise_theme``), by the pattern's code, titled in the reader's language. A pattern's own
    lesson (a slug with ``-pattern-``) comes before a tactics lesson that practises the same
    theme (the double check is both)."""
    rows = sorted(
        StepRow.objects.filter(lesson__is_active=True, data__has_key="practise_theme")
        .order_by("lesson__course", "lesson__order")
        .values_list(
            "data__practise_theme", "lesson__slug", "lesson__title_zh", "lesson__title_en"
        ),
        key=lambda row: "-pattern-" not in row[1],
    )
    chinese = language_key(get_language()) == "zh"
    found: dict[str, LessonLink] = {}
    for code, slug, title_zh, title_en in rows:
        if isinstance(code, str) and code not in found:
            url = reverse("tutorials:lesson", kwargs={"slug": slug})
            found[code] = LessonLink(url=url, title=title_zh if chinese else title_en)
    return found


def step_rules(row: StepRow) -> Step:
    """The referee's view of a stored step."""
    return step_from_data(
        row.data,
        index=row.index,
        course=row.lesson.course,
        where=f"{row.lesson.slug} step {row.key}",
    )


def progress_map(*, learner: Owner | None, steps: Iterable[StepRow]) -> dict[int, StepProgress]:
    """The learner's progress rows by step id (empty for a learner without any)."""
    if learner is None:
        return {}
    ids = [s.pk for s in steps]
    rows = StepProgress.objects.filter(step_id__in=ids, **learner.fields())
    return {row.step_id: row for row in rows}


@dataclass
class LessonCard:
    lesson: Lesson
    steps: int
    done: int
    stars: int
    url: str
    next_step: str | None = None

    @property
    def title(self) -> str:
        return text({"zh": self.lesson.title_zh, "en": self.lesson.title_en})

    @property
    def summary(self) -> str:
        return text({"zh": self.lesson.summary_zh, "en": self.lesson.summary_en})

    @property
    def complete(self) -> bool:
        return self.done == self.steps

    @property
    def started(self) -> bool:
        return self.done > 0

    @property
    def max_stars(self) -> int:
        return 3 * self.steps


@dataclass
class CourseCard:
    course: str
    title: str
    lessons: list[LessonCard] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return sum(card.steps for card in self.lessons)

    @property
    def done(self) -> int:
        return sum(card.done for card in self.lessons)

    @property
    def stars(self) -> int:
        return sum(card.stars for card in self.lessons)


def lessons_version() -> str:
    """A value that changes whenever the lessons change: an active lesson added, retired or
    reloaded (the loader saves a lesson whose file changed, steps included), or a step added or
    removed. One small query, for keys of cached pages."""
    lessons, steps = Lesson._meta.db_table, StepRow._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT count(*) FROM {lessons} WHERE is_active),"  # noqa: S608 - table names
            f" (SELECT max(updated_at) FROM {lessons}),"
            f" (SELECT count(*) FROM {steps}), (SELECT max(id) FROM {steps})",
            [],
        )
        row = cursor.fetchone()
    return ":".join(str(value) for value in row)


def course_map(*, learner: Owner | None) -> list[CourseCard]:
    """Every course, its lessons in order, and how far the learner has come in each."""
    # The map needs each step's id, key and place only: its table (``data``) is not read.
    outline = StepRow.objects.only("id", "lesson_id", "key", "index")
    lessons = list(
        Lesson.objects.filter(is_active=True)
        .defer("rulings", "source", "content_hash")
        .prefetch_related(Prefetch("steps", queryset=outline))
    )
    steps = [s for lesson in lessons for s in lesson.steps.all()]
    progress = progress_map(learner=learner, steps=steps)
    cards = {course: CourseCard(course, course_title(course)) for course in COURSES}
    for lesson in sorted(lessons, key=lambda item: (item.order, item.slug)):
        rows = list(lesson.steps.all())
        done = [r for r in rows if r.pk in progress and progress[r.pk].completed]
        remaining = [r for r in rows if r not in done]
        cards[lesson.course].lessons.append(
            LessonCard(
                lesson=lesson,
                steps=len(rows),
                done=len(done),
                stars=sum(progress[r.pk].stars for r in done),
                url=reverse("tutorials:lesson", args=[lesson.slug]),
                next_step=remaining[0].key if remaining else None,
            )
        )
    return [cards[course] for course in COURSES]


@dataclass(frozen=True)
class ContinueLink:
    lesson_slug: str
    lesson_title: str
    course: str
    course_title: str
    step_key: str | None
    step_number: int
    steps: int
    url: str


def continue_lesson(*, learner: Owner | None) -> ContinueLink | None:
    """Where the learner left off: the first unfinished step of the lesson they worked on
    last, else the next unfinished lesson of that course, else of the other courses. None for
    a learner with no progress, or one who has finished everything."""
    if learner is None:
        return None
    last = (
        StepProgress.objects.filter(step__lesson__is_active=True, **learner.fields())
        .select_related("step__lesson")
        .order_by("-updated_at", "-pk")
        .first()
    )
    if last is None:
        return None
    courses = course_map(learner=learner)
    course = last.step.lesson.course
    courses.sort(key=lambda card: card.course != course)  # that course first, then the others
    for card_course in courses:
        cards = card_course.lessons
        current = next((i for i, c in enumerate(cards) if c.lesson.pk == last.step.lesson_id), 0)
        for card in cards[current:] + cards[:current]:
            if card.complete:
                continue
            rows = list(card.lesson.steps.all())
            number = next((r.index + 1 for r in rows if r.key == card.next_step), 1)
            url = reverse("tutorials:lesson", args=[card.lesson.slug])
            return ContinueLink(
                lesson_slug=card.lesson.slug,
                lesson_title=card.title,
                course=card_course.course,
                course_title=card_course.title,
                step_key=card.next_step,
                step_number=number,
                steps=card.steps,
                url=f"{url}?step={card.next_step}" if card.next_step else url,
            )
    return None


def continue_lesson_for(request: HttpRequest) -> ContinueLink | None:
    """ "Continue where I left off" for the home page and the course map (None: nothing to
    continue). Reads only; it never creates a visitor id."""
    return continue_lesson(learner=learner_get(request, create=False))


# ---------------------------------------------------------------------------------------------
# What the lesson player shows


def _bilingual(value: Text | None) -> str | None:
    return value.get(get_language()) if value is not None else None


def step_view(row: StepRow, *, progress: StepProgress | None, moment: Any) -> dict[str, Any]:
    """Everything the player needs to show a step, in the current language, without its
    answers (accepted moves, scripted replies, right points, example setups stay here)."""
    from tutorials.curriculum import dynamic_board, start_state

    rules = step_rules(row)
    goal = rules.goal
    view: dict[str, Any] = {
        "key": rules.key,
        "index": rules.index,
        "number": rules.index + 1,
        "goal": goal.kind,
        "instruction": _bilingual(rules.instruction),
        "hint": _bilingual(rules.hint),
        "ruling": _bilingual(rules.ruling),
        "variant": rules.variant,
        "fen": rules.fen,
        "learner": rules.learner,
        "orientation": rules.orientation,
        "par": rules.par if goal.answered_with == "moves" else None,
        "within": goal.within or None,  # endgame: the moves the learner has
        "targets": list(goal.targets),
        "marks": list(rules.marks),
        "arrows": list(rules.arrows),
        "hints": rules.hints,
        "opponent": rules.opponent,
        "caption": None,
        "moment": None,
        "method": goal.method,
        "placement": dict(goal.placement) if goal.placement else None,
        "black_half": dict(goal.black_half) if goal.black_half else None,
        "legal": [],
        "tries": [],
        "check": None,
        "stars": progress.stars if progress else 0,
        "best_moves": progress.best_moves if progress else None,
        "completed": bool(progress and progress.completed),
        "play_level": rules.play_level,
        "practise_theme": rules.practise_theme,
        # what the trainer is offered on: a kill pattern's mates, or a tactic's puzzles
        "practise_kind": (
            ("tactic" if is_tactic(rules.practise_theme) else "pattern")
            if rules.practise_theme
            else None
        ),
    }
    if goal.kind == "point":
        board = dynamic_board(rules, moment)
        if board is not None:
            view["fen"] = board.fen
            view["caption"] = _bilingual(board.caption)
            view["moment"] = moment.isoformat()
    elif goal.answered_with == "moves":
        state = start_state(rules)
        view["legal"] = state.legal
        view["tries"] = state.tries
        view["check"] = state.check
    return view


def lesson_view(*, lesson: Lesson, learner: Owner | None, moment: Any) -> dict[str, Any]:
    rows = list(lesson.steps.all())
    progress = progress_map(learner=learner, steps=rows)
    lessons = list(lesson_list(course=lesson.course))
    place = next(i for i, item in enumerate(lessons) if item.pk == lesson.pk)
    following = lessons[place + 1] if place + 1 < len(lessons) else None
    steps = [step_view(r, progress=progress.get(r.pk), moment=moment) for r in rows]
    return {
        "slug": lesson.slug,
        "course": lesson.course,
        "course_title": course_title(lesson.course),
        "title": text({"zh": lesson.title_zh, "en": lesson.title_en}),
        "summary": text({"zh": lesson.summary_zh, "en": lesson.summary_en}),
        "rulings": [text(r) for r in lesson.rulings],
        "coordinates": lesson.coordinates,
        "steps": steps,
        "stars": sum(s["stars"] for s in steps),
        "max_stars": 3 * len(steps),
        "done": sum(1 for s in steps if s["completed"]),
        "next_lesson": (
            {
                "slug": following.slug,
                "title": text({"zh": following.title_zh, "en": following.title_en}),
                "url": reverse("tutorials:lesson", args=[following.slug]),
            }
            if following
            else None
        ),
    }
