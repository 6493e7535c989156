"""The puzzles API for Puzzle Streak and Puzzle Storm (``services.runs``): start or resume a
run, play a move in it, skip (streak), stop, and the day's leaderboard. The page only ever
sends a move: the server judges it, counts the score and keeps a storm's clock. The current
puzzle is sent without its solution; runs are unrated.

A run lives in the session (a visitor's) or the account: a request that brings none of the
site's cookies could never find its run again, so it is refused (``run.cookies_needed``)
before anything is written."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.owners import owner_for_request
from core.addresses import address_key
from core.api_helpers import operation, request_body, request_query
from core.exceptions import ApplicationError
from core.models import Variant
from puzzles import selectors
from puzzles.api.serializers import PuzzleMoveSerializer
from puzzles.models import MAX_MOVES_TO_WIN, Puzzle, PuzzleRun
from puzzles.services import runs

# Far more than any sequence holds (every puzzle of a variant once).
INDEX_MAX = 100_000


def _puzzle_row(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "id": puzzle.pk,
        "variant": puzzle.variant,
        "goal": puzzle.goal,
        "moves_to_win": puzzle.moves_to_win,
        "rating": round(puzzle.rating),
        "url": reverse("puzzles:share", kwargs={"slug": puzzle.slug}),
    }


class RunPuzzleSerializer(serializers.Serializer):
    """The puzzle a run has reached, where its line stands: never its solution."""

    id = serializers.IntegerField()
    variant = serializers.CharField()
    start_fen = serializers.CharField(help_text="the puzzle's position")
    turn = serializers.CharField(help_text="the attacker: red or black")
    goal = serializers.CharField(help_text="mate, dead_general or win")
    moves_to_win = serializers.IntegerField()
    rating = serializers.IntegerField()
    line = PuzzleMoveSerializer(many=True, help_text="the moves played in it so far")
    fen = serializers.CharField(help_text="the position after the line")
    legal_moves = serializers.ListField(child=serializers.CharField())
    check = serializers.CharField(allow_null=True)


class MissedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.CharField()
    goal = serializers.CharField()
    moves_to_win = serializers.IntegerField()
    rating = serializers.IntegerField()
    url = serializers.CharField(help_text="its page in the trainer, to try it again")


class PlayedSerializer(MissedSerializer):
    result = serializers.CharField(help_text="solved, missed or skipped")


class RunSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    mode = serializers.CharField(help_text="streak or storm")
    variant = serializers.CharField()
    day = serializers.DateField(help_text="the leaderboard it counts for")
    open = serializers.BooleanField(source="is_open", help_text="still being played")
    end = serializers.CharField(help_text="wrong, time, complete or stopped; empty while open")
    end_text = serializers.CharField(source="get_end_display")
    index = serializers.IntegerField(help_text="the puzzle reached (0 for the first)")
    ply = serializers.SerializerMethodField(help_text="moves played in that puzzle")
    total = serializers.SerializerMethodField(help_text="puzzles in the run's sequence")
    score = serializers.IntegerField(help_text="puzzles solved")
    combo = serializers.IntegerField(help_text="puzzles solved in a row")
    best_combo = serializers.IntegerField()
    skip_used = serializers.BooleanField()
    time_left = serializers.SerializerMethodField(
        help_text="a storm's seconds left on the server's clock; null for a streak"
    )
    too_fast = serializers.BooleanField(
        help_text="too many of its moves came sooner than a person can move: not listed"
    )
    listed = serializers.SerializerMethodField(
        help_text="counts on the day's leaderboard (a signed-in player's run, not too fast)"
    )
    missed = serializers.SerializerMethodField(help_text="the puzzles missed, to review")
    played = serializers.SerializerMethodField(
        help_text="once the run is over (else empty): every puzzle it reached, in its order, "
        "each solved, missed or skipped, with its page in the trainer"
    )
    puzzle = serializers.SerializerMethodField()

    def get_listed(self, run: PuzzleRun) -> bool:
        return run.user_id is not None and not run.too_fast

    def get_ply(self, run: PuzzleRun) -> int:
        return len(run.line)

    def get_total(self, run: PuzzleRun) -> int:
        return len(run.puzzles)

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_time_left(self, run: PuzzleRun) -> float | None:
        left = runs.run_time_left(run)
        return None if left is None else round(left, 2)

    @extend_schema_field(MissedSerializer(many=True))
    def get_missed(self, run: PuzzleRun) -> Any:
        found = Puzzle.objects.in_bulk(run.missed)
        rows = [_puzzle_row(puzzle) for puzzle in (found.get(pk) for pk in run.missed) if puzzle]
        return MissedSerializer(rows, many=True).data

    @extend_schema_field(PlayedSerializer(many=True))
    def get_played(self, run: PuzzleRun) -> Any:
        """The puzzles before the one the run stopped at, and that one when it was missed (a
        streak ends on its wrong move without going on); a storm's puzzle left when the time
        ran out, or a run stopped, was not played to an end and is not listed."""
        if run.is_open:
            return []
        reached = list(run.puzzles[: run.index])
        if run.index < len(run.puzzles) and run.puzzles[run.index] in run.missed:
            reached.append(run.puzzles[run.index])
        found = Puzzle.objects.in_bulk(reached)
        missed, skipped = set(run.missed), set(run.skipped)
        rows = []
        for pk in reached:
            puzzle = found.get(pk)
            if puzzle is None:
                continue
            result = "missed" if pk in missed else "skipped" if pk in skipped else "solved"
            rows.append({**_puzzle_row(puzzle), "result": result})
        return PlayedSerializer(rows, many=True).data

    @extend_schema_field(RunPuzzleSerializer(allow_null=True))
    def get_puzzle(self, run: PuzzleRun) -> Any:
        puzzle = runs.run_puzzle(run)
        if puzzle is None:
            return None
        where = runs.run_position(run, puzzle)
        side = puzzle.fen.split()[1] if len(puzzle.fen.split()) > 1 else "w"
        data = {
            "id": puzzle.pk,
            "variant": puzzle.variant,
            "start_fen": puzzle.fen,
            "turn": "black" if side == "b" else "red",
            "goal": puzzle.goal,
            "moves_to_win": puzzle.moves_to_win,
            "rating": round(puzzle.rating),
            "line": where.line,
            "fen": where.fen,
            "legal_moves": where.legal_moves,
            "check": where.check,
        }
        return RunPuzzleSerializer(data).data


def holds_cookies(request: Request) -> bool:
    """Whether the request brings back a cookie the site set (the session's, or the CSRF
    cookie every page sets): a client that keeps cookies, which will keep the session a
    visitor's run lives in."""
    cookies = request._request.COOKIES
    return settings.SESSION_COOKIE_NAME in cookies or settings.CSRF_COOKIE_NAME in cookies


class RunQuerySerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=PuzzleRun.Mode.choices)
    variant = serializers.ChoiceField(choices=Variant.choices)


class RunsApi(APIView):
    """GET: my run in progress of ``mode`` and ``variant`` (``run`` is null when none).
    POST: start a run, or go on with the one in progress (201 for a new run, 200 for it). A
    new run leaves out the puzzles whose solution I have been shown (``run.all_seen`` when
    that is all of them); a visitor's request without the site's cookies is refused
    (``run.cookies_needed``): its run could never be found again."""

    throttle_scope = "puzzle_runs"

    class RunCurrentSerializer(serializers.Serializer):
        run = RunSerializer(allow_null=True)

    @operation(
        "puzzles_runs_current", RunCurrentSerializer, errors=(400,), parameters=[RunQuerySerializer]
    )
    def get(self, request: Request) -> Response:
        query = request_query(RunQuerySerializer, request, blank_is_absent=False)
        player = owner_for_request(request, create=False)
        run = runs.run_current(player=player, **query)
        return Response({"run": RunSerializer(run).data if run else None})

    @operation(
        "puzzles_runs_start", RunSerializer, also={201: RunSerializer}, request=RunQuerySerializer
    )
    def post(self, request: Request) -> Response:
        body = request_body(RunQuerySerializer, request)
        if not request.user.is_authenticated and not holds_cookies(request):
            raise ApplicationError.coded(
                "run.cookies_needed", extra={"field": "session", "code": "cookies_needed"}
            )
        player = owner_for_request(request)
        assert player is not None
        run, created = runs.run_start(player=player, address=address_key(request), **body)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(RunSerializer(run).data, status=code)


class RunDetailApi(APIView):
    """One of my runs, as it stands (a storm whose time ran out shows ``time_left`` 0)."""

    @operation("puzzles_runs_get", RunSerializer, errors=(404,))
    def get(self, request: Request, run_id: int) -> Response:
        player = owner_for_request(request, create=False)
        return Response(RunSerializer(runs.run_get(run_id=run_id, player=player)).data)


class RunMoveApi(APIView):
    """Play my move in the run's current puzzle (``index``, at ``ply`` of its line). The
    answer: ``continue`` (right; the defender's ``reply`` is played), ``solved`` (the next
    puzzle is in ``run``), ``wrong`` (a streak ends; a storm loses seconds and goes on; with
    ``reason`` ``solution_seen`` when the puzzle's solution was shown to me, whatever the
    move) or ``unknown`` (not judged in time, not played). A request out of step is refused
    (400) and changes nothing; so is a storm move after its clock ran out, which ends the
    run."""

    throttle_scope = "puzzle_run_moves"

    class RunMoveRequestSerializer(serializers.Serializer):
        index = serializers.IntegerField(min_value=0, max_value=INDEX_MAX)
        ply = serializers.IntegerField(min_value=0, max_value=2 * MAX_MOVES_TO_WIN)
        move = serializers.CharField(max_length=8, help_text="my move, ICCS, e.g. h2e2")

    class RunMoveAnswerSerializer(serializers.Serializer):
        verdict = serializers.ChoiceField(
            choices=["continue", "solved", "wrong", "unknown", "good"]
        )
        reason = serializers.CharField(
            help_text="solution_seen: missed without being judged, for the puzzle's solution "
            "was shown to me (in the trainer, a hint, or from my address); else empty"
        )
        move = PuzzleMoveSerializer(allow_null=True)
        reply = PuzzleMoveSerializer(allow_null=True)
        refutation = PuzzleMoveSerializer(
            many=True,
            help_text="a streak's wrong move: the answer that refutes it (a mate's escaping "
            "defence, a tactic's best reply); empty in a storm, which goes on",
        )
        explanation = serializers.CharField(
            help_text="a streak's wrong move: why it fails, in words (a tactic's: what the reply "
            "wins or saves; a mate's: the defence's reason); else empty"
        )
        seconds = serializers.IntegerField(help_text="a storm's seconds won or lost by it")
        run = RunSerializer()

    @operation("puzzles_runs_move", RunMoveAnswerSerializer, request=RunMoveRequestSerializer)
    def post(self, request: Request, run_id: int) -> Response:
        body = request_body(self.RunMoveRequestSerializer, request)
        player = owner_for_request(request, create=False)
        run, answer = runs.run_move(
            run_id=run_id, player=player, address=address_key(request), **body
        )
        return Response(self.RunMoveAnswerSerializer({**vars(answer), "run": run}).data)


class RunSkipApi(APIView):
    """Skip the streak's current puzzle ``index`` (once a run)."""

    throttle_scope = "puzzle_run_moves"

    class RunSkipRequestSerializer(serializers.Serializer):
        index = serializers.IntegerField(min_value=0, max_value=INDEX_MAX)

    @operation("puzzles_runs_skip", RunSerializer, request=RunSkipRequestSerializer)
    def post(self, request: Request, run_id: int) -> Response:
        body = request_body(self.RunSkipRequestSerializer, request)
        player = owner_for_request(request, create=False)
        return Response(RunSerializer(runs.run_skip(run_id=run_id, player=player, **body)).data)


class RunStopApi(APIView):
    """End my run now, with its score as it stands."""

    throttle_scope = "puzzle_run_moves"

    @operation("puzzles_runs_stop", RunSerializer, request=None)
    def post(self, request: Request, run_id: int) -> Response:
        player = owner_for_request(request, create=False)
        return Response(RunSerializer(runs.run_stop(run_id=run_id, player=player)).data)


class LeaderboardApi(APIView):
    """A day's leaderboard of a mode and variant (default today): each signed-in player's
    best score that day, highest first. Visitors play too, but are not listed; nor is a run
    whose moves came faster than a person can move (``too_fast``)."""

    class LeaderboardQuerySerializer(RunQuerySerializer):
        date = serializers.DateField(required=False, help_text="default: today")

    class LeaderboardRowSerializer(serializers.Serializer):
        rank = serializers.IntegerField()
        username = serializers.CharField()
        score = serializers.IntegerField()

    @operation(
        "puzzles_runs_leaderboard",
        LeaderboardRowSerializer(many=True),
        errors=(400,),
        parameters=[LeaderboardQuerySerializer],
    )
    def get(self, request: Request) -> Response:
        query = request_query(self.LeaderboardQuerySerializer, request, blank_is_absent=False)
        day = query.pop("date", None) or timezone.localdate()
        rows = selectors.run_leaderboard(day=day, **query)
        return Response(self.LeaderboardRowSerializer(rows, many=True).data)
