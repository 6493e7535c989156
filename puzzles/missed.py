"""Mates missed in a game played on the site: the moments where a side had a short forced win
and played something else, each proved and kept as a puzzle of that position.

The search is the master games' (``puzzles.mining``): a cheap quick search on each position
of the sides asked about (a win by checks alone, then a full search of every move, both within
``MISSED_MAX_MOVES`` moves and a node budget), and a full proof only where one sees a win.
Unlike the bank, a plain mate in 1 is kept (a mate the player missed is worth showing however
easy it looks), and so is a win with more than one winning first move (a ``cooked`` proof: a
mate missed is missed however many moves win; the puzzle made of it accepts each of them, as
the trainer's judge accepts any move that keeps a forced win). A moment counts when the move
played is none of the proof's keys (the moves that force the win in that many moves) and does
not win the game at once (a stalemate is a win too). After a moment, the plies of its winning
line are passed over (one miss, not the same miss again a move later).

The cost is bounded per game: ``MISSED_MAX_PLIES`` plies looked at, two quick searches per
position and goal (at most ``MISSED_QUICK_NODES`` positions each), a proof of at most
``MISSED_PROVE_NODES`` positions per win seen, and at most ``MISSED_PER_GAME`` moments.
Measured (both sides searched): 8 master games of 68-160 plies took 0.5-1.2 s of CPU each,
8 self-play games of Missile and New-version Xiangqi (25-104 plies, two goals in Missile
Xiangqi) 0.4-2.2 s, proofs included.

Pure Python: no Django here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine import Move, Position, find_variant
from puzzles.mining import Candidate, MinedPuzzle, MiningStats, QuickSearch, examine_master

MISSED_MAX_MOVES = 3
MISSED_QUICK_NODES = 3_000
MISSED_QUICK: tuple[QuickSearch, ...] = (
    ("checks_only", MISSED_MAX_MOVES, MISSED_QUICK_NODES, "everywhere"),
    ("full", MISSED_MAX_MOVES, MISSED_QUICK_NODES, "everywhere"),
)
MISSED_PROVE_NODES = 100_000
MISSED_PROVE_SECONDS = 10.0
MISSED_MAX_PLIES = 400
MISSED_PER_GAME = 6


@dataclass(frozen=True)
class MissedMate:
    """One missed moment: ``ply`` plies were played before its position, ``side`` (red or
    black) was to move and had the win, and played ``played`` (ICCS) instead of any of the
    winning moves (the puzzle's proof's ``keys``)."""

    ply: int
    side: str
    played: str
    played_chinese: str
    puzzle: MinedPuzzle


def missed_mates(
    *,
    variant: str,
    start_fen: str,
    moves: Sequence[str],
    sides: Collection[str],
    stats: MiningStats | None = None,
) -> list[MissedMate]:
    """The moments of the game (``start_fen`` then ``moves``, ICCS) where a side of ``sides``
    had a forced win within ``MISSED_MAX_MOVES`` moves (a mate; in Missile Xiangqi also a dead
    general) and played another move; in the order they came."""
    goals = ["mate", "dead_general"] if find_variant(variant).has_dead_general else ["mate"]
    position = Position.from_fen(variant, start_fen)
    found: list[MissedMate] = []
    line_ends = -1
    for ply, text in enumerate(moves[:MISSED_MAX_PLIES]):
        if position.outcome() is not None or len(found) >= MISSED_PER_GAME:
            break
        side = position.turn
        if side in sides and ply > line_ends:
            missed = _missed_at(variant, position, ply, text, goals, stats)
            if missed is not None:
                found.append(missed)
                line_ends = ply + 2 * missed.puzzle.moves_to_win - 1
        position.push(Move.from_iccs(text))
    return found


def _missed_at(
    variant: str,
    position: Position,
    ply: int,
    played: str,
    goals: Sequence[str],
    stats: MiningStats | None,
) -> MissedMate | None:
    fen = Position.from_fen(variant, position.fen()).fen()
    for goal in goals:
        candidate = Candidate(variant, fen, goal, "missed", ply=ply)
        puzzle = examine_master(
            candidate,
            max_moves=MISSED_MAX_MOVES,
            seed=0,
            quick=MISSED_QUICK,
            prove_nodes=MISSED_PROVE_NODES,
            prove_seconds=MISSED_PROVE_SECONDS,
            stats=stats,
            keep_trivial=True,
            keep_cooked=True,
        )
        if puzzle is None:
            continue
        if played in puzzle.proof.get("keys", puzzle.main_line[:1]):
            return None  # found and played
        move = Move.from_iccs(played)
        position.push(move)
        try:
            outcome = position.outcome()
        finally:
            position.pop()
        if outcome is not None and outcome.winner == position.turn:
            return None  # won at once another way
        chinese = position.chinese(move)
        return MissedMate(
            ply=ply, side=position.turn, played=played, played_chinese=chinese, puzzle=puzzle
        )
    return None
