"""``manage.py prove_classics``: prove the classical problems (puzzles/data/classic-puzzles.json)
and add those that are sound and unique at their stated length to the shipped bank."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from puzzles.bankfile import BANK_PATH, merge, prove_classic, read_bank, read_classics, write_bank


class Command(BaseCommand):
    help = "Prove the classical problems and add the sound ones to the bank file."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--output", type=Path, default=BANK_PATH)
        parser.add_argument("--only", type=int, nargs="*", help="indexes of problems to prove")
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        problems = read_classics()
        indexes = options["only"] or range(len(problems))
        kept = []
        statuses: Counter[str] = Counter()
        for index in indexes:
            outcome = prove_classic(index, problems[index])
            label = outcome.status if outcome.entry is None else f"sound ({outcome.mode})"
            statuses[label] += 1
            note = f" — {outcome.note}" if outcome.note else ""
            self.stdout.write(f"{index:3} {outcome.title}: {label}{note}")
            if outcome.entry is not None:
                kept.append(outcome.entry)
        self.stdout.write(f"{len(kept)} of {len(list(indexes))} sound and unique: {dict(statuses)}")
        if not options["dry_run"]:
            existing = [e for e in read_bank(options["output"]) if e.get("source") != "classic"]
            total = write_bank(merge(existing, kept), options["output"])
            self.stdout.write(f"Wrote {options['output']}: {total} puzzles.")
