"""Read the master games collection into the file the site ships.

    manage.py import_master_games                 the whole collection
    manage.py import_master_games --limit 500     its first 500 records
    manage.py import_master_games SOURCE --out FILE

Every record is read with the engine, which stops at the first move it cannot play; records
that cannot be read at all are reported and skipped (core.masters). The site loads the
written file on its next start (manage.py load_content).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.masters import SHIPPED_FILE, SOURCE_FILE, ImportReport, import_collection


class Command(BaseCommand):
    help = "Read the master games collection (Chinese notation) into the shipped file (ICCS)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", nargs="?", type=Path, default=SOURCE_FILE)
        parser.add_argument("--out", type=Path, default=SHIPPED_FILE)
        parser.add_argument("--limit", type=int, default=None, help="read this many records")

    def handle(self, *args: Any, **options: Any) -> None:
        source = Path(options["source"])
        target = Path(options["out"])
        if not source.is_file():
            raise CommandError(f"{source}: no such file")
        if options["limit"] is not None and options["limit"] < 1:
            raise CommandError("--limit must be at least 1")
        started = time.monotonic()

        def progress(report: ImportReport) -> None:
            rate = report.records / max(time.monotonic() - started, 1e-9)
            self.stdout.write(f"  {report.records} records, {report.kept} kept ({rate:.0f}/s)")

        try:
            report = import_collection(source, target, limit=options["limit"], progress=progress)
        except OSError as error:
            raise CommandError(f"{source}: {error}") from error
        seconds = time.monotonic() - started
        for line, why in report.skipped:
            self.stderr.write(f"skipped line {line}: {why}")
        self.stdout.write(report.summary())
        self.stdout.write(
            f"wrote {target} in {seconds:.0f} s "
            f"({report.records / max(seconds, 1e-9):.0f} records/s, "
            f"{report.plies / max(seconds, 1e-9):.0f} moves/s)"
        )
