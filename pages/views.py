"""The home page, the profile and the kill patterns: each reads from several apps through their
selectors."""

from __future__ import annotations

from dataclasses import replace

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.owners import owner_for_request
from core.selectors import variant_cards, variant_list, variant_title
from live.selectors import live_blocks_of, live_rating_cards
from puzzles.dashboard import dashboard_context
from puzzles.selectors import (
    daily_cards,
    daily_puzzles_for,
    pattern_families,
    run_bests,
    user_ratings,
)
from tutorials.selectors import continue_lesson_for, course_map, learner_get, pattern_lessons


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The home page. It only reads: today's puzzles are chosen by the scheduled task (or the
    daily page), never by a visit here."""
    return render(
        request,
        "core/home.html",
        {
            "variants": variant_cards(),
            "daily_cards": daily_cards(daily_puzzles_for()),
            "continue_lesson": continue_lesson_for(request),
        },
    )


@login_required
@require_safe
def profile(request: HttpRequest) -> HttpResponse:
    """The account: live-game rating and puzzle rating per variant, best Puzzle Streak and Storm per variant, lesson
    progress per course, links onwards."""
    rows = user_ratings(user=request.user)
    ratings = [
        {"variant": variant.name, "title": variant_title(variant), "row": rows.get(variant.name)}
        for variant in variant_list()
    ]
    bests = run_bests(player=owner_for_request(request, create=False))
    runs = [
        {
            "variant": variant.name,
            "title": variant_title(variant),
            "streak": bests["streak"].get(variant.name),
            "storm": bests["storm"].get(variant.name),
        }
        for variant in variant_list()
    ]
    courses = course_map(learner=learner_get(request))
    return render(
        request,
        "accounts/profile.html",
        {
            "profile_user": request.user,
            "live_ratings": live_rating_cards(request.user.pk),
            "live_blocks": live_blocks_of(request.user.pk),
            "ratings": ratings,
            "runs": runs,
            "courses": courses,
        },
    )


@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    """The puzzle dashboard (``puzzles.dashboard.dashboard_context``), with the live-game ratings
    per variant above it for a signed-in player."""
    context = dashboard_context(request)
    user_id = request.user.pk if request.user.is_authenticated else None
    context["live_ratings"] = live_rating_cards(user_id) if user_id is not None else []
    return render(request, "puzzles/dashboard.html", context)


@require_safe
def patterns(request: HttpRequest) -> HttpResponse:
    """The named kill patterns, by family: what each is, an example mate, how many puzzles
    have it in each variant, a link that opens the trainer on it and, where it has one, its
    lesson."""
    lessons = pattern_lessons()
    families = [
        replace(
            family,
            patterns=[
                replace(card, lesson=lessons.get(card.pattern.code)) for card in family.patterns
            ],
        )
        for family in pattern_families()
    ]
    return render(request, "puzzles/patterns.html", {"families": families})
