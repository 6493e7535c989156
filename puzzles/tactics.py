"""Tactics puzzles ("win material with the only move"): the shipped file, its entries, their
starting ratings, and judging a solver's move against the answers stored on the puzzle.

A tactics puzzle's ``proof`` is not a prover's proof but the judge's answers, decided by
Fairy-Stockfish when the puzzle was mined (``puzzles.tactics_mining``) and stored with it::

    {"kind": "material", "variant", "fen", "line": [ICCS ...],
     "steps": [{"accepted": [...], "good": [...]}, ...], "judge": "...", "nodes": N}

``steps[i]`` is the solver's ``i``-th move: ``accepted`` the moves the judge put within the
margin of the best (the line's own move first), ``good`` the moves that keep a clear but smaller
win ("also good, but not the best": the solver tries again). The defender's replies are the
line's. So judging needs no engine at all: the site runs where Fairy-Stockfish is absent.

Pure Python, no Django.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine import EngineError, Move, Position
from engine.tactics import detect
from engine.variants import ENGLISH_NAME, TYPE_OF_LETTER
from judge.base import OURS
from puzzles.tactics_mining import GOAL, PROFILES, VARIANT

TACTICS_PATH = Path(__file__).resolve().parent / "data" / "tactics.json"
KIND = "material"
JUDGE_NAME = "Fairy-Stockfish"
OURS_NAME = "Xiangqi School engine"  # judge.ours.OurEngine.label

# Starting ratings: by the solver's moves, more for a quiet key (no capture, no check), for a
# sacrifice, for each tempting "also good" move at the key, and for a crowded board.
BASE_BY_MOVES = {1: 1000.0, 2: 1300.0, 3: 1550.0, 4: 1750.0}
QUIET_KEY = 150.0
SACRIFICE = 100.0
PER_TEMPTATION = 50.0
MAX_TEMPTATION = 100.0
PER_PIECE = 6.0
RATING_FLOOR, RATING_CEILING = 600.0, 2800.0


# The kinds of pieces, most valuable first: the order a material win is told in.
PIECE_ORDER = ("chariot", "missile", "fighter", "cannon", "horse", "advisor", "elephant", "soldier")


def _kinds(position: Position, red: bool) -> Counter[str]:
    """The pieces of one side by kind (English names; a turncoat counts as its kind)."""
    return Counter(
        ENGLISH_NAME[TYPE_OF_LETTER[text[-1].lower()]]
        for text in position.pieces().values()
        if text[-1].isupper() == red and text[-1].lower() != "k"
    )


def material_changed(
    start: Position, end: Position, side: str
) -> tuple[dict[str, int], dict[str, int]]:
    """What ``side`` won from ``start`` to ``end`` (the kinds the defender lost, less those
    of the same kind ``side`` lost) and what it gave for them, as {kind: count}, most valuable
    first."""
    red = side == "red"
    theirs = _kinds(start, not red) - _kinds(end, not red)
    ours = _kinds(start, red) - _kinds(end, red)
    won, lost = theirs - ours, ours - theirs
    return _ordered(won), _ordered(lost)


def _ordered(counts: Counter[str]) -> dict[str, int]:
    return {kind: counts[kind] for kind in PIECE_ORDER if counts[kind] > 0}


def line_material(proof: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """What a tactics puzzle's solution wins for the side to move and what it gives for it
    (``material_changed``): as the answers store it (``won``, ``lost``), else from playing
    their ``line`` out; nothing for a line that cannot be played."""
    if "won" in proof:
        return dict(proof.get("won") or {}), dict(proof.get("lost") or {})
    try:
        start = Position.from_fen(str(proof.get("variant") or VARIANT), str(proof["fen"]))
        end = start.copy()
        for text in proof.get("line") or ():
            end.push(Move.from_iccs(str(text)))
    except (EngineError, KeyError, ValueError):
        return {}, {}
    return material_changed(start, end, start.turn)


def is_material(proof: Any) -> bool:
    """Whether a puzzle's stored ``proof`` is a tactics puzzle's answers."""
    return isinstance(proof, dict) and proof.get("kind") == KIND


def answers(
    *, fen: str, line: Sequence[str], steps: Sequence[dict[str, Any]], variant: str = VARIANT
) -> dict[str, Any]:
    """The answers stored as a tactics puzzle's ``proof``: the judge, its budget and the
    thresholds of the variant's mining profile (``tactics_mining.PROFILES``); a puzzle the
    site's own engine judged names it (``engine``); the budget of the second look at its key
    is ``recheck_nodes``."""
    profile = PROFILES[variant]
    proof: dict[str, Any] = {
        "kind": KIND,
        "variant": variant,
        "fen": fen,
        "line": list(line),
        "steps": [
            {"accepted": list(step["accepted"]), "good": list(step["good"])} for step in steps
        ],
        "judge": JUDGE_NAME if profile.judge != OURS else OURS_NAME,
        "nodes": profile.nodes,
        "multipv": profile.multipv,
        "thresholds": {
            "win": profile.win,
            "margin": profile.only_margin,
            "good": profile.good,
            "gain": profile.gain,
        },
    }
    if profile.judge == OURS:
        proof["engine"] = OURS
    if profile.recheck_nodes:
        proof["recheck_nodes"] = profile.recheck_nodes
    return proof


def starting_rating(*, fen: str, line: Sequence[str], steps: Sequence[dict[str, Any]],
                    themes: Sequence[str], variant: str = VARIANT) -> float:  # fmt: skip
    """What the line asks of the solver, as a starting rating (Glicko-2 corrects it)."""
    moves = len(steps)
    rating = BASE_BY_MOVES.get(moves, 1750.0 + 200.0 * (moves - 4))
    position = Position.from_fen(variant, fen)
    key = Move.from_iccs(line[0])
    quiet = position.move_effect(key).kind == "move"
    position.push(key)
    if quiet and not position.is_check():
        rating += QUIET_KEY
    if "sacrifice" in themes:
        rating += SACRIFICE
    rating += min(MAX_TEMPTATION, PER_TEMPTATION * len(steps[0]["good"]))
    pieces = len(position.pieces())
    rating += max(-60.0, min(90.0, PER_PIECE * (pieces - 16)))
    return float(max(RATING_FLOOR, min(RATING_CEILING, math.floor(rating))))


def tactic_themes(entry: dict[str, Any]) -> list[str]:
    """A tactics entry's themes: its label and the tactics its line shows today."""
    return [GOAL, *detect(entry["variant"], entry["fen"], entry["main_line"])]


# --- Judging a solver's move ------------------------------------------------------------------


def judge(proof: dict[str, Any], moves: Sequence[str]) -> tuple[str, str | None, str]:
    """The verdict on ``moves`` (solver and defender alternately, ICCS, the solver's last):
    ``(verdict, reply, code)`` (``code`` names the reason, core.messages). ``continue`` with the line's reply, ``solved`` after the last
    step's accepted move, ``good`` for an also-good move (not played: try again), ``wrong``
    for any other move, and for a line that left the stored one before its last move. A puzzle
    of a game's missed win may hold ``variations``, each ``{"line", "steps"}``: the line of
    another accepted first move, followed when the solver plays it."""
    line, steps = proof["line"], proof["steps"]
    for variation in proof.get("variations") or ():
        if moves and variation["line"][:1] == [moves[0]]:  # another first move's own line
            line, steps = variation["line"], variation["steps"]
    if not moves or len(moves) % 2 == 0:
        return "wrong", None, "tactics.off_line"
    step = len(moves) // 2
    for index, text in enumerate(moves[:-1]):
        if text != line[index]:
            return "wrong", None, "tactics.off_line"
    if step >= len(steps):
        return "wrong", None, "tactics.off_line"
    move = moves[-1]
    if move in steps[step]["accepted"]:
        if step == len(steps) - 1:
            return "solved", None, ""
        if move != line[2 * step]:
            return "wrong", None, "tactics.off_line"
        return "continue", line[2 * step + 1], ""
    if move in steps[step]["good"]:
        return "good", None, "tactics.also_good"
    return "wrong", None, "tactics.not_winning"


def hint(proof: dict[str, Any], moves: Sequence[str]) -> str | None:
    """The line's move for the solver after ``moves`` (solver to move), or None."""
    line = proof["line"]
    if len(moves) % 2 or list(moves) != line[: len(moves)] or len(moves) >= len(line):
        return None
    return str(line[len(moves)])


def check_entry(entry: dict[str, Any]) -> list[str]:
    """What is wrong with a tactics entry (empty when nothing): its position and line are
    legal, the line alternates solver and defender and ends with the solver, every step's
    accepted moves are legal and hold the line's move, its also-good moves are legal and not
    accepted."""
    problems: list[str] = []
    proof = entry.get("proof") or {}
    if not is_material(proof):
        return ["its proof is not a tactics puzzle's answers"]
    line, steps = proof.get("line") or [], proof.get("steps") or []
    if line != entry.get("main_line"):
        problems.append("its main line differs from its answers' line")
    if len(line) != 2 * len(steps) - 1 or len(steps) != entry.get("moves_to_win"):
        problems.append("its line and steps do not match its length")
        return problems
    try:
        position = Position.from_fen(entry["variant"], entry["fen"])
        for index, text in enumerate(line):
            if index % 2 == 0:
                step = steps[index // 2]
                if text not in step["accepted"]:
                    problems.append(f"move {index + 1} ({text}) is not accepted at its step")
                if set(step["accepted"]) & set(step["good"]):
                    problems.append(f"step {index // 2 + 1} has a move both accepted and good")
                for other in [*step["accepted"], *step["good"]]:
                    if Move.from_iccs(other) not in position.legal_moves:
                        problems.append(f"{other} is not legal at step {index // 2 + 1}")
            move = Move.from_iccs(text)
            if move not in position.legal_moves:
                problems.append(f"move {index + 1} ({text}) is not legal")
                break
            position.push(move)
            if position.outcome() is not None and index < len(line) - 1:
                problems.append(f"the game ends at move {index + 1}")
                break
    except EngineError as error:
        problems.append(str(error))
    return problems
