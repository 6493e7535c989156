"""``manage.py mine_puzzles``: find sound and unique puzzles and add them to the shipped bank.

    manage.py mine_puzzles --variant feidan --count 40 --seed 1
    manage.py mine_puzzles --variant xinban --strategy defection --want-theme defection --count 30
    manage.py mine_puzzles --variant xiangqi --count 60 --chunks 8 --celery   # fan out over workers
    manage.py mine_puzzles --variant xiangqi --strategy master --games 400 --first 0 --chunks 4
        # positions of the master games (core.masters), each puzzle keeping its game and ply
    manage.py mine_puzzles --variant xiangqi --strategy master --first 0 --games 28000 \
        --chunks 560 --count 100000 --max-moves 7 --run masters-1 --celery
        # a run of its own on the ``mining`` queue: started again, it skips finished chunks
    manage.py mine_puzzles --variant xiangqi --status masters-1   # how far that run got
    manage.py mine_puzzles ... --run masters-1 --collect
        # the same arguments: write the puzzles of the chunks done so far, mine no more

Each chunk mines from its own seed (``--seed``, ``--seed + 1``, ...), so a run is reproducible.
With ``--run NAME`` every chunk is recorded (``MiningChunk``): a run started again with the same
name and arguments mines only the chunks not done yet and takes the others' puzzles from the
database; progress (chunks done, puzzles so far, the rate) is printed as chunks finish.
``--celery`` without ``--run`` names the run itself and prints the name.
Slow by nature: run it by hand and commit the bank file it writes.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from engine.variants import VARIANTS
from puzzles.bankfile import (
    BANK_PATH,
    consecutive_duplicates,
    defection_needed,
    merge,
    read_bank,
    write_bank,
)
from puzzles.mining import DEFAULT_STRATEGIES, STRATEGIES, Chunk, mine, position_key
from puzzles.models import MiningChunk
from puzzles.selectors import mining_run_entries, mining_run_progress
from puzzles.services.mining import mining_chunk_run, mining_run_plan

# How often a run through Celery prints its progress (seconds).
PROGRESS_EVERY = 10.0


class Command(BaseCommand):
    help = "Mine sound and unique puzzles with the engine's prover and add them to the bank file."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--variant", choices=list(VARIANTS))
        parser.add_argument("--count", type=int, default=20, help="new puzzles wanted")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--strategy", action="append", choices=STRATEGIES,
            help="candidate source (repeatable; default: the variant's usual ones)",
        )  # fmt: skip
        parser.add_argument("--max-moves", type=int, default=3, help="longest win searched for")
        parser.add_argument("--min-moves", type=int, default=1, help="shortest win kept")
        parser.add_argument(
            "--max-one-movers", type=float, default=0.2,
            help="largest share of mate-in-1 puzzles among the new ones",
        )  # fmt: skip
        parser.add_argument("--want-theme", help="keep only puzzles with this theme")
        parser.add_argument("--chunks", type=int, default=1, help="independent seeds to mine")
        parser.add_argument(
            "--first", type=int, default=0, help="master games: the first game (0-based)"
        )
        parser.add_argument(
            "--games", type=int, default=100, help="master games: how many, split over the chunks"
        )
        parser.add_argument("--seconds", type=float, default=600.0, help="time limit per chunk")
        parser.add_argument("--celery", action="store_true", help="run the chunks as Celery tasks")
        parser.add_argument("--output", type=Path, default=BANK_PATH)
        parser.add_argument("--dry-run", action="store_true", help="print, do not write")
        parser.add_argument(
            "--run", help="record the chunks under this name: started again, it skips done ones"
        )
        parser.add_argument("--status", metavar="RUN", help="print how far a run got, and stop")
        parser.add_argument(
            "--collect",
            action="store_true",
            help="with --run: write the puzzles of the chunks done so far, mine no more",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["status"]:
            self.stdout.write(mining_run_progress(run=options["status"]).line())
            return
        variant = options["variant"]
        if not variant:
            raise CommandError("--variant is required (unless --status)")
        strategies = options["strategy"] or list(DEFAULT_STRATEGIES[variant])
        chunks = max(1, options["chunks"])
        per_chunk = max(1, -(-options["count"] * 3 // (2 * chunks)))  # some are dropped below
        if options["first"] < 0 or options["games"] < 1:
            raise CommandError("--first must be 0 or more and --games at least 1")
        games_per_chunk = -(-options["games"] // chunks)
        jobs = [
            Chunk(
                variant=variant,
                strategy=strategies[i % len(strategies)],
                seed=options["seed"] + i,
                count=per_chunk,
                max_moves=options["max_moves"],
                seconds=options["seconds"],
                want_theme=options["want_theme"],
                first=options["first"] + i * games_per_chunk,
                games=games_per_chunk,
            )
            for i in range(chunks)
        ]
        started = time.monotonic()
        run = options["run"]
        if options["collect"] and not run:
            raise CommandError("--collect needs --run NAME: the run whose chunks to collect")
        if options["celery"] and not run:
            run = f"{variant}-{'-'.join(strategies)}-{uuid.uuid4().hex[:8]}"
            self.stdout.write(f"Run {run} (start it again with --run {run} to resume)")
        if run:
            entries = self._run_recorded(
                run, jobs, celery=options["celery"], collect=options["collect"]
            )
        else:
            entries = []
            for chunk in jobs:
                found = mine(chunk, progress=lambda text: self.stdout.write(f"  {text}"))
                entries.extend(p.as_entry() for p in found)
        for entry in entries:
            # a defection tag only where the win needs the defected piece (manage.py tidy_bank)
            if "defection" in entry["themes"] and defection_needed(entry) is False:
                entry["themes"] = [t for t in entry["themes"] if t != "defection"]
        existing = read_bank(options["output"])
        known = {e["key"] for e in existing}
        # a position and its mirror image are the same puzzle
        known_boards = {(e["variant"], position_key(e["fen"])) for e in existing}
        kept: list[dict[str, Any]] = []
        one_movers = 0
        allowed_one = int(options["count"] * options["max_one_movers"])
        for entry in entries:
            board = (entry["variant"], position_key(entry["fen"]))
            if entry["key"] in known or board in known_boards:
                continue
            if entry["moves_to_win"] < options["min_moves"]:
                continue
            if entry["moves_to_win"] == 1:
                if one_movers >= allowed_one:
                    continue
                one_movers += 1
            kept.append(entry)
            known.add(entry["key"])
            known_boards.add(board)
            if len(kept) >= options["count"]:
                break
        # A puzzle that another one's solution reaches (a game that followed another's line)
        # is the same puzzle again: the longer stays (bankfile.consecutive_duplicates).
        again = consecutive_duplicates([*existing, *kept])
        if again:
            new = sum(1 for e in kept if e["key"] in again)
            kept = [e for e in kept if e["key"] not in again]
            existing = [e for e in existing if e["key"] not in again]
            self.stdout.write(
                f"{len(again)} puzzle(s) another puzzle's line reaches left out ({new} new)"
            )
        self._summary(kept, time.monotonic() - started)
        if options["dry_run"]:
            return
        total = write_bank(merge(existing, kept), options["output"])
        self.stdout.write(f"Wrote {options['output']}: {total} puzzles ({len(kept)} new).")

    def _run_recorded(
        self, run: str, jobs: list[Chunk], *, celery: bool, collect: bool = False
    ) -> list[dict[str, Any]]:
        """Mine the run's chunks not done yet (on the workers or here; none with ``collect``),
        printing progress; the puzzles of every done chunk of the run."""
        rows = mining_run_plan(run=run, chunks=jobs)
        todo = [
            chunk
            for chunk, row in zip(jobs, rows, strict=True)
            if row.status != MiningChunk.Status.DONE
        ]
        skipped = len(jobs) - len(todo)
        if skipped:
            self.stdout.write(f"{run}: {skipped} chunk(s) already done, skipped")
        if collect:
            self.stdout.write(f"{run}: {len(todo)} chunk(s) not done, left for another time")
            todo = []
        if celery:
            self._send(run, todo)
        else:
            for chunk in todo:
                mining_chunk_run(run=run, chunk=chunk)
                self.stdout.write(f"  {mining_run_progress(run=run).line()}")
        progress = mining_run_progress(run=run)
        if progress.failed:
            raise CommandError(f"{progress.line()}; start it again with --run {run}")
        return mining_run_entries(run=run)

    def _send(self, run: str, todo: list[Chunk]) -> None:
        from puzzles.tasks import mine_chunk_task

        if not todo:
            return
        results = [mine_chunk_task.delay(chunk.as_json(), run) for chunk in todo]
        self.stdout.write(f"Sent {len(results)} mining chunks to the mining queue; waiting…")
        limit = max((chunk.seconds or 3600.0) for chunk in todo) * len(todo) + 600
        deadline = time.monotonic() + limit
        printed = 0.0
        while not all(result.ready() for result in results):
            if time.monotonic() > deadline:
                raise CommandError(f"{mining_run_progress(run=run).line()}; gave up waiting")
            if time.monotonic() - printed >= PROGRESS_EVERY:
                self.stdout.write(f"  {mining_run_progress(run=run).line()}")
                printed = time.monotonic()
            time.sleep(0.5)
        for result in results:
            if result.failed():
                self.stderr.write(f"a chunk failed: {result.result!r}")
        self.stdout.write(f"  {mining_run_progress(run=run).line()}")

    def _summary(self, kept: list[dict[str, Any]], seconds: float) -> None:
        lengths = Counter(e["moves_to_win"] for e in kept)
        themes = Counter(t for e in kept for t in e["themes"])
        self.stdout.write(
            f"{len(kept)} new puzzles in {seconds:.0f}s; lengths {dict(sorted(lengths.items()))}; "
            f"themes {dict(themes.most_common())}"
        )
