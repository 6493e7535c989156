"""The tactics puzzles as bank entries: made from the miner's log, read from and written to
their file (``TACTICS_PATH``) in the bank's format.

Apart from ``puzzles.tactics`` because the bank's own modules import the judging there
(``proving`` imports ``tactics``), while these functions need the bank's modules
(``bankfile``, ``mining``): kept in one module, the imports went round in a circle.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.tactics import detect
from puzzles.bankfile import read_bank, write_bank
from puzzles.mining import bank_key
from puzzles.tactics import TACTICS_PATH, answers, check_entry, starting_rating
from puzzles.tactics_mining import GOAL, PROFILES, VARIANT, board_gain


def entry_from_tactic(tactic: dict[str, Any]) -> dict[str, Any]:
    """The bank entry of one mined tactic (a record of the miner's log): of a master game, or
    (``variant`` feidan or xinban) of one of the engine's own games."""
    variant = str(tactic.get("variant") or VARIANT)
    line = list(tactic["main_line"])
    steps = tactic["steps"]
    moves = len(steps)
    themes = [GOAL, *detect(variant, tactic["fen"], line)]
    return {
        "key": bank_key(variant=variant, fen=tactic["fen"], goal=GOAL, moves_to_win=moves),
        "variant": variant,
        "fen": tactic["fen"],
        "goal": GOAL,
        "moves_to_win": moves,
        "mode": "judge",
        "themes": themes,
        "main_line": line,
        "proof": answers(fen=tactic["fen"], line=line, steps=steps, variant=variant),
        "eval_before": tactic["eval_before"],
        "eval_after": tactic["eval_after"],
        "eval_mistake": tactic["eval_mistake"],
        "gain": tactic["gain"],
        "origin": "master" if variant == VARIANT else "selfplay",
        "source": "game",
        "source_game": tactic["source_game"],
        "ply": tactic["ply"],
        "game": tactic.get("game") or {},
        "rating": starting_rating(
            fen=tactic["fen"], line=line, steps=steps, themes=themes, variant=variant
        ),
    }


def entries_from_log(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bank entries of every tactic in a miner's log (a position met twice once); an entry
    that ``check_entry`` finds fault with is left out, and so is a line that ends before its
    gain is on the board (the miner's first run ended a line once the gain showed after the
    judge's captures; it now goes on to them)."""
    by_key: dict[str, dict[str, Any]] = {}
    for record in records:
        for tactic in record["tactics"]:
            variant = str(tactic.get("variant") or VARIANT)
            if board_gain(tactic["fen"], tactic["main_line"], variant) < PROFILES[variant].gain:
                continue  # mined before the gain had to be on the board (docs/puzzles.md)
            entry = entry_from_tactic(tactic)
            if not check_entry(entry):
                by_key.setdefault(entry["key"], entry)
    return list(by_key.values())


def read_tactics(path: Path = TACTICS_PATH) -> list[dict[str, Any]]:
    """The shipped tactics puzzles (the bank's file format)."""
    return read_bank(path)


def tactics_added(
    shipped: Sequence[dict[str, Any]], entries: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The ``shipped`` tactics with the new ``entries`` beside them (a run's mined games added
    to the file's): a position already shipped stays as it is."""
    keys = {entry["key"] for entry in shipped}
    return [*shipped, *(entry for entry in entries if entry["key"] not in keys)]


def write_tactics(entries: Sequence[dict[str, Any]], path: Path = TACTICS_PATH) -> int:
    """Write the tactics file in the bank's format (one entry a line, sorted)."""
    return write_bank(entries, path)
