"""A proved puzzle's starting rating, read off its proof: how long the win is, how many defences
the proof refutes, whether the key is quiet, how full the board is.

Solving moves a rating from there (core.glicko2); the starting guess only decides which
players meet a new puzzle first. The rating is

    base(moves_to_win)                 900, 1250, 1500, 1700, 1850 for 1..5 moves, then +100 a move
  + QUIET_KEY (150)                    the key neither checks nor captures
  + 60 x log2(1 + side_defences)       every defender reply in the proof tree besides the main
                                       line is a variation the solver has to see through
                                       (at most +300)
  + 6 x (pieces - 16)                  a full board hides the idea (from -60 to +90)
  - 100                                a mate by checks alone, longer than one move
                                       (the solver has few moves to try)

kept between 600 and 2,800. Pure: plain data in, a number out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine import Move, Position

BASE_BY_LENGTH = {1: 900.0, 2: 1250.0, 3: 1500.0, 4: 1700.0, 5: 1850.0}
QUIET_KEY = 150.0
PER_DEFENCE_DOUBLING = 60.0
DEFENCES_MOST = 300.0
PER_PIECE = 6.0
PIECES_PLAIN = 16
PIECES_RANGE = (-60.0, 90.0)
CHECKS_ONLY = -100.0
LOWEST, HIGHEST = 600.0, 2800.0


@dataclass(frozen=True)
class ProofFeatures:
    moves_to_win: int
    side_defences: int  # defender replies in the proof tree off the main line
    quiet_key: bool  # the key neither checks nor captures
    pieces: int  # pieces on the board, generals included
    checks_only: bool  # every attacker move of the main line checks


def rating_from_features(features: ProofFeatures) -> float:
    n = features.moves_to_win
    rating = BASE_BY_LENGTH.get(n, BASE_BY_LENGTH[5] + 100.0 * (n - 5))
    if features.quiet_key:
        rating += QUIET_KEY
    rating += min(DEFENCES_MOST, PER_DEFENCE_DOUBLING * math.log2(1 + features.side_defences))
    low, high = PIECES_RANGE
    rating += max(low, min(high, PER_PIECE * (features.pieces - PIECES_PLAIN)))
    if features.checks_only and n > 1:
        rating += CHECKS_ONLY
    return float(round(max(LOWEST, min(HIGHEST, rating))))


def _replies(tree: dict[str, Any]) -> int:
    """Every defender reply stored in a proof tree (``Node.to_data()``)."""
    return sum(1 + _replies(node) for _reply, node in tree.get("r", []))


def proof_features(
    *, variant: str, fen: str, proof: dict[str, Any], main_line: list[str]
) -> ProofFeatures:
    """What the rating reads from a proof (``Proof.to_data()``) and its main line."""
    n = int(proof["n"])
    tree = proof.get("tree") or {}
    defender_moves = len(main_line) // 2
    side = max(0, _replies(tree) - defender_moves)
    position = Position.from_fen(variant, fen)
    pieces = sum(1 for value in position.board if value)
    quiet = False
    checks = True
    for index, text in enumerate(main_line):
        move = Move.from_iccs(text)
        if index % 2 == 0:
            capture = position.piece_at(text[2:]) is not None
            position.push(move)
            check = position.is_check()
            checks = checks and check
            if index == 0:
                quiet = not capture and not check
        else:
            position.push(move)
    return ProofFeatures(n, side, quiet, pieces, checks)


def starting_rating(
    *, variant: str, fen: str, proof: dict[str, Any], main_line: list[str]
) -> float:
    """The starting rating of a puzzle proved sound and unique."""
    return rating_from_features(
        proof_features(variant=variant, fen=fen, proof=proof, main_line=main_line)
    )
