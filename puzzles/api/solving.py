"""The puzzles API for solvers: themes, lists, one puzzle, the next one for me, the daily
puzzles, and playing an attempt (open, move, hint, give up, status). The solution of a puzzle
is never sent before the player has finished a try (solved or given up); moves are judged on
the server."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.owners import Owner, owner_for_request
from core.addresses import address_key
from core.api_helpers import (
    CommaSeparatedField,
    found_or_404,
    operation,
    post_operation,
    request_body,
    request_query,
)
from puzzles import selectors, services
from puzzles.api.serializers import (
    AttemptRequestSerializer,
    AttemptSerializer,
    OpenAttemptSerializer,
    PuzzleMoveSerializer,
    PuzzleSerializer,
    ThemeSerializer,
)
from puzzles.models import MAX_MOVES_TO_WIN, Goal, Puzzle, Variant
from puzzles.selectors import DIFFICULTY_LABELS, DIFFICULTY_OFFSETS
from puzzles.themes import CATALOGUE

THEME_SLUGS = tuple(theme.slug for theme in CATALOGUE)
# Above any puzzle's rating (they start between 1000 and 2400 and move by tens).
RATING_MAX = 5_000
# Far past the end of any bank; a larger offset only makes PostgreSQL skip more rows.
LIST_OFFSET_MAX = 100_000


def _puzzle_or_404(puzzle_id: int, request: Request, *, for_display: bool = True) -> Puzzle:
    puzzle = selectors.puzzle_get(puzzle_id=puzzle_id, for_display=for_display)
    player = owner_for_request(request, create=False)
    seen = puzzle is not None and selectors.access_puzzle_view(
        puzzle=puzzle, user=request.user, player=player
    )
    return found_or_404(puzzle if seen else None)


def puzzle_data(
    puzzle: Puzzle,
    request: Request,
    serializer: type[PuzzleSerializer] = PuzzleSerializer,
    **extra: Any,
) -> Any:
    """One puzzle as a solver sees it, with its first moves (and its solution if allowed);
    ``extra`` goes into the serializer's context."""
    player = owner_for_request(request, create=False)
    context = {
        "request": request,
        "player": player,
        "with_solution": True,
        "opening": selectors.puzzle_opening(puzzle=puzzle),
        **extra,
    }
    return serializer(puzzle, context=context).data


class AttemptActionApi(APIView):
    """A move, hint or give-up in my open attempt: the puzzle (404 if it cannot be seen), the
    body (``InputSerializer``, which names the attempt) and the player it speaks for (never
    making a session); ``act`` calls the service and gives the answer (``OutputSerializer``).

    The answer is made in the service's transaction, before anything is committed: when the
    database is lost while it is being made (the themes of a finished try are read for it),
    the answer is a 503 and nothing was played, so a client that tries again, or opens the
    attempt again, goes on with the same try. Answered 503 after the commit, the same error
    would have sent a client that opens the attempt again into a second, unrated attempt."""

    InputSerializer: ClassVar[type[serializers.Serializer]] = AttemptRequestSerializer
    OutputSerializer: ClassVar[type[serializers.Serializer]]
    throttle_scope = "puzzle_judge"

    def act(
        self, *, puzzle: Puzzle, player: Owner | None, body: dict[str, Any], address: str
    ) -> Any:
        raise NotImplementedError

    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _puzzle_or_404(puzzle_id, request, for_display=False)
        body = request_body(self.InputSerializer, request)
        player = owner_for_request(request, create=False)
        address = address_key(request)
        with transaction.atomic():
            answer = self.act(puzzle=puzzle, player=player, body=body, address=address)
        return Response(answer)


class ThemeListApi(APIView):
    """Every puzzle theme, with how many published puzzles have it; with ``?variant=``, only
    the themes a puzzle of that variant can have (no fighter in traditional xiangqi), with
    how many published puzzles of the variant have each."""

    class ThemeQuerySerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices, required=False)

    @operation(
        "puzzles_themes",
        ThemeSerializer(many=True),
        errors=(400,),
        parameters=[ThemeQuerySerializer],
    )
    def get(self, request: Request) -> Response:
        params = request_query(self.ThemeQuerySerializer, request, blank_is_absent=False)
        rows = selectors.theme_list(variant=params.get("variant"))
        return Response(ThemeSerializer(rows, many=True).data)


class ThemesField(CommaSeparatedField):
    """``?themes=``: known theme slugs, each at most once. More than there are themes cannot
    be a list of different known ones, so that is the cap."""

    def __init__(self) -> None:
        super().__init__(
            choices=THEME_SLUGS,
            max_items=len(THEME_SLUGS),
            default=list,
            help_text="comma-separated theme slugs (all of them), each known",
        )


# The trainer sends the last 50 puzzles it showed; a longer list only makes the query longer.
NEXT_EXCLUDE_MAX = 50


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
        source = serializers.ChoiceField(  # type: ignore[assignment]  # named like Field.source
            choices=Puzzle.Source.choices, required=False
        )
        themes = ThemesField()
        rating_min = serializers.FloatField(min_value=0, max_value=RATING_MAX, required=False)
        rating_max = serializers.FloatField(min_value=0, max_value=RATING_MAX, required=False)
        limit = serializers.IntegerField(min_value=1, max_value=100, required=False)
        offset = serializers.IntegerField(min_value=0, max_value=LIST_OFFSET_MAX, required=False)

    class Pagination(LimitOffsetPagination):
        default_limit = 20
        max_limit = 100

    @operation(
        "puzzles_list", PuzzlePageSerializer, errors=(400,), parameters=[PuzzleFilterSerializer]
    )
    def get(self, request: Request) -> Response:
        data = request_query(self.PuzzleFilterSerializer, request, blank_is_absent=False)
        for name in ("limit", "offset"):  # read by the paginator
            data.pop(name, None)
        rows = selectors.puzzle_list(**data)
        paginator = self.Pagination()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        player = owner_for_request(request, create=False)
        # The themes of the puzzles on the page that the player has finished a try at.
        over = selectors.access_solution_view_many(puzzles=page, player=player)
        try_over = {puzzle.pk: puzzle.pk in over for puzzle in page}
        context = {"request": request, "player": player, "try_over": try_over}
        serialized = PuzzleSerializer(page, many=True, context=context).data
        return paginator.get_paginated_response(serialized)


class PuzzleDetailApi(APIView):
    """One puzzle. ``solution`` stays null until the player has finished a try (solved or
    given up); drafts are visible to their author only."""

    @operation("puzzles_get", PuzzleSerializer, errors=(404,))
    def get(self, request: Request, puzzle_id: int) -> Response:
        return Response(puzzle_data(_puzzle_or_404(puzzle_id, request), request))


class RelaxedSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=["rating", "tried"],
        help_text="rating: none was left in the difficulty's rating range, the nearest was "
        "taken; tried: every matching puzzle has been tried, this one is offered again",
    )
    message = serializers.CharField(help_text="the same, in the reader's language")


class PuzzleNextSerializer(PuzzleSerializer):
    """The next puzzle, with the rating range the difficulty asked for and what had to be
    relaxed to find it (empty when nothing was)."""

    rating_range = serializers.SerializerMethodField(
        help_text="[min, max]: the ratings the difficulty asks for (empty for pool=mine)"
    )
    relaxed = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_rating_range(self, puzzle: Puzzle) -> list[int]:
        pick = self.context.get("pick")  # none for my own games' puzzles: no rating asked for
        return [pick.rating_min, pick.rating_max] if pick else []

    @extend_schema_field(RelaxedSerializer(many=True))
    def get_relaxed(self, puzzle: Puzzle) -> list[dict[str, str]]:
        pick = self.context.get("pick")
        if pick is None:
            return []
        difficulty = DIFFICULTY_LABELS[self.context["difficulty"]]
        texts = {
            "rating": _(
                "No puzzle rated %(low)s–%(high)s (“%(difficulty)s”) is left with these "
                "filters: this one is rated %(rating)s."
            )
            % {
                "low": pick.rating_min,
                "high": pick.rating_max,
                "difficulty": difficulty,
                "rating": round(puzzle.rating),
            },
            "tried": _(
                "You have tried every puzzle that matches these filters: here is one again."
            ),
        }
        return [{"code": code, "message": texts[code]} for code in pick.relaxed]


class PuzzleNextApi(APIView):
    """The next puzzle for me: one I have not tried, rated within 150 of my rating in the
    variant plus the difficulty's offset (easiest −600 … hardest +600), with all the given
    themes (one the variant cannot have finds none). ``relaxed`` says when none was left in that range
    (the nearest is given) or every matching puzzle has been tried (one is given again)."""

    class PuzzleNextQuerySerializer(serializers.Serializer):
        variant = serializers.ChoiceField(choices=Variant.choices)
        themes = ThemesField()
        difficulty = serializers.ChoiceField(
            choices=list(DIFFICULTY_OFFSETS), required=False, default="normal"
        )
        exclude = CommaSeparatedField(
            digits=True,
            max_items=NEXT_EXCLUDE_MAX,
            item_length=18,
            default=list,
            help_text=f"comma-separated puzzle ids, at most {NEXT_EXCLUDE_MAX}",
        )
        pool = serializers.ChoiceField(
            choices=["bank", "mine"],
            required=False,
            default="bank",
            help_text="bank: the puzzle bank; mine: the mates missed in my own games",
        )
        kind = serializers.ChoiceField(
            choices=list(selectors.KINDS),
            required=False,
            default=selectors.KIND_ALL,
            help_text="all; mates: the proved mates; tactics: win material (goal material)",
        )

    @operation(
        "puzzles_next",
        PuzzleNextSerializer,
        errors=(400, 404),
        parameters=[PuzzleNextQuerySerializer],
    )
    def get(self, request: Request) -> Response:
        data = request_query(self.PuzzleNextQuerySerializer, request, blank_is_absent=False)
        player = owner_for_request(request, create=False)
        if data.pop("pool") == "mine":
            data.pop("kind")
            puzzle = selectors.missed_next_for(
                player=player, variant=data["variant"], exclude=data["exclude"]
            )
            return Response(puzzle_data(found_or_404(puzzle), request, PuzzleNextSerializer))
        pick = selectors.puzzle_next_pick(player=player, **data)
        puzzle = found_or_404(pick.puzzle if pick else None)
        answer = puzzle_data(
            puzzle, request, PuzzleNextSerializer, pick=pick, difficulty=data["difficulty"]
        )
        return Response(answer)


class DailyPuzzleSerializer(serializers.Serializer):
    date = serializers.DateField()
    variant = serializers.CharField()
    puzzle = serializers.SerializerMethodField()

    @extend_schema_field(PuzzleSerializer)
    def get_puzzle(self, daily: Any) -> Any:
        return puzzle_data(daily.puzzle, self.context["request"])


class DailyPuzzleApi(APIView):
    """The daily puzzles (one per variant) of a date, default today in the site's time zone."""

    class DailyQuerySerializer(serializers.Serializer):
        date = serializers.DateField(required=False, help_text="default: today")

    @operation(
        "puzzles_daily",
        DailyPuzzleSerializer(many=True),
        errors=(400,),
        parameters=[DailyQuerySerializer],
    )
    def get(self, request: Request) -> Response:
        params = request_query(self.DailyQuerySerializer, request, blank_is_absent=False)
        day = params.get("date") or timezone.localdate()
        if day == timezone.localdate():
            rows = services.daily_puzzles_ensure(date=day)
        else:
            rows = selectors.daily_puzzles_for(day)
        return Response(DailyPuzzleSerializer(rows, many=True, context={"request": request}).data)


class AttemptOpenApi(APIView):
    """Open an attempt at this puzzle, or go on with the one I have open (answers 201 for a
    new attempt, 200 for the open one, with its line so far). The server issues the id, holds
    the line and judges each move (…/judge/). Only my first attempt at a puzzle is rated (a
    logged-in player's, without hints or the solution shown)."""

    throttle_scope = "attempts"

    @operation(
        "puzzles_attempt_open",
        OpenAttemptSerializer,
        also={201: OpenAttemptSerializer},
        request=None,
    )
    def post(self, request: Request, puzzle_id: int) -> Response:
        puzzle = _puzzle_or_404(puzzle_id, request, for_display=False)
        services.puzzle_tryable_check(puzzle=puzzle)  # before a session is made for nothing
        player = owner_for_request(request)
        assert player is not None
        attempt, created = services.puzzle_attempt_open(puzzle=puzzle, player=player)
        where = services.attempt_position(attempt=attempt)
        return Response(
            OpenAttemptSerializer(attempt, context={"where": where}).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


@post_operation("puzzles_judge")
class PuzzleJudgeApi(AttemptActionApi):
    """Play my next move in my open attempt; the server judges it against the proof.
    ``continue``: right, here is the defender's ``reply`` (and the position and my legal moves
    after it); ``solved``: the goal is reached; ``wrong``: the ``refutation`` shows how the
    defender escapes, and the try is over; ``unknown``: the move could not be judged in time
    and is not played (try another). ``attempt`` is the attempt after the move."""

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
        verdict = serializers.ChoiceField(
            choices=["continue", "solved", "wrong", "unknown", "good"]
        )
        move = PuzzleMoveSerializer(help_text="my move just judged")
        reply = PuzzleMoveSerializer(allow_null=True)
        refutation = PuzzleMoveSerializer(many=True)
        reason = serializers.CharField(help_text="why, in words")
        fen = serializers.CharField()
        legal_moves = serializers.ListField(child=serializers.CharField())
        check = serializers.CharField(allow_null=True)
        termination = serializers.CharField(allow_null=True)
        attempt = AttemptSerializer()

    InputSerializer = MoveRequestSerializer
    OutputSerializer = JudgementSerializer

    def act(
        self, *, puzzle: Puzzle, player: Owner | None, body: dict[str, Any], address: str
    ) -> Any:
        attempt, result = services.puzzle_attempt_move(
            attempt_id=body["attempt"],
            puzzle=puzzle,
            player=player,
            move=body["move"],
            ply=body.get("ply"),
            address=address,
        )
        # The solution is not in this answer: after a wrong move it is shown on request only,
        # so that a retry is still a puzzle (the attempt's status has it).
        judged = {**vars(result), "attempt": attempt}
        return self.JudgementSerializer(judged, context={"with_solution": False}).data


@post_operation("puzzles_hint")
class PuzzleHintApi(AttemptActionApi):
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

    InputSerializer = HintRequestSerializer
    OutputSerializer = HintSerializer

    def act(
        self, *, puzzle: Puzzle, player: Owner | None, body: dict[str, Any], address: str
    ) -> Any:
        level = int(body["level"])
        attempt, hint = services.puzzle_attempt_hint(
            attempt_id=body["attempt"], puzzle=puzzle, player=player, level=level, address=address
        )
        answer = {"level": level, "square": hint["from"], "move": hint.get("move")}
        return self.HintSerializer({**answer, "hints_used": attempt.hints_used}).data


@post_operation("puzzles_give_up")
class PuzzleGiveUpApi(AttemptActionApi):
    """Show the solution: my open attempt ends, failed and unrated, and the answer holds the
    solution. For an attempt already over it is the same attempt again, with its solution."""

    OutputSerializer = AttemptSerializer

    def act(
        self, *, puzzle: Puzzle, player: Owner | None, body: dict[str, Any], address: str
    ) -> Any:
        attempt = services.puzzle_attempt_give_up(
            attempt_id=body["attempt"], puzzle=puzzle, player=player, address=address
        )
        return AttemptSerializer(attempt).data


class AttemptDetailApi(APIView):
    """One of my attempts: whether it is scored yet, the result and the rating changes."""

    @operation("puzzles_attempt_get", AttemptSerializer, errors=(404,))
    def get(self, request: Request, attempt_id: int) -> Response:
        attempt = selectors.attempt_get(attempt_id=attempt_id)
        player = owner_for_request(request, create=False)
        seen = attempt is not None and selectors.access_attempt_view(attempt=attempt, player=player)
        return Response(AttemptSerializer(found_or_404(attempt if seen else None)).data)
