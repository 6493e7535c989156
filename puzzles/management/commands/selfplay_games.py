"""``manage.py selfplay_games``: the playing engine plays games against itself, to mine puzzles
from (``mine_puzzles --strategy selfplay``), added to ``puzzles/data/selfplay-<variant>.jsonl.gz``.

    manage.py selfplay_games --variant feidan --games 20 --levels 6,8 --setups standard,plum
    manage.py selfplay_games --variant xinban --games 20 --levels 6,8 --setups new,red-new --jobs 2

Game ``i`` of a call starts from the ``i``-th setup in turn (``--setups``), its seed is
``--seed + i``, and the two levels change colours from one game to the next. A game depends
only on these (each move is searched to its level's node budget), so the same call writes the
same games. New games are numbered after those already in the file.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.pools import worker_pool
from engine.play import LEVELS
from puzzles.selfplay import (
    VARIANTS,
    SelfplayGame,
    play_game,
    read_games,
    selfplay_path,
    setup_names,
    write_games,
)


def _play(args: tuple[str, int, str, tuple[int, int], int]) -> SelfplayGame:
    variant, n, setup, levels, seed = args
    return play_game(variant, n=n, setup=setup, levels=levels, seed=seed)


class Command(BaseCommand):
    help = "Play the engine against itself and add the games to the self-play corpus."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--variant", required=True, choices=VARIANTS)
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--levels", default="6,8", help="two levels, e.g. 6,8")
        parser.add_argument("--setups", help="setups in turn (default: the variant's first)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--jobs", type=int, default=1, help="processes")
        parser.add_argument("--output", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        variant = options["variant"]
        try:
            low, high = (int(text) for text in options["levels"].split(","))
        except ValueError as error:
            raise CommandError("--levels takes two levels, e.g. 6,8") from error
        if low not in LEVELS or high not in LEVELS:
            raise CommandError(f"levels go from {LEVELS.start} to {LEVELS.stop - 1}")
        known = setup_names(variant)
        setups = options["setups"].split(",") if options["setups"] else [known[0]]
        unknown = [name for name in setups if name not in known]
        if unknown:
            raise CommandError(f"unknown setups {', '.join(unknown)} (known: {', '.join(known)})")
        path = options["output"] or selfplay_path(variant)
        existing = list(read_games(path))
        jobs = [
            (variant, len(existing) + i, setups[i % len(setups)],
             (low, high) if i % 2 == 0 else (high, low), options["seed"] + i)
            for i in range(options["games"])
        ]  # fmt: skip
        started = time.monotonic()
        with worker_pool(options["jobs"]) as pool:
            games = []
            for game in pool.map(_play, jobs):
                games.append(game)
                self.stdout.write(
                    f"  {variant} game {game.n} ({game.setup}, levels {game.levels[0]}-"
                    f"{game.levels[1]}): {len(game.moves)} plies, {game.result} by {game.end}"
                )
        total = write_games([*existing, *games], path)
        self.stdout.write(
            f"Wrote {path}: {total} games ({len(games)} new) in {time.monotonic() - started:.0f}s."
        )
