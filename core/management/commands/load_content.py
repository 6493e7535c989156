"""``manage.py load_content``: run every installed app's content loader (see core/content_loaders.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from core.content_loaders import content_loader_list


class Command(BaseCommand):
    help = "Load the content shipped with each app (lessons, puzzles ...) into the database."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("apps", nargs="*", help="only these app labels")

    def handle(self, *args: Any, **options: Any) -> None:
        only = set(options["apps"])
        loaders = [
            loader for loader in content_loader_list() if not only or loader.app_label in only
        ]
        if not loaders:
            self.stdout.write("No content to load.")
            return
        for loader in loaders:
            summary = loader.load()
            self.stdout.write(f"{loader.app_label}: {summary or 'loaded'}")
