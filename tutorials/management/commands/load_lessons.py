"""``manage.py load_lessons``: put the lesson files (tutorials/lessons/) into the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tutorials.curriculum import LessonFileError
from tutorials.curriculum.schema import LESSONS_DIR
from tutorials.services import lessons_load


class Command(BaseCommand):
    help = "Load the lesson files into the database (idempotent: unchanged lessons are skipped)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--root", default=str(LESSONS_DIR), help="the lessons folder")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = lessons_load(root=Path(options["root"]))
        except LessonFileError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report.summary())
