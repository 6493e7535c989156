"""Pages of the core app: the analysis board, /healthz, and the server error answer. The home
page shows several apps and lives above them, in ``pages``."""

from __future__ import annotations

import hmac
import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.exceptions import error_body
from core.middleware import is_api_request
from core.selectors import health_report_cached, variant_cards
from core.starts import START_NAMES, start_name
from engine.vocab import OUTCOME_TERMINATIONS
from judge import OURS
from words.endings import ENDINGS

# Seconds a client is asked to wait when the database cannot be reached.
RETRY_AFTER_SECONDS = 5


@require_safe
def analysis(request: HttpRequest) -> HttpResponse:
    """The analysis board; ``?variant=&fen=&setup=&moves=a,b,c&ply=n`` restore a shared
    position (``ply``: how many of the moves the board shows, default all)."""
    variants = variant_cards()
    names = [v["name"] for v in variants]
    variant = request.GET.get("variant", "")
    moves = [m for m in request.GET.get("moves", "").split(",") if m.strip()]
    ply_text = request.GET.get("ply", "")
    ply = min(int(ply_text), len(moves)) if ply_text.isdecimal() else None  # not "²"
    page = {
        "api": {
            "positions": reverse("core-api:positions"),
            # the engine's searches (the games app keeps them; the page only calls them)
            "engine": reverse("games-api:analysis"),
            "variants": reverse("core-api:variants"),
        },
        "variant": variant if variant in names else names[0],
        "fen": request.GET.get("fen") or None,
        "setup": request.GET.get("setup") or None,
        "moves": moves,
        "ply": ply,
        "variants": variants,
        "labels": {
            "red": _("Red"),
            "black": _("Black"),
            "side_to_move": _("{side} to move"),
            "check_to_move": _("Check! {side} to move"),
            "over_wins": _("{result} — {side} wins"),
            "over_draw": _("{result} — draw"),
            "copied": _("Copied"),
            "terminations": {
                key: ENDINGS[key].headline.get(get_language()) for key in OUTCOME_TERMINATIONS
            },
            "custom_fen": _("Position from FEN"),
            "board": _("Board"),
            "starts": {key: start_name(key) for key in START_NAMES},
            "engine": {
                "thinking": _("The engine is thinking…"),
                "deepening": _("The engine looks deeper…"),
                "better": _("{side} is better"),
                "winning": _("{side} is winning"),
                "equal": _("About equal"),
                "red_side": _("From Red’s side: + Red is better, − Black is better"),
                "mate_for": _("{side} mates in {n}"),
                "forced": _("Forced mate, proved over every defence"),
                "not_proved": _("The prover has not confirmed this mate: it may not be forced"),
                "show": _("Forced mate — show it"),
                "showing": _("Showing the mate…"),
                "engine_depth": _("{engine}, depth {depth}"),
                # Fairy-Stockfish is named as it names itself ("Fairy-Stockfish 11.1")
                "names": {OURS: _("The site’s own engine")},
                "positions": _("{nodes} positions, {seconds} s."),
                "play_line": _("Play this line on the board up to this move"),
                "waiting": _("Many are asking the engine just now: it will answer in a moment…"),
                "over": _("The game is over here: nothing for the engine to look at."),
            },
        },
    }
    return render(request, "core/analysis.html", {"page": page, "variants": variants})


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: send them to the site's icon."""
    return HttpResponseRedirect(static("img/favicon.svg"))


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness, for anyone: this web process answers. Touches no database, cache or broker."""
    return JsonResponse({"status": "ok"})


def _health_token_given(request: HttpRequest) -> bool:
    token = settings.HEALTH_TOKEN
    given = request.headers.get("Authorization", "")
    scheme, _space, value = given.partition(" ")
    return (
        bool(token)
        and scheme.lower() == "bearer"
        and hmac.compare_digest(value.strip().encode(), token.encode())
    )


@never_cache
@require_safe
def healthz_full(request: HttpRequest) -> JsonResponse:
    """Database, cache, broker and the workers of each of this site's queues, as JSON (HTTP 503
    when any is down), for callers that send ``Authorization: Bearer <HEALTH_TOKEN>``. The
    report is kept ``HEALTH_CACHE_SECONDS`` per process, so that calling it often costs little.
    """
    if not _health_token_given(request):
        return JsonResponse({"status": "forbidden"}, status=403)
    report = health_report_cached()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: JSON in the API's error shape under /api/, the usual page elsewhere."""
    if is_api_request(request):
        return JsonResponse(error_body(_("Not found."), {"path": request.path}), status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: JSON in the API's error shape under /api/, the usual page elsewhere."""
    if is_api_request(request):
        return JsonResponse(error_body(_("Bad request."), {}), status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: JSON in the API's error shape under /api/, the usual page elsewhere."""
    if is_api_request(request):
        return JsonResponse(error_body(_("Permission denied."), {}), status=403)
    return defaults.permission_denied(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an error no view answered.

    When the database cannot be reached (restarting, fail-over, connections exhausted) the
    answer is 503 with Retry-After, rendered without touching the database, and the site goes
    on by itself once the database is back (each request checks its connection first). Other
    errors are 500; the API answers both in its JSON error shape.
    """
    error = sys.exc_info()[1]
    unavailable = isinstance(error, OperationalError | InterfaceError)
    if is_api_request(request):
        if unavailable:
            response: HttpResponse = JsonResponse(
                error_body(_("The service is unavailable for a moment; try again."), {}),
                status=503,
            )
        else:
            response = JsonResponse(error_body(_("Server error."), {}), status=500)
    elif unavailable:
        response = HttpResponse(render_to_string("core/unavailable.html"), status=503)
    else:
        return defaults.server_error(request)
    if unavailable:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
