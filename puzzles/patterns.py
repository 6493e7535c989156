"""One example mate for each named kill pattern (``engine.patterns``): the position the patterns
page and docs/patterns.md draw.

Each example is a bank puzzle's main line where the bank has the pattern (the puzzle with the
fewest other patterns, then the shortest line, preferring the pattern's first variant), else a
mate composed for the engine's tests. They are kept in ``puzzles/data/pattern-examples.json``
so that the pictures change only when someone chooses again (``manage.py pattern_diagrams
--choose``), not whenever the bank grows.

Pure Python, no Django (like ``bankfile``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine import EngineError, Move, Position
from engine.patterns import PATTERNS, Pattern, detect

DATA_DIR = Path(__file__).resolve().parent / "data"
EXAMPLES_PATH = DATA_DIR / "pattern-examples.json"
ABOUT = (
    "One example mate per named kill pattern (engine.patterns), drawn on the patterns page and "
    "in docs/patterns.md: a bank puzzle's main line (source bank, key in puzzles/data/bank.json) "
    "where the bank has the pattern, else a mate composed for the engine's tests (source "
    "composed, tests/engine/data/patterns.json). manage.py pattern_diagrams --choose picks them "
    "again."
)
MATES = ("mate", "dead_general")


@dataclass(frozen=True)
class PatternExample:
    """A mate showing ``code``: the start, the line (ICCS, attacker first) and where it is from."""

    code: str
    variant: str
    fen: str
    line: tuple[str, ...]
    source: str  # bank | composed
    key: str  # the bank puzzle's key, or "" for a composed mate

    @property
    def attacker(self) -> str:
        """``red`` or ``black``: the side that mates (at the bottom of the picture)."""
        return Position.from_fen(self.variant, self.fen).turn

    @property
    def final_fen(self) -> str:
        """The mate: the position after the whole line."""
        position = Position.from_fen(self.variant, self.fen)
        for text in self.line:
            position.push(Move.from_iccs(text))
        return position.fen()

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "variant": self.variant,
            "fen": self.fen,
            "line": list(self.line),
            "source": self.source,
            "key": self.key,
        }


def _example(data: dict[str, Any]) -> PatternExample:
    return PatternExample(
        code=data["code"],
        variant=data["variant"],
        fen=data["fen"],
        line=tuple(data["line"]),
        source=data["source"],
        key=data.get("key", ""),
    )


@lru_cache(maxsize=1)
def pattern_examples() -> dict[str, PatternExample]:
    """The shipped examples by pattern code, in catalogue order."""
    data = json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))
    return {row["code"]: _example(row) for row in data["examples"]}


def _shows(pattern: Pattern, variant: str, fen: str, line: Sequence[str]) -> list[str] | None:
    """The patterns the mate shows, or None when it does not show ``pattern``."""
    try:
        found = detect(variant, fen, line)
    except EngineError:
        return None
    return found if pattern.code in found else None


def choose_examples(
    bank: Iterable[dict[str, Any]], composed: Iterable[dict[str, Any]]
) -> list[PatternExample]:
    """One example per pattern: from the bank entries (``read_bank()``) where one shows it, a
    moment of a real game before a constructed position, else
    from the composed mates (``composed`` of tests/engine/data/patterns.json)."""
    bank = [e for e in bank if e["goal"] in MATES]
    composed = list(composed)
    chosen = []
    for pattern in PATTERNS:
        ranked: list[tuple[tuple[int, int, int, int, str], PatternExample]] = []
        for entry in bank:
            if pattern.code not in entry["themes"] or entry["variant"] not in pattern.variants:
                continue
            found = _shows(pattern, entry["variant"], entry["fen"], entry["main_line"])
            if found is None:
                continue
            example = PatternExample(
                pattern.code,
                entry["variant"],
                entry["fen"],
                tuple(entry["main_line"]),
                "bank",
                entry["key"],
            )
            rank = (
                pattern.variants.index(entry["variant"]),
                0 if entry.get("source_game") else 1,  # a moment of a real game first
                len(found),
                len(entry["main_line"]),
                entry["key"],
            )
            ranked.append((rank, example))
        if not ranked:
            for index, mate in enumerate(composed):
                if mate["example_of"] != pattern.code:
                    continue
                found = _shows(pattern, mate["variant"], mate["fen"], mate["line"])
                if found is not None:
                    example = PatternExample(
                        pattern.code,
                        mate["variant"],
                        mate["fen"],
                        tuple(mate["line"]),
                        "composed",
                        "",
                    )
                    ranked.append(((0, 1, len(found), len(mate["line"]), f"{index:04}"), example))
        if not ranked:
            raise ValueError(f"no example shows the pattern {pattern.code}")
        chosen.append(min(ranked, key=lambda item: item[0])[1])
    return chosen


def write_examples(examples: Sequence[PatternExample], path: Path = EXAMPLES_PATH) -> None:
    """Write the examples, one a line (stable diffs)."""
    rows = ",\n".join(json.dumps(e.to_json(), ensure_ascii=False) for e in examples)
    text = f'{{"about": {json.dumps(ABOUT)},\n"examples": [\n{rows}\n]}}\n'
    path.write_text(text, encoding="utf-8")
    pattern_examples.cache_clear()
