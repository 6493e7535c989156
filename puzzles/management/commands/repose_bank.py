"""``manage.py repose_bank``: ask every checks-only puzzle of the bank that comes from a game
again among every move (``puzzles.reposing``): proved in full mode where that proof decides,
posed at the shorter mate where a quiet move mates sooner, gone where another first move mates
as fast; the composed classics stay as their books set them.

    manage.py repose_bank --dry-run                 # say what would change
    manage.py repose_bank                           # and write the bank
    manage.py repose_bank --variant feidan --jobs 2 --report var/repose.jsonl

Each proof has ``--nodes`` nodes (the same answers on any machine). Then run
``manage.py tidy_bank``, ``manage.py pattern_diagrams --choose`` when a pattern's example went
or changed its key, and ``manage.py reprove_bank --record``.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from core.pools import worker_pool
from engine.variants import VARIANTS
from puzzles.bankfile import BANK_PATH, read_bank, write_bank
from puzzles.reposing import OUTCOMES, REPOSE_NODES, REPOSE_SECONDS, from_a_game, repose_entry


class Command(BaseCommand):
    help = "Prove the bank's checks-only game puzzles again among every move, and pose them so."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--bank", type=Path, default=BANK_PATH)
        parser.add_argument("--variant", choices=list(VARIANTS))
        parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
        parser.add_argument("--nodes", type=int, default=REPOSE_NODES, help="a proof's nodes")
        parser.add_argument("--report", type=Path, help="one JSON line per puzzle asked")
        parser.add_argument("--dry-run", action="store_true", help="report, do not write")

    def handle(self, *args: Any, **options: Any) -> None:
        entries = read_bank(options["bank"])
        asked = [
            e for e in entries
            if from_a_game(e) and (not options["variant"] or e["variant"] == options["variant"])
        ]  # fmt: skip
        started = time.monotonic()
        work = partial(repose_entry, nodes=options["nodes"], seconds=REPOSE_SECONDS)
        with worker_pool(options["jobs"]) as pool:
            results = []
            for done in pool.map(work, asked, chunksize=2):
                results.append(done)
                if options["verbosity"] > 1 or len(results) % 50 == 0:
                    self.stdout.write(f"  {len(results)} of {len(asked)} asked")
        by_key = {r.key: r for r in results}
        kept: list[dict[str, Any]] = []
        keys: set[str] = set()
        for entry in entries:
            result = by_key.get(entry["key"])
            new = entry if result is None else result.entry
            if new is not None and new["key"] not in keys:
                keys.add(new["key"])
                kept.append(new)
        variant_of = {e["key"]: e["variant"] for e in asked}
        counts = Counter((r.outcome, variant_of[r.key]) for r in results)
        self.stdout.write(
            f"{len(asked)} checks-only puzzles from games asked again among every move in "
            f"{time.monotonic() - started:.0f}s ({sum(r.seconds for r in results):.0f}s of "
            f"proofs, {options['nodes']:,} nodes each):"
        )
        for outcome in OUTCOMES:
            split = ", ".join(f"{v} {counts[outcome, v]}" for v in VARIANTS if counts[outcome, v])
            total = sum(counts[outcome, v] for v in VARIANTS)
            self.stdout.write(f"  {outcome}: {total}{f' ({split})' if split else ''}")
        self.stdout.write(f"{len(entries)} puzzles before, {len(kept)} after.")
        if options["report"]:
            with options["report"].open("w") as out:
                for r in results:
                    line = {
                        "key": r.key,
                        "outcome": r.outcome,
                        "now": r.entry["key"] if r.entry else None,
                        "moves_to_win": r.moves_to_win,
                        "reason": r.reason,
                        "nodes": r.nodes,
                        "seconds": r.seconds,
                    }
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
        if not options["dry_run"]:
            write_bank(kept, options["bank"])
            self.stdout.write(f"Wrote {options['bank']}.")
