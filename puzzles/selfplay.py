"""Games the playing engine plays against itself, in Missile and New-version Xiangqi, as a
corpus of real positions to mine puzzles from (``mining`` strategy ``selfplay``), the way the
master games are for traditional xiangqi.

Each game is played from a setup (``SETUPS``) by two levels of the playing engine
(``engine.play.bestmove``), each move searched to its level's node budget with a seed of its
own, so that a game depends only on its arguments (never on the machine's speed). Games are
kept one JSON object a line in a gzip file (``puzzles/data/selfplay-<variant>.jsonl.gz``):

    {"n": 3, "variant": "feidan", "setup": "plum:1704", "fen": "...", "levels": [6, 8],
     "seed": 3, "moves": "h2e2 h9g7 ...", "result": "1-0", "end": "checkmate"}

``n`` numbers the games of a file from 0; a puzzle names its game ``selfplay:<variant>:<n>``.
Pure Python: no Django.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine import Position, find_variant
from engine.play import LEVEL_TABLE, bestmove
from engine.setups import (
    ARRANGEMENT_COUNT,
    SECRET_METHODS,
    arrangement_fen,
    random_secret_half,
    redraw_until_valid,
)

DATA_DIR = Path(__file__).resolve().parent / "data"
VARIANTS = ("feidan", "xinban")
# A game that reaches this many plies is stopped, a draw.
MOST_PLIES = 300


def selfplay_path(variant: str) -> Path:
    return DATA_DIR / f"selfplay-{variant}.jsonl.gz"


def setup_names(variant: str) -> tuple[str, ...]:
    """The setups a game of ``variant`` may start from: the variant's start positions by name,
    and in Missile Xiangqi the plum-blossom arrangements (``plum``) and the secret setups
    (``secret-five_soldiers``, ``secret-middle_soldier``)."""
    names = tuple(name for name, _fen in find_variant(variant).starts)
    if variant == "feidan":
        names += ("plum", *(f"secret-{method}" for method in SECRET_METHODS))
    return names


def setup_fen(variant: str, setup: str, rng: random.Random) -> tuple[str, str]:
    """The start position of ``setup`` drawn with ``rng``, and the setup as recorded (a plum
    arrangement keeps its number: ``plum:1704``)."""
    starts = dict(find_variant(variant).starts)
    if setup in starts:
        return starts[setup], setup
    if variant == "feidan" and setup == "plum":
        index = rng.randrange(ARRANGEMENT_COUNT)
        return arrangement_fen(index), f"plum:{index}"
    if variant == "feidan" and setup.startswith("secret-"):
        method = setup.removeprefix("secret-")
        if method in SECRET_METHODS:
            red = random_secret_half("red", method, rng)  # type: ignore[arg-type]
            _black, reveal = redraw_until_valid("red", red, method, rng)  # type: ignore[arg-type]
            return reveal.fen, setup
    raise ValueError(
        f"unknown setup {setup!r} for {variant} (known: {', '.join(setup_names(variant))})"
    )


@dataclass(frozen=True)
class SelfplayGame:
    n: int
    variant: str
    setup: str
    fen: str
    levels: tuple[int, int]  # Red's, Black's
    seed: int
    moves: tuple[str, ...]
    result: str  # 1-0, 0-1, 1/2-1/2
    end: str  # how it ended: the board's outcome, or ``move_limit``

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["levels"] = list(self.levels)
        data["moves"] = " ".join(self.moves)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SelfplayGame:
        return cls(
            n=int(data["n"]),
            variant=str(data["variant"]),
            setup=str(data["setup"]),
            fen=str(data["fen"]),
            levels=(int(data["levels"][0]), int(data["levels"][1])),
            seed=int(data["seed"]),
            moves=tuple(str(data["moves"]).split()),
            result=str(data["result"]),
            end=str(data["end"]),
        )

    @property
    def info(self) -> dict[str, Any]:
        """What a puzzle from this game says of it (its ``source_info``)."""
        return {
            "red": f"level {self.levels[0]}",
            "black": f"level {self.levels[1]}",
            "event": f"engine self-play, {self.setup}",
            "levels": list(self.levels),
            "setup": self.setup,
        }


def play_game(
    variant: str,
    *,
    n: int,
    setup: str,
    levels: tuple[int, int],
    seed: int,
    most_plies: int = MOST_PLIES,
) -> SelfplayGame:
    """One game of the playing engine against itself, decided by its arguments."""
    rng = random.Random(f"selfplay:{variant}:{setup}:{seed}")
    fen, recorded = setup_fen(variant, setup, rng)
    position = Position.from_fen(variant, fen)
    moves: list[str] = []
    end, result = "move_limit", "1/2-1/2"
    for ply in range(most_plies):
        outcome = position.outcome()
        if outcome is not None:
            end, result = outcome.termination, outcome.result()
            break
        level = levels[0] if position.fen().split(" ")[1] == "w" else levels[1]
        found = bestmove(
            variant, fen, moves, level=level, nodes=LEVEL_TABLE[level].nodes, seed=seed * 1000 + ply
        )
        moves.append(found.move)
        position.push(position.parse_move(found.move))
    else:
        outcome = position.outcome()
        if outcome is not None:
            end, result = outcome.termination, outcome.result()
    return SelfplayGame(n, variant, recorded, fen, levels, seed, tuple(moves), result, end)


def write_games(games: Iterable[SelfplayGame], path: Path) -> int:
    """Write ``games`` to ``path`` (gzip, one JSON object a line, byte for byte the same for
    the same games); returns how many."""
    count = 0
    with gzip.GzipFile(path, "wb", mtime=0) as raw:
        for game in games:
            raw.write((json.dumps(game.as_json(), separators=(",", ":")) + "\n").encode())
            count += 1
    return count


def read_games(path: Path) -> Iterator[SelfplayGame]:
    """The games of a self-play file, in order (none when there is no file)."""
    if not path.exists():
        return
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield SelfplayGame.from_json(json.loads(line))
