from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TutorialsConfig(AppConfig):
    name = "tutorials"
    verbose_name = _("Lessons")

    def ready(self) -> None:
        from accounts.merge import visitor_merge_register
        from tutorials.services import lesson_progress_merge

        visitor_merge_register("tutorials", lesson_progress_merge)
