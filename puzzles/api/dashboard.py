"""The puzzles API's dashboard: my ratings and their history, success per theme, the failed
puzzles waiting to be replayed, and my recent attempts (assembled by
``selectors.dashboard_get``, which the dashboard page reads too)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.owners import owner_for_request
from core.messages import reads_chinese
from puzzles import selectors
from puzzles.api.serializers import AttemptSerializer


class DashboardRatingSerializer(serializers.Serializer):
    variant = serializers.CharField()
    rating = serializers.FloatField(allow_null=True)
    deviation = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()
    history = serializers.ListField(
        child=serializers.ListField(), help_text="[time, rating] after each rated attempt"
    )


class ThemeStatSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.SerializerMethodField()
    attempts = serializers.IntegerField()
    solved = serializers.IntegerField()
    rate = serializers.FloatField()

    def get_name(self, stat: Any) -> str:
        return stat.name_zh if reads_chinese() else stat.name_en


class ReplaySerializer(serializers.Serializer):
    puzzle = serializers.IntegerField(source="puzzle_id")
    slug = serializers.CharField(source="puzzle.slug")
    variant = serializers.CharField(source="puzzle.variant")
    step = serializers.IntegerField(help_text="failures since the first one")
    due_at = serializers.DateTimeField()
    due = serializers.SerializerMethodField()

    def get_due(self, replay: Any) -> bool:
        return bool(replay.due_at <= timezone.now())


class DashboardSerializer(serializers.Serializer):
    ratings = DashboardRatingSerializer(many=True, help_text="per variant (logged-in users)")
    themes = ThemeStatSerializer(many=True)
    replays = ReplaySerializer(many=True, help_text="failed puzzles not solved yet")
    recent = AttemptSerializer(many=True)


class DashboardApi(APIView):
    """My puzzle dashboard: ratings and their history per variant, success per theme, the
    failed puzzles waiting to be replayed (after 1, 3, 7 days), and recent attempts."""

    @extend_schema(operation_id="puzzles_dashboard", responses={200: DashboardSerializer})
    def get(self, request: Request) -> Response:
        board = selectors.dashboard_get(player=owner_for_request(request, create=False))
        data = {
            "ratings": [
                {
                    "variant": r.variant,
                    "rating": r.row.rating if r.row else None,
                    "deviation": r.row.deviation if r.row else None,
                    "games": r.row.games if r.row else 0,
                    "history": [[at.isoformat(), round(v, 1)] for at, v in r.history],
                }
                for r in board.ratings
            ],
            "themes": board.themes,
            "replays": board.replays,
            "recent": board.recent,
        }
        return Response(DashboardSerializer(data, context={"with_solution": False}).data)
