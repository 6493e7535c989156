"""Benchmark of the playing engine (engine/play), run by hand.

Sections (``--sections``, comma-separated; all by default):

- ``speed``: nodes per second and the depth reached in 1 s, per variant
  (the start and two middlegames);
- ``levels``: time per move at each level's own node budget, per variant:
  wall-clock and CPU seconds (the CPU time is what the move takes on a
  quiet machine), mean and worst over five positions;
- ``strength``: the top level against a random mover and a greedy capturer
  (``--games`` each per variant);
- ``ladder``: each level against the one below (``--ladder-games`` a pair);
- ``peer``: xiangqi against Fairy-Stockfish over UCI, at fixed node limits
  (``--peer-nodes``) and at its ``Skill Level`` settings (``--peer-skills``,
  each at ``--peer-skill-nodes`` nodes a move);
- ``tactics``: the shipped xiangqi classics up to mate in 3: does the top
  level (its own budget and cap) play the key within 2 s?
- ``tune``: self-play between evaluation versions (default weights against
  one changed weight), the way the weights were chosen;
- ``baseline``: level 8 against the frozen engine of ``bench/baseline.py``
  (a past commit's build, run in its own process) at equal node budgets
  (``--baseline-nodes``, ``--baseline-games`` a variant), with the Elo
  difference and its 95 % interval;
- ``ablation``: level 8 with each of the search's techniques against level 8
  without it, the others as by default (``--ablation-only``), equal nodes;
- ``cap``: the top level as the site plays it, at its own budget with the
  wall-clock cap ``MOVETIME_CAP_MS``: wall and CPU seconds a move (median,
  95th percentile, worst) over ``--cap-positions`` positions a variant.

Every level plays at its own node budget (``LEVEL_TABLE``, times
``--ladder-scale`` / ``--top-nodes`` when given), passed as an explicit node
budget, so no clock is involved and every game is the same on any machine
for the same seeds; only the peer engine's choices at a skill level are
random. Games run in parallel over ``--jobs`` processes.

With ``--record FILE`` every finished game is appended to FILE as one JSON
line (section, variant, players, game number and seeds, opening, colour,
result, ending, plies, the first player's CPU seconds a move, and the
behaviour digest of the levels that played it: what a fixed probe of the
rules and of those levels' searches gives, see ``behaviour_digest``); a game
already in FILE for the same behaviour is not played again but counted from
the record, so a long match is built up over several runs (stop one at any
time: only the game in progress is lost) and survives changes of the code
that change nothing the probe sees, and a change of one level's row of the
table replays only the games that level played. ``--digest`` prints the
behaviour digest of all levels and of each part of the probe, and stops;
``--probe FILE`` writes the probe's lines, so two builds' answers can be
compared line by line.
``--summary FILE`` prints the recorded matches without playing.

Games are judged by the engine's own ``outcome()``; a game still running
after ``--max-plies`` is counted as a draw and reported as adjudicated.
Scores are from the first-named player's side: win 1, draw 1/2. Openings:
the standard start, then two random plies from it, each played with both
colours.

    .venv/bin/python bench/play_bench.py --quick      # a smoke run (tiny settings)
    .venv/bin/python bench/play_bench.py --sections ladder --ladder-games 10 --jobs 2
    .venv/bin/python bench/play_bench.py --sections peer --peer-games 10 --peer-skills 0,5,10
    .venv/bin/python bench/play_bench.py --sections strength --record bench/records/strength.jsonl
    .venv/bin/python bench/play_bench.py --summary bench/records/strength.jsonl
"""

from __future__ import annotations

import argparse
import ast
import atexit
import hashlib
import json
import multiprocessing
import multiprocessing.pool
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import astuple, dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from baseline import BASELINE, BaselineEngine  # noqa: E402
from uci import UciEngine  # noqa: E402

from engine import Move, Position  # noqa: E402
from engine.play import (  # noqa: E402
    DEFAULT_WEIGHTS,
    LEVEL_TABLE,
    LEVELS,
    MOVETIME_CAP_MS,
    Limits,
    Weights,
    bestmove,
    level_limits,
    search_position,
)
from engine.play.evaluation import MATERIAL  # noqa: E402

DATA = ROOT / "puzzles" / "data" / "classic-puzzles.json"
VARIANTS = ("xiangqi", "feidan", "xinban")
Player = Callable[[Position], str]
FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"


# -- players -----------------------------------------------------------------


def engine_player(limits: Limits) -> Player:
    def play(pos: Position) -> str:
        return search_position(pos, limits).move

    return play


def random_player(seed: int) -> Player:
    rng = random.Random(seed)

    def play(pos: Position) -> str:
        return rng.choice(sorted(m.iccs() for m in pos.legal_moves))

    return play


def greedy_player(seed: int) -> Player:
    """Takes the most valuable piece it can (any capture, collision or
    defection), otherwise moves at random."""
    rng = random.Random(seed)

    def play(pos: Position) -> str:
        best: list[str] = []
        best_value = 0
        for m in sorted(pos.legal_moves, key=lambda mv: mv.iccs()):
            captured = pos.move_effect(m).captured
            if captured is None:
                continue
            value = MATERIAL[_kind(captured)]
            if value > best_value:
                best, best_value = [m.iccs()], value
            elif value == best_value:
                best.append(m.iccs())
        if best:
            return rng.choice(best)
        return rng.choice(sorted(m.iccs() for m in pos.legal_moves))

    return play


def _kind(letter: str) -> int:
    from engine.variants import TYPE_OF_LETTER

    return TYPE_OF_LETTER[letter.lstrip("+").lower()]


class Peer(UciEngine):
    """Fairy-Stockfish over UCI (xiangqi, one thread, ``go nodes N``), at full
    strength or at a ``Skill Level``. Its moves write ranks 1-10; ICCS writes 0-9."""

    def __init__(self, path: str, nodes: int, skill: int | None = None) -> None:
        self.nodes = nodes
        options: dict[str, int | str] = {"Threads": 1, "Hash": 16}
        if skill is not None:
            options["Skill Level"] = skill
        super().__init__(path, **options)

    @staticmethod
    def to_peer(iccs: str) -> str:
        return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"

    @staticmethod
    def from_peer(text: str) -> str:
        f1, rest = text[0], text[1:]
        i = 1
        while rest[i].isdigit():
            i += 1
        r1, f2, r2 = int(rest[:i]), rest[i], int(rest[i + 1 :])
        return f"{f1}{r1 - 1}{f2}{r2 - 1}"

    def player(self, start_fen: str) -> Player:
        self._send("ucinewgame")
        self._ready()

        def play(pos: Position) -> str:
            moves = " ".join(self.to_peer(m.iccs()) for m in pos.move_stack)
            self._send(f"position fen {start_fen}" + (f" moves {moves}" if moves else ""))
            self._send(f"go nodes {self.nodes}")
            line = self._wait("bestmove")[-1]
            return self.from_peer(line.split()[1])

        return play

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


# -- player specifications -------------------------------------------------------
#
# A match names its players by plain tuples, so that the games can be played in
# other processes:
#   ("level", level, nodes)        the engine at a level, with an explicit node budget
#   ("weights", name, nodes)       level 8 with one of the TUNING weights (name "" = default)
#   ("random",) / ("greedy",)
#   ("peer", nodes, skill)         Fairy-Stockfish, skill -1 = full strength
#   ("techniques", bits, nodes)    level 8 with only these of the search's TECHNIQUES
#   ("baseline", commit, level, nodes)  the frozen engine of ``commit`` (bench/baseline.py)

Spec = tuple[Any, ...]
_PEERS: dict[tuple[int, int], Peer] = {}


def _peer(nodes: int, skill: int) -> Peer:
    key = (nodes, skill)
    if key not in _PEERS:
        _PEERS[key] = Peer(FAIRY, nodes, None if skill < 0 else skill)
        atexit.register(_PEERS[key].close)
    return _PEERS[key]


_BASELINES: dict[str, BaselineEngine] = {}


def _baseline(commit: str) -> BaselineEngine:
    if commit not in _BASELINES:
        _BASELINES[commit] = BaselineEngine(commit)
        atexit.register(_BASELINES[commit].close)
    return _BASELINES[commit]


def baseline_player(commit: str, level: int, nodes: int, seed: int, fen: str) -> Player:
    engine = _baseline(commit)

    def play(pos: Position) -> str:
        moves = [m.iccs() for m in pos.move_stack]
        return engine.move(pos.variant.name, fen, moves, level, nodes, seed)

    return play


def make_player(spec: Spec, seed: int, fen: str) -> Player:
    kind = spec[0]
    if kind == "level":
        level, nodes = int(spec[1]), int(spec[2])
        return engine_player(level_limits(level, nodes=nodes, seed=seed))
    if kind == "weights":
        name, nodes = str(spec[1]), int(spec[2])
        weights = DEFAULT_WEIGHTS if not name else {n: w for _v, n, w in TUNING}[name]
        return engine_player(replace(level_limits(8, nodes=nodes, seed=seed), weights=weights))
    if kind == "techniques":
        techniques, nodes = int(spec[1]), int(spec[2])
        limits = replace(level_limits(8, nodes=nodes, seed=seed), techniques=techniques)
        return engine_player(limits)
    if kind == "baseline":
        return baseline_player(str(spec[1]), int(spec[2]), int(spec[3]), seed, fen)
    if kind == "random":
        return random_player(seed)
    if kind == "greedy":
        return greedy_player(seed)
    if kind == "peer":
        nodes, skill = int(spec[1]), int(spec[2])
        return _peer(nodes, skill).player(fen)
    raise ValueError(f"unknown player {spec!r}")


def level_spec(level: int, scale: float = 1.0) -> Spec:
    return ("level", level, max(50, int(LEVEL_TABLE[level].nodes * scale)))


# -- games -------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    adjudicated: int = 0
    endings: dict[str, int] | None = None
    moves: int = 0  # the first player's moves
    worst_move_s: float = 0.0  # the first player's slowest move, CPU seconds
    move_s: float = 0.0  # the first player's CPU seconds in all

    def add(self, result: float, ending: str) -> None:
        self.games += 1
        self.points += result
        if result == 1:
            self.wins += 1
        elif result == 0:
            self.losses += 1
        else:
            self.draws += 1
        if ending == "adjudicated":
            self.adjudicated += 1
        if self.endings is None:
            self.endings = {}
        self.endings[ending] = self.endings.get(ending, 0) + 1

    def line(self) -> str:
        share = 100 * self.points / self.games if self.games else 0.0
        endings = ", ".join(f"{k} {v}" for k, v in sorted((self.endings or {}).items()))
        timing = ""
        if self.moves:
            timing = (
                f"  first player's CPU s/move: mean {self.move_s / self.moves:.2f}, "
                f"worst {self.worst_move_s:.2f}"
            )
        return (
            f"{self.points:g}/{self.games} ({share:.0f}%)  +{self.wins} ={self.draws} "
            f"-{self.losses}  [{endings}]{timing}"
        )


def play_game(
    variant: str,
    fen: str,
    red: Player,
    black: Player,
    max_plies: int,
    timed: str | None = None,
) -> tuple[str | None, str, int, list[float]]:
    """(winner or None, ending, plies, CPU seconds of each move of the side
    ``timed``). Every move is checked legal."""
    pos = Position.from_fen(variant, fen)
    times: list[float] = []
    while True:
        outcome = pos.outcome()
        if outcome is not None:
            return outcome.winner, outcome.termination, pos.ply_count(), times
        if pos.ply_count() >= max_plies:
            return None, "adjudicated", pos.ply_count(), times
        mover = red if pos.turn == "red" else black
        c0 = time.process_time()
        move = Move.from_iccs(mover(pos))
        if pos.turn == timed:
            times.append(time.process_time() - c0)
        if move not in pos.legal_moves:
            raise RuntimeError(f"illegal move {move} in {pos.fen()}")
        pos.push(move)


def openings(variant: str, count: int, seed: int = 1) -> list[str]:
    """``count`` start positions: the standard start, then two random plies from it."""
    rng = random.Random(seed)
    starts = [Position.start(variant).fen()]
    while len(starts) < count:
        pos = Position.start(variant)
        for _ in range(2):
            pos.push(rng.choice(sorted(pos.legal_moves, key=lambda m: m.iccs())))
        if pos.fen() not in starts:
            starts.append(pos.fen())
    return starts


def engine_digest(root: Path = ROOT) -> str:
    """A digest of the engine's code (``engine/**/*.py``, parsed: comments and
    layout do not count, docstrings do). It names the code a behaviour digest
    was taken of, so the probe runs once per version of the code. The
    opponents written here (random, greedy) and the peer engine are not part
    of it."""
    h = hashlib.sha256()
    for path in sorted((root / "engine").rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(ast.dump(ast.parse(path.read_text("utf-8"))).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


PROBE_PLIES = (0, 14, 40)  # the probe's positions: plies of a seeded random walk


def probe_parts(scale: float = 1.0, weights: Weights = DEFAULT_WEIGHTS) -> dict[str, list[str]]:
    """What the engine does in the games of this bench, as lines of text in
    parts: ``"rules"`` holds the material values and weights and, along a
    seeded random walk in each variant, every position's legal moves, what
    each captures and the position's outcome; ``"level N"`` holds level N's
    row of the table and, at three of the walk's positions, its search at its
    own node budget (times ``scale``) with two seeds: move, score, mate,
    depth, node count and line. A game between levels depends on the rules
    part and the parts of the levels that play it, so a change of one level's
    row keeps the records of the games the other levels played."""
    parts: dict[str, list[str]] = {
        "rules": [repr((scale, sorted(MATERIAL.items()), astuple(weights)))]
    }
    for level in LEVELS:
        parts[f"level {level}"] = [repr((level, astuple(LEVEL_TABLE[level])))]
    for variant in VARIANTS:
        rng = random.Random(f"probe {variant}")
        pos = Position.start(variant)
        for ply in range(max(PROBE_PLIES) + 1):
            outcome = pos.outcome()
            moves = sorted(pos.legal_moves, key=lambda m: m.iccs())
            captures = [str(pos.move_effect(m).captured) for m in moves]
            parts["rules"].append(
                repr((variant, ply, [m.iccs() for m in moves], captures, outcome))
            )
            if ply in PROBE_PLIES:
                for level in LEVELS:
                    nodes = max(50, int(LEVEL_TABLE[level].nodes * scale))
                    for seed in (0, 7):
                        limits = replace(
                            level_limits(level, nodes=nodes, seed=seed), weights=weights
                        )
                        found = search_position(pos, limits).to_json()
                        line = json.dumps([variant, ply, level, seed, found], sort_keys=True)
                        parts[f"level {level}"].append(line)
            if outcome is not None:
                break
            pos.push(rng.choice(moves))
    return parts


def probe(scale: float = 1.0, weights: Weights = DEFAULT_WEIGHTS) -> Iterator[str]:
    """The probe's lines, part after part (``probe_parts``), each part headed."""
    for name, lines in probe_parts(scale, weights).items():
        yield f"# {name}"
        yield from lines


def _hash(lines: Iterable[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def part_digests(scale: float = 1.0, weights: Weights = DEFAULT_WEIGHTS) -> dict[str, str]:
    """Each part of the probe hashed: about a minute of CPU at ``scale`` 1 on
    the compiled build."""
    return {name: _hash(lines) for name, lines in probe_parts(scale, weights).items()}


def combine(parts: dict[str, str], levels: Iterable[int]) -> str:
    """The behaviour digest of games played by ``levels``: the rules part's
    digest and those levels' parts, hashed."""
    names = ["rules", *(f"level {n}" for n in sorted(set(levels)))]
    return _hash(f"{name} {parts[name]}" for name in names)


def behaviour_digest(scale: float = 1.0, weights: Weights = DEFAULT_WEIGHTS) -> str:
    """A digest of ``probe`` for the games of every level: of what the engine
    does, not of how its code reads. A change that keeps it keeps, as far as
    the probe can tell, every recorded game, so records are kept across
    refactors and speed work; a change of the search or the evaluation starts
    new records, a change of one level's row new records of that level's
    games (``combine``)."""
    return combine(part_digests(scale, weights), LEVELS)


def spec_levels(spec: Spec) -> list[int]:
    """The levels whose behaviour a player's games depend on."""
    if spec[0] == "level":
        return [int(spec[1])]
    if spec[0] in ("weights", "techniques"):
        return [8]
    return []


Task = tuple[str, str, Spec, Spec, int, bool, int]


@dataclass
class Game:
    """One finished game of a match: the first player's score and CPU seconds a move."""

    game: int
    result: float
    ending: str
    plies: int
    times: list[float]


def _one_game(task: Task) -> Game:
    """One game of a match (run in a worker): the first player's score, the
    ending, and the first player's CPU seconds a move when it is the engine."""
    variant, fen, first, second, i, first_red, max_plies = task
    a, b = make_player(first, i, fen), make_player(second, 1000 + i, fen)
    red, black = (a, b) if first_red else (b, a)
    mine = "red" if first_red else "black"
    timed = mine if first[0] in ("level", "weights") else None
    winner, ending, plies, times = play_game(variant, fen, red, black, max_plies, timed)
    return Game(i, (0.5 if winner is None else float(winner == mine)), ending, plies, times)


_POOL: multiprocessing.pool.Pool | None = None


def _results(tasks: list[Task], jobs: int) -> Iterator[Game]:
    """The games' results as they finish (in any order with ``jobs`` > 1)."""
    global _POOL
    if jobs <= 1:
        yield from map(_one_game, tasks)
        return
    if _POOL is None:
        _POOL = multiprocessing.get_context("fork").Pool(jobs)
    yield from _POOL.imap_unordered(_one_game, tasks)


class Record:
    """The games of ``--record FILE``: one JSON object a line, appended as
    each game ends. A game is known by its key (the engine's behaviour
    digest, section, variant, players, game number, opening, colour, ply
    limit). Each entry also names the code (``engine_digest``) and the probe's
    scale, so the probe runs only for code the file has not seen."""

    def __init__(self, path: Path | None, code: str, scale: float = 1.0) -> None:
        self.path = path
        self.code = code
        self.scale = scale
        self._parts: dict[str, str] | None = None
        self.games: dict[str, dict[str, Any]] = {}
        if path is not None and path.exists():
            for line in path.read_text("utf-8").splitlines():
                if line.strip():
                    entry = json.loads(line)
                    self.games[self.key(entry)] = entry

    @property
    def parts(self) -> dict[str, str]:
        """The probe's part digests: from an entry of the same code and probe, else probed."""
        if self._parts is None:
            for entry in self.games.values():
                same = entry.get("code") == self.code and entry.get("probe") == self.scale
                if same and "parts" in entry:
                    self._parts = dict(entry["parts"])
                    break
            else:
                print("(probing the engine's behaviour for the record)", flush=True)
                self._parts = part_digests(self.scale)
        return self._parts

    def digest(self, first: Spec, second: Spec) -> str:
        """The behaviour digest of a game between these players."""
        return combine(self.parts, [*spec_levels(first), *spec_levels(second)])

    @staticmethod
    def key(entry: dict[str, Any]) -> str:
        fields = ("digest", "section", "variant", "players", "game", "opening", "first_red")
        return json.dumps([entry[f] for f in fields] + [entry["max_plies"]])

    def entry(self, section: str, task: Task) -> dict[str, Any]:
        variant, fen, first, second, i, first_red, max_plies = task
        return {
            "digest": self.digest(first, second),
            "code": self.code,
            "probe": self.scale,
            "parts": self.parts,
            "section": section,
            "variant": variant,
            "players": [list(first), list(second)],
            "game": i,
            "seeds": [i, 1000 + i],
            "opening": fen,
            "first_red": first_red,
            "max_plies": max_plies,
        }

    def find(self, section: str, task: Task) -> Game | None:
        if self.path is None:
            return None
        found = self.games.get(self.key(self.entry(section, task)))
        if found is None:
            return None
        return Game(found["game"], found["result"], found["ending"], found["plies"], [])

    def add(self, section: str, task: Task, game: Game) -> None:
        if self.path is None:
            return
        entry = self.entry(section, task)
        cpu = sorted(game.times)
        entry.update(
            result=game.result,
            ending=game.ending,
            plies=game.plies,
            first_moves=len(cpu),
            first_cpu_s={
                "mean": round(sum(cpu) / len(cpu), 3) if cpu else None,
                "max": round(cpu[-1], 3) if cpu else None,
            },
            compiled=_native_compiled(),
            date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        self.games[self.key(entry)] = entry
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry, separators=(",", ":")) + "\n")


def _native_compiled() -> bool:
    from engine import _native

    return _native.compiled


RECORD = Record(None, "")


def match(
    args: argparse.Namespace,
    section: str,
    variant: str,
    first: Spec,
    second: Spec,
    games: int,
    label: str,
) -> Tally:
    """``games`` games (openings played with both colours); the score is ``first``'s.
    Games already in the record are counted, not played again. With
    ``--progress`` the running score is printed after every game."""
    starts = openings(variant, (games + 1) // 2)
    tasks: list[Task] = [
        (variant, starts[i // 2], first, second, i, i % 2 == 0, args.max_plies)
        for i in range(games)
    ]
    tally = Tally()
    todo = []
    for task in tasks:
        known = RECORD.find(section, task)
        if known is None:
            todo.append(task)
        else:
            tally.add(known.result, known.ending)
    recorded = tally.games
    t0 = time.perf_counter()
    for game in _results(todo, args.jobs):
        RECORD.add(section, tasks[game.game], game)
        tally.add(game.result, game.ending)
        tally.moves += len(game.times)
        tally.move_s += sum(game.times)
        tally.worst_move_s = max([tally.worst_move_s, *game.times])
        if args.progress and tally.games < games:
            print(f"    ... {variant} {label}: {tally.line()}", flush=True)
    note = f", {recorded} from the record" if recorded else ""
    print(f"  {variant:8} {label:34} {tally.line()}  ({time.perf_counter() - t0:.0f} s{note})")
    sys.stdout.flush()
    return tally


def summary(path: Path) -> None:
    """The matches of a record file: per section, variant, players and digest."""
    groups: dict[tuple[str, str, str, str], Tally] = {}
    plies: dict[tuple[str, str, str, str], list[int]] = {}
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        e = json.loads(line)
        first, second = (" ".join(str(x) for x in p) for p in e["players"])
        k = (e["digest"], e["section"], e["variant"], f"{first} vs {second}")
        tally = groups.setdefault(k, Tally())
        tally.add(e["result"], e["ending"])
        plies.setdefault(k, []).append(e["plies"])
        mean = (e.get("first_cpu_s") or {}).get("mean")
        if mean is not None:
            tally.moves += e["first_moves"]
            tally.move_s += mean * e["first_moves"]
            tally.worst_move_s = max(tally.worst_move_s, e["first_cpu_s"]["max"])
    for (digest, section, variant, players), tally in sorted(
        groups.items(), key=lambda item: (item[0][1], item[0][2], item[0][3], item[0][0])
    ):
        p = sorted(plies[(digest, section, variant, players)])
        print(
            f"{digest} {section:8} {variant:8} {players:36} {tally.line()}  "
            f"plies median {p[len(p) // 2]}"
        )


# -- sections ----------------------------------------------------------------


def sample_positions(variant: str, count: int = 3) -> list[Position]:
    """The start, then middlegames 30 random plies deep (50 from the fourth on)."""
    out = [Position.start(variant)]
    for seed in range(1, count):
        rng = random.Random(seed)
        pos = Position.start(variant)
        for _ in range(30 if seed < 3 else 50):
            legal = sorted(pos.legal_moves, key=lambda m: m.iccs())
            pos.push(rng.choice(legal))
            if pos.outcome() is not None:
                pos.pop()
                break
        out.append(pos)
    return out


def section_speed(args: argparse.Namespace) -> None:
    ms = 200 if args.quick else 1000
    print(f"\n## speed: nodes/s and depth in {ms} ms (start, two middlegames)")
    for variant in VARIANTS:
        cells = []
        for pos in sample_positions(variant):
            limits = Limits(nodes=None, movetime_ms=ms)
            t0 = time.perf_counter()
            c0 = time.process_time()
            found = search_position(pos, limits)
            dt = time.perf_counter() - t0
            cpu = time.process_time() - c0
            cells.append(
                f"{found.nodes / dt:,.0f} n/s ({found.nodes / max(cpu, 1e-6):,.0f} n/CPU-s) "
                f"depth {found.depth}"
            )
        print(f"  {variant:8} " + " | ".join(cells))


def section_levels(args: argparse.Namespace) -> None:
    print(
        "\n## time per move at each level's own node budget (start and four middlegames): "
        "wall s, CPU s mean / worst, depth"
    )
    levels = [1, 4, 8] if args.quick else list(LEVELS)
    for variant in VARIANTS:
        cells = []
        positions = sample_positions(variant, 3 if args.quick else 5)
        for level in levels:
            nodes = LEVEL_TABLE[level].nodes
            if args.quick:
                nodes = min(nodes, 500)
            limits = level_limits(level, nodes=nodes)
            wall = 0.0
            cpus = []
            depth = 0
            for pos in positions:
                t0 = time.perf_counter()
                c0 = time.process_time()
                found = search_position(pos, limits)
                cpus.append(time.process_time() - c0)
                wall += time.perf_counter() - t0
                depth += found.depth
            n = len(positions)
            cells.append(
                f"L{level} {wall / n:.2f}s cpu {sum(cpus) / n:.2f}/{max(cpus):.2f} d{depth / n:.1f}"
            )
        print(f"  {variant:8} " + "  ".join(cells))
        sys.stdout.flush()


def _quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def section_cap(args: argparse.Namespace) -> None:
    count = 2 if args.quick else args.cap_positions
    print(
        f"\n## top level at its own budget with the {MOVETIME_CAP_MS} ms cap, as the site plays "
        f"it ({count} positions a variant, the game's moves replayed): wall and CPU s a move, "
        "median / p95 / worst"
    )
    budget = 500 if args.quick else LEVEL_TABLE[8].nodes
    for variant in VARIANTS:
        walls, cpus, stopped = [], [], 0
        for pos in sample_positions(variant, count):
            fen = pos.variant.start_fen()
            moves = [m.iccs() for m in pos.move_stack]
            t0 = time.perf_counter()
            c0 = time.process_time()
            if args.quick:
                found = bestmove(variant, fen, moves, nodes=budget)  # a smoke run: no clock
            else:
                found = bestmove(variant, fen, moves, level=8)  # exactly the site's call
            cpus.append(time.process_time() - c0)
            walls.append(time.perf_counter() - t0)
            stopped += found.nodes < budget
        print(
            f"  {variant:8} wall {_quantile(walls, 0.5):.2f} / {_quantile(walls, 0.95):.2f} / "
            f"{max(walls):.3f}  CPU {_quantile(cpus, 0.5):.2f} / {_quantile(cpus, 0.95):.2f} / "
            f"{max(cpus):.2f}  stopped by the clock {stopped}/{len(walls)}"
        )
        sys.stdout.flush()


def _top(args: argparse.Namespace) -> Spec:
    return ("level", 8, args.top_nodes)


def section_strength(args: argparse.Namespace) -> None:
    print(
        f"\n## top level ({args.top_nodes:,} nodes a move) against a random mover and a "
        f"greedy capturer, {args.games} games each"
    )
    for variant in args.variants.split(","):
        for opponent in args.opponents.split(","):
            match(
                args, "strength", variant, _top(args), (opponent,), args.games, f"top vs {opponent}"
            )


def section_ladder(args: argparse.Namespace) -> None:
    scale = args.ladder_scale
    print(
        f"\n## each level against the one below, {args.ladder_games} games a pair "
        f"(node budgets x{scale:g})"
    )
    for variant in args.ladder_variants.split(","):
        for level in [int(x) for x in args.ladder_levels.split(",")]:
            match(
                args,
                "ladder",
                variant,
                level_spec(level, scale),
                level_spec(level - 1, scale),
                args.ladder_games,
                f"level {level} vs level {level - 1}",
            )


def section_peer(args: argparse.Namespace) -> None:
    if not Path(FAIRY).exists():
        print("\n## Fairy-Stockfish: not installed, skipped")
        return
    print(
        f"\n## xiangqi: top level ({args.top_nodes:,} nodes) against Fairy-Stockfish, "
        f"{args.peer_games} games each"
    )
    peers: list[tuple[str, Spec]] = [
        (f"vs Fairy-Stockfish {n:>6} nodes", ("peer", n, -1))
        for n in [int(x) for x in args.peer_nodes.split(",") if x]
    ]
    peers += [
        (
            f"vs Fairy-Stockfish skill {k:>2} ({args.peer_skill_nodes:,} n)",
            ("peer", args.peer_skill_nodes, k),
        )
        for k in [int(x) for x in args.peer_skills.split(",") if x]
    ]
    for label, spec in peers:
        match(args, "peer", "xiangqi", _top(args), spec, args.peer_games, label)


def section_tactics(args: argparse.Namespace) -> None:
    most = args.tactics_mate
    puzzles = [p for p in json.loads(DATA.read_text("utf-8"))["puzzles"] if p["mate_in"] <= most]
    print(
        f"\n## tactics: xiangqi classics up to mate in {most}, top level at its own budget "
        "and cap (wall s)"
    )
    solved = 0
    in_time = 0
    for p in puzzles:
        key = Peer.from_peer(p["solution"][0])
        pos = Position.from_fen("xiangqi", p["fen"])
        limits = level_limits(8)
        if args.quick:
            limits = replace(limits, nodes=2000)
        t0 = time.perf_counter()
        found = search_position(pos, limits)
        dt = time.perf_counter() - t0
        ok = found.move == key
        solved += ok
        in_time += ok and dt <= 2.0
        mate = f"mate {found.mate}" if found.mate is not None else f"{found.score} cp"
        print(
            f"  {'ok ' if ok else 'MISS'} mate in {p['mate_in']} {p['title']}: "
            f"played {found.move}, key {key} ({mate}, depth {found.depth}, "
            f"{found.nodes:,} nodes, {dt:.2f} s)"
        )
    print(f"  solved {solved}/{len(puzzles)}, {in_time} of them within 2 s")


def elo(tally: Tally) -> str:
    """The score as an Elo difference with its 95 % interval (from the spread of the
    games' results; draws count half)."""
    import math

    n = tally.games
    if not n:
        return "no games"
    mean = tally.points / n
    var = (
        tally.wins * (1 - mean) ** 2 + tally.draws * (0.5 - mean) ** 2 + tally.losses * mean**2
    ) / n
    half = 1.96 * math.sqrt(var / n)

    def to_elo(score: float) -> float:
        score = min(max(score, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / score - 1)

    return (
        f"{to_elo(mean):+.0f} Elo (95 %: {to_elo(mean - half):+.0f} to {to_elo(mean + half):+.0f})"
    )


def section_baseline(args: argparse.Namespace) -> None:
    nodes = args.baseline_nodes
    commit = args.baseline_commit
    print(
        f"\n## level 8 against the frozen engine of {commit[:12]} (bench/baseline.py), "
        f"both at {nodes:,} nodes a move, {args.baseline_games} games a variant"
    )
    for variant in args.baseline_variants.split(","):
        tally = match(
            args,
            "baseline",
            variant,
            ("level", 8, nodes),
            ("baseline", commit, 8, nodes),
            args.baseline_games,
            f"level 8 vs baseline {commit[:8]}",
        )
        print(f"  {variant:8} {'':34} {elo(tally)}")


def section_ablation(args: argparse.Namespace) -> None:
    """Level 8 with each of the search's techniques against level 8 without it, the others
    as by default (``DEFAULT_TECHNIQUES``)."""
    from engine.play.search import DEFAULT_TECHNIQUES, TECHNIQUES

    nodes = args.ablation_nodes
    print(
        f"\n## the search's techniques: each against the engine without it (the others as by "
        f"default), {nodes:,} nodes a move, {args.ablation_games} games each (score of with)"
    )
    names = args.ablation_only.split(",") if args.ablation_only else list(TECHNIQUES)
    for variant in args.ablation_variants.split(","):
        for name in names:
            tally = match(
                args,
                "ablation",
                variant,
                ("techniques", DEFAULT_TECHNIQUES | TECHNIQUES[name], nodes),
                ("techniques", DEFAULT_TECHNIQUES & ~TECHNIQUES[name], nodes),
                args.ablation_games,
                f"with vs without {name}",
            )
            print(f"  {variant:8} {'':34} {elo(tally)}")


# (name of the version, weights) for the tuning matches
TUNING: list[tuple[str, str, Weights]] = [
    ("xinban", "turncoat_discount=0", replace(DEFAULT_WEIGHTS, turncoat_discount=0.0)),
    ("xinban", "turncoat_discount=0.3", replace(DEFAULT_WEIGHTS, turncoat_discount=0.3)),
    ("feidan", "palace_intruder=0", replace(DEFAULT_WEIGHTS, palace_intruder=0)),
    ("xiangqi", "mobility 2/4", replace(DEFAULT_WEIGHTS, mobility_line=2, mobility_leg=4)),
    ("feidan", "mobility 2/4", replace(DEFAULT_WEIGHTS, mobility_line=2, mobility_leg=4)),
    ("xinban", "mobility 2/4", replace(DEFAULT_WEIGHTS, mobility_line=2, mobility_leg=4)),
    ("xiangqi", "hand-written squares", replace(DEFAULT_WEIGHTS, tuned_squares=False)),
    ("feidan", "hand-written squares", replace(DEFAULT_WEIGHTS, tuned_squares=False)),
    ("xinban", "hand-written squares", replace(DEFAULT_WEIGHTS, tuned_squares=False)),
    (
        "xiangqi",
        "no king pressure",
        replace(DEFAULT_WEIGHTS, attacker_in_half=0, attacker_per_missing_guard=0),
    ),
]


def section_tune(args: argparse.Namespace) -> None:
    print(
        f"\n## tuning: default weights against one change, {args.tune_games} games each, "
        f"{args.tune_nodes:,} nodes a move (score of the default)"
    )
    for variant, name, _weights in TUNING:
        if args.tune_only and f"{variant}:{name}" not in args.tune_only.split(","):
            continue
        match(
            args,
            "tune",
            variant,
            ("weights", "", args.tune_nodes),
            ("weights", name, args.tune_nodes),
            args.tune_games,
            f"default vs {name}",
        )


SECTIONS = {
    "speed": section_speed,
    "levels": section_levels,
    "strength": section_strength,
    "ladder": section_ladder,
    "peer": section_peer,
    "tactics": section_tactics,
    "tune": section_tune,
    "cap": section_cap,
    "baseline": section_baseline,
    "ablation": section_ablation,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny settings (a smoke run)")
    parser.add_argument("--sections", default=",".join(SECTIONS))
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--progress", action="store_true", help="the score after every game")
    parser.add_argument("--games", type=int, default=50, help="games against random/greedy")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="for random/greedy")
    parser.add_argument("--opponents", default="random,greedy", help="random and/or greedy")
    parser.add_argument("--top-nodes", type=int, default=None, help="top level's node budget")
    parser.add_argument("--ladder-games", type=int, default=10)
    parser.add_argument("--ladder-scale", type=float, default=1.0, help="scale level budgets")
    parser.add_argument("--ladder-variants", default=",".join(VARIANTS))
    parser.add_argument(
        "--ladder-levels", default="2,3,4,5,6,7,8", help="upper levels of the pairs"
    )
    parser.add_argument("--peer-games", type=int, default=10)
    parser.add_argument("--peer-nodes", default="1000,10000,100000")
    parser.add_argument("--peer-skills", default="0,5,10,15,20")
    parser.add_argument("--peer-skill-nodes", type=int, default=100_000)
    parser.add_argument("--tune-games", type=int, default=8)
    parser.add_argument("--tune-nodes", type=int, default=4000)
    parser.add_argument(
        "--tune-only", default="", help="comma-separated variant:version, e.g. xinban:mobility 2/4"
    )
    parser.add_argument("--baseline-games", type=int, default=20)
    parser.add_argument("--baseline-nodes", type=int, default=20_000)
    parser.add_argument("--baseline-variants", default=",".join(VARIANTS))
    parser.add_argument("--baseline-commit", default=BASELINE, help="the frozen engine's commit")
    parser.add_argument("--ablation-games", type=int, default=20)
    parser.add_argument("--ablation-nodes", type=int, default=20_000)
    parser.add_argument("--ablation-variants", default="xiangqi")
    parser.add_argument("--ablation-only", default="", help="comma-separated technique names")
    parser.add_argument("--cap-positions", type=int, default=20, help="for the cap section")
    parser.add_argument("--tactics-mate", type=int, default=3, help="longest mate tried")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--record", type=Path, default=None, help="JSON-lines file of games")
    parser.add_argument("--summary", type=Path, default=None, help="print a record and stop")
    parser.add_argument("--digest", action="store_true", help="print the behaviour digest")
    parser.add_argument(
        "--probe", type=Path, default=None, help="write the probe's lines to FILE (to diff)"
    )
    args = parser.parse_args()
    if args.summary is not None:
        summary(args.summary)
        return 0
    if args.digest:
        parts = part_digests(0.01 if args.quick else 1.0)
        print(combine(parts, LEVELS))
        for name, digest in parts.items():
            print(f"  {name:8} {digest}")
        return 0
    if args.probe is not None:
        lines = probe(0.01 if args.quick else 1.0)
        args.probe.write_text("".join(line + "\n" for line in lines), "utf-8")
        return 0
    if args.top_nodes is None:
        args.top_nodes = LEVEL_TABLE[8].nodes
    if args.quick:
        args.games = min(args.games, 1)
        args.top_nodes = min(args.top_nodes, 300)
        args.ladder_games = min(args.ladder_games, 1)
        args.ladder_scale = min(args.ladder_scale, 0.01)
        args.ladder_variants = "xiangqi"
        args.ladder_levels = "2,5,8"
        args.peer_games = min(args.peer_games, 1)
        args.peer_nodes = "100"
        args.peer_skills = "0"
        args.peer_skill_nodes = min(args.peer_skill_nodes, 100)
        args.tune_games = min(args.tune_games, 1)
        args.tune_nodes = min(args.tune_nodes, 200)
        args.baseline_games = min(args.baseline_games, 1)
        args.baseline_nodes = min(args.baseline_nodes, 300)
        args.ablation_games = min(args.ablation_games, 1)
        args.ablation_nodes = min(args.ablation_nodes, 300)
        args.ablation_only = "iir"
        args.max_plies = min(args.max_plies, 60)
    global RECORD
    RECORD = Record(args.record, engine_digest(), 0.01 if args.quick else 1.0)
    for name in args.sections.split(","):
        SECTIONS[name](args)
    if _POOL is not None:
        _POOL.close()
        _POOL.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
