"""Game puzzles proved among checking moves, asked again among every move.

A mate found in a game by the checks-only quick search used to be kept as a checks-only puzzle
(连将杀, docs/rules.md §10.1) whenever the proof among every move did not say "sound and
unique": also when it said that a quiet move mates sooner (``shorter``) or that a quiet first
move mates as fast (``cooked``). In a moment of a real game nothing tells the player that only
checks count, so a player who found the faster mate was told it was wrong. A game's puzzle now
takes the answer of the full proof wherever that proof decides (``repose_entry``):

- sound and unique at the stated length: the same puzzle, proved in full mode;
- a shorter mate: the puzzle asks for it, at its length, when that is sound and unique and not
  trivial; otherwise it goes;
- another first move mates as fast (cooked): it goes;
- the full proof not decided within the budget: it stays a checks-only puzzle, and the trainer
  says so once the try is over (``proof_mode``).

The composed classics stay as their books set them. ``manage.py repose_bank`` runs this over
the bank; mining asks the same question (``proving.prove_at_shortest``) before it keeps a
checks-only puzzle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine import EngineError
from puzzles import proving
from puzzles.difficulty import starting_rating
from puzzles.mining import bank_key, trivial
from puzzles.themes import derive_themes

# Each proof's budget: nodes (the same answer on any machine) and a safety net of seconds.
REPOSE_NODES = 4_000_000
REPOSE_SECONDS = 120.0

# What became of one puzzle.
FULL: Final = "full"  # the same puzzle, proved in full mode
SHORTER: Final = "shorter"  # asked again at the shorter length
SHORTER_GOES: Final = "shorter_goes"  # a shorter mate that is not a puzzle (cooked, trivial...)
COOKED: Final = "cooked"  # another first move mates as fast: it goes
UNDECIDED: Final = "undecided"  # stays a checks-only puzzle
OUTCOMES = (FULL, SHORTER, SHORTER_GOES, COOKED, UNDECIDED)


@dataclass(frozen=True)
class Reposed:
    key: str  # the puzzle's key before
    outcome: str
    entry: dict[str, Any] | None  # the bank's entry now (None: the puzzle goes)
    moves_to_win: int | None  # the length the full proof found (None: not decided)
    reason: str  # for people: why it goes or stays
    nodes: int
    seconds: float


def from_a_game(entry: dict[str, Any]) -> bool:
    """A checks-only puzzle taken from a game (master or the engine's own), not a composed one."""
    return entry.get("mode") == proving.CHECKS_ONLY and entry.get("source") == "game"


def reposed_entry(entry: dict[str, Any], n: int, result: proving.ProofResult) -> dict[str, Any]:
    """``entry`` as the full-mode puzzle of ``result`` (a sound and unique win in ``n``)."""
    assert result.proof is not None
    problem = {"variant": entry["variant"], "fen": entry["fen"], "goal": entry["goal"]}
    new = dict(entry)
    new.update(
        key=bank_key(**problem, moves_to_win=n),
        moves_to_win=n,
        mode=proving.FULL,
        themes=derive_themes(**problem, moves_to_win=n, main_line=result.main_line),
        main_line=result.main_line,
        proof=result.proof,
        nodes=result.nodes,
        seconds=round(result.seconds, 3),
        rating=starting_rating(
            variant=entry["variant"],
            fen=entry["fen"],
            proof=result.proof,
            main_line=result.main_line,
        ),
    )
    return new


def repose_entry(
    entry: dict[str, Any], *, nodes: int = REPOSE_NODES, seconds: float = REPOSE_SECONDS
) -> Reposed:
    """A checks-only game puzzle asked again among every move (see the module's text)."""
    stated = entry["moves_to_win"]
    try:
        n, result = proving.prove_at_shortest(
            variant=entry["variant"],
            fen=entry["fen"],
            goal=entry["goal"],
            moves_to_win=stated,
            nodes=nodes,
            seconds=seconds,
        )
    except EngineError as error:  # the bank's positions were proved: this is not expected
        return Reposed(entry["key"], UNDECIDED, entry, None, f"refused: {error}", 0, 0.0)

    def outcome(kind: str, new: dict[str, Any] | None, reason: str = "") -> Reposed:
        length = n if result.status in (proving.SOUND_UNIQUE, proving.COOKED) else None
        return Reposed(
            entry["key"], kind, new, length, reason, result.nodes, round(result.seconds, 3)
        )

    if result.status == proving.SOUND_UNIQUE and result.proof is not None:
        if n < stated and trivial(entry["fen"], result.main_line, n, entry["variant"]):
            return outcome(SHORTER_GOES, None, f"a plain mate in {n} by {result.main_line[0]}")
        return outcome(FULL if n == stated else SHORTER, reposed_entry(entry, n, result))
    if result.status == proving.COOKED:
        keys = ", ".join(result.key_moves)
        if n < stated:
            return outcome(SHORTER_GOES, None, f"a mate in {n} by any of {keys}")
        return outcome(COOKED, None, f"a mate in {n} by any of {keys}")
    if n < stated:  # a shorter win was found, its uniqueness not decided
        return outcome(SHORTER_GOES, None, f"a mate in {n} exists; {result.reason}")
    if result.status == proving.BUDGET_EXHAUSTED:
        return outcome(UNDECIDED, entry, result.reason)
    # no win among every move when checks alone win: the prover contradicts itself
    raise AssertionError(f"{entry['key']}: {result.status} in full mode ({result.reason})")
