"""``manage.py mine_tactics``: "win material" puzzles from the master games, judged by
Fairy-Stockfish, or with ``--variant feidan|xinban`` from the engine's own games
(``puzzles.selfplay``), judged by the site's own engine (``puzzles.tactics_mining``), and the
tactics bank written from them.

    manage.py mine_tactics --first 0 --games 200 --log runs/tactics.jsonl   # again: resumes
    manage.py mine_tactics --log runs/tactics.jsonl --write   # puzzles/data/tactics.json
    manage.py mine_tactics --variant xinban --games 100 --log runs/tactics-xinban.jsonl

``--write`` adds the log's puzzles to those the file holds (a run over further games grows the
bank); with ``--replace`` the file holds the log's puzzles alone.

    manage.py mine_tactics --variant xiangqi --recheck   # the bank's keys judged again

``--recheck`` judges every key of the variant in the bank file again, on the profile's re-check
budget (four times the mining budget, a fresh search), and writes the file without those that
are no longer the only winning move; the other variants' puzzles are left as they are.

The log holds one line a game (its puzzles and figures): started again with the same log, the
run skips the games it holds. Deterministic: every search is on a node budget. Slow by nature
(about 3 s a game on one core): run it by hand and commit the bank file it writes.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from judge import Judge, shared_fairy_stockfish
from judge.ours import OurEngine
from puzzles.mining import master_games
from puzzles.selfplay import read_games, selfplay_path
from puzzles.tactics import TACTICS_PATH
from puzzles.tactics_bank import entries_from_log, read_tactics, tactics_added, write_tactics
from puzzles.tactics_mining import (
    PROFILES,
    VARIANT,
    Game,
    Stats,
    mine_games,
    read_log,
    recheck_entries,
)


class Command(BaseCommand):
    help = "Mine win-material puzzles from the master games with Fairy-Stockfish."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--first", type=int, default=0, help="the first game (0-based)")
        parser.add_argument("--games", type=int, default=0, help="how many games to mine")
        parser.add_argument("--log", type=Path, help="the run's log (JSON lines)")
        parser.add_argument(
            "--write", action="store_true", help="add the log's puzzles to the bank file"
        )
        parser.add_argument(
            "--replace", action="store_true", help="with --write: the log's puzzles alone"
        )
        parser.add_argument("--bank", type=Path, default=TACTICS_PATH)
        parser.add_argument(
            "--recheck",
            action="store_true",
            help="judge the bank's keys of --variant again on the re-check budget; drop those "
            "that fail",
        )
        parser.add_argument(
            "--variant",
            choices=sorted(PROFILES),
            default=VARIANT,
            help="xiangqi: the master games, judged by Fairy-Stockfish; feidan, xinban: the "
            "engine's own games, judged by the site's engine",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["recheck"]:
            self.recheck(options["variant"], options["bank"])
            return
        log: Path | None = options["log"]
        if log is None:
            raise CommandError("--log is needed to mine games or to write their puzzles")
        if options["games"] < 0 or options["first"] < 0:
            raise CommandError("--first and --games must not be negative")
        if options["games"]:
            variant = options["variant"]
            judge: Judge
            games: list[Game]
            first, count = options["first"], options["games"]
            if variant == VARIANT:
                judge = self.fairy_stockfish()
                games = list(master_games(first, count))
            else:
                judge = OurEngine()  # node budgets alone: the same puzzles on any machine
                games = [
                    g for g in read_games(selfplay_path(variant)) if first <= g.n < first + count
                ]
            started = time.monotonic()
            stats = mine_games(
                games,
                judge,
                log,
                progress=lambda text: self.stdout.write(text),
            )
            self.stdout.write(
                f"{stats.games} games, {stats.positions} positions, {stats.candidates} "
                f"candidates, {stats.kept} puzzles in {time.monotonic() - started:.0f} s: "
                f"{stats.as_json()}"
            )
        if options["write"]:
            records = read_log(log)
            if not records:
                raise CommandError(f"{log}: no mined games")
            entries = entries_from_log(records)
            if not options["replace"] and options["bank"].exists():
                entries = tactics_added(read_tactics(options["bank"]), entries)
            count = write_tactics(entries, options["bank"])
            total = Stats()
            for record in records:
                total.add(
                    Stats(**{**record["stats"], "rejected": dict(record["stats"]["rejected"])})
                )
            self.stdout.write(
                f"Wrote {count} tactics puzzles to {options['bank']} from {len(records)} games "
                f"({total.as_json()})."
            )

    def fairy_stockfish(self) -> Judge:
        judge = shared_fairy_stockfish()
        if judge is None:
            raise CommandError(
                "Fairy-Stockfish is not installed: the tactics miner needs it as its judge"
            )
        return judge

    def recheck(self, variant: str, bank: Path) -> None:
        """Judge the bank's keys of ``variant`` again; write the file without the failures."""
        if not bank.exists():
            raise CommandError(f"{bank}: no such bank file")
        entries = read_tactics(bank)
        mine = [entry for entry in entries if entry["variant"] == variant]
        if not mine:
            raise CommandError(f"{bank}: no {variant} puzzles to check")
        judge = self.fairy_stockfish() if variant == VARIANT else OurEngine()
        profile = PROFILES[variant]
        kept, dropped = recheck_entries(
            mine, judge, profile, progress=lambda text: self.stdout.write(text)
        )
        for entry in kept:  # the answers say the key has had its second look
            entry["proof"]["recheck_nodes"] = profile.recheck_nodes
        gone = {entry["key"] for entry in dropped}
        count = write_tactics([e for e in entries if e["key"] not in gone], bank)
        self.stdout.write(
            f"{variant}: {len(kept)} of {len(mine)} kept ({len(kept) / len(mine):.0%}) on "
            f"{profile.recheck_nodes:,} nodes; {count} tactics puzzles written to {bank}."
        )
