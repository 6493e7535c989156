from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = _("Live games")

    def ready(self) -> None:
        from accounts.merge import visitor_merge_register
        from live.services import live_seats_merge

        visitor_merge_register("live", live_seats_merge)
