"""Mining "win material" puzzles from the master games, judged by Fairy-Stockfish.

The method of lichess-puzzler, for traditional xiangqi (docs/puzzles.md, "Tactics from master
games", says why each threshold is what it is):

1. **Scan.** Every position of the last ``END_WINDOW`` plies of a decisive game (from
   ``FIRST_PLY`` on) is judged on ``SCAN_NODES``, and only the winner's moves are looked at. A
   position is a candidate when the side to move is ahead by ``WIN`` or more while, one ply
   earlier, before the opponent's move, it was ahead by no more than ``BEFORE_MAX`` and by
   ``SWING`` less: the opponent's move was a real mistake (judged again on ``NODES``).
2. **The key.** The candidate is judged again with ``MULTIPV`` lines, first on
   ``SCREEN_NODES`` (a look that throws out the clear cases), then on ``NODES``: the best
   move must keep ``WIN`` and be the only one that does, every other move ``ONLY_MARGIN``
   or more below it. A move that keeps ``GOOD`` is "also good, but not the best": the
   solver is told so and tries again. A move the judge did not report among its lines is
   wrong, even when its last line keeps ``GOOD``.
3. **The line.** The defender's reply is the judge's best move on ``NODES``; the line goes
   on while the winner's move is the only one that keeps ``WIN`` (a last step may accept
   several, each of them keeping ``WIN`` within ``ONLY_MARGIN`` of the best), and it ends with
   the winner's move after which the gain is clear: the winner is ``GAIN`` or more ahead of
   the start's material on the board, and still once the captures of the judge's line from
   there have been played (quiescence). A line that has not gained by ``MAX_MOVES`` moves, a mate (the mate miner's
   work), a position the rules end (a repetition), and a win that fades are no puzzles.

Each puzzle stores what the judge decided at mining time (the accepted and the also-good moves
of every solver step), so the site checks answers without Fairy-Stockfish. Everything depends
only on node budgets (one thread, an empty hash for every search): the same games give the
same puzzles. Pure Python, no Django.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.masters import MasterGame
from engine import Move, Position
from engine.tactics import material_balance
from judge import Evaluation, Judge, JudgeError

VARIANT = "xiangqi"
GOAL = "material"
FIRST_PLY = 10
# Where the scan looks: the last END_WINDOW plies of a decisive game, for its winner. Masters
# lose material decisively near the end of the games they lose (the winner's tactic, then the
# resignation); a whole game costs the scan about three times as much for few more puzzles.
END_WINDOW = 40
SCAN_NODES = 5_000
NODES = 200_000
# A first look at the candidate with every line, on a quarter of the budget: only where it
# could be a puzzle (best at least WIN - SCREEN_SLACK, no second move clearly keeping WIN) is
# the full look taken.
SCREEN_NODES = 50_000
SCREEN_SLACK = 100
MULTIPV = 5
# Scores in Fairy-Stockfish's centipawns from the side to move. Its classical evaluation of
# xiangqi values a horse at about 350-400 and a chariot at about 700-1,000.
WIN = 250
BEFORE_MAX = WIN  # not yet winning decisively before the mistake
SWING = 150
ONLY_MARGIN = 200
GOOD = 150
GAIN = 2.0  # in the chase values of docs/rules.md §8 (chariot 9 … soldier 1)
MAX_MOVES = 4
PER_GAME = 1
MATE_CP = 100_000


def score(line: Any) -> tuple[int, bool]:
    """A line's score in centipawns from the side to move, and whether it is a mate score."""
    if line.mate is not None:
        sign = 1 if line.mate > 0 else -1
        return sign * (MATE_CP - abs(line.mate)), True
    return int(line.cp or 0), False


@dataclass
class Step:
    """One solver move: what the judge accepts and what it calls also good."""

    accepted: list[str]
    good: list[str]
    scores: dict[str, int]

    def as_json(self) -> dict[str, Any]:
        return {"accepted": self.accepted, "good": self.good, "scores": self.scores}


@dataclass
class Tactic:
    fen: str
    main_line: list[str]
    steps: list[Step]
    eval_before: int  # the side to move's best score at the puzzle's position
    eval_after: int  # the winner's score after the last solver move
    eval_mistake: int  # the winner's score before the opponent's mistake
    gain: float
    source_game: str
    ply: int
    game: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "fen": self.fen,
            "main_line": self.main_line,
            "steps": [s.as_json() for s in self.steps],
            "eval_before": self.eval_before,
            "eval_after": self.eval_after,
            "eval_mistake": self.eval_mistake,
            "gain": self.gain,
            "source_game": self.source_game,
            "ply": self.ply,
            "game": self.game,
        }


@dataclass
class Stats:
    games: int = 0
    positions: int = 0
    candidates: int = 0
    kept: int = 0
    searches: int = 0
    scan_seconds: float = 0.0
    examine_seconds: float = 0.0
    rejected: dict[str, int] = field(default_factory=dict)

    def reject(self, why: str) -> None:
        self.rejected[why] = self.rejected.get(why, 0) + 1

    def add(self, other: Stats) -> None:
        for name in ("games", "positions", "candidates", "kept", "searches"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.scan_seconds += other.scan_seconds
        self.examine_seconds += other.examine_seconds
        for why, n in other.rejected.items():
            self.rejected[why] = self.rejected.get(why, 0) + n

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "positions": self.positions,
            "candidates": self.candidates,
            "kept": self.kept,
            "searches": self.searches,
            "scan_seconds": round(self.scan_seconds, 2),
            "examine_seconds": round(self.examine_seconds, 2),
            "rejected": dict(sorted(self.rejected.items())),
        }


class Rejected(Exception):
    """The position is no puzzle; the message says why (a short code)."""


def game_positions(game: MasterGame) -> Iterator[tuple[int, str]]:
    """(plies played, FEN) of every position of ``game`` while the rules let it go on."""
    position = Position.start(VARIANT)
    yield 0, position.fen()
    for ply, text in enumerate(game.moves, start=1):
        position.push(Move.from_iccs(text))
        if position.outcome() is not None:
            return
        yield ply, Position.from_fen(VARIANT, position.fen()).fen()


def scan(
    positions: list[tuple[int, str]],
    judge: Judge,
    stats: Stats,
    *,
    nodes: int = SCAN_NODES,
    first: int = FIRST_PLY - 1,
) -> list[int]:
    """The indices (into ``positions``, from ``first`` on) of the candidates: the side to move
    is ahead by ``WIN`` after a move that cost its opponent ``SWING`` or more and left it no
    more than ``BEFORE_MAX`` ahead before."""
    started = time.monotonic()
    scores: list[tuple[int, bool] | None] = []
    for ply, fen in positions:
        if ply < first:
            scores.append(None)
            continue
        stats.positions += 1
        stats.searches += 1
        scores.append(score(judge.evaluate(variant=VARIANT, fen=fen, nodes=nodes).best))
    stats.scan_seconds += time.monotonic() - started
    found = []
    for index in range(1, len(positions)):
        now, before = scores[index], scores[index - 1]
        if now is None or before is None or now[1] or before[1]:
            continue
        if now[0] >= WIN and -before[0] <= BEFORE_MAX and now[0] + before[0] >= SWING:
            found.append(index)
    return found


def _evaluate(judge: Judge, stats: Stats, fen: str, moves: list[str], multipv: int) -> Evaluation:
    stats.searches += 1
    return judge.evaluate(variant=VARIANT, fen=fen, moves=moves, nodes=NODES, multipv=multipv)


def judge_step(evaluation: Evaluation) -> tuple[Step, int]:
    """What the judge accepts at a solver move, and the best score; ``Rejected`` when the
    best move is a mate. A move the judge did not report scores no more than its last line:
    it is neither accepted nor also good."""
    scored = [(line.move, *score(line)) for line in evaluation.lines]
    best = scored[0][1]
    if scored[0][2]:
        raise Rejected("mate")
    floor = max(WIN, best - ONLY_MARGIN)
    accepted = [move for move, cp, _ in scored if cp >= floor]
    good = [move for move, cp, _ in scored if cp < floor and cp >= GOOD]
    return Step(accepted, good, {move: cp for move, cp, _ in scored}), best


def board_gain(fen: str, line: Iterable[str]) -> float:
    """The material the side to move at ``fen`` has gained on the board after ``line``."""
    position = Position.from_fen(VARIANT, fen)
    side = position.turn
    start = material_balance(position, side)
    for text in line:
        position.push(Move.from_iccs(text))
    return material_balance(position, side) - start


def settled_gain(position: Position, pv: Iterable[str], side: str, start: float) -> float:
    """The material ``side`` has gained over ``start`` once the captures that open ``pv``
    (the judge's line from ``position``) have been played."""
    copy = position.copy()
    for text in pv:
        move = Move.from_iccs(text)
        if copy.move_effect(move).kind != "capture":
            break
        copy.push(move)
    return material_balance(copy, side) - start


def examine(
    game_name: str, positions: list[tuple[int, str]], index: int, judge: Judge, stats: Stats
) -> Tactic:
    """The puzzle at ``positions[index]`` (the candidate) or ``Rejected``."""
    ply, fen = positions[index]
    position = Position.from_fen(VARIANT, fen)
    side = position.turn
    if position.is_check():
        raise Rejected("in_check")
    if len(position.legal_moves) < 2:
        raise Rejected("forced")
    stats.searches += 1
    screen = judge.evaluate(variant=VARIANT, fen=fen, nodes=SCREEN_NODES, multipv=MULTIPV)
    scored = [score(line) for line in screen.lines]
    if scored[0][1] or scored[0][0] < WIN - SCREEN_SLACK:
        raise Rejected("screen_no_win")
    if len(scored) > 1 and scored[1][0] >= max(WIN, scored[0][0] - ONLY_MARGIN) + SCREEN_SLACK:
        raise Rejected("screen_not_only")
    mistake_cp = 0
    start = material_balance(position, side)
    line: list[str] = []
    steps: list[Step] = []
    eval_before = 0
    for number in range(1, MAX_MOVES + 1):
        evaluation = _evaluate(judge, stats, fen, line, MULTIPV)
        step, best = judge_step(evaluation)
        if number == 1:
            eval_before = best
            if best < WIN:
                raise Rejected("no_win")
            if len(step.accepted) > 1:
                raise Rejected("not_only")
            # Judged only now (the key's look rejects most candidates, and costs as much).
            before = _evaluate(judge, stats, positions[index - 1][1], [], 1)
            mistake_cp, mate = score(before.best)
            if mate or -mistake_cp > BEFORE_MAX or best + mistake_cp < SWING:
                raise Rejected("no_mistake")
        if best < WIN:
            raise Rejected("win_fades")
        move = evaluation.best.move
        position.push(Move.from_iccs(move))
        line.append(move)
        steps.append(step)
        if position.outcome() is not None:
            raise Rejected("ends_game")
        reply = _evaluate(judge, stats, fen, line, 1)
        after, mate = score(reply.best)
        if mate:
            raise Rejected("mate")
        if -after < WIN:
            raise Rejected("win_fades")  # the deeper look of one line sees less
        gain = settled_gain(position, reply.best.moves, side, start)
        if gain >= GAIN and material_balance(position, side) - start >= GAIN:
            return Tactic(
                fen=fen,
                main_line=line,
                steps=steps,
                eval_before=eval_before,
                eval_after=-after,
                eval_mistake=-mistake_cp,
                gain=gain,
                source_game=game_name,
                ply=ply,
            )
        if len(step.accepted) > 1:
            raise Rejected("not_only")  # several moves keep the win before the gain is clear
        position.push(Move.from_iccs(reply.best.move))
        line.append(reply.best.move)
        if position.outcome() is not None:
            raise Rejected("ends_game")
    raise Rejected("too_long")


def mine_game(
    game: MasterGame,
    judge: Judge,
    stats: Stats,
    *,
    progress: Callable[[str], None] | None = None,
) -> list[Tactic]:
    """The material puzzles of one master game (at most ``PER_GAME``, never two from one
    line)."""
    name = f"ccpd:{game.id}"
    stats.games += 1
    winner = {"1-0": "w", "0-1": "b"}.get(game.result)
    if winner is None or game.stop is not None:
        return []  # a draw, or a record that stops early: no known winner
    positions = list(game_positions(game))
    first = max(FIRST_PLY - 1, len(positions) - 1 - END_WINDOW)
    candidates = [
        index
        for index in scan(positions, judge, stats, first=first)
        if positions[index][1].split(" ")[1] == winner
    ]
    found: list[Tactic] = []
    line_ends = -1
    started = time.monotonic()
    try:
        for index in candidates:
            if len(found) >= PER_GAME:
                break
            if positions[index][0] <= line_ends:
                continue
            stats.candidates += 1
            try:
                tactic = examine(name, positions, index, judge, stats)
            except Rejected as why:
                stats.reject(str(why))
                continue
            except JudgeError as error:
                stats.reject(f"judge: {type(error).__name__}")
                continue
            tactic.game = {
                "red": game.red,
                "black": game.black,
                "event": game.event,
                "date": game.date,
                "year": game.year,
            }
            line_ends = tactic.ply + len(tactic.main_line)
            found.append(tactic)
            stats.kept += 1
            if progress is not None:
                progress(f"{name} ply {tactic.ply}: {' '.join(tactic.main_line)}")
    finally:
        stats.examine_seconds += time.monotonic() - started
    return found


def read_log(path: Path) -> list[dict[str, Any]]:
    """The records of a mining log (one JSON object a game); a last line cut short by a
    stopped run is left out, so that its game is mined again."""
    if not path.exists():
        return []
    records = []
    for text in path.read_text(encoding="utf-8").splitlines():
        if not text.strip():
            continue
        try:
            records.append(json.loads(text))
        except json.JSONDecodeError:
            break
    return records


def mine_games(
    games: Iterable[MasterGame],
    judge: Judge,
    log: Path,
    *,
    progress: Callable[[str], None] | None = None,
) -> Stats:
    """Mine ``games`` into the log at ``log``, one line a game with its puzzles and figures;
    the games the log already holds are skipped (a stopped run goes on where it stopped)."""
    records = read_log(log)
    done = {record["game"] for record in records}
    with log.open("w", encoding="utf-8") as handle:  # rewritten whole: a cut line goes
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    total = Stats()
    for game in games:
        if game.id in done:
            continue
        stats = Stats()
        found = mine_game(game, judge, stats, progress=progress)
        record = {
            "game": game.id,
            "tactics": [t.as_json() for t in found],
            "stats": stats.as_json(),
        }
        with log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        total.add(stats)
    return total
