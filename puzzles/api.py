"""The puzzles JSON API: one view per operation; each parses, calls one service or selector,
and serialises. The solution of a puzzle is never sent before the player has finished a try
(solved or given up); moves are judged on the server."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ErrorSerializer
from core.exceptions import error_body
from engine import Position
from puzzles import selectors, services
from puzzles.models import MAX_MOVES_TO_WIN, Goal, Puzzle, PuzzleAttempt, Variant
from puzzles.selectors import DIFFICULTY_OFFSETS
from puzzles.services import player_from_request


def _zh() -> bool:
    return (get_language() or "").lower().startswith("zh")


class PuzzleMoveSerializer(serializers.Serializer):
    iccs = serializers.CharField(help_text="ICCS, e.g. h2e2")
    chinese = serializers.CharField(help_text="Chinese notation, e.g. 炮二平五")
    fen = serializers.CharField(help_text="the position after the move")


class SolutionSerializer(serializers.Serializer):
    key = serializers.CharField(allow_null=True, help_text="the first move (ICCS)")
    line = PuzzleMoveSerializer(many=True, help_text="the main line: key, best defence, ...")


class ThemeSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    published = serializers.IntegerField(required=False, help_text="published puzzles with it")

    def get_name(self, theme: Any) -> str:
        return theme.name_zh if _zh() else theme.name_en

    def get_description(self, theme: Any) -> str:
        return theme.description_zh if _zh() else theme.description_en


class PuzzleSerializer(serializers.Serializer):
    """A puzzle as a solver sees it: the position and the task, never the solution (unless the
    player has finished a try, then ``solution`` is filled)."""

    id = serializers.IntegerField()
    slug = serializers.CharField(help_text="the share-link name")
    variant = serializers.CharField()
    fen = serializers.CharField()
    turn = serializers.SerializerMethodField(help_text="the attacker: red or black")
    goal = serializers.CharField(help_text="mate, dead_general or win")
    moves_to_win = serializers.IntegerField()
    rating = serializers.SerializerMethodField()
    rating_deviation = serializers.SerializerMethodField()
    plays = serializers.IntegerField()
    solves = serializers.IntegerField()
    themes = serializers.SerializerMethodField()
    source = serializers.CharField(help_text="mined, classic or authored")
    title = serializers.CharField()
    collection = serializers.CharField()
    author = serializers.SerializerMethodField()
    status = serializers.CharField()
    proof_mode = serializers.CharField(help_text="full, or checks_only: proved among checks")
    share_url = serializers.SerializerMethodField()
    legal_moves = serializers.SerializerMethodField(help_text="the attacker's first moves, ICCS")
    check = serializers.SerializerMethodField(help_text="point of a general in check, or null")
    solution = serializers.SerializerMethodField()

    def get_turn(self, puzzle: Puzzle) -> str:
        return "red" if puzzle.fen.split()[1] in ("w", "r") else "black"

    def get_rating(self, puzzle: Puzzle) -> int:
        return round(puzzle.rating)

    def get_rating_deviation(self, puzzle: Puzzle) -> int:
        return round(puzzle.rating_deviation)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_themes(self, puzzle: Puzzle) -> list[str]:
        return [theme.slug for theme in puzzle.themes.all()]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_author(self, puzzle: Puzzle) -> str | None:
        return puzzle.author.get_username() if puzzle.author_id and puzzle.author else None

    def get_share_url(self, puzzle: Puzzle) -> str:
        path = reverse("puzzles:share", kwargs={"slug": puzzle.slug})
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_legal_moves(self, puzzle: Puzzle) -> list[str]:
        if not self.context.get("with_moves", True):
            return []
        position = Position.from_fen(puzzle.variant, puzzle.fen)
        return sorted(m.iccs() for m in position.legal_moves)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_check(self, puzzle: Puzzle) -> str | None:
        if not self.context.get("with_moves", True):
            return None
        position = Position.from_fen(puzzle.variant, puzzle.fen)
        if not position.is_check():
            return None
        return position.square_name(position.kings[0 if position.turn == "red" else 1])

    @extend_schema_field(SolutionSerializer(allow_null=True))
    def get_solution(self, puzzle: Puzzle) -> dict[str, Any] | None:
        if not self.context.get("with_solution"):
            return None
        player = self.context.get("player")
        if not selectors.access_solution_view(puzzle=puzzle, player=player):
            return None
        return selectors.puzzle_solution(puzzle=puzzle)


class AuthoredPuzzleSerializer(PuzzleSerializer):
    """An authored puzzle as its author sees it: with its verification status."""

    rejection_reason = serializers.CharField(
        source="rejection_text", help_text="why verification refused it, in the reader's language"
    )
    rejection = serializers.JSONField(help_text="details: kind, keys, escape, ...")
    verify_requested_at = serializers.DateTimeField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


def _puzzle_or_404(puzzle_id: int, request: Request, *, for_display: bool = True) -> Puzzle:
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id, for_display=for_display)
    if puzzle is None or not selectors.access_puzzle_view(puzzle=puzzle, user=request.user):
        raise Http404
    return puzzle


def _puzzle_data(puzzle: Puzzle, request: Request, **context: Any) -> Any:
    player = player_from_request(request, create=False)
    return PuzzleSerializer(
        puzzle, context={"request": request, "player": player, "with_solution": True, **context}
    ).data


class ThemeListApi(APIView):
    """Every puzzle theme, with how many published puzzles have it."""

    @extend_schema(operation_id="puzzles_themes", responses={200: ThemeSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(ThemeSerializer(selectors.theme_list(), many=True).data)


class PuzzlePageSerializer(serializers.Serializer):
    """One page of a list (``?limit=&offset=``)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = PuzzleSerializer(many=True)


class PuzzleListApi(APIView):
    """Published puzzles, filtered by variant, goal, source, themes (all of them) and rating."""

    class PuzzleFilterSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices, required=False)
        goal = serializers.ChoiceField(choices=Goal.choices, required=False)
        source = serializers.ChoiceField(choices=Puzzle.Source.choices, required=False)
        themes = serializers.CharField(required=False, help_text="comma-separated theme slugs")
        rating_min = serializers.FloatField(required=False)
        rating_max = serializers.FloatField(required=False)
        limit = serializers.IntegerField(min_value=1, max_value=100, required=False)
        offset = serializers.IntegerField(min_value=0, required=False)

    class Pagination(LimitOffsetPagination):
        default_limit = 20
        max_limit = 100

    @extend_schema(
        operation_id="puzzles_list",
        parameters=[PuzzleFilterSerializer],
        responses={200: PuzzlePageSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        filters = self.PuzzleFilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        data = dict(filters.validated_data)
        for name in ("limit", "offset"):  # read by the paginator
            data.pop(name, None)
        themes = [t for t in data.pop("themes", "").split(",") if t.strip()]
        rows = selectors.puzzle_list(themes=[t.strip() for t in themes], **data)
        paginator = self.Pagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        serialized = PuzzleSerializer(
            page, many=True, context={"request": request, "with_moves": False}
        ).data
        return paginator.get_paginated_response(serialized)


class PuzzleDetailApi(APIView):
    """One puzzle. ``solution`` stays null until the player has finished a try (solved or
    given up); drafts are visible to their author only."""

    @extend_schema(
        operation_id="puzzles_get", responses={200: PuzzleSerializer, 404: ErrorSerializer}
    )
    def get(self, request: Request, puzzle_id: int) -> Response:
        return Response(_puzzle_data(_puzzle_or_404(puzzle_id, request), request))


class PuzzleNextApi(APIView):
    """The next puzzle for me: one I have not tried, near my rating in the variant plus the
    difficulty's offset (easiest −600 … hardest +600), with all the given themes."""

    class PuzzleNextQuerySerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices)
        themes = serializers.CharField(required=False, help_text="comma-separated theme slugs")
        difficulty = serializers.ChoiceField(
            choices=list(DIFFICULTY_OFFSETS), required=False, default="normal"
        )
        exclude = serializers.CharField(required=False, help_text="comma-separated puzzle ids")

    @extend_schema(
        operation_id="puzzles_next",
        parameters=[PuzzleNextQuerySerializer],
        responses={200: PuzzleSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        params = self.PuzzleNextQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        data = params.validated_data
        themes = [t.strip() for t in data.get("themes", "").split(",") if t.strip()]
        exclude = [int(x) for x in data.get("exclude", "").split(",") if x.strip().isdigit()]
        puzzle = selectors.puzzle_next_for(
            player=player_from_request(request, create=False),
            variant=data["variant"],
            themes=themes,
            difficulty=data["difficulty"],
            exclude=exclude,
        )
        if puzzle is None:
            raise Http404
        return Response(_puzzle_data(puzzle, request))


class DailyPuzzleSerializer(serializers.Serializer):
    date = serializers.DateField()
    variant = serializers.CharField()
    puzzle = serializers.SerializerMethodField()

    @extend_schema_field(PuzzleSerializer)
    def get_puzzle(self, daily: Any) -> Any:
        return _puzzle_data(daily.puzzle, self.context["request"])


class DailyPuzzleApi(APIView):
    """The daily puzzles (one per variant) of a date, default today in the site's time zone."""

    class DailyQuerySerializer(serializers.Serializer):
        date = serializers.DateField(required=False, help_text="default: today")

    @extend_schema(
        operation_id="puzzles_daily",
        parameters=[DailyQuerySerializer],
        responses={200: DailyPuzzleSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        params = self.DailyQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        day = params.validated_data.get("date") or timezone.localdate()
        if day == timezone.localdate():
            rows = services.daily_puzzles_ensure(date=day)
        else:
            rows = selectors.daily_puzzles_for(day)
        return Response(DailyPuzzleSerializer(rows, many=True, context={"request": request}).data)


class AttemptSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the attempt's id, issued by the server")
    puzzle = serializers.IntegerField(source="puzzle_id")
    state = serializers.CharField(
        help_text="started (being played), submitted (waiting to be scored), scored, abandoned"
    )
    result = serializers.CharField(help_text="pending, solved or failed")
    first_try = serializers.BooleanField(
        help_text="the player's first attempt at this puzzle: the only one that can be rated"
    )
    rated = serializers.BooleanField()
    hints_used = serializers.IntegerField()
    gave_up = serializers.BooleanField(help_text="the solution was shown before the end")
    seconds = serializers.IntegerField()
    moves = serializers.ListField(
        child=serializers.CharField(), help_text="the line as the server judged it, ICCS"
    )
    user_rating_before = serializers.FloatField(allow_null=True)
    user_rating_after = serializers.FloatField(allow_null=True)
    puzzle_rating_before = serializers.FloatField(allow_null=True)
    puzzle_rating_after = serializers.FloatField(allow_null=True)
    submitted_at = serializers.DateTimeField(allow_null=True)
    scored_at = serializers.DateTimeField(allow_null=True)
    status_url = serializers.SerializerMethodField()
    solution = serializers.SerializerMethodField()

    def get_status_url(self, attempt: PuzzleAttempt) -> str:
        return reverse("puzzles-api:attempt", kwargs={"attempt_id": attempt.pk})

    @extend_schema_field(SolutionSerializer(allow_null=True))
    def get_solution(self, attempt: PuzzleAttempt) -> dict[str, Any] | None:
        if not attempt.is_finished or not self.context.get("with_solution", True):
            return None
        return selectors.puzzle_solution(puzzle=attempt.puzzle)


class OpenAttemptSerializer(AttemptSerializer):
    """An attempt with where it stands: its line and the position after it."""

    line = PuzzleMoveSerializer(many=True, help_text="the moves played so far, both sides")
    fen = serializers.CharField(help_text="the position after the line")
    legal_moves = serializers.ListField(
        child=serializers.CharField(), help_text="my moves from ``fen`` (empty once it is over)"
    )
    check = serializers.CharField(allow_null=True)

    def to_representation(self, attempt: PuzzleAttempt) -> Any:
        data = AttemptSerializer(context=self.context).to_representation(attempt)
        where = services.attempt_position(attempt=attempt)
        data["line"] = PuzzleMoveSerializer(where.line, many=True).data
        data["fen"] = where.fen
        data["legal_moves"] = where.legal_moves
        data["check"] = where.check
        return data


class AttemptRequestSerializer(serializers.Serializer):
    attempt = serializers.IntegerField(
        min_value=1, help_text="the id of my open attempt (from …/attempts/)"
    )


def _attempt_player(request: Request) -> Any:
    """The player a request about an attempt speaks for; never makes a session."""
    return player_from_request(request, create=False)


class AttemptOpenApi(APIView):
    """Open an attempt at this puzzle, or go on with the one I have open (answers 201 for a
    new attempt, 200 for the open one, with its line so far). The server issues the id, holds
    the line and judges each move (…/judge/). Only my first attempt at a puzzle is rated (a
    logged-in player's, without hints or the solution shown)."""

    throttle_scope = "attempts"

    @extend_schema(
        operation_id="puzzles_attempt_open",
        request=None,
        responses={
            200: OpenAttemptSerializer,
            201: OpenAttemptSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _puzzle_or_404(puzzle_id, request, for_display=False)
        services.puzzle_tryable_check(puzzle=puzzle)  # before a session is made for nothing
        player = player_from_request(request)
        assert player is not None
        attempt, created = services.puzzle_attempt_open(puzzle=puzzle, player=player)
        return Response(
            OpenAttemptSerializer(attempt).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class PuzzleJudgeApi(APIView):
    """Play my next move in my open attempt; the server judges it against the proof.
    ``continue``: right, here is the defender's ``reply`` (and the position and my legal moves
    after it); ``solved``: the goal is reached; ``wrong``: the ``refutation`` shows how the
    defender escapes, and the try is over; ``unknown``: the move could not be judged in time
    and is not played (try another). ``attempt`` is the attempt after the move."""

    throttle_scope = "puzzle_judge"

    class MoveRequestSerializer(AttemptRequestSerializer):
        move = serializers.CharField(max_length=8, help_text="my move, ICCS, e.g. h2e2")
        ply = serializers.IntegerField(
            min_value=0,
            max_value=2 * MAX_MOVES_TO_WIN,
            required=False,
            help_text="where the move goes in the line (0 for the first move): a move sent "
            "again gets the same answer; one out of step is refused",
        )

    class JudgementSerializer(serializers.Serializer):
        verdict = serializers.ChoiceField(choices=["continue", "solved", "wrong", "unknown"])
        move = PuzzleMoveSerializer(help_text="my move just judged")
        reply = PuzzleMoveSerializer(allow_null=True)
        refutation = PuzzleMoveSerializer(many=True)
        reason = serializers.CharField(help_text="why, in words")
        fen = serializers.CharField()
        legal_moves = serializers.ListField(child=serializers.CharField())
        check = serializers.CharField(allow_null=True)
        termination = serializers.CharField(allow_null=True)
        attempt = AttemptSerializer()

    @extend_schema(
        operation_id="puzzles_judge",
        request=MoveRequestSerializer,
        responses={200: JudgementSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _puzzle_or_404(puzzle_id, request, for_display=False)
        body = self.MoveRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        attempt, result = services.puzzle_attempt_move(
            attempt_id=data["attempt"],
            puzzle=puzzle,
            player=_attempt_player(request),
            move=data["move"],
            ply=data.get("ply"),
        )
        # The solution is not in this answer: after a wrong move it is shown on request only,
        # so that a retry is still a puzzle (the attempt's status has it).
        judged = {**vars(result), "attempt": attempt}
        return Response(self.JudgementSerializer(judged, context={"with_solution": False}).data)


class PuzzleHintApi(APIView):
    """A hint for my next move in my open attempt: level 1 the piece to move, level 2 the
    move. The hint is recorded on the attempt, which can then no longer be rated."""

    throttle_scope = "puzzle_hints"

    class HintRequestSerializer(AttemptRequestSerializer):
        level = serializers.ChoiceField(choices=[1, 2], default=1)

    class HintSerializer(serializers.Serializer):
        level = serializers.IntegerField()
        square = serializers.CharField(help_text="the piece to move")
        move = serializers.CharField(allow_null=True, help_text="the move (level 2)")
        hints_used = serializers.IntegerField(help_text="hints taken in this attempt")

    @extend_schema(
        operation_id="puzzles_hint",
        request=HintRequestSerializer,
        responses={200: HintSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _puzzle_or_404(puzzle_id, request, for_display=False)
        body = self.HintRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        attempt, hint = services.puzzle_attempt_hint(
            attempt_id=data["attempt"],
            puzzle=puzzle,
            player=_attempt_player(request),
            level=int(data["level"]),
        )
        return Response(
            self.HintSerializer(
                {
                    "level": int(data["level"]),
                    "square": hint["from"],
                    "move": hint.get("move"),
                    "hints_used": attempt.hints_used,
                }
            ).data
        )


class PuzzleGiveUpApi(APIView):
    """Show the solution: my open attempt ends, failed and unrated, and the answer holds the
    solution. For an attempt already over it is the same attempt again, with its solution."""

    throttle_scope = "puzzle_judge"

    @extend_schema(
        operation_id="puzzles_give_up",
        request=AttemptRequestSerializer,
        responses={200: AttemptSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _puzzle_or_404(puzzle_id, request, for_display=False)
        body = AttemptRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        attempt = services.puzzle_attempt_give_up(
            attempt_id=body.validated_data["attempt"],
            puzzle=puzzle,
            player=_attempt_player(request),
        )
        return Response(AttemptSerializer(attempt).data)


class AttemptDetailApi(APIView):
    """One of my attempts: whether it is scored yet, the result and the rating changes."""

    @extend_schema(
        operation_id="puzzles_attempt_get", responses={200: AttemptSerializer, 404: ErrorSerializer}
    )
    def get(self, request: Request, attempt_id: int) -> Response:
        attempt = selectors.attempt_get(attempt_id=attempt_id)
        player = player_from_request(request, create=False)
        if attempt is None or not selectors.access_attempt_view(attempt=attempt, player=player):
            raise Http404
        return Response(AttemptSerializer(attempt).data)


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
        return stat.name_zh if _zh() else stat.name_en


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
        player = player_from_request(request, create=False)
        data: dict[str, Any] = {"ratings": [], "themes": [], "replays": [], "recent": []}
        if player is not None:
            if player.user is not None:
                rows = selectors.user_ratings(user=player.user)
                for variant in Variant.values:
                    row = rows.get(variant)
                    history = selectors.rating_history(user=player.user, variant=variant)
                    data["ratings"].append(
                        {
                            "variant": variant,
                            "rating": row.rating if row else None,
                            "deviation": row.deviation if row else None,
                            "games": row.games if row else 0,
                            "history": [[at.isoformat(), round(r, 1)] for at, r in history],
                        }
                    )
            data["themes"] = selectors.theme_stats(player=player)
            data["replays"] = selectors.replay_list(player=player)
            data["recent"] = selectors.attempt_history(player=player, limit=20)
        return Response(DashboardSerializer(data, context={"with_solution": False}).data)


# --- Authoring ------------------------------------------------------------------------------


class AuthoredListApi(APIView):
    """My puzzles (GET) and a new draft (POST). The position is checked at once: an illegal
    position is refused with the reason."""

    permission_classes = [IsAuthenticated]

    class DraftCreateSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices)
        fen = serializers.CharField(max_length=200)
        goal = serializers.ChoiceField(choices=Goal.choices, default=Goal.MATE)
        moves_to_win = serializers.IntegerField(min_value=1, max_value=MAX_MOVES_TO_WIN)
        title = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")

    @extend_schema(
        operation_id="puzzles_authored_list", responses={200: AuthoredPuzzleSerializer(many=True)}
    )
    def get(self, request: Request) -> Response:
        rows = selectors.authored_list(user=request.user)
        return Response(
            AuthoredPuzzleSerializer(
                rows, many=True, context={"request": request, "with_moves": False}
            ).data
        )

    @extend_schema(
        operation_id="puzzles_authored_create",
        request=DraftCreateSerializer,
        responses={201: AuthoredPuzzleSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        body = self.DraftCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        puzzle = services.puzzle_draft_create(author=request.user, **body.validated_data)
        return Response(
            AuthoredPuzzleSerializer(puzzle, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


def _authored_or_404(puzzle_id: int, request: Request) -> Puzzle:
    """One of my authored puzzles; to anyone but its author it does not exist (404), so that
    the ids of other people's drafts cannot be told from missing ones."""
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id)
    if (
        puzzle is None
        or puzzle.source != Puzzle.Source.AUTHORED
        or not selectors.access_puzzle_edit(puzzle=puzzle, user=request.user)
    ):
        raise Http404
    return puzzle


class AuthoredDetailApi(APIView):
    """One of my puzzles with its verification status (GET), or a change to a draft (PATCH).
    Published puzzles never change; a rejected one becomes a draft again when changed."""

    class DraftUpdateSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices, required=False)
        fen = serializers.CharField(max_length=200, required=False)
        goal = serializers.ChoiceField(choices=Goal.choices, required=False)
        moves_to_win = serializers.IntegerField(
            min_value=1, max_value=MAX_MOVES_TO_WIN, required=False
        )
        title = serializers.CharField(max_length=120, required=False, allow_blank=True)

    @extend_schema(
        operation_id="puzzles_authored_get",
        responses={200: AuthoredPuzzleSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _authored_or_404(puzzle_id, request)
        return Response(AuthoredPuzzleSerializer(puzzle, context={"request": request}).data)

    @extend_schema(
        operation_id="puzzles_authored_update",
        request=DraftUpdateSerializer,
        responses={200: AuthoredPuzzleSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
    )
    def patch(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _authored_or_404(puzzle_id, request)
        body = self.DraftUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        puzzle = services.puzzle_draft_update(
            puzzle=puzzle, author=request.user, **body.validated_data
        )
        return Response(AuthoredPuzzleSerializer(puzzle, context={"request": request}).data)


class AuthoredSubmitApi(APIView):
    """Send my draft to be verified. Answers 202; the prover runs in the background and the
    puzzle becomes ``published`` (sound and unique) or ``rejected`` with the reason. One puzzle
    of an author is verified at a time: while another is, the answer is 400 (code
    ``author_verifying``); when the prover's queue is full, 503 with Retry-After (code
    ``proving_queue_full``). The draft stays a draft in both cases."""

    @extend_schema(
        operation_id="puzzles_authored_submit",
        request=None,
        responses={
            202: AuthoredPuzzleSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            503: ErrorSerializer,
        },
    )
    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _authored_or_404(puzzle_id, request)
        try:
            puzzle = services.puzzle_draft_submit(puzzle=puzzle, author=request.user)
        except services.ProvingQueueFullError as error:
            full = Response(
                error_body(error.localized(), error.extra, code=error.code, params=error.params),
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
            full["Retry-After"] = str(error.retry_after)
            return full
        return Response(
            AuthoredPuzzleSerializer(puzzle, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED,
        )


class PositionCheckApi(APIView):
    """Check a position for the editor: can a puzzle be made from it? Answers the normalised
    FEN and the side to move, or 400 with the reason (which rank, what is wrong)."""

    class PositionCheckRequestSerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices)
        fen = serializers.CharField(max_length=200)
        goal = serializers.ChoiceField(choices=Goal.choices, default=Goal.MATE)
        moves_to_win = serializers.IntegerField(min_value=1, max_value=MAX_MOVES_TO_WIN, default=1)

    class PositionCheckSerializer(serializers.Serializer):
        fen = serializers.CharField()
        turn = serializers.CharField()

    @extend_schema(
        operation_id="puzzles_position_check",
        request=PositionCheckRequestSerializer,
        responses={200: PositionCheckSerializer, 400: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        body = self.PositionCheckRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        checked = services.puzzle_position_check(**body.validated_data)
        return Response(self.PositionCheckSerializer(checked).data)
