"""``solve`` (the full proof of a puzzle) and ``find_win`` (one forced win)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from engine.errors import english
from engine.position import Position
from engine.rules import repetition_outcome
from engine.solver.dfpn import DEFAULT_MEMORY_MIB, DfpnSearch
from engine.solver.movegen import legal_replies
from engine.solver.proof import Node, Proof, SolverInputError
from engine.solver.search import GOALS, MODES, Budget, OutOfBudget, Search

MAX_MOVES = 30
ALGORITHMS = ("auto", "search", "dfpn")
DEFAULT_ALGORITHM = "auto"
# ``auto``: the depth-first search for short puzzles (it is faster there,
# measured with bench/prover_bench.py), df-pn from these lengths on
# (goals ``mate`` and ``dead_general``)
DFPN_FROM = {"full": 5, "checks_only": 8}
# goal ``win`` (stalemates too, with many quiet moves): the depth-first search
# proves a stalemate in 6 (稳操胜劵) in a third of df-pn's nodes, but not a
# stalemate in 9 (填塞道路), which df-pn proves
DFPN_FROM_WIN = {"full": 7, "checks_only": 8}
# ``auto`` from these lengths up to ``DFPN_FROM`` (goals ``mate`` and ``dead_general``):
# ``solve`` finds the shortest win with the depth-first search (so the key it names first is
# that search's) and decides the other first moves and builds the tree with df-pn, which
# shows a first move to fail in less time (bench/prover_bench.py --phases, docs/performance.md)
DFPN_UNIQUE_FROM = {"full": 4, "checks_only": 8}
TREE_LIMIT = 4000  # attacker nodes in a stored solution tree
# df-pn looks for a shorter win within this many times the nodes spent so far before it
# shows first that the other first moves fail (``_shortest``)
SHORTER_FIRST = 1


PHASES = ("shortest", "uniqueness", "tree")


@dataclass
class Phases:
    """Where a proof's work went, for the benchmark (``solve(..., phases=Phases())``): nodes
    and CPU seconds of each phase. ``shortest``: the first forced win and that there is no
    shorter one; ``uniqueness``: deciding every first move at the length found (the keys);
    ``tree``: the solution tree."""

    nodes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES, 0))
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    _name: str = ""
    _nodes: int = 0
    _cpu: float = 0.0

    def enter(self, name: str, search: Search) -> str:
        """Count from here on as ``name``; returns the phase it was in."""
        was = self._name
        self._close(search)
        self._name = name
        return was

    def _close(self, search: Search) -> None:
        now = time.process_time()
        if self._name:
            self.nodes[self._name] += search.nodes - self._nodes
            self.seconds[self._name] += now - self._cpu
        self._nodes = search.nodes
        self._cpu = now


def _phase(phases: Phases | None, name: str, search: Search) -> str:
    return phases.enter(name, search) if phases is not None else ""


def check_request(
    pos: Position, goal: str, max_moves: int, mode: str, algorithm: str = DEFAULT_ALGORITHM
) -> None:
    """Raise ``SolverInputError`` unless the prover can take this request."""
    if algorithm not in ALGORITHMS:
        raise SolverInputError(
            "solver.unknown_algorithm",
            {"algorithm": str(algorithm), "known": ", ".join(ALGORITHMS)},
        )
    if not isinstance(pos, Position):
        raise SolverInputError("solver.not_a_position", {"type": type(pos).__name__})
    if goal not in GOALS:
        raise SolverInputError("solver.unknown_goal", {"goal": goal, "known": ", ".join(GOALS)})
    if mode not in MODES:
        raise SolverInputError("solver.unknown_mode", {"mode": mode, "known": ", ".join(MODES)})
    if isinstance(max_moves, bool) or not isinstance(max_moves, int):
        raise SolverInputError("solver.length_not_int", {"value": repr(max_moves)})
    if not 1 <= max_moves <= MAX_MOVES:
        raise SolverInputError("solver.length_range", {"limit": MAX_MOVES, "value": max_moves})
    if goal == "dead_general" and not pos.variant.dead_general_types:
        raise SolverInputError("solver.no_dead_general", {"variant": pos.variant.name})
    status = pos.status()
    if status != "ongoing":
        raise SolverInputError("solver.game_over", {"status": status, "fen": pos.fen()})


def _search(
    pos: Position,
    goal: str,
    max_moves: int,
    mode: str,
    budget: Budget | None,
    algorithm: str,
    memory_mib: int,
) -> Search:
    if algorithm == "auto":
        first = DFPN_FROM_WIN[mode] if goal == "win" else DFPN_FROM[mode]
        algorithm = "dfpn" if max_moves >= first else "search"
    if algorithm == "dfpn":
        return DfpnSearch(pos, goal, mode == "checks_only", budget, memory_mib)
    return Search(pos, goal, mode == "checks_only", budget)


def _solve_search(
    pos: Position,
    goal: str,
    max_moves: int,
    mode: str,
    budget: Budget | None,
    algorithm: str,
    memory_mib: int,
) -> tuple[Search, bool]:
    """The search ``solve`` uses, and whether its shortest win is to be found with the
    depth-first search (``auto`` from ``DFPN_UNIQUE_FROM``)."""
    search = _search(pos, goal, max_moves, mode, budget, algorithm, memory_mib)
    if (
        algorithm == "auto"
        and not isinstance(search, DfpnSearch)
        and goal != "win"
        and max_moves >= DFPN_UNIQUE_FROM[mode]
    ):
        return DfpnSearch(pos, goal, mode == "checks_only", budget, memory_mib), True
    return search, False


def _iccs(pos: Position, m: int) -> str:
    return pos.decode(m).iccs()


def solve(
    pos: Position,
    goal: str = "mate",
    max_moves: int = 1,
    budget: Budget | None = None,
    mode: str = "full",
    *,
    tree_limit: int = TREE_LIMIT,
    algorithm: str = DEFAULT_ALGORITHM,
    memory_mib: int = DEFAULT_MEMORY_MIB,
    phases: Phases | None = None,
) -> Proof:
    """Prove a puzzle: the side to move (the attacker) must reach ``goal``
    (``mate``, ``dead_general`` or ``win``) within ``max_moves`` of its
    moves against every defence. In ``checks_only`` mode every attacker
    move must give check. Returns a ``Proof``; a result is never reported
    as sound when the budget ran out. ``algorithm``: ``search`` (the
    depth-first proof search), ``dfpn`` (proof-number search, falling
    back to the former only where the path already holds a repeated
    position; the same results) or ``auto`` (the faster of the two for the
    goal and length);
    ``memory_mib`` bounds df-pn's table; ``phases`` (a ``Phases``), when given, is filled
    with the work of each phase.
    """
    check_request(pos, goal, max_moves, mode, algorithm)
    search, by_search = _solve_search(pos, goal, max_moves, mode, budget, algorithm, memory_mib)
    _phase(phases, "shortest", search)
    search.enter_stage("win")
    start = Proof(
        variant=pos.variant.name,
        fen=pos.fen(),
        goal=goal,
        mode=mode,
        max_moves=max_moves,
        status="no_win",
    )
    try:
        shortest, winners = _shortest(search, max_moves, phases, by_search)
        if shortest is None:
            code = "proof.no_win"
            if mode == "checks_only" and not search.candidate_moves():
                code = "proof.no_win_no_check"
            reason = english(code, {"goal": goal, "moves": max_moves})
            escape = _escape(search)
            _phase(phases, "", search)
            return replace(
                start,
                nodes=search.nodes,
                seconds=round(search.elapsed(), 3),
                reason=reason,
                escape=escape,
            )
        keys = _keys(search, shortest, winners, phases)
    except OutOfBudget:
        _phase(phases, "", search)
        search.reset()
        return replace(
            start,
            status="budget_exhausted",
            nodes=search.nodes,
            seconds=round(search.elapsed(), 3),
            reason=english("proof.budget_exhausted"),
        )
    second = None
    if shortest < max_moves:
        status = "shorter"
        reason = english(
            "proof.shorter",
            {"goal": goal, "moves": shortest, "keys": ", ".join(keys), "stated": max_moves},
        )
    elif len(keys) > 1:
        status = "cooked"
        second = keys[1]
        reason = english("proof.cooked", {"keys": ", ".join(keys)})
    else:
        status = "sound_unique"
        reason = ""
    _phase(phases, "tree", search)
    search.enter_stage("tree")
    builder = _TreeBuilder(search, tree_limit)
    tree = builder.build(shortest, [])
    _phase(phases, "", search)
    if builder.exhausted:
        reason = (reason + "; " if reason else "") + english("proof.tree_cut")
    return replace(
        start,
        status=status,
        moves_to_win=shortest,
        key_moves=tuple(keys),
        tree=tree,
        nodes=search.nodes,
        seconds=round(search.elapsed(), 3),
        reason=reason,
        second_key=second,
        tree_complete=not builder.cut,
    )


def _capped(search: DfpnSearch, n: int, nodes: int) -> bool | None:
    """``search.attack_dfpn(n)`` within ``nodes`` more nodes, or ``None`` when they ran out
    first: the search is then back at its start, and what it stored stays."""
    limit = search.node_limit
    cap = search.nodes + nodes
    if limit is not None and limit <= cap:
        return search.attack_dfpn(n)
    search.node_limit = cap
    try:
        return search.attack_dfpn(n)
    except OutOfBudget:
        if search.nodes < cap:
            raise  # the time ran out
        search.reset()
        return None
    finally:
        search.node_limit = limit


def _shortest(
    search: Search, n: int, phases: Phases | None = None, by_search: bool = False
) -> tuple[int | None, list[int] | None]:
    """``search.distance(n)``, and the first moves that win at that length when they were
    found on the way (``None``: not looked for); ``by_search``: the depth-first search's
    distance, for a df-pn search too.

    Showing that there is no shorter win is most of a long proof's work, and the first moves
    that do not win at the length found are then shown to fail one move deeper (``_keys``).
    df-pn stores a failure within k moves as one within every shorter length: once those
    first moves are shown to fail, the shorter question needs only the winning ones. That
    order wastes the failures when there is a shorter win after all, so df-pn first looks
    for one within as many nodes as it has spent so far (a win is usually found soon when
    there is one). The answers are the same in either order; only the work differs.
    """
    if by_search or not isinstance(search, DfpnSearch):
        return Search.distance(search, n), None
    if not search.attack_dfpn(n):
        return None, None
    d = n
    winners = None
    while d > 1:
        search.enter_stage("shorter")
        shorter = _capped(search, d - 1, SHORTER_FIRST * search.nodes)
        if shorter is None:
            was = _phase(phases, "uniqueness", search)
            winners = _winning_moves(search, d)
            _phase(phases, was, search)
            shorter = search.attack_dfpn(d - 1)
        if not shorter:
            break
        d -= 1
        winners = None
    return d, winners


def _winning_moves(search: Search, n: int) -> list[int]:
    """Every first move that forces the goal within ``n``, the table's first."""
    best = search.best_move()
    candidates = search.candidate_moves()
    if best in candidates:
        candidates.remove(best)
        candidates.insert(0, best)
    stage = search.stage
    search.enter_stage("unique", len(candidates))
    winners = []
    for m in candidates:
        if search.move_wins(m, n):
            winners.append(m)
        search.stage_done += 1
    search.enter_stage(stage)
    return winners


def _keys(
    search: Search, n: int, winners: list[int] | None = None, phases: Phases | None = None
) -> list[str]:
    """Every first move that forces the goal within ``n`` (``winners``: when already found),
    the table's first."""
    pos = search.pos
    _phase(phases, "uniqueness", search)
    keys = _winning_moves(search, n) if winners is None else winners
    if not keys:
        return []
    first = _iccs(pos, keys[0])
    return [first] + sorted(_iccs(pos, m) for m in keys[1:])


def _escape(search: Search) -> tuple[str, ...]:
    """For a puzzle with no win: the attacker's most forcing try and the
    defence the search found against it, when the table holds one."""
    candidates = search.candidate_moves()
    if not candidates:
        return ()
    pos = search.pos
    tries = []
    for m in candidates:
        search.enter(m)
        replies, _, _ = legal_replies(pos)
        refutation = search.best_move() if replies else 0
        search.leave()
        if refutation:
            tries.append((len(replies), m, refutation))
    if not tries:
        return ()
    _, m, refutation = min(tries, key=lambda t: t[0])
    text = _iccs(pos, m)
    search.enter(m)
    reply = _iccs(pos, refutation)
    search.leave()
    return (text, reply)


class _TreeBuilder:
    """Builds the solution tree below the current position of a search.

    When the budget runs out the builder goes back to where it was and
    leaves the rest of the tree unexpanded; the statuses proved before
    stand.
    """

    def __init__(self, search: Search, limit: int) -> None:
        self.search = search
        self.limit = limit
        self.count = 0
        self.cut = False
        self.exhausted = False

    def _stop(self, line: list[int]) -> None:
        """The budget ran out: return to the end of ``line`` and search no more."""
        search = self.search
        self.exhausted = True
        self.cut = True
        search.reset()
        search.node_limit = None
        search.deadline = None
        for m in line:
            search.enter(m)

    def _distance(self, line: list[int], n: int) -> int:
        """The distance to a win within ``n`` (0: none; -1: out of budget)."""
        if self.exhausted:
            return -1
        try:
            return self.search.distance(n) or 0
        except OutOfBudget:
            self._stop(line)
            return -1

    def _winners(self, line: list[int], d: int) -> list[int] | None:
        if self.exhausted:
            return None
        search = self.search
        try:
            candidates = search.candidate_moves()
            best = search.best_move()
            if best in candidates:
                candidates.remove(best)
                candidates.insert(0, best)
            return [m for m in candidates if search.move_wins(m, d)]
        except OutOfBudget:
            self._stop(line)
            return None

    def build(self, rem: int, line: list[int], d: int = 0) -> Node:
        """The node of the current position (attacker to move, a win within
        ``rem`` proved); ``line`` holds the moves from the start to it;
        ``d`` its distance when already known."""
        if self.exhausted or self.count >= self.limit:
            self.cut = True
            return Node(distance=d or rem, expanded=False)
        self.count += 1
        search = self.search
        pos = search.pos
        d = d or self._distance(line, rem)
        if d == 0:
            raise AssertionError(f"no win within {rem} in {pos.fen()}")
        winners = None if d < 0 else self._winners(line, d)
        if d < 0 or not winners:
            return Node(distance=rem, expanded=False)
        moves = tuple(_iccs(pos, m) for m in winners)
        primary = winners[0]
        c = search.enter(primary)
        line.append(primary)
        replies, _, _ = legal_replies(pos)
        if c >= 3 and replies:
            # the primary move ends the game by a repetition ruling
            outcome = repetition_outcome(pos)
            node = Node(distance=d, moves=moves, ending=outcome.termination if outcome else None)
        elif d == 1:
            node = Node(distance=1, moves=moves)
        else:
            scored = []
            for r in list(replies):
                rc = search.enter(r)
                line.append(r)
                score = 0 if rc >= 3 else self._distance(line, d - 1)
                line.pop()
                search.leave()
                scored.append((score, r))
            scored.sort(key=lambda t: -t[0])
            children = []
            for score, r in scored:
                text = _iccs(pos, r)
                rc = search.enter(r)
                line.append(r)
                if rc >= 3:
                    outcome = repetition_outcome(pos)
                    ending = outcome.termination if outcome else None
                    child = Node(distance=0, ending=ending)
                elif score == 0:
                    raise AssertionError(f"a defence escapes in {pos.fen()}")
                else:
                    child = self.build(d - 1, line, max(score, 0))
                line.pop()
                search.leave()
                children.append((text, child))
            node = Node(distance=d, moves=moves, replies=tuple(children))
        line.pop()
        search.leave()
        return node


@dataclass(frozen=True)
class FoundWin:
    """The result of ``find_win``: ``status`` is ``win``, ``no_win`` or
    ``budget_exhausted``; for a win, its length and one key move."""

    status: str
    moves_to_win: int | None
    key_move: str | None
    nodes: int
    seconds: float


def find_win(
    pos: Position,
    goal: str = "mate",
    max_moves: int = 1,
    budget: Budget | None = None,
    mode: str = "full",
    *,
    algorithm: str = DEFAULT_ALGORITHM,
    memory_mib: int = DEFAULT_MEMORY_MIB,
) -> FoundWin:
    """Find the shortest forced win and one move that forces it, without
    checking the other first moves (faster than ``solve``)."""
    check_request(pos, goal, max_moves, mode, algorithm)
    search = _search(pos, goal, max_moves, mode, budget, algorithm, memory_mib)
    try:
        n = search.distance(max_moves)
    except OutOfBudget:
        return FoundWin("budget_exhausted", None, None, search.nodes, search.elapsed())
    if n is None:
        return FoundWin("no_win", None, None, search.nodes, search.elapsed())
    best = search.best_move()
    key = _iccs(search.pos, best) if best else None
    return FoundWin("win", n, key, search.nodes, search.elapsed())
