from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    verbose_name = _("Puzzles")

    def ready(self) -> None:
        from accounts.merge import visitor_merge_register
        from puzzles.services import puzzle_progress_merge
        from puzzles.services.runs import run_progress_merge

        visitor_merge_register("puzzles", puzzle_progress_merge)
        visitor_merge_register("puzzle_runs", run_progress_merge)
