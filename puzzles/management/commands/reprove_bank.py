"""``manage.py reprove_bank``: prove every puzzle of the shipped bank again with the current
engine (CI runs it): each must still be sound and unique, of the same length, with the same
key. Exits with an error naming every puzzle that fails.

    manage.py reprove_bank                         # the whole bank
    manage.py reprove_bank --sample 10 --seed 7    # ten puzzles drawn with seed 7
    manage.py reprove_bank --variant xinban --jobs 4
    manage.py reprove_bank --record                # the whole bank, and record that it passed

``--record`` writes puzzles/data/bank-proof.json (the digest of the engine, the proving code and
the bank) when every puzzle of the whole bank proved sound: the test suite then re-proves a
sample while nothing of those has changed, and the whole bank once something has.
"""

from __future__ import annotations

import random
import resource
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.pools import worker_pool
from engine.variants import VARIANTS
from puzzles.bankfile import BANK_PATH, read_bank, reprove_entry, write_proof_record


class Command(BaseCommand):
    help = "Prove every puzzle of the shipped bank again; fail if any is no longer sound."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--bank", type=Path, default=BANK_PATH)
        parser.add_argument("--variant", choices=list(VARIANTS))
        parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
        parser.add_argument("--sample", type=int, help="re-prove only this many, drawn at random")
        parser.add_argument("--seed", type=int, default=0, help="the draw of --sample")
        parser.add_argument(
            "--record", action="store_true", help="record a full pass in bank-proof.json"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        entries = [
            e for e in read_bank(options["bank"])
            if not options["variant"] or e["variant"] == options["variant"]
        ]  # fmt: skip
        if options["sample"] is not None and options["sample"] < len(entries):
            entries = random.Random(options["seed"]).sample(entries, max(0, options["sample"]))
        started = time.monotonic()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with worker_pool(options["jobs"]) as pool:
            results = list(pool.map(reprove_entry, entries, chunksize=4))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the workers, once they are gone
        cpu_seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        failed = [r for r in results if not r.ok]
        slowest = sorted(results, key=lambda r: -r.seconds)[:3]
        self.stdout.write(
            f"Re-proved {len(results)} puzzles in {time.monotonic() - started:.0f}s "
            f"({cpu_seconds:.1f}s of CPU); "
            f"slowest: {', '.join(f'{r.key} {r.seconds:.1f}s' for r in slowest)}"
        )
        if failed:
            for reproof in failed:
                self.stderr.write(f"{reproof.key}: {reproof.problem}")
            raise CommandError(f"{len(failed)} shipped puzzle(s) no longer prove sound")
        self.stdout.write("Every shipped puzzle is still sound and unique.")
        if options["record"]:
            whole = options["bank"] == BANK_PATH and not options["variant"]
            if not whole or options["sample"] is not None:
                raise CommandError(
                    "--record needs the whole shipped bank (no --variant or --sample)"
                )
            write_proof_record(puzzles=len(results), seconds=time.monotonic() - started)
            self.stdout.write("Recorded in puzzles/data/bank-proof.json.")
