"""Pages: the course map (/learn/) and the lesson player (/learn/<lesson>/)."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from core.exceptions import ApplicationError
from tutorials.curriculum.schema import MOVE_GOALS
from tutorials.selectors import (
    continue_lesson,
    course_map,
    learner_get,
    lesson_get,
    lesson_view,
    lessons_version,
)

# How long the course map of a newcomer is kept (its key changes with the lessons).
NEWCOMER_MAP_SECONDS = 600


@require_safe
def course_map_page(request: HttpRequest) -> HttpResponse:
    """Every course and lesson with the learner's progress. A newcomer (no progress yet, no
    account) sees the same map as every other newcomer in that language: it is rendered once
    per language and lessons version and then served from the cache."""
    learner = learner_get(request)
    if learner is not None:
        context = {
            "courses": course_map(learner=learner),
            "continue_at": continue_lesson(learner=learner),
        }
        return render(request, "tutorials/course_map.html", context)
    version = hashlib.sha256(lessons_version().encode()).hexdigest()[:16]
    key = f"tutorials:newcomer-map:{get_language()}:{version}"
    content = cache.get(key)
    if content is None:
        content = render_to_string(
            "tutorials/_course_map_content.html",
            {"courses": course_map(learner=None), "continue_at": None},
            request=request,
        )
        cache.set(key, content, NEWCOMER_MAP_SECONDS)
    return render(request, "tutorials/course_map.html", {"content": mark_safe(content)})  # noqa: S308 - our own rendered template


def _labels() -> dict[str, str]:
    return {
        "step_of": _("Step %(n)s of %(total)s"),
        "par": _("Par"),
        "moves": _("Moves"),
        "stars": _("stars"),
        "your_turn": _("Your move"),
        "opponent_replied": _("Opponent replied"),
        "opponent_move": _("Opponent replied: {move} ({iccs})"),
        "click_point": _("Click a point on the board."),
        "arrange": _("Drag your pieces to arrange them, then submit."),
        "network": _("The server could not be reached. Try again."),
        "server_error": _("The server could not judge this answer. Send it again."),
        "resend": _("Send again"),
        "step_done": _("This step is done: go on to the next one, or press “Try again”."),
        "write_empty": _("Type the move in Chinese notation first."),
    }


@require_safe
def lesson_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        lesson = lesson_get(slug=slug)
    except ApplicationError:
        raise Http404(slug) from None
    learner = learner_get(request)
    view = lesson_view(lesson=lesson, learner=learner, moment=timezone.now())
    keys = [step["key"] for step in view["steps"]]
    wanted = request.GET.get("step")
    if wanted in keys:
        start = wanted
    else:
        start = next((s["key"] for s in view["steps"] if not s["completed"]), keys[0])
    page = {
        "lesson": view,
        "start_step": start,
        "board_module": static("build/board.js"),
        "api": {
            "moves": reverse("tutorials-api:step-moves", args=[slug, "KEY"]),
            "answer": reverse("tutorials-api:step-answer", args=[slug, "KEY"]),
            "setup": reverse("tutorials-api:step-setup", args=[slug, "KEY"]),
            "write": reverse("tutorials-api:step-write", args=[slug, "KEY"]),
            "lesson": reverse("tutorials-api:lesson", args=[slug]),
        },
        "course_map_url": reverse("tutorials:course-map"),
        "labels": _labels(),
        "move_goals": list(MOVE_GOALS),
    }
    return render(request, "tutorials/lesson.html", {"lesson": view, "page": page})
