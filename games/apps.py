from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.merge import visitor_merge_register
        from games.services import game_progress_merge

        visitor_merge_register("games", game_progress_merge)
