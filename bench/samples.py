"""Games the benchmarks judge: the engine's own games at chosen levels, played here, seeded.

The shipped master games and self-play games hold few mistakes (players who rarely err, the
engine at its middle levels); a game between the weakest levels holds many, of every size, and
mates left on the board: the sample a measurement of "does the site find them" needs.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from engine import Position, bestmove
from engine.play import level_limits

ENGINE_GAME_PLIES = 160


def engine_game(
    variant: str,
    index: int,
    seed: int,
    levels: Sequence[int] = (1, 2),
    plies: int = ENGINE_GAME_PLIES,
) -> tuple[str, str, list[str]]:
    """Game ``index`` of the engine against itself from the variant's start (name, start FEN,
    moves): the two ``levels`` take Red in turn (game 0 the second, game 1 the first, ...), each
    move seeded by ``seed`` and the index, at most ``plies`` plies."""
    pos = Position.start(variant)
    start = pos.fen()
    moves: list[str] = []
    first, second = levels
    pair = (first, second) if index % 2 else (second, first)
    while pos.outcome() is None and len(moves) < plies:
        level = pair[len(moves) % 2]
        found = bestmove(
            variant, start, moves, level=level, nodes=level_limits(level).nodes,
            seed=seed * 1000 + index,
        )  # fmt: skip
        moves.append(found.move)
        pos.push_iccs(found.move)
    return f"engine game {index} (levels {pair[0]}-{pair[1]})", start, moves


def master_games(count: int, seed: int) -> list[tuple[int, list[str]]]:
    """``count`` of the shipped master games (id, moves up to any end the rules give), chosen
    with ``seed`` among those of 20 plies or more that were not stopped by the record."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from core.masters import read_shipped

    pool = []
    for game in read_shipped():
        moves = list(game.moves[: game.rules_end[0]] if game.rules_end else game.moves)
        if game.stop is None and len(moves) >= 20:
            pool.append((game.id, moves))
    return random.Random(seed).sample(pool, min(count, len(pool)))
