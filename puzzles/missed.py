"""Mates missed in a game played on the site: the moments where a side had a short forced win
and played something else, each proved and kept as a puzzle of that position.

Each position of the sides asked about is looked at cheaply, and a full proof is made only
where the look sees a win. The look is a judge's search (``judge``): Fairy-Stockfish for
traditional xiangqi where it is installed, the site's own engine (``judge.ours``) for Missile
and New-version Xiangqi and for traditional xiangqi without Fairy-Stockfish, each on its own
budgets (``SITE_BUDGETS``, by the judge's name: a node of ours is worth more than one of
Fairy-Stockfish's). It sees a win of up to ``MISSED_MAX_MOVES`` (5) moves (a second, deeper
look where the first sees the side to move well ahead); the proof is then asked for
that length, and for a shorter one when the prover finds it. A judge's win is a mate to the
prover, or in Missile Xiangqi a dead general, or there a win that ends in one or the other
depending on the defence (the prover's goal ``win``): the judge's score does not say which,
so the goals are proved in that order. Without a judge (or when it fails on a game) the look
is the master games' quick search (``puzzles.mining``: a win by checks alone, then a full
search of every move, both within ``MISSED_QUICK_MAX_MOVES`` (3) moves and a node budget).
Whatever the look, only what the prover proves is reported: a judge's win that the prover
does not prove within its budget is left out.
Unlike the bank, a plain mate in 1 is kept (a mate the player missed is worth showing however
easy it looks), and so is a win with more than one winning first move (a ``cooked`` proof: a
mate missed is missed however many moves win; the puzzle made of it accepts each of them, as
the trainer's judge accepts any move that keeps a forced win). A moment counts when the move
played is none of the proof's keys (the moves that force the win in that many moves) and does
not win the game at once (a stalemate is a win too). After a moment, the plies of its winning
line are passed over (one miss, not the same miss again a move later).

The cost is bounded per game: ``MISSED_MAX_PLIES`` plies looked at, one or two judge's
searches per position (the budgets) or two quick searches per position and goal (at most
``MISSED_QUICK_NODES`` positions each), a proof of at most ``MISSED_PROVE_NODES`` positions
per goal and length tried for a win seen, and at most ``MISSED_PER_GAME`` moments. A caller
with a time limit (the review's task) gives a ``deadline``: no ply is looked at and no proof
begun after it, and a proof begun before it ends by it.
Measured in docs/puzzles.md ("Mates missed in your own games", ``bench/missed_mates.py``).

Pure Python: no Django here (the judge is plain Python too).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from engine import Move, Position, find_variant
from judge import FAIRY_STOCKFISH, OURS, Judge
from puzzles import proving
from puzzles.mining import (
    Candidate,
    MinedPuzzle,
    MiningStats,
    QuickSearch,
    examine_master,
    prove_seen,
)

# With a judge: the longest win looked for; the judge's budget a position, and a second,
# larger look where the first sees the side to move ahead by this much (or a win longer than
# the longest). Fairy-Stockfish's (ten times larger): measured on the bank's master-game
# mates in 4 and 5; the site's own engine's (four times larger): on the bank's Missile and
# New-version mates and dead generals in 4 and 5, and on engine games (docs/puzzles.md).
MISSED_MAX_MOVES = 5
MISSED_JUDGE_NODES = 20_000
MISSED_RECHECK_NODES = 200_000
MISSED_OUR_NODES = 10_000
MISSED_OUR_RECHECK_NODES = 40_000
# The site's own engine's looks at one game, all together: once they have searched this many
# nodes (about 150 looks, 20-30 s of one core), the rest of the game is looked at by the quick
# searches, so a long game stays within the task's time limit.
MISSED_OUR_GAME_NODES = 3_000_000
MISSED_RECHECK_CP = 150
# Without one: the quick searches' length and budget.
MISSED_QUICK_MAX_MOVES = 3
MISSED_QUICK_NODES = 3_000
MISSED_QUICK: tuple[QuickSearch, ...] = (
    ("checks_only", MISSED_QUICK_MAX_MOVES, MISSED_QUICK_NODES, "everywhere"),
    ("full", MISSED_QUICK_MAX_MOVES, MISSED_QUICK_NODES, "everywhere"),
)
MISSED_PROVE_NODES = 300_000
MISSED_PROVE_SECONDS = 10.0
MISSED_MAX_PLIES = 400
MISSED_PER_GAME = 6


@dataclass(frozen=True)
class Budgets:
    """What a judged look and a proof may spend: the judge's first and second looks (nodes),
    the prover's nodes and seconds a proof, and the judge's nodes a game (``None``: no
    limit; once spent, the quick searches look at the rest of the game)."""

    look: int
    recheck: int
    prove_nodes: int = MISSED_PROVE_NODES
    prove_seconds: float = MISSED_PROVE_SECONDS
    game: int | None = None

    def times(self, factor: int) -> Budgets:
        """Every budget ``factor`` times larger (a reference to measure the site's against)."""
        return Budgets(
            self.look * factor,
            self.recheck * factor,
            self.prove_nodes * factor,
            self.prove_seconds * factor,
            None if self.game is None else self.game * factor,
        )


# The site's budgets, by the judge's name.
SITE_BUDGETS: Mapping[str, Budgets] = MappingProxyType(
    {
        FAIRY_STOCKFISH: Budgets(MISSED_JUDGE_NODES, MISSED_RECHECK_NODES),
        OURS: Budgets(MISSED_OUR_NODES, MISSED_OUR_RECHECK_NODES, game=MISSED_OUR_GAME_NODES),
    }
)


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
    judge: Judge | None = None,
    budgets: Budgets | None = None,
    deadline: float | None = None,
) -> list[MissedMate]:
    """The moments of the game (``start_fen`` then ``moves``, ICCS) where a side of ``sides``
    had a forced win (a mate; in Missile Xiangqi also a dead general) and played another move;
    in the order they came. The win is looked for within ``MISSED_MAX_MOVES`` moves by
    ``judge``'s search when it is given, else within ``MISSED_QUICK_MAX_MOVES`` by the quick
    searches. ``budgets`` are a judged look's and its proofs' (by default the site's for that
    judge); once the judge has searched ``budgets.game`` nodes on the game, the quick searches
    look at the rest of it (``stats`` counts the plies each looked through). At ``deadline``
    (a ``time.monotonic()`` value) the look stops where it is: the plies left are counted in
    ``stats.unlooked_plies``. Raises the judge's errors (``judge.JudgeError``) when it fails."""
    goals = ["mate", "dead_general"] if find_variant(variant).has_dead_general else ["mate"]
    stats = stats if stats is not None else MiningStats()
    if judge is not None:
        budgets = budgets or site_budgets(judge)
    spent_before = stats.judge_nodes
    position = Position.from_fen(variant, start_fen)
    found: list[MissedMate] = []
    line_ends = -1
    looked = moves[:MISSED_MAX_PLIES]
    for ply, text in enumerate(looked):
        if position.outcome() is not None or len(found) >= MISSED_PER_GAME:
            break
        if _remaining(deadline) <= 0:
            stats.unlooked_plies += len(looked) - ply
            break
        # once the judge's budget for the game is spent, the quick searches look at the rest
        game_budget = None if budgets is None else budgets.game
        if judge is not None and game_budget is not None:
            judge = judge if stats.judge_nodes - spent_before < game_budget else None
        if judge is not None:
            stats.judged_plies += 1
        else:
            stats.quick_plies += 1
        side = position.turn
        if side in sides and ply > line_ends:
            if judge is not None and budgets is not None:
                missed = _judged_missed_at(
                    variant, start_fen, moves[:ply], position, text, goals, judge,
                    _within(budgets, deadline), stats, deadline,
                )  # fmt: skip
            else:
                missed = _missed_at(variant, position, ply, text, goals, stats, deadline)
            if missed is not None:
                found.append(missed)
                line_ends = ply + 2 * missed.puzzle.moves_to_win - 1
        position.push(Move.from_iccs(text))
    return found


def _remaining(deadline: float | None) -> float:
    """The seconds left before ``deadline`` (a ``time.monotonic()`` value; ``None``: no
    limit)."""
    return float("inf") if deadline is None else deadline - time.monotonic()


def _within(budgets: Budgets, deadline: float | None) -> Budgets:
    """``budgets`` with a proof's seconds cut to what is left before ``deadline``."""
    seconds = min(budgets.prove_seconds, _remaining(deadline))
    if seconds >= budgets.prove_seconds:
        return budgets
    return replace(budgets, prove_seconds=max(seconds, 0.0))


def site_budgets(judge: Judge) -> Budgets:
    """The site's budgets for ``judge``'s looks (its own engine's for any judge but
    Fairy-Stockfish)."""
    return SITE_BUDGETS.get(judge.name, SITE_BUDGETS[OURS])


def judged_goals(goals: Sequence[str]) -> list[str]:
    """The goals proved, in turn, where a judge saw a win: ``goals``, and where there are two
    (a mate and a dead general, in Missile Xiangqi) then ``win``, which holds a win that ends
    in one or the other depending on the defence."""
    return [*goals, "win"] if len(goals) > 1 else list(goals)


def _missed_at(
    variant: str,
    position: Position,
    ply: int,
    played: str,
    goals: Sequence[str],
    stats: MiningStats | None,
    deadline: float | None = None,
) -> MissedMate | None:
    fen = Position.from_fen(variant, position.fen()).fen()
    for goal in goals:
        if _remaining(deadline) <= 0:
            return None
        candidate = Candidate(variant, fen, goal, "missed", ply=ply)
        puzzle = examine_master(
            candidate,
            max_moves=MISSED_MAX_MOVES,
            seed=0,
            quick=MISSED_QUICK,
            prove_nodes=MISSED_PROVE_NODES,
            prove_seconds=min(MISSED_PROVE_SECONDS, _remaining(deadline)),
            stats=stats,
            keep_trivial=True,
            keep_cooked=True,
        )
        if puzzle is None:
            continue
        return _moment(position, ply, played, puzzle)
    return None


def _moment(position: Position, ply: int, played: str, puzzle: MinedPuzzle) -> MissedMate | None:
    """The moment where ``puzzle``'s win was there and ``played`` was played; None when the
    move played is one of the win's keys, or wins the game at once another way."""
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
        ply=ply,
        side=position.turn,
        played=played,
        played_chinese=chinese,
        puzzle=puzzle,
    )


def judged_mate(
    judge: Judge,
    variant: str,
    fen: str,
    moves: Sequence[str],
    budgets: Budgets | None = None,
    stats: MiningStats | None = None,
) -> int | None:
    """The mate (moves, positive: the side to move mates) the judge sees after ``moves`` from
    ``fen``: on ``budgets.look`` nodes, then on ``budgets.recheck`` when that first look sees
    the side to move ahead by ``MISSED_RECHECK_CP`` or more, or a mate too long (by default
    the site's budgets for that judge); ``stats`` counts the nodes searched. The site's own
    engine's "mate" is any win by the rules (a dead general, a stalemate, a repetition the
    other side loses too): the prover says which are mates."""
    budgets = budgets or site_budgets(judge)
    stats = stats if stats is not None else MiningStats()
    found = judge.evaluate(variant=variant, fen=fen, moves=moves, nodes=budgets.look)
    stats.judge_nodes += found.nodes
    best = found.best
    if best.mate is not None and best.mate <= MISSED_MAX_MOVES:
        return best.mate
    if budgets.recheck > budgets.look and (
        (best.mate or 0) > 0 or (best.cp or 0) >= MISSED_RECHECK_CP
    ):
        found = judge.evaluate(variant=variant, fen=fen, moves=moves, nodes=budgets.recheck)
        stats.judge_nodes += found.nodes
        best = found.best
    return best.mate


def _judged_missed_at(
    variant: str,
    start_fen: str,
    before: Sequence[str],
    position: Position,
    played: str,
    goals: Sequence[str],
    judge: Judge,
    budgets: Budgets,
    stats: MiningStats | None,
    deadline: float | None = None,
) -> MissedMate | None:
    """The moment at ``position`` (``before`` played from ``start_fen``) when the judge sees a
    win of the side to move within ``MISSED_MAX_MOVES`` moves and the prover proves it, in
    the judge's number of moves or fewer, or (when it disproves every goal in that number)
    in up to ``MISSED_MAX_MOVES``; no proof is begun after ``deadline``."""
    stats = stats if stats is not None else MiningStats()
    started = time.process_time()
    stats.candidates += 1
    mate = judged_mate(judge, variant, start_fen, before, budgets, stats)
    stats.filter_seconds += time.process_time() - started
    if mate is None or not 0 < mate <= MISSED_MAX_MOVES:
        return None
    stats.seen += 1
    ply = len(before)
    fen = Position.from_fen(variant, position.fen()).fen()
    # The judge's length first; when the prover shows that no goal is won in it, the longest
    # (a judge may count a win too short: the site's own engine counts a repetition that the
    # other side loses as a win, and the mate may come later), and a shorter win it finds.
    lengths = [mate] if mate == MISSED_MAX_MOVES else [mate, MISSED_MAX_MOVES]
    for length in lengths:
        disproved = True
        for goal in judged_goals(goals):
            candidate = Candidate(variant, fen, goal, "missed", ply=ply)
            n = length
            while True:
                if _remaining(deadline) <= 0:
                    return None
                puzzle, result = prove_seen(
                    candidate, n, seed=0, prove_nodes=budgets.prove_nodes,
                    prove_seconds=budgets.prove_seconds, stats=stats,
                )  # fmt: skip
                shorter = result.status == proving.SHORTER
                if puzzle is not None or not shorter or not result.moves_to_win:
                    break
                n = min(n - 1, result.moves_to_win)
            if puzzle is not None:
                return _moment(position, ply, played, puzzle)
            disproved = disproved and result.status == proving.NO_WIN
        if not disproved:
            break
    return None
