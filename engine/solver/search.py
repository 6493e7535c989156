"""The AND/OR search behind the prover.

``Search`` answers one question exactly: *can the attacker, to move, force
the goal within n of its moves, against every defence?* It is a
depth-first proof search, with

- a transposition table keyed by the position (board and side to move):
  for each position the smallest n proved to win and the largest n proved
  to fail (a win within n is a win within n + 1; a failure within n is a
  failure within n - 1), and the move that won or refuted;
- attacker moves ordered checks first, the checks that leave the fewest
  replies first (a mate in one is seen while ordering), then captures;
  in checks-only mode only checks are tried;
- at the last attacker move only the moves that can end the game are
  tried: checks, and for the goal ``win`` also the moves that stalemate;
  they are found without generating the other moves (``movegen``);
- defender replies ordered by the refutation stored for the position, two
  killer moves per depth and the last refutation of the same attacker
  move; with two or more attacker moves left, then checks and captures.
  After a quiet attacker move these are tried before the defender's other
  moves are even generated;
- a node and time budget, checked every few hundred nodes.

Repetition (docs/rules.md §8) inside the tree. The path from the puzzle's start
(and the moves before it) is kept; when a move produces a position for the
third time, the repetition rules judge it exactly as
``engine.rules.repetition_outcome`` does (perpetual check is read from the
check flags of the cycle, the other cases are passed to the engine): a
loss for the defender (its perpetual check or chase, xinban's forced
variation) means that defence does not escape; a draw or a loss for the
attacker means that line does not win. The attacker may repeat positions
(a win can need the defender's perpetual to run into the rule). A
game-ending position (mate, stalemate, dead general) is judged before
repetition, as in play; so is the natural limit (a draw after 120 plies
without a capture), watched when the start is close enough to it.

The table holds results that do not depend on the path: a result that
needed a repetition ruling whose cycle started above the node is not
stored. Without such rulings a result is the same on every path that holds
no repeated position, so stored failures are not used where a position
repeated on the path could come back below (a defence that escapes in the
table may be a forbidden perpetual here). Whether it can come back is
read from what no move takes back: the number of pieces, of turncoats,
and the soldiers' advance. Stored wins are always used (the shortest win
never repeats a position). One interaction is left open: a stored line
that repeats a position internally, reached on a path that already holds
that position once; it needs a defence that walks the same cycle three
times and is not handled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine.position import Position
from engine.rules import repetition_outcome
from engine.solver.movegen import (
    checking_moves,
    has_legal_move,
    is_pseudo_legal,
    legal_checks,
    legal_replies,
    status_of,
)
from engine.variants import BLACK, SOLDIER, TURNCOAT

GOALS: dict[str, frozenset[str]] = {
    "mate": frozenset({"checkmate"}),
    "dead_general": frozenset({"dead_general"}),
    "win": frozenset({"checkmate", "stalemate", "dead_general"}),
}
MODES = ("full", "checks_only")

_NEVER: Final = 1 << 30  # "no n" in the table: no win proved / fails at every n
# what ``Search._probe`` says besides a move to try first
_PROVED: Final = -1
_FAILED: Final = -2
_CHECK_EVERY: Final = 512
_TABLE_LIMIT: Final = 1_000_000
_COLOUR = ("red", "black")


STAGES = ("win", "shorter", "unique", "tree")


@dataclass(frozen=True)
class Progress:
    """How far a proof has come, told to ``Budget.progress`` while it works.

    ``stage``: ``win`` (looking for a forced win within the length asked), ``shorter`` (showing
    there is no shorter one), ``unique`` (deciding every first move at the length found:
    ``done`` of ``total`` so far) or ``tree`` (building the solution tree); ``nodes`` and
    ``seconds`` are the proof's work so far."""

    stage: str
    nodes: int
    seconds: float
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class Budget:
    """Limits of one proof: nodes searched and seconds of work (``None``: no limit).

    ``progress``, when given, is called with a ``Progress`` about once every ``every`` seconds
    of the proof (from inside the search: it should return quickly; what it raises stops the
    proof)."""

    nodes: int | None = None
    seconds: float | None = None
    progress: Callable[[Progress], None] | None = None
    every: float = 1.0


class OutOfBudget(Exception):
    """The node or time budget ran out."""


def terminal_status(replies: list[int], in_check: bool, dead: bool) -> str:
    if replies:
        return "ongoing"
    if dead:
        return "dead_general"
    return "checkmate" if in_check else "stalemate"


class Search:
    """Proof search from one position, for one goal and mode.

    The position is copied; the search plays moves on its copy and always
    returns it to where it was, except when the budget runs out (then
    ``reset`` brings it back).
    """

    def __init__(
        self,
        pos: Position,
        goal: str,
        checks_only: bool,
        budget: Budget | None = None,
    ) -> None:
        self.pos = pos.copy()
        self.attacker = pos.side
        self.goal = GOALS[goal]
        self.goal_name = goal
        self.checks_only = checks_only
        # at the last move, moves that do not give check can only win by stalemate
        self.quiet_can_end = "stalemate" in self.goal and not checks_only
        self.table: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self.started = time.monotonic()
        budget = budget or Budget()
        self.node_limit = budget.nodes
        self.deadline = None if budget.seconds is None else self.started + budget.seconds
        self._next_check = _CHECK_EVERY
        self.progress = budget.progress
        self.report_every = budget.every
        self._next_report = self.started + budget.every
        # what ``Progress`` tells: set by the prover as it goes from stage to stage
        self.stage = "win"
        self.stage_done = 0
        self.stage_total = 0
        history = self.pos.hash_history()
        self.root_ply = self.pos.ply_count()
        self.base = len(history)
        self.path: list[int] = history
        self.counts: dict[int, int] = {}
        for h in history:
            self.counts[h] = self.counts.get(h, 0) + 1
        self.doubled = sum(1 for c in self.counts.values() if c >= 2)
        # positions repeated before the start: their signatures are unknown
        self.doubled_before = self.doubled
        self.doubled_sigs: dict[tuple[int, int, int], int] = {}
        # repeated positions on the path by side to move (red, black)
        self.doubled_side = [0, 0]
        if self.doubled:
            self.doubled_side = [1, 1]  # unknown sides: assume both
        self.taint = _NEVER
        self.killers: list[list[int]] = [[0, 0] for _ in range(512)]
        self._rulings: dict[tuple[int, ...], str] = {}
        # the last refutation found to each attacker move ("counter move")
        self.counters: dict[int, int] = {}
        limit = pos.variant.natural_limit_plies
        self.halfmove_limit = limit
        # The natural limit (a draw) can only matter if it is within reach;
        # then the table tells positions apart by their plies without capture.
        self.watch_limit = pos.halfmove + 2 * 31 >= limit

    # ------------------------------------------------------------------
    # bookkeeping

    def _tick(self) -> None:
        self._next_check = self.nodes + _CHECK_EVERY
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise OutOfBudget
        if self.deadline is not None or self.progress is not None:
            now = time.monotonic()
            if self.deadline is not None and now >= self.deadline:
                raise OutOfBudget
            if self.progress is not None and now >= self._next_report:
                self._next_report = now + self.report_every
                self.progress(self.report())
        if len(self.table) > _TABLE_LIMIT:
            self.table.clear()

    def report(self) -> Progress:
        """How far the proof has come (``Budget.progress``)."""
        return Progress(
            stage=self.stage,
            nodes=self.nodes,
            seconds=round(self.elapsed(), 2),
            done=self.stage_done,
            total=self.stage_total,
        )

    def enter_stage(self, stage: str, total: int = 0) -> None:
        """The proof goes on to ``stage`` (``STAGES``), of ``total`` steps when it counts them."""
        self.stage = stage
        self.stage_done = 0
        self.stage_total = total

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def enter(self, m: int) -> int:
        """Play ``m``; return how often the new position has now occurred."""
        pos = self.pos
        pos.push_code(m)
        h = pos.hash
        c = self.counts.get(h, 0) + 1
        self.counts[h] = c
        self.path.append(h)
        if c == 2:
            self.doubled += 1
            self.doubled_side[pos.side >> 5] += 1
            sig = self._signature()
            self.doubled_sigs[sig] = self.doubled_sigs.get(sig, 0) + 1
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()  # may raise; the move is fully entered, ``reset`` takes it back
        return c

    def leave(self) -> None:
        h = self.path.pop()
        c = self.counts[h]
        if c == 2:
            self.doubled -= 1
            self.doubled_side[self.pos.side >> 5] -= 1
            sig = self._signature()
            left = self.doubled_sigs[sig] - 1
            if left:
                self.doubled_sigs[sig] = left
            else:
                del self.doubled_sigs[sig]
        if c == 1:
            del self.counts[h]
        else:
            self.counts[h] = c - 1
        self.pos.pop_code()

    def _signature(self) -> tuple[int, int, int]:
        """What no move can take back: the number of pieces, of turncoat
        pieces, and how far the soldiers have advanced. Along any line it
        only moves one way (a capture lowers the first; a defection the
        second; a soldier's step forward raises the third), so two positions
        can follow each other both ways only if their signatures are equal."""
        pos = self.pos
        board = pos.board
        width = pos.width
        turncoats = 0
        progress = 0
        squares = pos.occupied[0] | pos.occupied[1]
        for sq in squares:
            v = board[sq]
            if v & TURNCOAT:
                turncoats += 1
            elif v & 15 == SOLDIER:
                rank = sq // width
                progress += 9 - rank if v & BLACK else rank
        return (len(squares), turncoats, progress)

    def _may_repeat(self) -> bool:
        """Could a position repeated on the path come back below here? Then
        a stored failure may hide a forbidden perpetual and is not used."""
        if not self.doubled:
            return False
        if self.doubled_before:
            return True
        return self._signature() in self.doubled_sigs

    def reset(self) -> None:
        """Take back every move played beyond the search's start."""
        while self.pos.ply_count() > self.root_ply:
            self.leave()
        self.taint = _NEVER

    def judge_repetition(self) -> bool:
        """The position has just occurred for the third time: does the
        attacker come out of it as the winner (the defence was a forbidden
        perpetual)? Marks the results above as path-dependent."""
        path = self.path
        h = path[-1]
        first = path.index(h)
        if first < self.taint:
            self.taint = first
        seen = [i for i, x in enumerate(path) if x == h]
        span = len(path) - 1 - seen[-3]
        key = tuple(path[seen[-3] :])
        winner = self._rulings.get(key)
        if winner is None:
            winner = self._rule(span)
            self._rulings[key] = winner
        return winner == _COLOUR[self.attacker >> 5]

    def _rule(self, span: int) -> str:
        """The winner of the repetition that the last ``span`` plies closed
        ("" for a draw). Perpetual check is read from the check flags (cheap);
        the other cases go to the engine's full ruling."""
        pos = self.pos
        undone = []
        checked = []
        for _ in range(span):
            checked.append(pos.is_check())
            undone.append(pos.pop_code())
        for m in reversed(undone):
            pos.push_code(m)
        # checked[i]: the ply i plies back gave check; the last ply was the
        # move of the side not to move now
        by_last_mover = all(checked[0::2])
        by_other = all(checked[1::2])
        last_mover = _COLOUR[(pos.side >> 5) ^ 1]
        other = _COLOUR[pos.side >> 5]
        if by_last_mover != by_other:
            return other if by_last_mover else last_mover
        outcome = repetition_outcome(pos)
        if outcome is None or outcome.winner is None:
            return ""
        return outcome.winner

    def over_limit(self) -> bool:
        return self.watch_limit and self.pos.halfmove >= self.halfmove_limit

    def _pkey(self) -> int:
        """The table's key of the current position."""
        pos = self.pos
        return pos.hash if not self.watch_limit else hash((pos.hash, pos.halfmove))

    def _probe(self, key: int, n: int) -> int:
        """What the table says of the position under ``key`` with ``n``
        attacker moves left: ``_PROVED``, ``_FAILED``, or else the move it
        holds (0 if none)."""
        e = self.table.get(key)
        if e is None:
            return 0
        if e[0] <= n:
            return _PROVED
        if e[1] >= n and not self._may_repeat():
            return _FAILED
        return e[2]

    def _store(self, key: int, win: int, fail: int, move: int) -> None:
        e = self.table.get(key)
        if e is None:
            self.table[key] = (win, fail, move)
        else:
            w, f, old = e
            self.table[key] = (min(w, win), max(f, fail), move or old)

    # ------------------------------------------------------------------
    # the search

    def attack(self, n: int) -> bool:
        """The attacker is to move: can it force the goal within ``n`` moves?"""
        pos = self.pos
        key = self._pkey()
        best = self._probe(key, n)
        if best < 0:
            return best == _PROVED
        saved = self.taint
        self.taint = _NEVER
        index = len(self.path) - 1
        if n == 1:
            won = self._finish(best)
        elif self.checks_only:
            won = self._attack_moves(n, legal_checks(pos), None, best)
        else:
            legal = pos.legal_codes()
            if not legal:
                self.table[key] = (_NEVER, _NEVER, 0)
                self.taint = saved
                return False
            won = self._attack_moves(n, checking_moves(pos, legal), legal, best)
        taint = self.taint
        self.taint = min(saved, taint)
        if taint >= index:
            if won:
                self._store(key, n, 0, won)
            else:
                self._store(key, _NEVER, n, 0)
        return won != 0

    def _count(self, nodes: int) -> None:
        """Count positions looked at without entering them."""
        self.nodes += nodes
        if self.nodes >= self._next_check:
            self._tick()

    def _finish(self, best: int) -> int:
        """A move that ends the game with the goal now, or 0. Only checks
        can mate or kill the general; other moves can only stalemate. The
        moves are only played on the board: a game-ending position does not
        depend on the path."""
        pos = self.pos
        goal = self.goal
        checks = legal_checks(pos)
        if best and best in checks:
            checks.remove(best)
            checks.insert(0, best)
        tried = 0
        won = 0
        for m in checks:
            pos.push_code(m)
            status = status_of(pos)
            pos.pop_code()
            tried += 1
            if status in goal:
                won = m
                break
        if not won and self.quiet_can_end:
            check_set = set(checks)
            for m in pos.legal_codes():
                if m not in check_set:
                    pos.push_code(m)
                    stalemate = not has_legal_move(pos, unchecked=True)
                    pos.pop_code()
                    tried += 1
                    if stalemate:
                        won = m
                        break
        self._count(tried)
        if not won and self.doubled_side[(pos.side >> 5) ^ 1] and self._may_repeat():
            # a move that repeats a position for the third time ends the
            # game by the repetition rules: a win if the defender was the
            # one repeating forbidden checks or chases
            counts = self.counts
            for m in checks if self.checks_only else pos.legal_codes():
                pos.push_code(m)
                again = counts.get(pos.hash, 0) >= 2
                pos.pop_code()
                if again:
                    c = self.enter(m)
                    won = m if c >= 3 and has_legal_move(pos) and self.judge_repetition() else 0
                    self.leave()
                    if won:
                        break
        return won

    def _attack_moves(self, n: int, checks: list[int], legal: list[int] | None, best: int) -> int:
        """The first attacker move found that wins within ``n`` (n >= 2), or
        0: the checks first, then (``legal``: all legal moves, in full mode)
        the other moves."""
        pos = self.pos
        goal = self.goal
        # Order the checks by the number of replies they leave; a check
        # that leaves none is a win or useless.
        children: list[tuple[int, int, list[int]]] = []
        self._count(len(checks))
        for m in checks:
            pos.push_code(m)
            replies, in_check, dead = legal_replies(pos)
            pos.pop_code()
            if not replies:
                if terminal_status(replies, in_check, dead) in goal:
                    return m
                continue
            children.append((len(replies), m, replies))
        children.sort(key=_first)
        if best and children and children[0][1] != best:
            for i, child in enumerate(children):
                if child[1] == best:
                    children.insert(0, children.pop(i))
                    break
        for _, m, replies in children:
            if self._try(m, n, replies):
                return m
        if legal is None:
            return 0
        check_set = set(checks)
        board = pos.board
        quiet = [m for m in legal if m not in check_set]
        quiet.sort(key=lambda m: not board[m & 255])
        if best and best in quiet:
            quiet.remove(best)
            quiet.insert(0, best)
        for m in quiet:
            if self._try(m, n, None):
                return m
        return 0

    def _try(self, m: int, n: int, replies: list[int] | None) -> bool:
        """Does attacker move ``m`` win within ``n`` (n >= 2)? ``replies``:
        the defender's legal moves after it, or ``None`` (not generated yet;
        the move gives no check)."""
        c = self.enter(m)
        try:
            if c >= 3 or self.watch_limit:
                if replies is None:
                    replies, in_check, dead = legal_replies(self.pos)
                    if not replies:
                        return terminal_status(replies, in_check, dead) in self.goal
                if c >= 3:
                    return self.judge_repetition()
                if self.over_limit():
                    return False
            return self.defend(n - 1, replies)
        finally:
            self.leave()

    def defend(self, n: int, replies: list[int] | None) -> bool:
        """The defender is to move: does the attacker win within ``n`` more
        moves whatever it plays? ``replies`` are the defender's legal moves
        (not empty), or ``None`` when not generated yet: then the defender
        is not in check, and the stored refutation and the killer moves are
        tried before the others are generated."""
        pos = self.pos
        key = self._pkey()
        first = self._probe(key, n)
        if first < 0:
            return first == _PROVED
        index = len(self.path) - 1
        killers = self.killers[index - self.base + 1]
        k0, k1 = killers
        previous = pos.last_code()
        k2 = self.counters.get(previous, 0)
        saved = self.taint
        self.taint = _NEVER
        refutation = 0
        tried: tuple[int, ...] = ()
        if replies is None:
            front = []
            for m in (first, k0, k1, k2):
                if m and m not in front and is_pseudo_legal(pos, m) and pos.is_legal_code(m):
                    front.append(m)
            tried = tuple(front)
            refutation = self._replies(n, front)
            if not refutation:
                replies = pos.legal_codes()
                if not replies:
                    # stalemate (the defender is not in check)
                    self.taint = min(saved, self.taint)
                    return "stalemate" in self.goal
                rest = [m for m in replies if m not in tried]
                refutation = self._replies(n, self._order(n, rest))
        else:
            front = []
            for m in (first, k0, k1, k2):
                if m and m not in front and m in replies:
                    front.append(m)
            rest = [m for m in replies if m not in front] if front else list(replies)
            refutation = self._replies(n, front + self._order(n, rest))
        taint = self.taint
        self.taint = min(saved, taint)
        if refutation:
            if killers[0] != refutation:
                killers[1] = killers[0]
                killers[0] = refutation
            self.counters[previous] = refutation
        if taint >= index:
            if refutation:
                self._store(key, _NEVER, n, refutation)
            else:
                self._store(key, n, 0, 0)
        return not refutation

    def _order(self, n: int, replies: list[int]) -> list[int]:
        """Defender replies in the order to try them: with two or more
        attacker moves left, checks first (they leave the attacker the
        fewest moves, so a refutation is proved soonest), then captures."""
        if n >= 2 and len(replies) > 1:
            pos = self.pos
            checks = set(checking_moves(pos, replies))
            board = pos.board
            replies.sort(key=lambda m: (m not in checks, not board[m & 255]))
        return replies

    def _replies(self, n: int, order: list[int]) -> int:
        """The first of ``order`` (legal defender moves) after which the
        attacker cannot win within ``n``, or 0."""
        for d in order:
            c = self.enter(d)
            try:
                if c >= 3:
                    ok = self.judge_repetition()
                elif self.over_limit():
                    ok = False
                else:
                    ok = self.attack(n)
            finally:
                self.leave()
            if not ok:
                return d
        return 0

    # ------------------------------------------------------------------
    # questions asked by the prover and the judge

    def candidate_moves(self) -> list[int]:
        """The attacker's moves the mode allows here (all, or the checks)."""
        legal = self.pos.legal_codes()
        if self.checks_only:
            return checking_moves(self.pos, legal)
        return list(legal)

    def move_wins(self, m: int, n: int) -> bool:
        """Does attacker move ``m`` (allowed by the mode) win within ``n``?"""
        c = self.enter(m)
        try:
            replies, in_check, dead = legal_replies(self.pos)
            if not replies:
                return terminal_status(replies, in_check, dead) in self.goal
            if c >= 3:
                return self.judge_repetition()
            if n <= 1 or self.over_limit():
                return False
            return self._replies_lose(c, n - 1, replies)
        finally:
            self.leave()

    def _replies_lose(self, c: int, n: int, replies: list[int]) -> bool:
        """``move_wins`` after the attacker's move, which brought a position
        that now stands ``c`` times on the path and leaves the defender
        ``replies`` (legal, not empty) and the attacker ``n`` (>= 1) moves:
        does every reply lose?"""
        return self.defend(n, list(replies))

    def distance(self, n: int) -> int | None:
        """The smallest k <= n such that the attacker, to move, wins within k."""
        for k in range(1, n + 1):
            if self.attack(k):
                return k
        return None

    def best_move(self) -> int:
        """The move the table holds for the current position (0 if none)."""
        e = self.table.get(self._pkey())
        return e[2] if e is not None else 0


def _first(child: tuple[int, int, list[int]]) -> int:
    return child[0]


def colour_bit(turn: str) -> int:
    return BLACK if turn == "black" else 0
