"""The JSON API of the core app: variants and positions."""

from __future__ import annotations

import json
import sys
import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_helpers import operation
from core.selectors import variant_list, variant_title
from core.services import MAX_MOVES, position_analyse
from engine import Variant


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
    on; ``winner`` is red, black or null. A bad FEN or a move that cannot be read answers 400
    with an error that names the problem; a move the rules do not allow is an answer (200) with
    ``legal: false`` and the reason in ``error``.
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

    @operation(
        "positions_analyse", OutputSerializer, request=InputSerializer, errors=(400,), illegal=True
    )
    def post(self, request: Request) -> HttpResponse:
        key = _answer_key(request)
        if key is not None and (answer := ANSWERS.get(key)) is not None:
            return HttpResponse(answer, content_type="application/json")
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        output = analysis_output(data["variant"], data.get("fen"), data.get("setup"),
                                 tuple(data.get("moves", [])))  # fmt: skip
        if key is None:
            return Response(output)
        answer = JSONRenderer().render(output)
        ANSWERS.put(key, answer)
        return HttpResponse(answer, content_type="application/json")


# The analysis board asks about the same positions again and again (starts, openings); the
# answer depends on the request alone, so each web process keeps the latest ones, within
# ``POSITION_ANSWER_CACHE_BYTES`` (settings) of memory.
# Requests longer than this (in characters of JSON) are answered without being kept.
ANSWER_KEY_MAX_LENGTH = 2048


# An OrderedDict entry (hash slot, linked-list node) on CPython 3.11, rounded up.
ENTRY_OVERHEAD = 160


def entry_size(key: str, answer: bytes) -> int:
    """Memory one kept answer takes: its key and answer objects, and their place in the dict."""
    return sys.getsizeof(key) + sys.getsizeof(answer) + ENTRY_OVERHEAD


class AnswerCache:
    """The latest JSON answers by request body, within ``max_bytes``, least recently used
    dropped first; an answer larger than the whole bound is not kept.

    Keyed by the request's JSON object (written with sorted keys) that was answered 200, so an
    answer is given again only for a request that would produce it again; errors are never
    kept."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0  # what the kept entries take now, by ``entry_size``
        self._answers: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()  # threaded web workers share it

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, key: str) -> bytes | None:
        with self._lock:
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
            return answer

    def put(self, key: str, answer: bytes) -> None:
        size = entry_size(key, answer)
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._answers.pop(key, None)
            if old is not None:
                self.bytes -= entry_size(key, old)
            self._answers[key] = answer
            self.bytes += size
            while self.bytes > self.max_bytes:
                dropped_key, dropped = self._answers.popitem(last=False)
                self.bytes -= entry_size(dropped_key, dropped)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()
            self.bytes = 0


ANSWERS = AnswerCache(settings.POSITION_ANSWER_CACHE_BYTES)


def _answer_key(request: Request) -> str | None:
    """The request's JSON, written out canonically, when its answer may be kept: a JSON answer
    asked for, a JSON object sent, and short."""
    if request.accepted_renderer.format != "json":
        return None
    data = request.data  # a malformed body raises here and is answered 400 as before
    if type(data) is not dict:  # form data (a QueryDict) or not an object: not kept
        return None
    try:
        key = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    return key if len(key) <= ANSWER_KEY_MAX_LENGTH else None


def analysis_output(
    variant: str, fen: str | None, setup: str | None, moves: tuple[str, ...]
) -> dict[str, Any]:
    """The API's answer for one request. Not kept here: the view keeps the rendered JSON of
    short requests in ``ANSWERS``, the one per-process cache of answers."""
    analysis = position_analyse(variant=variant, fen=fen, setup=setup, moves=moves)
    return dict(PositionAnalyseApi.OutputSerializer(analysis).data)
