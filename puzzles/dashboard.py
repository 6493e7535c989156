"""What the puzzle dashboard shows: the puzzle ratings and their history per variant (drawn as
inline SVG on the server), best Puzzle Streak and Storm, success per theme and per kill pattern,
failed puzzles to replay, the mates missed in my games. The page itself is ``pages.views.dashboard``
(it adds the live-game ratings); this module only reads."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.owners import owner_for_request
from core.messages import reads_chinese
from core.selectors import variant_board, variant_list
from puzzles import selectors
from puzzles.themes import PATTERN_SLUGS

# The missed mates the dashboard lists (the newest games' first).
DASHBOARD_MISSED = 50

# The chart shows the last this many ratings (the table under it the same).
CHART_POINTS = 100


def rating_chart(
    points: list[tuple[Any, float]], *, title: str, width: int = 560, height: int = 180
) -> dict[str, Any]:
    """A rating history as an SVG line chart (oldest left), drawn by the template: a line with
    a dot per rating, the lowest and highest values on the side, a title and a description in
    words; the same numbers go into a table under it."""
    points = points[-CHART_POINTS:]
    if not points:
        return {"count": 0}
    ratings = [r for _, r in points]
    low, high = min(ratings), max(ratings)
    # Nice bounds, 50 apart at least, so that a flat history is not drawn as a steep one.
    bottom = int(low // 50 * 50)
    top = max(int(-(-high // 50) * 50), bottom + 50)
    left, right, pad = 44, 10, 12
    inner_w, inner_h = width - left - right, height - 2 * pad

    def y_of(rating: float) -> float:
        return pad + (top - rating) / (top - bottom) * inner_h

    dots = []
    for index, (at, rating) in enumerate(points):
        x = left + (index * inner_w / (len(points) - 1) if len(points) > 1 else inner_w / 2)
        dots.append(
            {"x": f"{x:.1f}", "y": f"{y_of(rating):.1f}", "rating": round(rating), "at": at}
        )
    first, last = round(ratings[0]), round(ratings[-1])
    return {
        "count": len(points),
        "dots": dots,
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top,
        "bottom": bottom,
        "y_top": f"{y_of(top):.1f}",
        "y_bottom": f"{y_of(bottom):.1f}",
        "title": title,
        "description": _(
            "%(count)s ratings, from %(first)s to %(last)s; lowest %(low)s, highest %(high)s."
        )
        % {
            "count": len(points),
            "first": first,
            "last": last,
            "low": round(low),
            "high": round(high),
        },
    }


def dashboard_context(request: HttpRequest) -> dict[str, Any]:
    """What the puzzle dashboard shows (the page is ``pages.views.dashboard``, which adds the
    live ratings): ratings and their history per variant, best Puzzle Streak and Storm per
    variant, success per theme and per kill pattern, failed puzzles to replay, the mates missed
    in my games."""
    player = owner_for_request(request, create=False)
    board = selectors.dashboard_get(player=player)
    missed = [
        {"row": row, "text": selectors.missed_text(row)}
        for row in selectors.missed_list(player=player)[:DASHBOARD_MISSED]
    ]
    variants = {v.name: variant_board(v) for v in variant_list()}
    bests = selectors.run_bests(player=player)
    run_bests = [
        {
            "variant": name,
            "title": variant["title"],
            "streak": bests["streak"].get(name),
            "storm": bests["storm"].get(name),
        }
        for name, variant in variants.items()
    ]
    now = timezone.now()
    stats = [
        {
            "stat": s,
            "name": s.name_zh if reads_chinese() else s.name_en,
            "percent": round(100 * s.rate),
            "pattern": s.slug in PATTERN_SLUGS,
        }
        for s in board.themes
    ]
    return {
        "ratings": [
            {
                "variant": variants[r.variant],
                "row": r.row,
                "chart": rating_chart(
                    r.history,
                    title=_("Puzzle rating over time: %(variant)s")
                    % {"variant": variants[r.variant]["title"]},
                ),
            }
            for r in board.ratings
        ],
        "theme_stats": [row for row in stats if not row["pattern"]],
        "pattern_stats": [row for row in stats if row["pattern"]],
        "replays": [{"replay": r, "due": r.due_at <= now} for r in board.replays],
        "recent": board.recent,
        "run_bests": run_bests,
        "missed": missed,
    }
