"""``manage.py tidy_bank``: take out of the shipped bank what does not belong there, and say how
many of each.

- the puzzles of the old ``game`` strategy (positions of games played by random moves, with
  nearly bare defenders; ``bankfile.random_game_puzzle``);
- consecutive duplicates: a puzzle whose position another puzzle's solution reaches (the same
  line a move or more on), the longer one kept;
- the ``defection`` theme where the win does not need the defected piece: taken off the board
  at the moment it defects, the attacker still wins in the moves left against every reply
  (``bankfile.defection_needed``);

and every mined puzzle without a rating gets its starting rating from its proof. The classical
problems stay as they are, and so do the puzzles shown as kill patterns' examples
(``puzzles/data/pattern-examples.json``) until ``manage.py pattern_diagrams --choose`` picks
them again. ``--dry-run`` reports without writing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from puzzles.bankfile import BANK_PATH, random_game_puzzle, read_bank, tidy_bank, write_bank
from puzzles.patterns import pattern_examples


class Command(BaseCommand):
    help = "Retire random-game puzzles and consecutive duplicates, drop decorative defection tags."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--bank", type=Path, default=BANK_PATH)
        parser.add_argument("--dry-run", action="store_true", help="report, do not write")

    def handle(self, *args: Any, **options: Any) -> None:
        entries = read_bank(options["bank"])
        examples = frozenset(e.key for e in pattern_examples().values() if e.source == "bank")
        kept, done = tidy_bank(entries, keep=examples)
        shown = [e for e in entries if random_game_puzzle(e) and e["key"] in examples]
        both = set(done.random_games) & set(done.duplicates)
        self.stdout.write(
            f"{len(entries)} puzzles: {len(done.random_games)} from random-move games retired, "
            f"{len(done.duplicates)} consecutive duplicates retired ({len(both)} of them from "
            f"random-move games too), {len(done.decorative_defections)} decorative defection "
            f"tags dropped ({len(done.undecided_defections)} undecided, kept), {done.rated} "
            f"rated from their proofs; {done.total} left ({len(shown)} random-move game "
            "puzzles kept as kill patterns' examples)."
        )
        if not options["dry_run"]:
            write_bank(kept, options["bank"])
            self.stdout.write(f"Wrote {options['bank']}.")
