"""The JSON API of the core app: variants and positions."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.selectors import variant_list, variant_title
from core.services import MAX_MOVES, position_analyse
from engine import Variant


class ErrorSerializer(serializers.Serializer):
    """The shape of every API error."""

    error = inline_serializer(
        "ErrorBody",
        fields={"message": serializers.CharField(), "extra": serializers.DictField()},
    )


class StartSerializer(serializers.Serializer):
    name = serializers.CharField()
    fen = serializers.CharField()


class MoveTextSerializer(serializers.Serializer):
    iccs = serializers.CharField(help_text="ICCS: from-point then to-point, e.g. h2e2")
    chinese = serializers.CharField(help_text="Chinese notation, e.g. 炮二平五")


class PlayedMoveSerializer(MoveTextSerializer):
    fen = serializers.CharField(help_text="the position after the move")


class VariantListApi(APIView):
    """The variants the site plays, with their board size and named start positions."""

    @extend_schema_serializer(component_name="Variant")
    class OutputSerializer(serializers.Serializer):
        name = serializers.CharField()
        title = serializers.SerializerMethodField(help_text="in the request's language")
        title_en = serializers.CharField()
        title_zh = serializers.CharField()
        width = serializers.IntegerField()
        height = serializers.IntegerField()
        starts = serializers.SerializerMethodField(help_text="the first is the default")

        def get_title(self, variant: Variant) -> str:
            return variant_title(variant)

        @extend_schema_field(StartSerializer(many=True))
        def get_starts(self, variant: Variant) -> list[dict[str, str]]:
            return [{"name": name, "fen": fen} for name, fen in variant.starts]

    @extend_schema(operation_id="variants_list", responses={200: OutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(variant_list(), many=True).data)


class PositionAnalyseApi(APIView):
    """Play moves from a position and describe the result.

    Give a variant and either a FEN or a named start (default: the variant's first start), and
    optionally moves in ICCS (``h2e2``) or Chinese notation (``炮二平五``). The answer lists the
    moves played in both notations with the FEN after each, the legal moves of the final
    position (empty once the game is over), whether the side to move is in check, and the
    outcome: ``termination`` is one of checkmate, stalemate, dead_general, perpetual_check,
    perpetual_chase, repetition, forced_variation, natural_limit, or null while the game goes
    on; ``winner`` is red, black or null. A bad FEN or move answers 400 with an error that
    names the problem.
    """

    @extend_schema_serializer(component_name="PositionRequest")
    class InputSerializer(serializers.Serializer):
        variant = serializers.CharField(max_length=32)
        fen = serializers.CharField(max_length=300, required=False, allow_null=True)
        setup = serializers.CharField(max_length=32, required=False, allow_null=True)
        moves = serializers.ListField(
            child=serializers.CharField(max_length=16),
            required=False,
            max_length=MAX_MOVES,
        )

    @extend_schema_serializer(component_name="PositionAnalysis")
    class OutputSerializer(serializers.Serializer):
        variant = serializers.CharField()
        start_fen = serializers.CharField()
        fen = serializers.CharField()
        turn = serializers.ChoiceField(choices=["red", "black"])
        played = PlayedMoveSerializer(many=True)
        legal_moves = MoveTextSerializer(many=True)
        check = serializers.BooleanField()
        check_square = serializers.CharField(allow_null=True)
        termination = serializers.CharField(allow_null=True)
        winner = serializers.CharField(allow_null=True)

    @extend_schema(
        operation_id="positions_analyse",
        request=InputSerializer,
        responses={200: OutputSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        return Response(
            analysis_output(data["variant"], data.get("fen"), data.get("setup"),
                            tuple(data.get("moves", [])))
        )  # fmt: skip


# The analysis board asks about the same positions again and again (starts, openings); the
# answer depends on the request alone, so each web process keeps the latest ones.
ANALYSIS_CACHE_SIZE = 1024


@lru_cache(maxsize=ANALYSIS_CACHE_SIZE)
def analysis_output(
    variant: str, fen: str | None, setup: str | None, moves: tuple[str, ...]
) -> dict[str, Any]:
    """The API's answer for one request (errors are raised, never kept)."""
    analysis = position_analyse(variant=variant, fen=fen, setup=setup, moves=moves)
    return dict(PositionAnalyseApi.OutputSerializer(analysis).data)
