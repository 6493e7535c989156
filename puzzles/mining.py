"""Mining puzzles: seeded candidate positions, a quick search for a forced win, a full proof.

Candidates come from two seeded sources, both checked by the engine:

- ``game``: a game played from a start position by a simple seeded policy (random moves, with
  a preference for captures and checks), followed until material thins out; every position
  on the way with the side to move not in check is a candidate.
- ``master``: every position of the master games (core.masters) from the tenth ply on, for the
  side to move, whoever won: masters resign before the mate, and a mate either player missed is
  a puzzle too. Quick searches are the first filter (``MASTER_QUICK``: a mate by checks alone
  on every position, about 1 ms; a mate in up to 3 over every defence and attack, 10-40 ms,
  only near the end of a decisive game with its winner to move); only a position where one
  finds a mate is proved in full. At most ``MASTER_PER_GAME``
  puzzles come from one game, and never two from one line (after a puzzle, the plies of its
  mating line are passed over). Each keeps its game and ply (``source_game``, ``ply``).
- ``sparse``: sparse endgame positions built by placing a few pieces at random on legal points
  (generals in their palaces, advisors and elephants on their own points), then a few random
  moves played from there. Biased kinds aim at the themes random play rarely reaches:
  ``dead_general`` (Missile Xiangqi: missiles near a crowded palace), ``collision`` (two
  missiles, with defenders standing in their way to the palace), ``defection``
  (New-version Xiangqi: the defender's turncoat pieces within the attacker's reach) and
  ``cannons`` (both attacking cannons, one on the general's file and the other on its rank or
  back rank: the cannon patterns 空头炮, 天地炮, 十字炮 and 炮碾丹砂, which plain sparse
  positions give once in several thousand).

Each candidate is first searched for a short forced win (``find_win``, small budget); a win is
then proved in full (``solve``), and only a ``sound_unique`` proof is kept, with its themes.
Everything is decided by the seed: the same arguments give the same puzzles.

Pure Python: no Django here, so that the command, the Celery task and a shell can all run it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from core.masters import SHIPPED_FILE, MasterGame
from engine import EngineError, Move, Position, find_variant
from engine.fen import START_COUNT, material_limits, write_fen
from engine.geometry import geometry
from engine.variants import TYPE_OF_LETTER
from puzzles import proving
from puzzles.difficulty import starting_rating
from puzzles.selfplay import SelfplayGame, read_games, selfplay_path
from puzzles.themes import derive_themes

STRATEGIES = (
    "game",
    "sparse",
    "dead_general",
    "defection",
    "collision",
    "cannons",
    "master",
    "selfplay",
)
DEFAULT_STRATEGIES = {
    "xiangqi": ("game", "sparse"),
    # no dead-general or collision constructions: the engine's games give those wins
    # (bankfile.RETIRED_CONSTRUCTIONS)
    "feidan": ("game", "sparse"),
    "xinban": ("game", "defection"),
}

# Budgets: the quick search per candidate, and the full proof of a found win.
FIND_NODES = 6_000
PROVE_NODES = 250_000
PROVE_SECONDS = 20.0

# Master games: the quick searches that pick what to prove, cheapest first, each as (mode,
# longest win, positions, where). ``"everywhere"``: on every candidate; ``"near_end"``: only
# where the side to move goes on to win the game within ``MASTER_END_WINDOW`` plies.
#
# Measured on games 100-130 (2,360 positions): the full search for a mate in up to 3 costs
# 10-40 ms a position (by the machine's load) and runs out of its budget on 38% of them: the
# previous filter (``MASTER_QUICK_BEFORE``) spent nearly all its time there. A mate by checks
# alone is settled in about 1 ms (found within 60 positions of search, or refuted), so it
# runs on every position. Every full mate that the previous filter kept from games 0-99 (7
# puzzles: 2 mates in 2 and 2 in 3 with quiet keys) stood within the last 21 plies of a
# decisive game with its winner to move: only there does the full search run. A mate the
# loser had, or one in a drawn game, is found when it goes by checks. On games 0-99 this
# filter keeps the same 7 puzzles in 14% of the time (bench/mining_bench.py).
QuickSearch = tuple[str, int, int, str]
MASTER_QUICK: tuple[QuickSearch, ...] = (
    ("checks_only", 7, 5_000, "everywhere"),
    ("full", 3, 3_000, "near_end"),
)
MASTER_QUICK_BEFORE: tuple[QuickSearch, ...] = (
    ("full", 3, 3_000, "everywhere"),
    ("checks_only", 7, 5_000, "everywhere"),
)
MASTER_END_WINDOW = 30
MASTER_FIRST_PLY = 10
MASTER_PER_GAME = 2


@dataclass(frozen=True)
class Candidate:
    variant: str
    fen: str
    goal: str
    origin: str  # the strategy that produced it
    source_game: str = ""  # the game the position comes from (``ccpd:<number>``), if any
    ply: int = 0  # the plies played in that game before the position
    # The side to move goes on to win that game within this many plies (0: it does not).
    wins_in: int = 0

    @property
    def problem(self) -> proving.Problem:
        return proving.Problem(variant=self.variant, fen=self.fen, goal=self.goal)


@dataclass
class MinedPuzzle:
    key: str
    variant: str
    fen: str
    goal: str
    moves_to_win: int
    mode: str
    themes: list[str]
    main_line: list[str]
    proof: dict[str, Any]
    nodes: int
    seconds: float
    origin: str
    seed: int
    source: str = "mined"
    title: str = ""
    collection: str = ""
    rating: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    source_game: str = ""  # ``ccpd:<number>``: the master game the position comes from
    ply: int | None = None  # plies played in that game before the puzzle's position
    game: dict[str, Any] | None = None  # that game's players, event and year, as written

    def as_entry(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("extra", "source_game", "ply", "game"):
            if not data[name]:
                data.pop(name)
        if data["rating"] is None:
            data.pop("rating")
        return data


def bank_key(*, variant: str, fen: str, goal: str, moves_to_win: int) -> str:
    digest = hashlib.sha1(f"{variant}|{fen}|{goal}|{moves_to_win}".encode()).hexdigest()
    return f"{variant}-{digest[:16]}"


# --- Candidate positions -------------------------------------------------------------------


def _piece_count(position: Position) -> int:
    return sum(1 for value in position.board if value)


def _policy_move(position: Position, rng: random.Random) -> Any:
    """A random legal move, captures and checks first more often than not."""
    moves = list(position.legal_moves)
    if not moves:
        return None
    rng.shuffle(moves)
    if rng.random() < 0.6:
        captures = [m for m in moves if position.piece_at(_to(m)) is not None]
        if captures:
            return captures[0]
    if rng.random() < 0.3:
        for move in moves[:12]:
            position.push(move)
            check = position.is_check()
            position.pop()
            if check:
                return move
    return moves[0]


def _to(move: Any) -> str:
    return move.iccs()[2:]


def game_candidates(variant: str, rng: random.Random, *, max_pieces: int) -> Iterator[Position]:
    """Positions of one seeded game, once material has thinned to ``max_pieces`` or fewer."""
    starts = [fen for _name, fen in find_variant(variant).starts]
    position = Position.from_fen(variant, rng.choice(starts))
    for _ply in range(400):
        if position.outcome() is not None:
            return
        if _piece_count(position) <= max_pieces and not position.is_check():
            yield position.copy()
        move = _policy_move(position, rng)
        if move is None:
            return
        position.push(move)
        if _piece_count(position) <= max_pieces // 2:
            return


def _points(width: int, colour: int, kind: str) -> list[int]:
    g = geometry(width)
    table = {"palace": g.palace, "advisor": g.advisor_points, "elephant": g.elephant_points}[kind]
    return sorted(table[colour])


def _sq(width: int, file: int, rank: int) -> int:
    return rank * width + file


def _case(letter: str, red: bool) -> str:
    if letter.startswith("+"):
        return "+" + (letter[1].upper() if red else letter[1].lower())
    return letter.upper() if red else letter.lower()


ATTACKERS = {
    "xiangqi": ["R", "R", "N", "N", "C", "C", "P", "P", "P"],
    "feidan": ["R", "N", "C", "P", "P", "M", "M", "F", "F"],
    "xinban": ["R", "N", "C", "P", "P", "+R", "+N", "+C"],
}
DEFENDER_EXTRAS = {
    "xiangqi": ["R", "N", "C", "P", "P"],
    "feidan": ["R", "N", "C", "P", "M", "F"],
    "xinban": ["+R", "+N", "+C", "R", "P"],
}


def sparse_position(variant: str, rng: random.Random, origin: str) -> Position | None:
    """A random sparse endgame, Red to move and attacking Black's general (``None`` if the
    placement the dice gave is not legal)."""
    fen = sparse_fen(variant, rng, origin)
    if fen is None:
        return None
    try:
        position = Position.from_fen(variant, fen)
    except EngineError:
        return None
    if position.outcome() is not None or position.is_check():
        return None
    return position


def _has_room(variant: str, board: dict[int, str], letter: str) -> bool:
    """May one more ``letter`` stand on ``board``? No side gets more pieces of a kind than a
    game can produce (docs/rules.md §3.5; the engine's ``material_limits``)."""
    kind = letter[-1]
    per_side, together = material_limits(variant)[TYPE_OF_LETTER[kind.lower()]]
    same_side = sum(1 for p in board.values() if p[-1] == kind)
    both = sum(1 for p in board.values() if p[-1].lower() == kind.lower())
    if same_side >= per_side or (together is not None and both >= together):
        return False
    if letter.startswith("+"):
        turncoats = sum(1 for p in board.values() if p == letter)
        return turncoats < START_COUNT[TYPE_OF_LETTER[kind.lower()]]
    return True


def sparse_fen(variant: str, rng: random.Random, origin: str) -> str | None:
    """The board of a random sparse endgame as a FEN, each piece on a point its kind may
    stand on and no more of a kind than a game can produce (``None`` when the dice leave no
    room); the engine still judges the whole position."""
    width = find_variant(variant).width
    board: dict[int, str] = {}
    free = set(range(width * 10))

    def put(sq: int, letter: str) -> None:
        if not _has_room(variant, board, letter):
            return
        board[sq] = letter
        free.discard(sq)

    palace = _points(width, 1, "palace")
    if origin == "cannons" and rng.random() < 0.7:
        palace = [sq for sq in palace if sq % width == width // 2]  # the centre file
    black_king = rng.choice(palace)
    put(black_king, "k")
    red_king = rng.choice(
        [sq for sq in _points(width, 0, "palace") if sq % width != black_king % width]
        or _points(width, 0, "palace")
    )
    put(red_king, "K")
    # Defender's guards: advisors and elephants on their own points.
    for kind, letter, chance in (("advisor", "a", 0.75), ("advisor", "a", 0.5),
                                 ("elephant", "b", 0.5), ("elephant", "b", 0.35)):  # fmt: skip
        if rng.random() < chance:
            spots = [sq for sq in _points(width, 1, kind) if sq in free]
            if spots:
                put(rng.choice(spots), letter)
    kx, ky = black_king % width, black_king // width

    def near_black_palace(spread: int) -> int | None:
        spots = [
            sq for sq in free
            if abs(sq % width - kx) <= spread and ky - sq // width <= spread + 1
        ]  # fmt: skip
        return rng.choice(sorted(spots)) if spots else None

    attackers = list(ATTACKERS[variant])
    rng.shuffle(attackers)
    count = rng.randint(2, 4)
    chosen = attackers[:count]
    if origin in ("dead_general", "collision"):
        missiles = ["M", "M"] if origin == "collision" else ["M"]
        chosen = missiles + [p for p in chosen if p != "M"][: count - 1]
        if rng.random() < 0.5:
            chosen.append("F")
        # Crowd the palace: a general hemmed in by its own guards cannot step away. Only
        # the guards a game can have: two advisors at most, on their points, then horses
        # and chariots (a soldier never stands in its own palace).
        for sq in _points(width, 1, "palace"):
            if sq in free and rng.random() < 0.3:
                advisor_point = sq in _points(width, 1, "advisor")
                if advisor_point and _has_room(variant, board, "a"):
                    put(sq, "a")
                else:
                    put(sq, rng.choice(["n", "r"]))
    if origin == "cannons":
        # One cannon on the general's file, below it; the other on its rank or its back rank.
        chosen = [p for p in chosen if p != "C"][: count - 2]
        down = [_sq(width, kx, rank) for rank in range(max(0, ky - 7), ky - 1)]
        across = [
            _sq(width, file, rank)
            for rank in sorted({ky, _points(width, 1, "palace")[-1] // width})
            for file in range(width)
            if file != kx
        ]
        for spots in (down, across):
            free_spots = sorted(set(spots) & free)
            if not free_spots:
                return None
            put(rng.choice(free_spots), "C")
    for letter in chosen:
        spot = near_black_palace(rng.choice((2, 3, 4)))
        if spot is None:
            return None
        red_letter = _case(letter, True)
        if red_letter == "P" and spot // width < 5:
            continue
        put(spot, red_letter)
    if origin == "collision":
        # A defender standing in each missile's way to the palace: worth blowing up.
        palace = _points(width, 1, "palace")
        for sq, piece in list(board.items()):
            if piece != "M":
                continue
            between = [
                p for p in free
                if (p % width == sq % width and any(q % width == sq % width for q in palace)
                    and sq // width < p // width < 7)
                or (p // width == sq // width and sq // width >= 7)
            ]  # fmt: skip
            if between:
                put(rng.choice(sorted(between)), rng.choice(["n", "c", "r", "b"]))
    extras = list(DEFENDER_EXTRAS[variant])
    rng.shuffle(extras)
    extra_count = rng.randint(0, 2)
    if origin == "defection":
        extra_count = rng.randint(1, 3)
        extras = [p for p in extras if p.startswith("+")] + extras
    for letter in extras[:extra_count]:
        if origin == "defection":
            # Within reach of a red piece: on a line or a horse's jump from one.
            reds = [sq for sq, p in board.items() if p.isupper() and p not in ("K",)]
            target = rng.choice(reds) if reds else None
            spots = sorted(
                sq for sq in free
                if target is not None and (sq % width == target % width or sq // width == target // width)
            )  # fmt: skip
            sq = rng.choice(spots) if spots else rng.choice(sorted(free))
        else:
            sq = rng.choice(sorted(free))
        black_letter = _case(letter, False)
        if black_letter.endswith("p") and sq // width > 4:
            continue
        put(sq, black_letter)
    return write_fen(variant, board)


def candidates(variant: str, strategy: str, rng: random.Random) -> Iterator[Candidate]:
    """An endless stream of candidates of one strategy."""
    goals = ["mate", "dead_general"] if find_variant(variant).has_dead_general else ["mate"]
    while True:
        if strategy == "game":
            pieces = {"xiangqi": 14, "xinban": 16, "feidan": 18}[variant]
            for position in game_candidates(variant, rng, max_pieces=pieces):
                for goal in goals:
                    yield Candidate(variant, position.fen(), goal, "game")
        else:
            built = sparse_position(variant, rng, strategy)
            if built is None:
                continue
            position = built
            # A few random moves from there, so that not every position looks built.
            for _ in range(rng.choice((0, 0, 1, 2))):
                move = _policy_move(position, rng)
                if move is None:
                    break
                position.push(move)
                if position.outcome() is not None:
                    break
            if position.outcome() is not None or position.is_check():
                continue
            position = Position.from_fen(variant, position.fen())
            goal = "dead_general" if strategy == "dead_general" else rng.choice(goals)
            yield Candidate(variant, position.fen(), goal, strategy)


# --- Master games ---------------------------------------------------------------------------


def master_games(first: int, count: int, path: Path = SHIPPED_FILE) -> list[MasterGame]:
    """``count`` games of the shipped master games, from the ``first``-th (0-based)."""
    games: list[MasterGame] = []
    index = 0
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            if index >= first + count:
                break
            if index >= first:  # only the chunk's own games are parsed
                games.append(MasterGame.from_json(json.loads(line)))
            index += 1
    return games


def master_candidates(game: MasterGame) -> Iterator[Candidate]:
    """Every position of one master game from ``MASTER_FIRST_PLY`` on, for the side to move,
    while the game goes on by this site's rules; ``wins_in`` says how near the side to move is
    to winning the game (a record that stops early has no known end: 0)."""
    position = Position.start("xiangqi")
    winner = {"1-0": "w", "0-1": "b"}.get(game.result) if game.stop is None else None
    end = len(game.moves)
    for ply, text in enumerate(game.moves, start=1):
        position.push(Move.from_iccs(text))
        if position.outcome() is not None:
            return  # over here (a mate, or a repetition this site's rules end)
        if ply >= MASTER_FIRST_PLY:
            fen = Position.from_fen("xiangqi", position.fen()).fen()
            wins_in = end - ply if winner == fen.split(" ")[1] else 0
            yield Candidate("xiangqi", fen, "mate", "master", f"ccpd:{game.id}", ply, wins_in)


def selfplay_candidates(game: SelfplayGame) -> Iterator[Candidate]:
    """Every position of one self-play game after its first move, for the side to move, with
    each goal of its variant, while the game goes on."""
    goals = ["mate", "dead_general"] if find_variant(game.variant).has_dead_general else ["mate"]
    winner = {"1-0": "w", "0-1": "b"}.get(game.result)
    position = Position.from_fen(game.variant, game.fen)
    end = len(game.moves)
    for ply, text in enumerate(game.moves, start=1):
        position.push(position.parse_move(text))
        if position.outcome() is not None:
            return
        fen = Position.from_fen(game.variant, position.fen()).fen()
        wins_in = end - ply if winner == fen.split(" ")[1] else 0
        for goal in goals:
            yield Candidate(game.variant, fen, goal, "selfplay",
                            f"selfplay:{game.variant}:{game.n}", ply, wins_in)  # fmt: skip


def trivial(fen: str, main_line: list[str], moves_to_win: int, variant: str = "xiangqi") -> bool:
    """A mate in 1 that a reader finds without looking: the mating move is a capture (a reader
    who tries captures first meets it at once) or the only check there is (one who tries checks
    first has nothing else to try)."""
    if moves_to_win != 1 or not main_line:
        return False
    position = Position.from_fen(variant, fen)
    key = Move.from_iccs(main_line[0])
    if position.piece_at(main_line[0][2:]) is not None:
        return True
    checks = 0
    for move in position.legal_moves:
        position.push(move)
        checks += position.is_check()
        position.pop()
    return checks <= 1 and key in position.legal_moves


def mirrored_board(fen: str) -> str:
    """The board of ``fen`` seen in a mirror (files a..i reversed): the same puzzle."""
    return "/".join(_mirror_rank(rank) for rank in fen.split(" ")[0].split("/"))


def _mirror_rank(rank: str) -> str:
    cells: list[str] = []
    i = 0
    while i < len(rank):
        ch = rank[i]
        if ch.isdigit():
            j = i
            while j < len(rank) and rank[j].isdigit():
                j += 1
            cells.extend(["1"] * int(rank[i:j]))
            i = j
        elif ch == "+":
            cells.append(rank[i : i + 2])
            i += 2
        else:
            cells.append(ch)
            i += 1
    out: list[str] = []
    run = 0
    for cell in reversed(cells):
        if cell == "1":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(cell)
    if run:
        out.append(str(run))
    return "".join(out)


def position_key(fen: str) -> str:
    """One key for a position and its mirror image, with the side to move."""
    board = fen.split(" ")[0]
    return f"{min(board, mirrored_board(fen))} {fen.split(' ')[1]}"


@dataclass
class MiningStats:
    """What a mining run did and where its CPU time went (``time.process_time``)."""

    games: int = 0
    candidates: int = 0  # positions put to the quick searches
    searches: int = 0  # quick searches run
    seen: int = 0  # positions where a quick search saw a mate
    proofs: int = 0  # full proofs run (one position may need two)
    proved: int = 0  # positions proved sound and unique, before the triviality filter
    kept: int = 0  # puzzles the run keeps
    read_seconds: float = 0.0  # reading the games and replaying them
    filter_seconds: float = 0.0
    prove_seconds: float = 0.0
    # A game's missed wins (``puzzles.missed``): the nodes a judge searched, the plies it
    # looked through, and those the quick searches looked through after its budget ran out
    judge_nodes: int = 0
    judged_plies: int = 0
    quick_plies: int = 0
    # and those left unlooked at because the review's time ran out (``missed_mates``'s deadline)
    unlooked_plies: int = 0

    @property
    def seconds(self) -> float:
        return self.read_seconds + self.filter_seconds + self.prove_seconds

    def add(self, other: MiningStats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _applies(where: str, candidate: Candidate) -> bool:
    if where == "everywhere":
        return True
    if where == "near_end":
        return 0 < candidate.wins_in <= MASTER_END_WINDOW
    raise ValueError(f"unknown place for a quick search: {where!r}")


def quick_win(
    candidate: Candidate,
    *,
    max_moves: int,
    quick: tuple[QuickSearch, ...] = MASTER_QUICK,
    stats: MiningStats | None = None,
) -> tuple[int, str] | None:
    """The length and search mode of a short mate the quick searches see, or ``None``."""
    for mode, longest, nodes, where in quick:
        if not _applies(where, candidate):
            continue
        if stats is not None:
            stats.searches += 1
        n = proving.find_win(
            variant=candidate.variant,
            fen=candidate.fen,
            goal=candidate.goal,
            max_moves=min(longest, max_moves),
            nodes=nodes,
            mode=mode,
        )
        if n:
            return n, mode
    return None


def examine_master(
    candidate: Candidate,
    *,
    max_moves: int,
    seed: int,
    prove_nodes: int = PROVE_NODES,
    prove_seconds: float = PROVE_SECONDS,
    quick: tuple[QuickSearch, ...] = MASTER_QUICK,
    stats: MiningStats | None = None,
    keep_trivial: bool = False,
    keep_cooked: bool = False,
) -> MinedPuzzle | None:
    """The puzzle at a master game's position, if a quick search sees a mate within
    ``max_moves`` and the prover proves it sound and unique over every defence (among every
    attacking move, or, for a mate by checks alone that the full proof cannot settle, among
    the checks), and it is not trivial (unless ``keep_trivial``: a mate a player missed in
    their own game is worth showing however plain it is). ``keep_cooked`` keeps a win with
    more than one winning first move too (a mate missed is missed however many moves win;
    its puzzle accepts each of them)."""
    stats = stats if stats is not None else MiningStats()
    started = time.process_time()
    stats.candidates += 1
    seen = quick_win(candidate, max_moves=max_moves, quick=quick, stats=stats)
    proving_from = time.process_time()
    stats.filter_seconds += proving_from - started
    if seen is None:
        return None
    stats.seen += 1
    try:
        return _prove_master(
            candidate,
            seen,
            seed,
            prove_nodes,
            prove_seconds,
            stats,
            keep_trivial=keep_trivial,
            keep_cooked=keep_cooked,
        )
    finally:
        stats.prove_seconds += time.process_time() - proving_from


def _prove_master(
    candidate: Candidate,
    seen: tuple[int, str],
    seed: int,
    prove_nodes: int,
    prove_seconds: float,
    stats: MiningStats,
    *,
    keep_trivial: bool = False,
    keep_cooked: bool = False,
) -> MinedPuzzle | None:
    seen_n, quick_mode = seen
    problem = candidate.problem

    def kept(result: proving.ProofResult) -> bool:
        return result.sound or (keep_cooked and result.status == proving.COOKED)

    stats.proofs += 1
    # posed at the shortest win among every move: a checks-only mate that a quiet move beats
    # is not a puzzle of a game's moment (puzzles.reposing)
    n, result = proving.prove_at_shortest(
        **problem, moves_to_win=seen_n, nodes=prove_nodes, seconds=prove_seconds
    )
    undecided = result.status == proving.BUDGET_EXHAUSTED and n == seen_n
    if undecided and quick_mode == proving.CHECKS_ONLY:
        stats.proofs += 1
        result = proving.prove(
            **problem,
            moves_to_win=n,
            nodes=prove_nodes,
            seconds=prove_seconds,
            mode=proving.CHECKS_ONLY,
        )
    if not kept(result) or result.proof is None:
        return None
    stats.proved += 1
    if not keep_trivial and trivial(candidate.fen, result.main_line, n, candidate.variant):
        return None
    return _mined(candidate, n, result, seed, source="game", source_game=candidate.source_game,
                  ply=candidate.ply)  # fmt: skip


def prove_seen(
    candidate: Candidate,
    n: int,
    *,
    seed: int,
    prove_nodes: int,
    prove_seconds: float,
    stats: MiningStats,
) -> tuple[MinedPuzzle | None, proving.ProofResult]:
    """Prove, over every defence (full mode), the win in ``n`` moves that a judge saw at the
    candidate's position: the puzzle (kept however plain, and with every winning first move
    when there are several: a mate missed in a game) and the prover's answer, or None and
    the answer when it is not a win in exactly ``n`` moves (``shorter`` says when it is a
    shorter one)."""
    stats.proofs += 1
    started = time.process_time()
    try:
        result = proving.prove(
            **candidate.problem, moves_to_win=n, nodes=prove_nodes, seconds=prove_seconds
        )
    finally:
        stats.prove_seconds += time.process_time() - started
    if result.status not in (proving.SOUND_UNIQUE, proving.COOKED) or result.proof is None:
        return None, result
    stats.proved += 1
    puzzle = _mined(candidate, n, result, seed, source="game", source_game=candidate.source_game,
                    ply=candidate.ply)  # fmt: skip
    return puzzle, result


def mine_master(
    chunk: Chunk,
    *,
    progress: Callable[[str], None] | None = None,
    path: Path = SHIPPED_FILE,
    quick: tuple[QuickSearch, ...] = MASTER_QUICK,
    stats: MiningStats | None = None,
) -> list[MinedPuzzle]:
    """The puzzles of the chunk's master games (``chunk.first``, ``chunk.games``): at most
    ``MASTER_PER_GAME`` a game, never two from one line, none whose position (or its mirror)
    came earlier in the chunk. Stops at ``chunk.count`` puzzles or ``chunk.seconds``."""
    games = (
        (f"ccpd:{game.id}", master_candidates(game), _master_info(game))
        for game in master_games(chunk.first, chunk.games, path)
    )
    return _mine_games(chunk, games, progress=progress, quick=quick, stats=stats)


def mine_selfplay(
    chunk: Chunk,
    *,
    progress: Callable[[str], None] | None = None,
    path: Path | None = None,
    quick: tuple[QuickSearch, ...] = MASTER_QUICK,
    stats: MiningStats | None = None,
) -> list[MinedPuzzle]:
    """The puzzles of the chunk's self-play games of its variant (``puzzles.selfplay``), found
    and kept exactly as in the master games."""
    source = path or selfplay_path(chunk.variant)
    chosen = islice(read_games(source), chunk.first, chunk.first + chunk.games)
    games = (
        (f"selfplay:{game.variant}:{game.n}", selfplay_candidates(game), game.info)
        for game in chosen
    )
    return _mine_games(chunk, games, progress=progress, quick=quick, stats=stats)


def _master_info(game: MasterGame) -> dict[str, Any]:
    return {
        "red": game.red,
        "black": game.black,
        "event": game.event,
        "date": game.date,
        "year": game.year,
    }


def _mine_games(
    chunk: Chunk,
    games: Iterable[tuple[str, Iterator[Candidate], dict[str, Any]]],
    *,
    progress: Callable[[str], None] | None,
    quick: tuple[QuickSearch, ...],
    stats: MiningStats | None,
) -> list[MinedPuzzle]:
    """The puzzles of ``games`` (each its name, its candidates and what a puzzle says of it)."""
    stats = stats if stats is not None else MiningStats()
    started = time.monotonic()
    found: list[MinedPuzzle] = []
    seen: set[str] = set()
    reading = time.process_time()
    for name, candidates, info in games:
        stats.games += 1
        kept = 0
        line_ends = 0  # the last ply of the mating line of this game's latest puzzle
        for candidate in candidates:
            stats.read_seconds += time.process_time() - reading
            try:
                if len(found) >= chunk.count or kept >= MASTER_PER_GAME:
                    break
                if chunk.seconds is not None and time.monotonic() - started > chunk.seconds:
                    return found
                if candidate.ply <= line_ends:
                    continue
                key = f"{position_key(candidate.fen)} {candidate.goal}"
                if key in seen:
                    continue
                puzzle = examine_master(
                    candidate, max_moves=chunk.max_moves, seed=chunk.seed, quick=quick, stats=stats
                )
            finally:
                reading = time.process_time()
            if puzzle is None:
                continue
            seen.add(key)
            kept += 1
            stats.kept += 1
            line_ends = candidate.ply + 2 * puzzle.moves_to_win - 1
            puzzle.game = dict(info)
            found.append(puzzle)
            if progress is not None:
                progress(
                    f"{name} ply {candidate.ply}: {puzzle.goal} in {puzzle.moves_to_win} "
                    f"{' '.join(puzzle.themes)} ({len(found)}/{chunk.count})"
                )
        stats.read_seconds += time.process_time() - reading
        reading = time.process_time()
        if len(found) >= chunk.count:
            break
    return found


# --- Proving --------------------------------------------------------------------------------


def _mined(
    candidate: Candidate, n: int, result: proving.ProofResult, seed: int, **extra: Any
) -> MinedPuzzle:
    """The bank's record of a sound and unique proof of ``candidate`` in ``n`` moves (or, for
    a missed mate, a cooked one: every winning first move at its root)."""
    assert result.proof is not None  # a sound (or cooked) proof carries its tree
    problem = candidate.problem
    themes = derive_themes(**problem, moves_to_win=n, main_line=result.main_line, mode=result.mode)
    rating = starting_rating(
        variant=candidate.variant, fen=candidate.fen, proof=result.proof, main_line=result.main_line
    )
    return MinedPuzzle(
        key=bank_key(**problem, moves_to_win=n),
        variant=candidate.variant,
        fen=candidate.fen,
        goal=candidate.goal,
        moves_to_win=n,
        mode=result.mode,
        themes=themes,
        main_line=result.main_line,
        proof=result.proof,
        nodes=result.nodes,
        seconds=round(result.seconds, 3),
        origin=candidate.origin,
        seed=seed,
        rating=rating,
        **extra,
    )


def examine(
    candidate: Candidate,
    *,
    max_moves: int,
    seed: int,
    find_nodes: int = FIND_NODES,
    prove_nodes: int = PROVE_NODES,
    prove_seconds: float = PROVE_SECONDS,
) -> MinedPuzzle | None:
    """Search the candidate for a short forced win and prove it; the puzzle if sound and unique."""
    problem = candidate.problem
    n = proving.find_win(**problem, max_moves=max_moves, nodes=find_nodes)
    if n is None:
        return None
    result = proving.prove(**problem, moves_to_win=n, nodes=prove_nodes, seconds=prove_seconds)
    if not result.sound or result.proof is None:
        return None
    return _mined(candidate, n, result, seed)


@dataclass(frozen=True)
class Chunk:
    """One piece of mining work: up to ``count`` puzzles of one variant and strategy from one
    seed, within ``seconds``, kept only with ``want_theme`` when given. ``as_json()`` is what a
    Celery task is sent, and ``Chunk(**json)`` reads it back."""

    variant: str
    strategy: str
    seed: int
    count: int
    max_moves: int = 3
    seconds: float | None = None
    want_theme: str | None = None
    first: int = 0  # master games: the index of the chunk's first game in the shipped file
    games: int = 0  # master games: how many games the chunk reads

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def mine(
    chunk: Chunk,
    *,
    max_candidates: int | None = None,
    progress: Callable[[str], None] | None = None,
    stats: MiningStats | None = None,
) -> list[MinedPuzzle]:
    """Up to ``chunk.count`` sound and unique puzzles of the chunk's variant and strategy.

    Stops early when ``chunk.seconds`` or ``max_candidates`` run out.
    """
    variant, strategy = chunk.variant, chunk.strategy
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
    if strategy == "master":
        if variant != "xiangqi":
            raise ValueError("the master games are traditional xiangqi")
        return mine_master(chunk, progress=progress, stats=stats)
    if strategy == "selfplay":
        return mine_selfplay(chunk, progress=progress, stats=stats)
    stats = stats if stats is not None else MiningStats()
    cpu_started = time.process_time()
    try:
        return _mine_seeded(chunk, max_candidates, progress, stats)
    finally:
        stats.filter_seconds += time.process_time() - cpu_started


def _mine_seeded(
    chunk: Chunk,
    max_candidates: int | None,
    progress: Callable[[str], None] | None,
    stats: MiningStats,
) -> list[MinedPuzzle]:
    """``mine`` for the seeded strategies (all but ``master``)."""
    variant, strategy, seed, count = chunk.variant, chunk.strategy, chunk.seed, chunk.count
    rng = random.Random(f"{variant}:{strategy}:{seed}")
    started = time.monotonic()
    found: list[MinedPuzzle] = []
    seen: set[str] = set()
    looked = 0
    for candidate in candidates(variant, strategy, rng):
        if len(found) >= count:
            break
        if chunk.seconds is not None and time.monotonic() - started > chunk.seconds:
            break
        if max_candidates is not None and looked >= max_candidates:
            break
        board_key = f"{candidate.fen.split(' ')[0]} {candidate.fen.split(' ')[1]} {candidate.goal}"
        if board_key in seen:
            continue
        seen.add(board_key)
        looked += 1
        stats.candidates += 1
        puzzle = examine(candidate, max_moves=chunk.max_moves, seed=seed)
        if puzzle is None or (chunk.want_theme and chunk.want_theme not in puzzle.themes):
            continue
        found.append(puzzle)
        stats.kept += 1
        if progress is not None:
            progress(
                f"{variant}/{strategy} seed {seed}: {puzzle.goal} in {puzzle.moves_to_win} "
                f"{' '.join(puzzle.themes)} ({len(found)}/{count}, {looked} looked at)"
            )
    return found
