from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from puzzles import models


@admin.register(models.PuzzleTheme)
class PuzzleThemeAdmin(admin.ModelAdmin):
    list_display = ("slug", "name_en", "name_zh", "order")


@admin.register(models.Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "goal",
        "moves_to_win",
        "status",
        "source",
        "rating",
        "plays",
        "author",
    )
    list_filter = ("variant", "goal", "status", "source", "moves_to_win")
    search_fields = ("slug", "fen", "title", "collection", "author__username")
    filter_horizontal = ("themes",)
    readonly_fields = ("slug", "created_at", "updated_at", "published_at")
    list_select_related = ("author",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A published puzzle never changes its position or proof.
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status == models.Puzzle.Status.PUBLISHED:
            fields += ["variant", "fen", "goal", "moves_to_win", "proof", "proof_mode", "status"]
        return fields


@admin.register(models.PuzzleAttempt)
class PuzzleAttemptAdmin(admin.ModelAdmin):
    list_display = (
        "id", "puzzle", "user", "visitor_id", "state", "result", "first_try", "hints_used",
        "rated", "scored_at",
    )  # fmt: skip
    list_filter = ("state", "result", "first_try", "rated")
    raw_id_fields = ("puzzle", "user")


@admin.register(models.PuzzleRating)
class PuzzleRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "variant", "rating", "deviation", "games")
    list_filter = ("variant",)
    raw_id_fields = ("user",)


@admin.register(models.DailyPuzzle)
class DailyPuzzleAdmin(admin.ModelAdmin):
    list_display = ("date", "variant", "puzzle")
    raw_id_fields = ("puzzle",)


@admin.register(models.PuzzleReplay)
class PuzzleReplayAdmin(admin.ModelAdmin):
    list_display = ("puzzle", "user", "visitor_id", "step", "due_at", "solved_at")
    raw_id_fields = ("puzzle", "user")
