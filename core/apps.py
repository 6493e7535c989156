from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Site")

    def ready(self) -> None:
        from core import schema  # noqa: F401 - registers the API's authentication in the schema
