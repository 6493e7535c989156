"""The playing engine: the computer's moves in all three variants.

``bestmove`` searches a position (after the game's moves so far, so that the
repetition history is known) and returns the move it plays with its score,
depth, node count and principal variation. ``evaluate`` and
``accepts_draw`` answer draw offers. Levels 1-8 are node budgets, depth
caps, noise and search choices (see ``LEVEL_TABLE``); level 8's budget is
sized to take at most about 2 s a move on one core of the reference machine.

Determinism and time. A level's node budget decides its play: for the same
input and seed the result is the same on any machine. On a slow or loaded
machine a search at a level's own budget also stops at a wall-clock safety
cap (``MOVETIME_CAP_MS``) and plays the best move its completed iterations
found (or one the unfinished iteration has already proven better); when the
cap is hit, determinism yields to time. An explicit ``nodes`` replaces the
level's budget and drops the cap (so tests and benchmarks, which pass node
budgets, are deterministic); an explicit ``movetime_ms`` replaces the cap.
See ``engine.play.search`` for how the search works and
``engine.play.evaluation`` for what it values.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Final

# ruff: noqa: E402 - the compiled modules are switched on before the imports below
from engine import _native

_native.activate_subpackage("play", __path__)

from engine.errors import EngineError
from engine.play import _board as B
from engine.play.decisions import (
    ACCEPT_AFTER_MOVE_BELOW,
    Judgement,
    Resignation,
    accepts_offer_after_move,
    attacking_material,
    offers_draw,
    resignation,
    takes_draw,
)
from engine.play.evaluation import CLASSIC_WEIGHTS, DEFAULT_WEIGHTS, Weights
from engine.play.search import (
    ALL_TECHNIQUES,
    DEFAULT_TECHNIQUES,
    Limits,
    Searcher,
    is_mate_score,
    mate_in,
)
from engine.position import Position
from engine.rules import Outcome

__all__ = [
    "ALL_TECHNIQUES",
    "DEFAULT_TECHNIQUES",
    "CLASSIC_WEIGHTS",
    "DEFAULT_WEIGHTS",
    "LEVELS",
    "LEVEL_TABLE",
    "MOVETIME_CAP_MS",
    "BestMove",
    "GameOverError",
    "Judgement",
    "Level",
    "Limits",
    "Resignation",
    "Weights",
    "accepts_draw",
    "accepts_offer_after_move",
    "attacking_material",
    "bestmove",
    "evaluate",
    "level_limits",
    "offers_draw",
    "resignation",
    "search_position",
]


class GameOverError(EngineError):
    """The game has already ended in the position given: there is no move to find."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__("play.game_over", {"termination": outcome.termination})
        self.outcome = outcome


@dataclass(frozen=True)
class Level:
    """One playing level: the deepest iteration, a node budget, the seeded
    noise (+- centipawns on every evaluation), whether the quiescence search
    runs (without it captures are not followed to the end, so the engine
    hangs pieces as a beginner does) and whether checks are extended."""

    depth: int
    nodes: int
    noise: int
    quiescence: bool = True
    extensions: bool = True


LEVELS: Final = range(1, 9)
# Each level searches about one ply deeper than the one below: in the
# middlegame levels 1-5 stop at their depth cap (2 and 3 differ by the
# quiescence search), 6-8 reach about 5.5, 6.5 and 8 plies on their node
# budgets (2-3 times the one below). In xinban's opening, where defections
# make the capture sequences long, the budgets bind first: there level 5
# reaches 3-4 plies and level 6 3-6, often only one more, and level 5's
# noise and budget keep it below (at 12,000 nodes and noise 20 it scored
# 7/20 against level 6). Noise and, at 1-3, no check extension hold the low
# levels back further, so that each level beats the one below in every
# variant.
LEVEL_TABLE: Final[dict[int, Level]] = {
    1: Level(depth=1, nodes=400, noise=150, quiescence=False, extensions=False),
    2: Level(depth=2, nodes=1_000, noise=100, quiescence=False, extensions=False),
    3: Level(depth=2, nodes=2_000, noise=60, extensions=False),
    4: Level(depth=3, nodes=4_500, noise=40),
    5: Level(depth=4, nodes=9_000, noise=30),
    6: Level(depth=64, nodes=25_000, noise=10),
    7: Level(depth=64, nodes=60_000, noise=4),
    8: Level(depth=64, nodes=160_000, noise=0),
}
# The wall-clock safety cap of a search at a level's own node budget. Level
# 8's budget takes 0.8-2.0 s of one quiet core, by machine and position; the
# cap bites on a slower or loaded machine, and keeps a move under 2 s. It
# is a deadline for the whole call (the game's moves replayed, the root's
# checks, the search and the answer built after it): the search stops early
# enough to finish by it (``engine.play.search.Searcher.look``).
MOVETIME_CAP_MS: Final = 1_900
# the engine accepts a draw when it stands this badly or worse (one line with decisions)
DRAW_ACCEPT_BELOW: Final = ACCEPT_AFTER_MOVE_BELOW
DEFAULT_TT_MIB = 64


@dataclass(frozen=True)
class BestMove:
    """The engine's move and what it thinks of the position."""

    move: str  # ICCS, e.g. "h2e2"
    score: int | None  # centipawns from the side to move's view; None when mate is set
    mate: int | None  # moves to a forced win: positive = side to move wins, negative = loses
    depth: int
    nodes: int
    pv: tuple[str, ...]  # ICCS

    def to_json(self) -> dict[str, object]:
        score: object = {"mate": self.mate} if self.mate is not None else self.score
        return {
            "move": self.move,
            "score": score,
            "depth": self.depth,
            "nodes": self.nodes,
            "pv": list(self.pv),
        }


def _position(variant: str, fen: str, moves: Sequence[str]) -> Position:
    """The position after ``moves``; raises ``GameOverError`` if the game is over."""
    pos = Position.from_fen(variant, fen)
    if isinstance(moves, str):
        raise EngineError("play.moves_not_list")
    for text in moves:
        pos.push_iccs(text)
    outcome = pos.outcome()
    if outcome is not None:
        raise GameOverError(outcome)
    return pos


def _level(level: int) -> Level:
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise EngineError("play.bad_level", {"value": repr(level)})
    return LEVEL_TABLE[level]


def _positive(name: str, value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EngineError("play.not_positive", {"name": name, "value": repr(value)})
    return value


def _root(pos: Position, exclude: Collection[str] = ()) -> tuple[list[int], int | None]:
    """The root moves worth searching (not those of ``exclude``, ICCS), and a
    move that wins at once.

    A move after which the rules end the game against the mover (perpetual
    check or chase, forced variation) is left out unless every move loses."""
    moves = B.legal(pos)
    if exclude:
        moves = [m for m in moves if B.from_int(pos, m) not in exclude]
    keep = []
    won = None
    mover = pos.turn
    for m in moves:
        B.push(pos, m)
        try:
            outcome = pos.outcome()
        finally:
            B.pop(pos)
        if outcome is None or outcome.winner is None:
            keep.append(m)
        elif outcome.winner == mover:
            if won is None:
                won = m
            keep.append(m)
    return (keep or list(moves)), won


def search_position(
    pos: Position,
    limits: Limits,
    *,
    started: float | None = None,
    exclude: Collection[str] = (),
    stop: Callable[[], bool] | None = None,
) -> BestMove:
    """Search a ``Position`` (with its move history) under explicit
    ``Limits``; ``bestmove`` is this with a level's limits. The time budget
    counts from ``started`` (a ``time.perf_counter()`` value; now by
    default). ``exclude`` (ICCS) leaves moves out at the root: the best of
    the others, as an analysis's second and third lines are found. The game
    must not be over (raises ``GameOverError``), and some legal move must be
    left (``EngineError`` ``play.all_excluded``). ``stop``, asked as often as
    the clock is looked at, ends the search early once it answers True (the
    best of what was searched is the answer)."""
    if started is None:
        started = time.perf_counter()
    outcome = pos.outcome()
    if outcome is not None:
        raise GameOverError(outcome)
    root, won = _root(pos, exclude)
    if not root:
        raise EngineError("play.all_excluded", {"count": len(exclude)})
    result = Searcher(pos, limits, started, stop=stop).run(root, won)
    mate = mate_in(result.score) if is_mate_score(result.score) else None
    return BestMove(
        move=B.from_int(pos, result.move),
        score=None if mate is not None else result.score,
        mate=mate,
        depth=result.depth,
        nodes=result.nodes,
        pv=tuple(_legal_line(pos, result.pv)),
    )


def _legal_line(pos: Position, pv: list[int]) -> list[str]:
    """The principal variation in ICCS, cut where a stored move would no
    longer be legal (it never is; this keeps the output honest)."""
    line = []
    replay = pos.copy()
    for m in pv:
        if m not in B.legal(replay):
            break
        line.append(B.from_int(replay, m))
        B.push(replay, m)
    return line


def level_limits(
    level: int,
    *,
    nodes: int | None = None,
    movetime_ms: int | None = None,
    seed: int = 0,
    tt_mib: int = DEFAULT_TT_MIB,
    weights: Weights = DEFAULT_WEIGHTS,
) -> Limits:
    """The search limits of ``level``: its node budget with the safety cap
    ``MOVETIME_CAP_MS``. ``nodes`` replaces the node budget and drops the
    cap (the result then depends only on the input and the seed);
    ``movetime_ms`` replaces the cap. Raises ``EngineError`` on a bad value."""
    lv = _level(level)
    node_budget = _positive("nodes", nodes)
    time_budget = _positive("movetime_ms", movetime_ms)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise EngineError("play.bad_seed", {"value": repr(seed)})
    _positive("tt_mib", tt_mib)
    if time_budget is None and node_budget is None:
        time_budget = MOVETIME_CAP_MS
    return Limits(
        depth=lv.depth,
        nodes=node_budget if node_budget is not None else lv.nodes,
        movetime_ms=time_budget,
        noise=lv.noise,
        quiescence=lv.quiescence,
        extensions=lv.extensions,
        seed=seed,
        tt_mib=tt_mib,
        weights=weights,
    )


def bestmove(
    variant: str,
    fen: str,
    moves: Sequence[str] = (),
    *,
    level: int = 8,
    movetime_ms: int | None = None,
    nodes: int | None = None,
    seed: int = 0,
    tt_mib: int = DEFAULT_TT_MIB,
    techniques: int = DEFAULT_TECHNIQUES,
    weights: Weights = DEFAULT_WEIGHTS,
) -> BestMove:
    """The move the engine plays at ``level`` in the position after ``moves``.

    At the level's own budget a wall-clock cap (``MOVETIME_CAP_MS``) also
    applies: on a slow machine the search stops there and the result depends
    on the machine's speed. ``nodes`` replaces the level's node budget and
    drops the cap: the result is then the same for the same input and
    ``seed``. ``movetime_ms`` sets the time budget (with ``nodes``, both).
    ``techniques`` and ``weights`` choose the search's techniques and the
    evaluation (``techniques=0, weights=CLASSIC_WEIGHTS``: the engine before them).
    """
    started = time.perf_counter()  # the time budget covers replaying the moves too
    limits = level_limits(
        level, nodes=nodes, movetime_ms=movetime_ms, seed=seed, tt_mib=tt_mib, weights=weights
    )
    if techniques != DEFAULT_TECHNIQUES:
        limits = replace(limits, techniques=techniques)
    pos = _position(variant, fen, moves)
    return search_position(pos, limits, started=started)


EVALUATE_NODES = 2_000


def evaluate(variant: str, fen: str, moves: Sequence[str] = ()) -> int:
    """The position's value for the side to move, in centipawns, after a
    short quiescence search (captures followed to the end, checks
    answered); a value beyond +-29000 means a forced mate was seen."""
    pos = _position(variant, fen, moves)
    searcher = Searcher(pos, Limits(depth=0, nodes=EVALUATE_NODES))
    return searcher.quiet_value()


def accepts_draw(variant: str, fen: str, moves: Sequence[str] = (), *, level: int = 8) -> bool:
    """Does the engine, playing the side to move, accept a draw offer?

    It searches at ``level`` (half its node budget and half the safety cap,
    no noise) and accepts when it stands at ``DRAW_ACCEPT_BELOW`` centipawns
    or worse, or is being mated, or when the position is dead even with
    little attacking material left (``decisions.takes_draw``: two bare
    generals, say)."""
    started = time.perf_counter()
    lv = _level(level)
    pos = _position(variant, fen, moves)
    limits = Limits(
        depth=lv.depth,
        nodes=max(500, lv.nodes // 2),
        movetime_ms=MOVETIME_CAP_MS // 2,
        quiescence=True,
    )
    root, won = _root(pos)
    if won is not None:
        return False
    found = Searcher(pos, limits, started).run(root, None)
    score = found.score
    judgement = Judgement(None, mate_in(score)) if is_mate_score(score) else Judgement(score)
    return takes_draw(judgement, material=attacking_material(pos.pieces().values()))
