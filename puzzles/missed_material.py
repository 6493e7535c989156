"""Material wins missed in a game played on the site: the moments where a side could have won
material decisively and played something else, each kept as a puzzle of that position, judged
like the tactics puzzles (``puzzles.tactics``).

Beside the missed mates (``puzzles.missed``), in the same search of a finished game and with the
same judge: Fairy-Stockfish for traditional xiangqi where it is installed, the site's own engine
otherwise and for Missile and New-version Xiangqi (``judge.judge_for``). The criteria are the
tactics bank's "material" goal (``puzzles.tactics_mining``; docs/puzzles.md, "Tactics from
master games"), read from the other side of the board: there the opponent's mistake made the
puzzle, here the player's own move is the mistake.

1. **Scan.** Each position where a side asked about is to move, and the position its move led
   to, are judged on ``SCAN_NODES``. A candidate is a position where the side to move is ahead
   by ``WIN`` or more (not a mate: a missed mate is the mate search's) and its move left it
   below ``WIN``, ``SWING`` or more lower.
2. **The win.** The candidate is judged with ``MULTIPV`` lines on ``NODES[judge]``: the best
   move keeps ``WIN`` and is no mate; the moves within ``ONLY_MARGIN`` of it that keep ``WIN``
   are accepted (all of them: a win missed is missed however many moves win, as a missed mate
   is), a move reported at ``GOOD`` or more outside the margin is "also good, but not the best".
   The move played must be none of the accepted, below ``WIN`` and ``SWING`` below the best
   (weighed alone on a line's share of the budget when the judge did not report it). The
   position is not one in check, nor one with a single legal move (as in the bank).
3. **The line.** As the bank's: the defender's replies are the judge's best, the solver's
   moves after the first must be the only ones that keep ``WIN`` until the gain is clear
   (``GAIN`` on the board after a solver's move and still once the captures, collisions and
   defections that open the judge's line from there are played), at most ``MAX_MOVES`` solver
   moves; a mate, a position the rules end or a win that fades is no puzzle. When the line
   needs more than one solver move and several first moves are accepted, each of them gets its
   own line (``variations``, at most ``MAX_LINES`` in all); a first move whose line fails is
   moved to "also good". The first line that holds, the best move's first, is the puzzle's.

The puzzle names what the line wins (the pieces the defender lost, less those of the same kind
the solver lost; and what the solver gave for them), and the judge. The cost is bounded per
game: ``MAX_PLIES`` plies scanned (two searches a ply at most), ``MAX_EXAMINED`` candidates
examined, at most ``PER_GAME`` moments, and nothing more begun after ``MAX_SECONDS``.

Pure Python: no Django here.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Move, Position
from engine.tactics import detect, material_balance
from judge import FAIRY_STOCKFISH, OURS, Judge
from puzzles.tactics import KIND, material_changed
from puzzles.tactics_mining import (
    GAIN,
    GOOD,
    MAX_MOVES,
    MULTIPV,
    ONLY_MARGIN,
    SWING,
    WIN,
    Rejected,
    Step,
    judge_step,
    score,
)

# The scan's budget a position, and the examination's (all ``MULTIPV`` lines together), by
# judge: Fairy-Stockfish's are the bank's; the site's engine searches about 80,000 positions a
# second of one core, so its examination is half of Fairy-Stockfish's.
SCAN_NODES = {FAIRY_STOCKFISH: 5_000, OURS: 5_000}
NODES = {FAIRY_STOCKFISH: 200_000, OURS: 100_000}
MAX_PLIES = 400
MAX_EXAMINED = 4
PER_GAME = 3
MAX_LINES = 3
# A safety net of wall-clock time (the task that runs the look has 120 s for the mates and this
# together): no position is judged, nor candidate examined, after this long; the look says where
# it stopped (``stopped_at``, a ply).
MAX_SECONDS = 40.0


@dataclass
class MaterialStats:
    """What the look did: positions judged, candidates examined and why they failed, searches
    run, CPU seconds (``time.process_time``; the judge's own process is not counted)."""

    positions: int = 0
    candidates: int = 0
    examined: int = 0
    kept: int = 0
    searches: int = 0
    seconds: float = 0.0
    stopped_at: int | None = None
    rejected: dict[str, int] = field(default_factory=dict)

    def reject(self, why: str) -> None:
        self.rejected[why] = self.rejected.get(why, 0) + 1

    def as_json(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "candidates": self.candidates,
            "examined": self.examined,
            "kept": self.kept,
            "searches": self.searches,
            "seconds": round(self.seconds, 3),
            "stopped_at": self.stopped_at,
            "rejected": dict(sorted(self.rejected.items())),
        }


@dataclass(frozen=True)
class MissedMaterial:
    """One missed material win: ``ply`` plies were played before its position, ``side`` was
    to move and had the win, and played ``played`` (ICCS) instead. ``proof`` holds the answers
    (``puzzles.tactics``: ``line``, ``steps``, and ``variations``, ``won``, ``lost``,
    ``engine``), ``themes`` the tactics its line shows."""

    ply: int
    side: str
    played: str
    played_chinese: str
    variant: str
    fen: str
    proof: dict[str, Any]
    themes: list[str]

    @property
    def moves_to_win(self) -> int:
        return len(self.proof["steps"])


@dataclass(frozen=True)
class _Line:
    line: list[str]
    steps: list[Step]
    end: Position  # after the last solver move and the captures of the judge's line from there


def missed_material(
    *,
    variant: str,
    start_fen: str,
    moves: Sequence[str],
    sides: Collection[str],
    judge: Judge,
    skip: Collection[int] = (),
    limit: int = PER_GAME,
    stats: MaterialStats | None = None,
    scan_nodes: int | None = None,
    max_examined: int = MAX_EXAMINED,
    max_seconds: float = MAX_SECONDS,
) -> list[MissedMaterial]:
    """The moments of the game (``start_fen`` then ``moves``, ICCS) where a side of ``sides``
    could have won material decisively and played another move, in the order they came, at
    most ``limit``; the plies of ``skip`` (the missed mates and their lines) are passed over.
    ``scan_nodes``, ``max_examined`` and ``max_seconds`` change the scan's budget, the
    candidates examined and the net of time (a reference to measure the site's against). Raises the judge's errors
    (``judge.JudgeError``) when it fails."""
    stats = stats if stats is not None else MaterialStats()
    started = time.process_time()
    scan = scan_nodes or SCAN_NODES[judge.name]
    try:
        return _look(
            variant, start_fen, moves, sides, judge, set(skip),
            (limit, max_examined, scan, max_seconds), stats,
        )  # fmt: skip
    finally:
        stats.seconds += time.process_time() - started


def _look(
    variant: str,
    start_fen: str,
    moves: Sequence[str],
    sides: Collection[str],
    judge: Judge,
    skip: set[int],
    bounds: tuple[int, int, int, float],
    stats: MaterialStats,
) -> list[MissedMaterial]:
    limit, max_examined, scan_nodes, max_seconds = bounds
    fens, turns = _positions(variant, start_fen, moves[:MAX_PLIES])
    scores: dict[int, tuple[int, bool]] = {}

    def judged(ply: int) -> tuple[int, bool]:
        if ply not in scores:
            stats.positions += 1
            stats.searches += 1
            found = judge.evaluate(variant=variant, fen=fens[ply], nodes=scan_nodes)
            scores[ply] = score(found.best)
        return scores[ply]

    found: list[MissedMaterial] = []
    line_ends = -1
    deadline = time.monotonic() + max_seconds
    for ply in range(len(fens) - 1):
        if len(found) >= limit or stats.examined >= max_examined:
            break
        if time.monotonic() > deadline:
            stats.stopped_at = ply
            break
        if turns[ply] not in sides or ply in skip or ply <= line_ends or ply + 1 >= len(fens):
            continue
        best, mate = judged(ply)
        if mate or best < WIN:
            continue
        after = -judged(ply + 1)[0]  # a mate against the mover counts as the worst score
        if after >= WIN or best - after < SWING:
            continue
        stats.candidates += 1
        stats.examined += 1
        try:
            moment = _examine(variant, fens[ply], ply, moves[ply], judge, stats)
        except Rejected as why:
            stats.reject(str(why))
            continue
        found.append(moment)
        stats.kept += 1
        line_ends = ply + len(moment.proof["line"])
    return found


def _positions(variant: str, start_fen: str, moves: Sequence[str]) -> tuple[list[str], list[str]]:
    """The FEN and the side to move of every position of the game while the rules let it go
    on (the position after the last move included, when the game goes on there)."""
    position = Position.from_fen(variant, start_fen)
    fens, turns = [position.fen()], [position.turn]
    for text in moves:
        if position.outcome() is not None:
            break
        position.push(Move.from_iccs(text))
        if position.outcome() is not None:
            break
        fens.append(Position.from_fen(variant, position.fen()).fen())
        turns.append(position.turn)
    return fens, turns


def _examine(
    variant: str, fen: str, ply: int, played: str, judge: Judge, stats: MaterialStats
) -> MissedMaterial:
    """The missed win at ``fen`` where ``played`` was played, or ``Rejected``."""
    position = Position.from_fen(variant, fen)
    if position.is_check():
        raise Rejected("in_check")
    if len(position.legal_moves) < 2:
        raise Rejected("forced")
    nodes = NODES[judge.name]
    stats.searches += 1
    evaluation = judge.evaluate(variant=variant, fen=fen, nodes=nodes, multipv=MULTIPV)
    first, best = judge_step(evaluation)
    if best < WIN:
        raise Rejected("no_win")
    if played in first.accepted:
        raise Rejected("found")
    played_score = first.scores.get(played)
    if played_score is None:  # not among the judge's lines: weighed alone
        stats.searches += 1
        alone = judge.evaluate(variant=variant, fen=fen, nodes=nodes // MULTIPV, only=[played]).best
        played_score = score(alone)[0]
    if played_score >= WIN or best - played_score < SWING:
        raise Rejected("kept")
    lines: list[_Line] = []
    failed: list[str] = []
    last_reason = "no_line"
    for move in first.accepted:
        if len(lines) + len(failed) >= MAX_LINES or (lines and len(lines[0].steps) == 1):
            break
        try:
            lines.append(_line(variant, fen, first, move, judge, nodes, stats))
        except Rejected as why:
            failed.append(move)
            last_reason = str(why)
    if not lines:
        raise Rejected(last_reason)
    main = lines[0]
    if len(main.steps) == 1:  # every accepted move ends the puzzle: no line needed
        accepted = [m for m in first.accepted if m not in failed]
    else:
        accepted = [m for m in first.accepted if m in {found.line[0] for found in lines}]
    step0 = {
        "accepted": accepted,
        "good": [*first.good, *(m for m in first.accepted if m not in accepted)],
    }

    def steps_of(found: _Line) -> list[dict[str, list[str]]]:
        later = [{"accepted": s.accepted, "good": s.good} for s in found.steps[1:]]
        return [step0, *later]

    side = position.turn
    won, lost = material_changed(position, main.end, side)
    proof = {
        "kind": KIND,
        "variant": variant,
        "fen": fen,
        "line": main.line,
        "steps": steps_of(main),
        "variations": [{"line": v.line, "steps": steps_of(v)} for v in lines[1:]],
        "judge": judge.label,
        "engine": judge.name,
        "nodes": nodes,
        "multipv": MULTIPV,
        "thresholds": {"win": WIN, "margin": ONLY_MARGIN, "good": GOOD, "gain": GAIN},
        "won": won,
        "lost": lost,
        "scores": {"best": best, "played": played_score},
    }
    return MissedMaterial(
        ply=ply,
        side=side,
        played=played,
        played_chinese=position.chinese(Move.from_iccs(played)),
        variant=variant,
        fen=fen,
        proof=proof,
        themes=detect(variant, fen, main.line),
    )


def _line(
    variant: str,
    fen: str,
    first: Step,
    first_move: str,
    judge: Judge,
    nodes: int,
    stats: MaterialStats,
) -> _Line:
    """The line that starts with ``first_move`` (accepted at the first step ``first``) and
    ends once the gain is clear, or ``Rejected``."""
    position = Position.from_fen(variant, fen)
    side = position.turn
    start = material_balance(position, side)
    line: list[str] = []
    steps: list[Step] = []
    step, move = first, first_move
    for number in range(1, MAX_MOVES + 1):
        if number > 1:
            stats.searches += 1
            evaluation = judge.evaluate(
                variant=variant, fen=fen, moves=line, nodes=nodes, multipv=MULTIPV
            )
            step, best = judge_step(evaluation)
            if best < WIN:
                raise Rejected("win_fades")
            move = evaluation.best.move
        position.push(Move.from_iccs(move))
        line.append(move)
        steps.append(step)
        if position.outcome() is not None:
            raise Rejected("ends_game")
        stats.searches += 1
        reply = judge.evaluate(variant=variant, fen=fen, moves=line, nodes=nodes).best
        after, mate = score(reply)
        if mate:
            raise Rejected("mate")
        if -after < WIN:
            raise Rejected("win_fades")
        end = settled(position, reply.moves)
        if (
            material_balance(end, side) - start >= GAIN
            and material_balance(position, side) - start >= GAIN
        ):
            return _Line(line, steps, end)
        if number > 1 and len(step.accepted) > 1:
            raise Rejected("not_only")  # several moves keep the win before the gain is clear
        position.push(Move.from_iccs(reply.move))
        line.append(reply.move)
        if position.outcome() is not None:
            raise Rejected("ends_game")
    raise Rejected("too_long")


def settled(position: Position, pv: Iterable[str]) -> Position:
    """``position`` once the moves that open ``pv`` (the judge's line from there) and change
    the material (captures, collisions, defections) have been played."""
    copy = position.copy()
    for text in pv:
        move = Move.from_iccs(text)
        if move not in copy.legal_moves or copy.move_effect(move).kind == "move":
            break
        copy.push(move)
    return copy


def skipped_plies(moments: Iterable[tuple[int, int]]) -> set[int]:
    """The plies a material look passes over: each missed mate's ply (``ply``, moves to win)
    and the plies of its winning line."""
    return {p for ply, n in moments for p in range(ply, ply + 2 * n)}
