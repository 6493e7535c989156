"""The puzzles API for authors: my puzzles, a new draft, changing a draft, sending it to be
verified, and checking a position for the editor."""

from __future__ import annotations

from typing import Any, cast

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from core.addresses import address_key
from core.api_helpers import found_or_404, operation, request_body
from core.exceptions import error_body
from puzzles import selectors, services
from puzzles.api.serializers import AuthoredPuzzleSerializer
from puzzles.models import MAX_MOVES_TO_WIN, PROVED_GOALS, Goal, Puzzle, Variant

# An author's puzzle is proved: the goals the prover knows.
GOAL_CHOICES = [(goal.value, goal.label) for goal in PROVED_GOALS]
# How an author's puzzle is proved: over every move, or over checks only (连将杀).
MODE_CHOICES = [("full", "full"), ("checks_only", "checks_only")]


class AuthoredListApi(APIView):
    """My puzzles (GET) and a new draft (POST). The position is checked at once: an illegal
    position is refused with the reason."""

    permission_classes = [IsAuthenticated]

    class DraftCreateSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices)
        fen = serializers.CharField(max_length=200)
        goal = serializers.ChoiceField(choices=GOAL_CHOICES, default=Goal.MATE)
        moves_to_win = serializers.IntegerField(min_value=1, max_value=MAX_MOVES_TO_WIN)
        title = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
        mode = serializers.ChoiceField(
            choices=MODE_CHOICES,
            default="full",
            help_text="full: proved over every move; checks_only: every attacking move gives "
            "check (连将杀)",
        )

    @extend_schema(
        operation_id="puzzles_authored_list", responses={200: AuthoredPuzzleSerializer(many=True)}
    )
    def get(self, request: Request) -> Response:
        rows = selectors.authored_list(user=request.user)
        return Response(
            AuthoredPuzzleSerializer(rows, many=True, context={"request": request}).data
        )

    @operation(
        "puzzles_authored_create",
        AuthoredPuzzleSerializer,
        status=201,
        request=DraftCreateSerializer,
        errors=(400,),
    )
    def post(self, request: Request) -> Response:
        body = request_body(self.DraftCreateSerializer, request)
        puzzle = services.puzzle_draft_create(author=_author(request), **body)
        return Response(
            _authored_data(puzzle, request),
            status=status.HTTP_201_CREATED,
        )


def _author(request: Request) -> User:
    """The logged-in author (these views let only authenticated users through)."""
    return cast(User, request.user)


def _authored_data(puzzle: Puzzle, request: Request) -> Any:
    """One of my puzzles with its verification status and its first moves."""
    context = {"request": request, "opening": selectors.puzzle_opening(puzzle=puzzle)}
    return AuthoredPuzzleSerializer(puzzle, context=context).data


def _authored_or_404(puzzle_id: int, request: Request) -> Puzzle:
    """One of my authored puzzles; to anyone but its author it does not exist (404), so that
    the ids of other people's drafts cannot be told from missing ones."""
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id)
    mine = (
        puzzle is not None
        and puzzle.source == Puzzle.Source.AUTHORED
        and selectors.access_puzzle_edit(puzzle=puzzle, user=request.user)
    )
    return found_or_404(puzzle if mine else None)


class AuthoredDetailApi(APIView):
    """One of my puzzles with its verification status (GET), or a change to a draft (PATCH).
    Published puzzles never change; a rejected one becomes a draft again when changed."""

    class DraftUpdateSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices, required=False)
        fen = serializers.CharField(max_length=200, required=False)
        goal = serializers.ChoiceField(choices=GOAL_CHOICES, required=False)
        moves_to_win = serializers.IntegerField(
            min_value=1, max_value=MAX_MOVES_TO_WIN, required=False
        )
        title = serializers.CharField(max_length=120, required=False, allow_blank=True)
        mode = serializers.ChoiceField(choices=MODE_CHOICES, required=False)

    @operation("puzzles_authored_get", AuthoredPuzzleSerializer, errors=(404,))
    def get(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _authored_or_404(puzzle_id, request)
        return Response(_authored_data(puzzle, request))

    @operation(
        "puzzles_authored_update",
        AuthoredPuzzleSerializer,
        request=DraftUpdateSerializer,
        errors=(400, 403),
    )
    def patch(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _authored_or_404(puzzle_id, request)
        body = request_body(self.DraftUpdateSerializer, request)
        puzzle = services.puzzle_draft_update(puzzle=puzzle, author=_author(request), **body)
        return Response(_authored_data(puzzle, request))


class AuthoredSubmitApi(APIView):
    """Send my draft to be verified. Answers 202; the prover runs in the background and the
    puzzle becomes ``published`` (sound and unique) or ``rejected`` with the reason. One puzzle
    of an author is verified at a time: while another is, the answer is 400 (code
    ``author_verifying``); when the prover's queue is full, 503 with Retry-After (code
    ``proving_queue_full``, or ``address_queue_full`` when the puzzles sent from this address
    fill their share). The draft stays a draft in both cases."""

    @operation(
        "puzzles_authored_submit",
        AuthoredPuzzleSerializer,
        status=202,
        request=None,
        errors=(400, 403, 503),
    )
    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _authored_or_404(puzzle_id, request)
        try:
            puzzle = services.puzzle_draft_submit(
                puzzle=puzzle, author=_author(request), address=address_key(request)
            )
        except services.ProvingQueueFullError as error:
            full = Response(
                error_body(error.localized(), error.extra, code=error.code, params=error.params),
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
            full["Retry-After"] = str(error.retry_after)
            return full
        return Response(
            _authored_data(puzzle, request),
            status=status.HTTP_202_ACCEPTED,
        )


class PositionCheckApi(APIView):
    """Check a position for the editor: can a puzzle be made from it? Answers the normalised
    FEN and the side to move; a position the rules do not allow (or where the game is over) is
    an answer too (200) with ``legal: false`` and the reason in ``error`` (which rank, what is
    wrong); a FEN that cannot be read, or a goal the variant lacks, answers 400."""

    class PositionCheckRequestSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices)
        fen = serializers.CharField(max_length=200)
        goal = serializers.ChoiceField(choices=GOAL_CHOICES, default=Goal.MATE)
        moves_to_win = serializers.IntegerField(min_value=1, max_value=MAX_MOVES_TO_WIN, default=1)

    class PositionCheckSerializer(serializers.Serializer):
        fen = serializers.CharField()
        turn = serializers.CharField()

    @operation(
        "puzzles_position_check",
        PositionCheckSerializer,
        request=PositionCheckRequestSerializer,
        errors=(400,),
        illegal=True,
    )
    def post(self, request: Request) -> Response:
        body = request_body(self.PositionCheckRequestSerializer, request)
        checked = services.puzzle_position_check(**body)
        return Response(self.PositionCheckSerializer(checked).data)
