"""The serializers the puzzles API shares: puzzles, moves, solutions and attempts. They only
shape data: what needs the engine (legal moves, the position of an attempt) is read by the
views and handed over in the serializer's context."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.messages import reads_chinese
from puzzles import selectors
from puzzles.classics import classic_title, collection_name
from puzzles.models import Puzzle, PuzzleAttempt
from puzzles.selectors import pattern_names, puzzle_game


class PuzzleMoveSerializer(serializers.Serializer):
    iccs = serializers.CharField(help_text="ICCS, e.g. h2e2")
    chinese = serializers.CharField(help_text="Chinese notation, e.g. 炮二平五")
    fen = serializers.CharField(help_text="the position after the move")


class SolutionSerializer(serializers.Serializer):
    key = serializers.CharField(allow_null=True, help_text="the first move (ICCS)")
    line = PuzzleMoveSerializer(many=True, help_text="the main line: key, best defence, ...")


class PatternNameSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="the pattern's theme slug, e.g. horse_cannon")
    name = serializers.CharField(help_text="in the reader's language")
    url = serializers.CharField(help_text="its section on the patterns page")


class ThemeSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    published = serializers.IntegerField(required=False, help_text="published puzzles with it")

    def get_name(self, theme: Any) -> str:
        return theme.name_zh if reads_chinese() else theme.name_en

    def get_description(self, theme: Any) -> str:
        return theme.description_zh if reads_chinese() else theme.description_en


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
    themes = serializers.SerializerMethodField(
        help_text="theme slugs, once the player's try is over (else null): a theme such as "
        "quiet_move, sacrifice or checks_only gives the answer away"
    )
    patterns = serializers.SerializerMethodField(
        help_text="the named kill patterns of the mate, once the player's try is over (else null)"
    )
    # A field named like Field.source, which the stubs type as an attribute.
    source = serializers.CharField(help_text="mined, classic or authored")  # type: ignore[assignment]
    title = serializers.SerializerMethodField()
    collection = serializers.SerializerMethodField(help_text="the book, in the reader's language")
    author = serializers.SerializerMethodField()
    status = serializers.CharField()
    proof_mode = serializers.SerializerMethodField(
        help_text="full, or checks_only (proved among checks), once the player's try is over "
        "(else null): checks only gives the answer's kind away"
    )
    share_url = serializers.SerializerMethodField()
    legal_moves = serializers.SerializerMethodField(help_text="the attacker's first moves, ICCS")
    check = serializers.SerializerMethodField(help_text="point of a general in check, or null")
    solution = serializers.SerializerMethodField()
    checked_by = serializers.SerializerMethodField(
        help_text="which engine judged a win-material puzzle, on what search, and what it "
        "decided at the first move, in the reader's language, once the try is over (else null; "
        "null for a proved mate)"
    )
    game = serializers.SerializerMethodField(
        help_text="for a puzzle from a master game: the game, the ply, a title and its replay"
    )

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_game(self, puzzle: Puzzle) -> dict[str, Any] | None:
        return puzzle_game(puzzle)

    def get_turn(self, puzzle: Puzzle) -> str:
        return "red" if puzzle.fen.split()[1] in ("w", "r") else "black"

    def get_rating(self, puzzle: Puzzle) -> int:
        return round(puzzle.rating)

    def get_rating_deviation(self, puzzle: Puzzle) -> int:
        return round(puzzle.rating_deviation)

    def _try_over(self, puzzle: Puzzle) -> bool:
        """Whether the player may see the answer: the solution's rule (a try finished, or the
        author of a published puzzle). Themes and kill patterns give the answer away. A list
        passes ``try_over`` in the context, read for the whole page at once."""
        cache = self.context.setdefault("try_over", {})
        if puzzle.pk not in cache:
            player = self.context.get("player")
            cache[puzzle.pk] = selectors.access_solution_view(puzzle=puzzle, player=player)
        return bool(cache[puzzle.pk])

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_themes(self, puzzle: Puzzle) -> list[str] | None:
        if not self._try_over(puzzle):
            return None
        return [theme.slug for theme in puzzle.themes.all()]

    @extend_schema_field(PatternNameSerializer(many=True, allow_null=True))
    def get_patterns(self, puzzle: Puzzle) -> list[dict[str, str]] | None:
        if not self._try_over(puzzle):
            return None
        return pattern_names([theme.slug for theme in puzzle.themes.all()])

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_proof_mode(self, puzzle: Puzzle) -> str | None:
        if not self._try_over(puzzle):
            return None
        return str(puzzle.proof_mode)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_checked_by(self, puzzle: Puzzle) -> str | None:
        if not self._try_over(puzzle):
            return None
        return selectors.puzzle_judge_text(puzzle=puzzle)

    def get_title(self, puzzle: Puzzle) -> str:
        if puzzle.source == Puzzle.Source.CLASSIC:
            return classic_title(puzzle.title)
        return puzzle.title

    def get_collection(self, puzzle: Puzzle) -> str:
        return collection_name(puzzle.collection) if puzzle.collection else ""

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_author(self, puzzle: Puzzle) -> str | None:
        return puzzle.author.get_username() if puzzle.author_id and puzzle.author else None

    def get_share_url(self, puzzle: Puzzle) -> str:
        path = reverse("puzzles:share", kwargs={"slug": puzzle.slug})
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    # The view reads the position (``selectors.puzzle_opening``) and passes it as ``opening``;
    # lists pass none and get no moves.
    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_legal_moves(self, puzzle: Puzzle) -> list[str]:
        opening = self.context.get("opening")
        return list(opening.legal_moves) if opening is not None else []

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_check(self, puzzle: Puzzle) -> str | None:
        opening = self.context.get("opening")
        return opening.check if opening is not None else None

    @extend_schema_field(SolutionSerializer(allow_null=True))
    def get_solution(self, puzzle: Puzzle) -> dict[str, Any] | None:
        if not self.context.get("with_solution"):
            return None
        player = self.context.get("player")
        if not selectors.access_solution_view(puzzle=puzzle, player=player):
            return None
        return selectors.puzzle_solution(puzzle=puzzle)


class AuthoredPuzzleSerializer(PuzzleSerializer):
    """An authored puzzle as its author sees it: with its verification status, and its themes
    (the author knows the answer)."""

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_themes(self, puzzle: Puzzle) -> list[str]:
        return [theme.slug for theme in puzzle.themes.all()]

    def get_mode(self, puzzle: Puzzle) -> str:
        return str(puzzle.proof_mode or "full")

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_proving(self, puzzle: Puzzle) -> dict[str, Any] | None:
        state = selectors.proving_state(puzzle=puzzle)
        return dataclasses.asdict(state) if state is not None else None

    mode = serializers.SerializerMethodField(
        help_text="how it is (to be) proved: full (over every move) or checks_only (连将杀)"
    )
    proving = serializers.SerializerMethodField(
        help_text="while it is being verified: state (waiting or proving), ahead (puzzles to be "
        "proved before it), progress (stage: win, shorter, unique or tree; done and total of "
        "the stage; nodes and seconds so far) and the prover's budget (nodes, seconds); else null"
    )
    rejection_reason = serializers.CharField(
        source="rejection_text", help_text="why verification refused it, in the reader's language"
    )
    rejection = serializers.JSONField(help_text="details: kind, keys, escape, ...")
    verify_requested_at = serializers.DateTimeField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


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
    unrated_reason = serializers.CharField(
        help_text="why it is not rated: visitor, not_first_try, replay, hints, gave_up, "
        "own_puzzle, not_published, missed (a puzzle from the player's own game), seen_nearby "
        "(the solution was shown from the same address in the last 24 hours), met_in_run (met "
        "in Puzzle Streak or Storm) or pace (too many rated tries a minute); empty when rated "
        "or not decided yet"
    )
    unrated_reason_text = serializers.CharField(
        source="get_unrated_reason_display", help_text="the same, in the reader's language"
    )
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
    patterns = serializers.SerializerMethodField(
        help_text="the named kill patterns of the puzzle's mate, once the try is over (else null)"
    )
    themes = serializers.SerializerMethodField(
        help_text="the puzzle's theme slugs, once the try is over (else null)"
    )
    proof_mode = serializers.SerializerMethodField(
        help_text="full, or checks_only (proved among checks), once the try is over (else null)"
    )
    checked_by = serializers.SerializerMethodField(
        help_text="which engine judged a win-material puzzle, on what search, and what it "
        "decided at the first move, in the reader's language, once the try is over (else null; "
        "null for a proved mate)"
    )

    def get_status_url(self, attempt: PuzzleAttempt) -> str:
        return reverse("puzzles-api:attempt", kwargs={"attempt_id": attempt.pk})

    @extend_schema_field(SolutionSerializer(allow_null=True))
    def get_solution(self, attempt: PuzzleAttempt) -> dict[str, Any] | None:
        if not attempt.is_finished or not self.context.get("with_solution", True):
            return None
        return selectors.puzzle_solution(puzzle=attempt.puzzle)

    @extend_schema_field(PatternNameSerializer(many=True, allow_null=True))
    def get_patterns(self, attempt: PuzzleAttempt) -> list[dict[str, str]] | None:
        if not attempt.is_finished:
            return None
        return pattern_names(list(attempt.puzzle.themes.values_list("slug", flat=True)))

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_themes(self, attempt: PuzzleAttempt) -> list[str] | None:
        if not attempt.is_finished:
            return None
        return list(attempt.puzzle.themes.order_by("order", "slug").values_list("slug", flat=True))

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_proof_mode(self, attempt: PuzzleAttempt) -> str | None:
        if not attempt.is_finished:
            return None
        return str(attempt.puzzle.proof_mode)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_checked_by(self, attempt: PuzzleAttempt) -> str | None:
        if not attempt.is_finished:
            return None
        return selectors.puzzle_judge_text(puzzle=attempt.puzzle)


class OpenAttemptSerializer(AttemptSerializer):
    """An attempt with where it stands: its line and the position after it."""

    line = PuzzleMoveSerializer(many=True, help_text="the moves played so far, both sides")
    fen = serializers.CharField(help_text="the position after the line")
    legal_moves = serializers.ListField(
        child=serializers.CharField(), help_text="my moves from ``fen`` (empty once it is over)"
    )
    check = serializers.CharField(allow_null=True)

    def to_representation(self, attempt: PuzzleAttempt) -> Any:
        """``where`` in the context: the attempt's position (``services.attempt_position``)."""
        data = AttemptSerializer(context=self.context).to_representation(attempt)
        where = self.context["where"]
        data["line"] = PuzzleMoveSerializer(where.line, many=True).data
        data["fen"] = where.fen
        data["legal_moves"] = where.legal_moves
        data["check"] = where.check
        return data


class AttemptRequestSerializer(serializers.Serializer):
    attempt = serializers.IntegerField(
        min_value=1, help_text="the id of my open attempt (from …/attempts/)"
    )
