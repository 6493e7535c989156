"""``manage.py retag_bank``: recompute the named kill patterns of every puzzle in the shipped
bank from its proof's main line, and write them into the file's themes. Loading the bank
recomputes them anyway; this keeps the file itself in step with the engine's detectors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from puzzles.bankfile import BANK_PATH, retag_bank


class Command(BaseCommand):
    help = "Recompute the kill-pattern themes of the shipped bank and write them to the file."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--bank", type=Path, default=BANK_PATH)

    def handle(self, *args: Any, **options: Any) -> None:
        changed = retag_bank(options["bank"])
        self.stdout.write(f"Re-tagged {changed} puzzles in {options['bank']}.")
