"""The puzzles API's missed wins: the mates and decisive material wins missed in my own games
(``MissedMate``), each with its private puzzle, for the game's replay, the trainer and the
dashboard."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.owners import owner_for_request
from core.api_helpers import request_query
from puzzles import selectors
from puzzles.models import GameSource


class MissedMateSerializer(serializers.Serializer):
    puzzle = serializers.IntegerField(source="puzzle_id")
    slug = serializers.CharField(source="puzzle.slug")
    url = serializers.SerializerMethodField(help_text="the trainer on this puzzle")
    variant = serializers.CharField(source="puzzle.variant")
    goal = serializers.CharField(source="puzzle.goal")
    moves_to_win = serializers.IntegerField(source="puzzle.moves_to_win")
    kind = serializers.CharField(
        source="source",
        help_text="play: a game against the computer or at one board; live: a live game",
    )
    game = serializers.IntegerField(help_text="the game's id, of the kind ``kind`` says")
    game_url = serializers.SerializerMethodField(help_text="the game's replay at the moment")
    ply = serializers.IntegerField(help_text="plies played before the moment")
    move_number = serializers.IntegerField()
    side = serializers.CharField(help_text="red or black: the side that had the win")
    by_player = serializers.BooleanField(help_text="true: I missed it; false: the computer did")
    played = serializers.SerializerMethodField(
        help_text="the move played instead, in Chinese notation with ICCS: 车九进一 (a0a1)"
    )
    text = serializers.SerializerMethodField(help_text="the moment in words")
    solved = serializers.BooleanField(help_text="I have solved its puzzle since")

    def get_url(self, missed: Any) -> str:
        return reverse("puzzles:share", kwargs={"slug": missed.puzzle.slug})

    def get_game_url(self, missed: Any) -> str:
        return f"{selectors.missed_game_url(missed.source, missed.game)}#ply={missed.ply}"

    def get_played(self, missed: Any) -> str:
        # as the move list writes a move, in both languages
        if missed.played_chinese:
            return f"{missed.played_chinese} ({missed.played})"
        return str(missed.played)

    def get_text(self, missed: Any) -> str:
        return selectors.missed_text(missed)


class MissedListSerializer(serializers.Serializer):
    reviewed = serializers.BooleanField(
        allow_null=True,
        help_text="with ``game``: whether my game has been searched yet (false for a game "
        "that is not mine, as for one that does not exist)",
    )
    looked_by = serializers.CharField(
        allow_null=True,
        help_text="with ``game``, once searched: the engine that looked (fairy-stockfish or ours)",
    )
    looked = serializers.CharField(
        allow_blank=True, help_text="what it looked for, in the reader's language"
    )
    results = MissedMateSerializer(many=True)


class MissedListApi(APIView):
    """The forced wins missed in my games (all, or those of ``game``): where, by whom, and
    the private puzzle to try each. Nobody else's are ever listed."""

    class MissedQuerySerializer(serializers.Serializer):
        game = serializers.IntegerField(min_value=1, max_value=2**62, required=False)
        kind = serializers.ChoiceField(
            choices=GameSource.choices,
            default=GameSource.PLAY,
            allow_blank=True,
            help_text="with ``game``: the kind of game its id is of (play, the default, or "
            "live: a live game)",
        )

    @extend_schema(
        operation_id="puzzles_missed",
        parameters=[MissedQuerySerializer],
        responses={200: MissedListSerializer},
    )
    def get(self, request: Request) -> Response:
        query = request_query(self.MissedQuerySerializer, request)
        game = query.get("game")
        player = owner_for_request(request, create=False)
        source = query.get("kind") or GameSource.PLAY
        rows = list(selectors.missed_list(player=player, game=game, source=source))
        review = (
            None if game is None else selectors.game_review(player=player, game=game, source=source)
        )
        reviewed = None if game is None else bool(rows) or review is not None
        looked_by, looked = (None, "") if review is None else selectors.review_looked(review)
        answer = {"reviewed": reviewed, "looked_by": looked_by, "looked": looked, "results": rows}
        return Response(MissedListSerializer(answer).data)
