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

Missile and New-version Xiangqi are mined the same way from the engine's own games
(``puzzles.selfplay``), judged by the site's own engine with the variant's ``Profile``
(``PROFILES``: budgets and thresholds for its scale, either side's moves, the scan from ply 10
until the game is decided, the line played on the game's history so that a repetition ends it,
and every kept key judged again on four times the budget, ``recheck``). The material follows the
board the rules leave (collisions, defections: ``engine.tactics.material_balance``). Traditional
xiangqi's keys are judged again the same way, by Fairy-Stockfish on four times its budget; a
bank mined before that is checked with ``recheck_entries`` (``mine_tactics --recheck``).

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
from judge import FAIRY_STOCKFISH, OURS, Evaluation, Judge, JudgeError
from puzzles.selfplay import SelfplayGame

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


@dataclass(frozen=True)
class Profile:
    """How one variant is mined: its judge, the budgets and the thresholds (scores in the
    judge's centipawns from the side to move). ``recheck_nodes`` (0: none) is the budget of
    the second, independent look at every kept key; ``end_window`` the plies the scan looks at
    from the end of a game, or ``None``: from ``FIRST_PLY`` until the game is decided (the
    winner's score ``decided`` or more, either way, for ``DECIDED_RUN`` positions in a row),
    at most ``max_scan`` positions."""

    variant: str
    judge: str
    scan_nodes: int
    nodes: int
    screen_nodes: int
    screen_slack: int
    multipv: int
    win: int
    before_max: int
    swing: int
    only_margin: int
    good: int
    gain: float
    max_moves: int
    per_game: int
    recheck_nodes: int = 0
    end_window: int | None = END_WINDOW
    decided: int = 0
    max_scan: int = 0
    history: bool = False  # the line is played on the game's own history (its repetitions)
    first_ply: int = FIRST_PLY
    winner_only: bool = True  # only the moves of the game's winner are looked at


TRADITIONAL = Profile(
    variant=VARIANT,
    judge=FAIRY_STOCKFISH,
    scan_nodes=SCAN_NODES,
    nodes=NODES,
    screen_nodes=SCREEN_NODES,
    screen_slack=SCREEN_SLACK,
    multipv=MULTIPV,
    win=WIN,
    before_max=BEFORE_MAX,
    swing=SWING,
    only_margin=ONLY_MARGIN,
    good=GOOD,
    gain=GAIN,
    max_moves=MAX_MOVES,
    per_game=PER_GAME,
    recheck_nodes=4 * NODES,
)

# Missile and New-version Xiangqi, judged by the site's own engine (``judge.ours``; no other
# engine plays them) on the engine's own games (``puzzles.selfplay``). docs/puzzles.md,
# "Tactics from the engine's games", gives the measurements behind each figure: the engine
# searches about 170,000 positions a second of one core compiled, 30,000 as plain Python
# (depth 9-11 on 100,000 positions, 10-14 on 400,000); its scores drift by up to about 220 centipawns between the two, so the
# margin is wider than Fairy-Stockfish's, and the win a little higher. Three lines, not five:
# each line is a search of its own on a third of the budget. Engines play on to the mate
# instead of resigning, so the scan looks at the game until it is decided, not at its end.
OURS_SCAN_NODES = 3_000
OURS_NODES = 100_000
OURS_MULTIPV = 3
DECIDED_RUN = 6


def _ours(variant: str) -> Profile:
    return Profile(
        variant=variant,
        judge=OURS,
        scan_nodes=OURS_SCAN_NODES,
        nodes=OURS_NODES,
        screen_nodes=OURS_NODES // 4,
        screen_slack=100,
        multipv=OURS_MULTIPV,
        win=300,
        before_max=600,
        swing=200,
        only_margin=250,
        good=200,
        gain=GAIN,
        max_moves=MAX_MOVES,
        per_game=3,
        recheck_nodes=4 * OURS_NODES,
        end_window=None,
        decided=1_500,
        max_scan=160,
        history=True,
        winner_only=False,
    )


PROFILES: dict[str, Profile] = {VARIANT: TRADITIONAL, "feidan": _ours("feidan"),
                                "xinban": _ours("xinban")}  # fmt: skip


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
    variant: str = VARIANT

    def as_json(self) -> dict[str, Any]:
        data = {
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
        if self.variant != VARIANT:  # a traditional log's records stay as they were
            data["variant"] = self.variant
        return data


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


Game = MasterGame | SelfplayGame


def game_variant(game: Game) -> str:
    return game.variant if isinstance(game, SelfplayGame) else VARIANT


def game_id(game: Game) -> int:
    return game.n if isinstance(game, SelfplayGame) else game.id


def game_name(game: Game) -> str:
    """What a puzzle calls its game: ``ccpd:<id>``, ``selfplay:<variant>:<n>``."""
    if isinstance(game, SelfplayGame):
        return f"selfplay:{game.variant}:{game.n}"
    return f"ccpd:{game.id}"


def game_info(game: Game) -> dict[str, Any]:
    if isinstance(game, SelfplayGame):
        return game.info
    return {
        "red": game.red,
        "black": game.black,
        "event": game.event,
        "date": game.date,
        "year": game.year,
    }


def game_start(game: Game) -> Position:
    """The position ``game`` starts from."""
    if isinstance(game, SelfplayGame):
        return Position.from_fen(game.variant, game.fen)
    return Position.start(VARIANT)


def game_history(game: Game, ply: int) -> Position:
    """The position of ``game`` after ``ply`` plies, with the moves that led there."""
    position = game_start(game)
    for text in game.moves[:ply]:
        position.push(Move.from_iccs(text))
    return position


def game_positions(game: Game) -> Iterator[tuple[int, str]]:
    """(plies played, FEN) of every position of ``game`` while the rules let it go on."""
    variant = game_variant(game)
    position = game_start(game)
    yield 0, position.fen()
    for ply, text in enumerate(game.moves, start=1):
        position.push(Move.from_iccs(text))
        if position.outcome() is not None:
            return
        yield ply, Position.from_fen(variant, position.fen()).fen()


def scan(
    positions: list[tuple[int, str]],
    judge: Judge,
    stats: Stats,
    *,
    nodes: int | None = None,
    first: int = FIRST_PLY - 1,
    profile: Profile = TRADITIONAL,
) -> list[int]:
    """The indices (into ``positions``, from ``first`` on) of the candidates: the side to move
    is ahead by ``WIN`` after a move that cost its opponent ``SWING`` or more and left it no
    more than ``BEFORE_MAX`` ahead before. A profile without an end window stops once the game
    is decided (``Profile``)."""
    nodes = profile.scan_nodes if nodes is None else nodes
    started = time.monotonic()
    scores: list[tuple[int, bool] | None] = []
    decided_for = scanned = 0
    for ply, fen in positions:
        if ply < first or (profile.end_window is None and (
            decided_for >= DECIDED_RUN or scanned >= profile.max_scan
        )):  # fmt: skip
            scores.append(None)
            continue
        scanned += 1
        stats.positions += 1
        stats.searches += 1
        found_score = score(judge.evaluate(variant=profile.variant, fen=fen, nodes=nodes).best)
        scores.append(found_score)
        if profile.end_window is None:
            decided = found_score[1] or abs(found_score[0]) >= profile.decided
            decided_for = decided_for + 1 if decided else 0
    stats.scan_seconds += time.monotonic() - started
    found = []
    for index in range(1, len(positions)):
        now, before = scores[index], scores[index - 1]
        if now is None or before is None or now[1] or before[1]:
            continue
        if (
            now[0] >= profile.win
            and -before[0] <= profile.before_max
            and now[0] + before[0] >= profile.swing
        ):
            found.append(index)
    return found


def _evaluate(
    judge: Judge,
    stats: Stats,
    fen: str,
    moves: list[str],
    multipv: int,
    profile: Profile = TRADITIONAL,
) -> Evaluation:
    stats.searches += 1
    return judge.evaluate(
        variant=profile.variant, fen=fen, moves=moves, nodes=profile.nodes, multipv=multipv
    )


def judge_step(evaluation: Evaluation, profile: Profile = TRADITIONAL) -> tuple[Step, int]:
    """What the judge accepts at a solver move, and the best score; ``Rejected`` when the
    best move is a mate. A move the judge did not report scores no more than its last line:
    it is neither accepted nor also good."""
    scored = [(line.move, *score(line)) for line in evaluation.lines]
    best = scored[0][1]
    if scored[0][2]:
        raise Rejected("mate")
    floor = max(profile.win, best - profile.only_margin)
    accepted = [move for move, cp, _ in scored if cp >= floor]
    good = [move for move, cp, _ in scored if cp < floor and cp >= profile.good]
    return Step(accepted, good, {move: cp for move, cp, _ in scored}), best


def board_gain(fen: str, line: Iterable[str], variant: str = VARIANT) -> float:
    """The material the side to move at ``fen`` has gained on the board after ``line`` (as
    the rules leave the board: a collision removes both pieces, a defection puts the captured
    piece on the captor's side)."""
    position = Position.from_fen(variant, fen)
    side = position.turn
    start = material_balance(position, side)
    for text in line:
        position.push(Move.from_iccs(text))
    return material_balance(position, side) - start


def settled_gain(position: Position, pv: Iterable[str], side: str, start: float) -> float:
    """The material ``side`` has gained over ``start`` once the moves that open ``pv`` (the
    judge's line from ``position``) and change the material have been played: captures, and
    in the variants collisions, self-destructions and defections."""
    copy = position.copy()
    for text in pv:
        move = Move.from_iccs(text)
        if move not in copy.legal_moves or copy.move_effect(move).kind == "move":
            break
        copy.push(move)
    return material_balance(copy, side) - start


def examine(
    game_name: str,
    positions: list[tuple[int, str]],
    index: int,
    judge: Judge,
    stats: Stats,
    profile: Profile = TRADITIONAL,
    game: Position | None = None,
) -> Tactic:
    """The puzzle at ``positions[index]`` (the candidate) or ``Rejected``. ``game``: the
    candidate's position with the game's moves before it, so that a line coming back to a
    position of the game for the third time ends in the repetition it is (no puzzle)."""
    ply, fen = positions[index]
    p = profile
    position = game.copy() if game is not None else Position.from_fen(p.variant, fen)
    side = position.turn
    if position.is_check():
        raise Rejected("in_check")
    if len(position.legal_moves) < 2:
        raise Rejected("forced")
    stats.searches += 1
    screen = judge.evaluate(variant=p.variant, fen=fen, nodes=p.screen_nodes, multipv=p.multipv)
    scored = [score(line) for line in screen.lines]
    if scored[0][1] or scored[0][0] < p.win - p.screen_slack:
        raise Rejected("screen_no_win")
    if (
        len(scored) > 1
        and scored[1][0] >= max(p.win, scored[0][0] - p.only_margin) + p.screen_slack
    ):
        raise Rejected("screen_not_only")
    mistake_cp = 0
    start = material_balance(position, side)
    line: list[str] = []
    steps: list[Step] = []
    eval_before = 0
    for number in range(1, p.max_moves + 1):
        evaluation = _evaluate(judge, stats, fen, line, p.multipv, p)
        step, best = judge_step(evaluation, p)
        if number == 1:
            eval_before = best
            if best < p.win:
                raise Rejected("no_win")
            if len(step.accepted) > 1:
                raise Rejected("not_only")
            # Judged only now (the key's look rejects most candidates, and costs as much).
            before = _evaluate(judge, stats, positions[index - 1][1], [], 1, p)
            mistake_cp, mate = score(before.best)
            if mate or -mistake_cp > p.before_max or best + mistake_cp < p.swing:
                raise Rejected("no_mistake")
        if best < p.win:
            raise Rejected("win_fades")
        move = evaluation.best.move
        position.push(Move.from_iccs(move))
        line.append(move)
        steps.append(step)
        if position.outcome() is not None:
            raise Rejected("ends_game")
        reply = _evaluate(judge, stats, fen, line, 1, p)
        after, mate = score(reply.best)
        if mate:
            raise Rejected("mate")
        if -after < p.win:
            raise Rejected("win_fades")  # the deeper look of one line sees less
        gain = settled_gain(position, reply.best.moves, side, start)
        if gain >= p.gain and material_balance(position, side) - start >= p.gain:
            if p.recheck_nodes:
                recheck(judge, stats, fen, line[0], p)
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
                variant=p.variant,
            )
        if len(step.accepted) > 1:
            raise Rejected("not_only")  # several moves keep the win before the gain is clear
        position.push(Move.from_iccs(reply.best.move))
        line.append(reply.best.move)
        if position.outcome() is not None:
            raise Rejected("ends_game")
    raise Rejected("too_long")


def recheck(judge: Judge, stats: Stats, fen: str, key: str, profile: Profile) -> None:
    """The second, independent look at a kept puzzle's key, on ``recheck_nodes`` (a fresh
    search, nothing kept from the first): the key must still be the best move, keep ``WIN``
    and be the only move that does (``ONLY_MARGIN``); ``Rejected("recheck")`` otherwise. The
    puzzle is dropped, never mended."""
    stats.searches += 1
    evaluation = judge.evaluate(
        variant=profile.variant, fen=fen, nodes=profile.recheck_nodes, multipv=profile.multipv
    )
    try:
        step, best = judge_step(evaluation, profile)
    except Rejected:
        raise Rejected("recheck") from None  # the deeper look sees a mate: the mate miner's
    if evaluation.best.move != key or best < profile.win or step.accepted != [key]:
        raise Rejected("recheck")


def recheck_entries(
    entries: Iterable[dict[str, Any]],
    judge: Judge,
    profile: Profile,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The bank ``entries`` of ``profile``'s variant judged again (``recheck``: a fresh search
    on ``recheck_nodes``, the key still the only winning move): the ``(kept, dropped)`` ones,
    in their order. An entry is dropped, never mended."""
    kept: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    for entry in entries:
        try:
            recheck(judge, Stats(), entry["fen"], entry["main_line"][0], profile)
        except Rejected:
            dropped.append(entry)
            if progress is not None:
                progress(f"{entry['key']}: dropped, {entry['main_line'][0]} is not the only win")
        else:
            kept.append(entry)
    return kept, dropped


def mine_game(
    game: Game,
    judge: Judge,
    stats: Stats,
    *,
    progress: Callable[[str], None] | None = None,
    profile: Profile | None = None,
) -> list[Tactic]:
    """The material puzzles of one game, a master game or one of the engine's (at most the
    profile's ``per_game``, never two from one line)."""
    p = profile or PROFILES[game_variant(game)]
    name = game_name(game)
    stats.games += 1
    winner = {"1-0": "w", "0-1": "b"}.get(game.result)
    if getattr(game, "stop", None) is not None:
        return []  # a record that stops early
    if winner is None and p.winner_only:
        return []  # a draw: no known winner
    positions = list(game_positions(game))
    if p.end_window is None:
        first = p.first_ply - 1
    else:
        first = max(p.first_ply - 1, len(positions) - 1 - p.end_window)
    candidates = [
        index
        for index in scan(positions, judge, stats, first=first, profile=p)
        if not p.winner_only or positions[index][1].split(" ")[1] == winner
    ]
    found: list[Tactic] = []
    line_ends = -1
    started = time.monotonic()
    try:
        for index in candidates:
            if len(found) >= p.per_game:
                break
            if positions[index][0] <= line_ends:
                continue
            stats.candidates += 1
            history = game_history(game, positions[index][0]) if p.history else None
            try:
                tactic = examine(name, positions, index, judge, stats, p, history)
            except Rejected as why:
                stats.reject(str(why))
                continue
            except JudgeError as error:
                stats.reject(f"judge: {type(error).__name__}")
                continue
            tactic.game = game_info(game)
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
    games: Iterable[Game],
    judge: Judge,
    log: Path,
    *,
    progress: Callable[[str], None] | None = None,
    profile: Profile | None = None,
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
        if game_id(game) in done:
            continue
        stats = Stats()
        found = mine_game(game, judge, stats, progress=progress, profile=profile)
        record = {
            "game": game_id(game),
            "tactics": [t.as_json() for t in found],
            "stats": stats.as_json(),
        }
        with log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        total.add(stats)
    return total
