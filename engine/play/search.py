"""The playing search: iterative deepening PVS with quiescence.

- Principal-variation search (null windows after the first move), iterative
  deepening, check extensions, late-move reductions of quiet moves.
- Quiescence over the captures of this engine: ordinary captures,
  collisions, cannon-takes-missile, defections; a self-destruct only loses
  material and is left out. The value of each is read from the point
  changes it makes, so every effect is valued exactly. In check every
  evasion is searched (a few plies deep), so mates and dead generals show.
- A transposition table on the position's Zobrist key: a fixed number of
  slots (a power of two) sized from a memory budget, replace-always; or
  (``DEEPER_ENTRIES``) slots in pairs, a position stored in the slot of its
  pair that holds it or is empty, else over the shallower of the two.
- Move ordering: hash move, captures by gain (most valuable victim, least
  valuable attacker), two killers per ply, the counter move (the quiet move
  that last refuted the opponent's move, by its piece and its to-point), the
  history heuristic, with a continuation history: the history of a quiet
  move (its piece type and to-point) as a reply to the move before it.
- Game rules inside the tree: a position seen before on the path (or in
  the game's moves) is judged as a repetition cycle by the rules of the
  variant — perpetual check, perpetual chase, xinban's forced variation,
  otherwise a draw; at a true third occurrence by ``engine.rules`` itself.
  The natural limit is a draw; mate, stalemate and dead general are losses.
  These judgements happen only at repeated keys and at the limit, so they
  cost nothing elsewhere.
- A node budget and a time budget, checked at every node (the clock every
  64 nodes, and only when there is a time budget; so is the caller's
  ``stop``, when given); the node budget is never
  exceeded. The time budget is a deadline for the whole call: the search
  stops at the first look at the clock from which waiting for the next look
  and then finishing could pass it, keeping at least 0.1 s (or a tenth of
  the budget) in hand (see ``Searcher.look``). When either
  budget runs out the move played is the best of the last completed
  iteration, or a move the unfinished iteration has already proven better
  (searched to the end with a full window). Deterministic for a given seed
  and node budget; when a time budget stops the search, the depth reached
  (and so the move) depends on the machine's speed.
- Per level (``Limits``): a depth cap, seeded noise on every evaluation,
  and whether the quiescence search and the check extension run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from engine.play import _board as B
from engine.play.evaluation import (
    DEFAULT_WEIGHTS,
    Tables,
    Weights,
    attack_power_clamp,
    material_and_squares,
    positional,
    safety,
    safety_counts,
    tables,
)
from engine.position import Position
from engine.rules import Outcome, repetition_outcome

# Final: the compiled code inlines these instead of looking them up in the module
MATE: Final = 30000
MATE_BOUND: Final = MATE - 1000  # scores beyond this are forced wins or losses
INF: Final = MATE + 1
MAX_PLY: Final = 96
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
ENTRY_BYTES: Final = (
    200  # one filled slot in CPython: the list slot, a 5-tuple and its ints (~182 measured)
)
QS_CHECK_PLIES: Final = 3  # quiescence plies in which a check is answered by every evasion
EVAL_CACHE: Final = 1 << 17
NULL_MOVE_R: Final = 3  # the null move's reduction: this, plus a ply for every 4 of depth
FUTILITY_DEPTH: Final = 2
FUTILITY_MARGIN: Final = 150  # centipawns per ply of depth left
LMP_DEPTH: Final = 3  # late-move pruning at this depth and below
# a capture "loses" when its capturer is worth this much more than what it takes
# (an even trade such as cannon for horse is not a losing capture)
BAD_CAPTURE_MARGIN: Final = 100
ASPIRATION: Final = 40  # the root's first window, centipawns either side of the last score
ASPIRATION_DEPTH: Final = 5  # from this depth on
# the history of a quiet move stays within +-HISTORY_MAX (bonuses shrink as it nears it)
HISTORY_MAX: Final = 1 << 20
# ordering keys: hash move > good captures > killers > counter move > history > losing captures
KEY_HASH: Final = 1 << 30
KEY_CAPTURE: Final = 1 << 26
KEY_KILLER: Final = 1 << 25
KEY_COUNTER: Final = KEY_KILLER - 1
KEY_QUIET: Final = 1 << 22
KEY_BAD_CAPTURE: Final = 0
MASK64: Final = (1 << 64) - 1
# A move code is below 2**16: ordering sorts ``key << MOVE_BITS | move`` as one int
# (the same order as the pair ``(key, move)``, without a tuple per move)
MOVE_BITS: Final = 16
MOVE_MASK: Final = (1 << MOVE_BITS) - 1
# the history table, indexed by move code (every code of the 11 x 10 board is below)
HISTORY_SIZE: Final = 110 << 8
# the counter-move table, indexed by the previous move's ``piece << 8 | to`` (a board value is
# below 64: colour, turncoat bit and type)
COUNTER_SIZE: Final = 64 << 8
CLOCK_MASK: Final = 63  # the clock is looked at when the node count is a multiple of 64
# The work after the search stops (unwinding, freeing the tables, the line
# checked move by move) as a share of the wall time spent until then: it is
# in proportion to the tables the search filled, so it takes the same share
# under any load. Measured 0.4-0.8 % compiled (160,000 nodes and fewer); kept at 2 %.
FINISH_SHARE: Final = 0.02
# The least time kept in hand for the wait and the finishing: a process that
# waited little for the CPU so far may still wait long once (0.1-0.25 s seen
# at a load of 8-11 at nice 10). A tenth of the budget when that is shorter.
MIN_MARGIN: Final = 0.1


# The search's newer techniques, each a bit of ``Limits.techniques`` (on by default those a
# match showed to help, ``DEFAULT_TECHNIQUES``), so a benchmark can play the engine without
# one of them against the engine with it (bench/play_bench.py, section ``ablation``). With none of them (0) and the hand-written
# tables (``CLASSIC_WEIGHTS``) the search is the one before them, move for move: the lessons'
# endgames are played against it (their pars were proved against it).
BAD_CAPTURES: Final = 1  # captures that lose material: ordered last, left out of quiescence
LMR_TABLE: Final = 2  # late-move reductions by depth and move number (else 1 or 2 plies)
LATE_MOVE_PRUNING: Final = 4
NULL_MOVE_DEPTH: Final = 8  # the null move reduced more the deeper (else by NULL_MOVE_R)
IIR: Final = 16  # internal iterative reduction: a ply less where no hash move is known
ASPIRATION_WINDOWS: Final = 32
HISTORY_MALUS: Final = 64  # quiet moves tried before a cutoff lose history
# the quiet move that refuted the opponent's last move, ordered after the killers
COUNTER_MOVES: Final = 128
# quiet moves ordered by their history as replies to the last move, beside their own
CONTINUATION_HISTORY: Final = 256
# the table's slots in pairs, the shallower entry of a full pair replaced
DEEPER_ENTRIES: Final = 512
ALL_TECHNIQUES: Final = 1023
# on by default: all but the techniques a match did not show to help (docs/playing-engine.md,
# "Stronger engine", 12,000 nodes a move, xiangqi): counter moves scored 16.5/40 (-61 Elo)
# against the engine without them, the paired table 21.5/40 (+26, -69 to +126)
DEFAULT_TECHNIQUES: Final = ALL_TECHNIQUES & ~COUNTER_MOVES & ~DEEPER_ENTRIES
TECHNIQUES: Final = {
    "bad-captures": BAD_CAPTURES,
    "lmr-table": LMR_TABLE,
    "late-move-pruning": LATE_MOVE_PRUNING,
    "null-move-depth": NULL_MOVE_DEPTH,
    "iir": IIR,
    "aspiration": ASPIRATION_WINDOWS,
    "history-malus": HISTORY_MALUS,
    "counter-moves": COUNTER_MOVES,
    "continuation-history": CONTINUATION_HISTORY,
    "deeper-entries": DEEPER_ENTRIES,
}


def _reductions() -> list[int]:
    """Late-move reductions by depth and move number (index ``depth * 64 + i``):
    about ln(depth) * ln(i) / 2, so more the deeper and the later."""
    import math

    table = [0] * (64 * 64)
    for d in range(1, 64):
        for i in range(1, 64):
            table[d * 64 + i] = int(0.25 + math.log(d) * math.log(i) / 2.0)
    return table


REDUCTIONS: Final = _reductions()


class _Stop(Exception):
    """The budget ran out."""


@dataclass(frozen=True)
class Limits:
    """What one search may spend and how it plays."""

    depth: int = 64
    nodes: int | None = None
    movetime_ms: int | None = None
    noise: int = 0  # +- centipawns of seeded noise added to every evaluation
    quiescence: bool = True
    extensions: bool = True  # a move into check searched one ply deeper
    seed: int = 0
    tt_mib: int = 64
    weights: Weights = DEFAULT_WEIGHTS
    techniques: int = DEFAULT_TECHNIQUES  # bits of TECHNIQUES


@dataclass
class Result:
    move: int
    score: int
    depth: int
    nodes: int
    pv: list[int] = field(default_factory=list)


def tt_slots(mib: int, nodes: int | None) -> int:
    """The table's slot count: a power of two within ``mib`` MiB, and no
    bigger than the node budget needs."""
    limit = max(1, mib) * (1 << 20) // ENTRY_BYTES
    if nodes is not None:
        limit = min(limit, max(1024, 2 * nodes))
    slots = 1024
    while slots * 2 <= limit:
        slots *= 2
    return slots


class Searcher:
    """One search from one position; the position is copied."""

    def __init__(
        self,
        pos: Position,
        limits: Limits,
        started: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        """``started`` is the ``clock()`` value the time budget counts from
        (the caller's start, so that its set-up counts too); now by default.
        ``clock`` is the wall clock in seconds, read only under a time
        budget (a test may pass its own). ``stop``, asked at each look (as
        often as the clock), ends the search like a spent budget once it
        answers True."""
        self.pos = pos.copy()
        self.variant = pos.variant
        self.weights = limits.weights
        self.t: Tables = tables(pos.variant, limits.weights)
        self.limits = limits
        self.nodes = 0
        self.node_limit = limits.nodes if limits.nodes is not None else 1 << 62
        self.clock = clock
        self.stop = stop
        self.started = 0.0
        self.deadline: float | None = None
        self.last_look = 0.0
        self.longest_gap = 0.0
        self.min_margin = 0.0
        if limits.movetime_ms is not None:
            self.started = clock() if started is None else started
            self.deadline = self.started + limits.movetime_ms / 1000.0
            self.min_margin = min(MIN_MARGIN, limits.movetime_ms / 10_000.0)
        slots = tt_slots(limits.tt_mib, limits.nodes)
        self.tt_mask = slots - 1
        self.tt: list[tuple[int, int, int, int, int] | None] = [None] * slots
        self.history: list[int] = B.hash_history(self.pos)
        self.seen: dict[int, int] = {}
        for h in self.history:
            self.seen[h] = self.seen.get(h, 0) + 1
        self.psq = material_and_squares(self.pos.board, self.t)
        self.psq_stack: list[int] = []
        # the generals' safety counts (``evaluation.GUARD_BITS``), kept like ``psq``
        self.counts = safety_counts(self.pos.board, self.t)
        self.counts_stack: list[int] = []
        # with mobility weighted, the positional term needs the full scan
        self.mobility = bool(limits.weights.mobility_line or limits.weights.mobility_leg)
        self.attack_power = bool(pos.variant.attack_power)
        self.eval_cache: dict[int, int] = {}
        self.killers: list[list[int]] = [[0, 0] for _ in range(MAX_PLY + 8)]
        self.hist: list[int] = [0] * HISTORY_SIZE
        # the moves played in the tree, each as ``piece << 8 | to`` (0 for a pass), and the
        # counter move to each (``COUNTER_MOVES``)
        self.played: list[int] = []
        self.counters: list[int] = [0] * COUNTER_SIZE
        # the continuation history (``CONTINUATION_HISTORY``), by ``continuation``: sparse
        self.follow: dict[int, int] = {}
        self.pv: list[list[int]] = [[] for _ in range(MAX_PLY + 8)]
        self.noise = limits.noise
        self.extensions = limits.extensions
        self.seed_mix = (limits.seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
        self.cycle_cache: dict[tuple[int, ...], Outcome | None] = {}
        if self.deadline is not None:
            self.last_look = clock()
        self.looks = self.deadline is not None or stop is not None
        self.iter_best: Result | None = None  # the best root move of the iteration under way
        self.techniques = limits.techniques

    # ------------------------------------------------------------------
    # make / unmake with the incremental sum

    def make(self, m: int) -> None:
        # a move changes its two points only (``Position.effects``; a
        # self-destruct leaves the to-point as it was): the sums move by the
        # tables' values there, as ``delta`` of the move's changes gives them
        pos = self.pos
        b = pos.board
        fr = m >> 8
        to = m & 255
        before_fr = b[fr]
        before_to = b[to]
        B.push(pos, m)
        after_fr = b[fr]
        after_to = b[to]
        t = self.t
        size = t.size
        squares = t.squares
        self.played.append(before_fr << 8 | to)
        self.psq_stack.append(self.psq)
        self.psq += (
            squares[after_fr * size + fr]
            - squares[before_fr * size + fr]
            + squares[after_to * size + to]
            - squares[before_to * size + to]
        )
        counts = t.safety
        self.counts_stack.append(self.counts)
        self.counts += (
            counts[after_fr * size + fr]
            - counts[before_fr * size + fr]
            + counts[after_to * size + to]
            - counts[before_to * size + to]
        )
        self._entered()

    def make_null(self) -> None:
        """Pass (for null-move pruning); no repetition is looked for across it.
        ``unmake`` takes it back."""
        B.push_null(self.pos)
        self.played.append(0)
        self.psq_stack.append(self.psq)
        self.counts_stack.append(self.counts)
        self._entered()

    def _entered(self) -> None:
        """Record the position just entered (its incremental sums are set)."""
        h = self.pos.hash
        self.history.append(h)
        self.seen[h] = self.seen.get(h, 0) + 1

    def unmake(self) -> None:
        h = self.history.pop()
        self.seen[h] -= 1
        B.pop(self.pos)
        self.played.pop()
        self.psq = self.psq_stack.pop()
        self.counts = self.counts_stack.pop()

    # ------------------------------------------------------------------
    # evaluation

    def evaluate(self) -> int:
        pos = self.pos
        cached = self.eval_cache.get(pos.hash)
        if cached is None:
            if self.mobility:
                score = self.psq + positional(pos.board, pos.occupied, self.variant, self.weights)
            else:
                score = self.psq + safety(self.counts, self.weights)
            if pos.side:
                score = -score
            score += self.weights.tempo
            if self.attack_power:
                score = attack_power_clamp(score, pos.board, self.variant, pos.side)
            if len(self.eval_cache) >= EVAL_CACHE:
                self.eval_cache.clear()
            self.eval_cache[pos.hash] = score
        else:
            score = cached
        if self.noise:
            x = ((pos.hash ^ self.seed_mix) * 0xBF58476D1CE4E5B9) & MASK64
            score += (x >> 33) % (2 * self.noise + 1) - self.noise
        return score

    # ------------------------------------------------------------------
    # rules

    def _outcome_score(self, outcome: Outcome | None, ply: int) -> int | None:
        if outcome is None:
            return None
        if outcome.winner is None:
            return 0
        return MATE - ply if outcome.winner == self.pos.turn else -(MATE - ply)

    def rule_score(self, ply: int) -> int | None:
        """The score the game rules give the current position, if any:
        a repetition cycle judged, or the natural limit."""
        pos = self.pos
        hist = self.history
        h = hist[-1]
        previous = 0
        span = 0
        if self.seen[h] > 1:
            n = len(hist)
            back = min(pos.halfmove, n - 1)
            for i in range(n - 3, n - 2 - back, -2):
                if hist[i] == h:
                    previous += 1
                    if not span:
                        span = n - 1 - i
        if previous:
            if not B.legal(pos):
                return -(MATE - ply)
            if previous >= 2:
                return self._outcome_score(repetition_outcome(pos), ply)
            key = tuple(hist[n - 1 - span :])
            if key not in self.cycle_cache:
                self.cycle_cache[key] = B.judge_cycle(pos, span)
            return self._outcome_score(self.cycle_cache[key], ply)
        if pos.halfmove >= self.variant.natural_limit_plies:
            return 0 if B.legal(pos) else -(MATE - ply)
        return None

    # ------------------------------------------------------------------
    # ordering

    def gain(self, m: int) -> int:
        """What a capture wins, by the point changes it makes."""
        return B.capture_gain(self.pos, m, self.t)

    def losing(self, m: int, gain: int) -> bool:
        """Does the capture ``m`` (winning ``gain``) give more than it takes:
        the capturer is worth clearly more than its prize
        (``BAD_CAPTURE_MARGIN``) and the enemy could take it where it lands?
        (A collision or self-destruct is never called losing here: its cost
        is in ``gain`` already.)"""
        if not self.techniques & BAD_CAPTURES:
            return False
        pos = self.pos
        b = pos.board
        attacker = b[m >> 8]
        if gain + BAD_CAPTURE_MARGIN >= self.t.worth[attacker]:
            return False
        colliding = pos.colliding
        if colliding and (b[m & 255] & 15 in colliding or attacker & 15 in colliding):
            return False
        return B.recapturable(pos, m)

    def order(self, moves: list[int], hash_move: int, ply: int) -> list[int]:
        """Hash move, winning and even captures (most valuable victim, least
        valuable attacker), the two killers, the counter move, quiet moves by
        history, and last the captures that lose material."""
        board = self.pos.board
        k1, k2 = self.killers[ply]
        counter = 0
        previous = self.played[-1] if self.played else 0
        if self.techniques & COUNTER_MOVES:
            counter = self.counters[previous]
        follow = self.follow if previous and self.techniques & CONTINUATION_HISTORY else None
        hist = self.hist
        worth = self.t.worth
        keyed: list[int] = []
        for m in moves:
            if m == hash_move:
                key = KEY_HASH
            elif board[m & 255]:
                g = self.gain(m)
                key = (
                    g * 16
                    - worth[board[m >> 8]] // 16
                    + (KEY_BAD_CAPTURE if self.losing(m, g) else KEY_CAPTURE)
                )
            elif m == k1:
                key = KEY_KILLER + 1
            elif m == k2:
                key = KEY_KILLER
            elif m == counter:
                key = KEY_COUNTER
            elif follow is not None:
                # both histories within +-HISTORY_MAX: the sum stays below the killers
                key = (
                    KEY_QUIET
                    + 2 * HISTORY_MAX
                    + hist[m]
                    + follow.get(continuation(previous, board[m >> 8], m), 0)
                )
            else:
                key = KEY_QUIET + HISTORY_MAX + hist[m]
            keyed.append(key << MOVE_BITS | m)
        keyed.sort(reverse=True)
        return [k & MOVE_MASK for k in keyed]

    def reward(self, m: int, bonus: int) -> None:
        """Move a quiet move's history by ``bonus`` (a malus when negative),
        less the nearer it already is to the bound."""
        h = self.hist[m]
        self.hist[m] = h + bonus - h * abs(bonus) // HISTORY_MAX

    def reward_reply(self, previous: int, m: int, bonus: int) -> None:
        """Move the continuation history of the quiet move ``m`` (not yet
        played) as a reply to ``previous`` like ``reward``."""
        key = continuation(previous, self.pos.board[m >> 8], m)
        h = self.follow.get(key, 0)
        self.follow[key] = h + bonus - h * abs(bonus) // HISTORY_MAX

    # ------------------------------------------------------------------
    # search

    def _tick(self) -> None:
        if self.nodes >= self.node_limit:
            raise _Stop
        self.nodes += 1
        if self.looks and not self.nodes & CLOCK_MASK:
            self.look()

    def look(self) -> None:
        """A look at the clock, under a time budget: stop (raise ``_Stop``)
        unless the search can wait for the next look and still finish by
        the deadline. The wait is taken as the longest gap seen so far
        between two looks (on a loaded machine the process waits for the CPU
        between them), the finishing as one such gap more (the two at least
        ``MIN_MARGIN``, or a tenth of the budget) plus ``FINISH_SHARE`` of
        the time spent. Stop too once the caller's ``stop`` says so."""
        if self.stop is not None and self.stop():
            raise _Stop
        if self.deadline is None:
            return
        now = self.clock()
        gap = now - self.last_look
        self.last_look = now
        if gap > self.longest_gap:
            self.longest_gap = gap
        deadline = self.deadline
        assert deadline is not None
        margin = max(2.0 * self.longest_gap, self.min_margin) + FINISH_SHARE * (now - self.started)
        if now + margin > deadline:
            raise _Stop

    def qsearch(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        self._tick()
        pos = self.pos
        if ply >= MAX_PLY:
            return self.evaluate()
        in_check = pos.is_check()
        if in_check and (qply < QS_CHECK_PLIES or not self.limits.quiescence):
            legal = B.legal(pos)
            if not legal:
                return -(MATE - ply)
            if not self.limits.quiescence:
                return self.evaluate()
            return self._qsearch_moves(self.order(legal, 0, ply), -INF, alpha, beta, ply, qply)
        stand = self.evaluate()
        if not self.limits.quiescence or stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        caps: list[int] = []  # gain << MOVE_BITS | move, as ``order`` sorts
        for m in B.captures(pos):
            g = self.gain(m)
            if g <= 0 and qply > 0:
                continue
            if stand + g + 200 <= alpha:
                continue  # even winning it all would not reach alpha
            if self.losing(m, g):
                continue  # gives more than it takes
            caps.append(g << MOVE_BITS | m)
        caps.sort(reverse=True)
        return self._qsearch_moves([c & MOVE_MASK for c in caps], best, alpha, beta, ply, qply)

    def _qsearch_moves(
        self, moves: list[int], best: int, alpha: int, beta: int, ply: int, qply: int
    ) -> int:
        """``qsearch`` over ``moves`` in turn, from the score ``best``, until
        one reaches ``beta``: the best score."""
        for m in moves:
            self.make(m)
            score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1)
            self.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def search(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool = True) -> int:
        pos = self.pos
        self.pv[ply] = []
        if ply:
            ruled = self.rule_score(ply)
            if ruled is not None:
                self._tick()
                return ruled
            # mate distance pruning
            alpha = max(alpha, -(MATE - ply))
            beta = min(beta, MATE - ply - 1)
            if alpha >= beta:
                self._tick()
                return alpha
        in_check = pos.is_check()
        if in_check and self.extensions and ply < 2 * depth + 8:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self.qsearch(alpha, beta, ply, 0)
        self._tick()
        pv_node = beta - alpha > 1
        key = pos.hash
        slot = key & self.tt_mask
        entry = self.tt[slot]
        if self.techniques & DEEPER_ENTRIES and (entry is None or entry[0] != key):
            entry = self.tt[slot ^ 1]
        hash_move = 0
        if entry is not None and entry[0] == key:
            hash_move = entry[4]
            if entry[1] >= depth and not pv_node:
                score = entry[3]
                if score > MATE_BOUND:
                    score -= ply
                elif score < -MATE_BOUND:
                    score += ply
                flag = entry[2]
                if (
                    flag == EXACT
                    or (flag == LOWER and score >= beta)
                    or (flag == UPPER and score <= alpha)
                ):
                    return score
        techniques = self.techniques
        if techniques & IIR and depth >= 4 and not hash_move and not in_check:
            depth -= 1  # nothing known of this position: a shallower look first
        static = 0
        futile = False
        prune = not pv_node and not in_check and abs(beta) < MATE_BOUND
        if prune and depth <= FUTILITY_DEPTH:
            static = self.evaluate()
            margin = FUTILITY_MARGIN * depth
            if static - margin >= beta:
                return static - margin  # reverse futility: far above beta already
            futile = static + margin <= alpha
        if (
            null_ok
            and not pv_node
            and not in_check
            and depth >= 3
            and beta < MATE_BOUND
            and B.has_pieces(pos)
            and self.evaluate() >= beta
        ):
            self.make_null()
            try:
                r = NULL_MOVE_R + depth // 4 if techniques & NULL_MOVE_DEPTH else 2
                score = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, False)
            finally:
                self.unmake()
            if score >= beta:
                return beta
        legal = B.legal(pos)
        if not legal:
            return -(MATE - ply)
        moves = self.order(legal, hash_move, ply)
        # late-move pruning: past this many moves a quiet move is not tried near the leaves
        late = 1 << 30
        if techniques & LATE_MOVE_PRUNING and prune and depth <= LMP_DEPTH:
            late = 3 + depth * depth
        k1, k2 = self.killers[ply]
        best = -INF
        best_move = moves[0]
        alpha0 = alpha
        board = pos.board
        tried: list[int] = []  # quiet moves searched without a cutoff
        for i, m in enumerate(moves):
            quiet = not board[m & 255]
            self.make(m)
            checks = pos.is_check()
            if i and quiet and not checks and (futile or (i >= late and best > -MATE_BOUND)):
                # futility: a quiet move cannot lift a position this far below alpha;
                # late-move pruning: so late in the order it will not either
                self.unmake()
                continue
            if i == 0:
                score = -self.search(depth - 1, -beta, -alpha, ply + 1)
            else:
                r = 0
                if depth >= 3 and i >= 2 and quiet and not in_check and not checks:
                    if techniques & LMR_TABLE:
                        r = REDUCTIONS[min(depth, 63) * 64 + min(i, 63)]
                        if m in (k1, k2) or pv_node:
                            r -= 1
                        if self.hist[m] < 0:
                            r += 1
                        r = max(0, min(r, depth - 2))
                    elif i >= 3 and m != hash_move:
                        r = 1 if i < 10 else 2
                score = -self.search(depth - 1 - r, -alpha - 1, -alpha, ply + 1)
                if score > alpha and (r or score < beta):
                    score = -self.search(depth - 1, -beta, -alpha, ply + 1)
            self.unmake()
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    self.pv[ply] = [m, *self.pv[ply + 1]]
                    if alpha >= beta:
                        if quiet:
                            k = self.killers[ply]
                            if k[0] != m:
                                k[1] = k[0]
                                k[0] = m
                            previous = self.played[-1] if self.played else 0
                            if techniques & COUNTER_MOVES and previous:
                                self.counters[previous] = m
                            if techniques & CONTINUATION_HISTORY and previous:
                                bonus = min(depth * depth * 16, HISTORY_MAX // 4)
                                self.reward_reply(previous, m, bonus)
                                for q in tried:
                                    self.reward_reply(previous, q, -bonus)
                            if techniques & HISTORY_MALUS:
                                bonus = min(depth * depth * 16, HISTORY_MAX // 4)
                                self.reward(m, bonus)
                                for q in tried:
                                    self.reward(q, -bonus)
                            else:
                                self.hist[m] += depth * depth
                        break
            if quiet:
                tried.append(m)
        if best == -INF:
            best = alpha  # every move was futile: a fail-low
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        if techniques & DEEPER_ENTRIES:
            slot = self.tt_slot(key, slot)
        self.tt[slot] = (key, depth, flag, stored, best_move)
        return best

    def tt_slot(self, key: int, slot: int) -> int:
        """Where ``DEEPER_ENTRIES`` stores the position ``key``: the slot of
        the pair (``slot`` and ``slot ^ 1``) that holds it, else an empty one,
        else the one holding the shallower search (``slot`` on a tie)."""
        tt = self.tt
        other = slot ^ 1
        here = tt[slot]
        there = tt[other]
        if here is None or here[0] == key:
            return other if there is not None and there[0] == key else slot
        if there is None or there[0] == key:
            return other
        return other if there[1] < here[1] else slot

    def quiet_value(self) -> int:
        """The quiescence value of the position (the static evaluation if
        the budget runs out first)."""
        try:
            return self.qsearch(-INF, INF, 0, 0)
        except _Stop:
            return self.evaluate()

    # ------------------------------------------------------------------
    # root

    def run(self, root_moves: list[int], won: int | None = None) -> Result:
        """Iterative deepening over ``root_moves`` (legal, non-losing);
        ``won`` is a move that wins at once by rule or mate. From
        ``ASPIRATION_DEPTH`` on, each iteration first searches a window
        around the last score, and again with the window opened on the side
        where it failed."""
        if won is not None:
            return Result(won, MATE - 1, 1, 0, [won])
        moves = self.order(root_moves, 0, 0)
        best = Result(moves[0], 0, 0, 0, [moves[0]])
        scores: dict[int, int] = {}
        for depth in range(1, self.limits.depth + 1):
            lo = -INF
            hi = INF
            if (
                self.techniques & ASPIRATION_WINDOWS
                and depth >= ASPIRATION_DEPTH
                and abs(best.score) < MATE_BOUND
            ):
                lo = best.score - ASPIRATION
                hi = best.score + ASPIRATION
            try:
                self.iterate(moves, depth, lo, hi, scores)
            except _Stop:
                partial = self.iter_best
                if partial is not None:
                    best = Result(partial.move, partial.score, best.depth, 0, partial.pv)
                break
            done = self.iter_best
            assert done is not None
            best = done
            # previous best first, the others by this iteration's scores
            moves.sort(key=lambda mv: (mv == best.move, scores.get(mv, -INF)), reverse=True)
            if abs(best.score) > MATE_BOUND and MATE - abs(best.score) <= depth:
                break
            if len(moves) == 1 and depth >= 2:
                break
        best.nodes = self.nodes
        return best

    def iterate(
        self, moves: list[int], depth: int, lo: int, hi: int, scores: dict[int, int]
    ) -> None:
        """One iteration at ``depth`` from the window (``lo``, ``hi``), opened
        on the side where it fails until the best move's score is inside it;
        a move that failed high is searched first again."""
        while True:
            self.root_pass(moves, depth, lo, hi, scores)
            got = self.iter_best
            if got is None or got.score <= lo:
                lo = -INF  # failed low: every move is worse than the window
            elif got.score >= hi:
                hi = INF  # failed high: this move is better than the window
                moves.remove(got.move)
                moves.insert(0, got.move)
            else:
                return

    def root_pass(
        self, moves: list[int], depth: int, alpha: int, beta: int, scores: dict[int, int]
    ) -> None:
        """One pass over the root moves in the window (``alpha``, ``beta``):
        ``iter_best`` is the best move found above ``alpha`` (searched to the
        end with the full window), None when none was; the pass stops at a
        move that reaches ``beta``."""
        self.iter_best = None
        for i, m in enumerate(moves):
            self.make(m)
            try:
                if i == 0:
                    score = -self.search(depth - 1, -beta, -alpha, 1)
                else:
                    score = -self.search(depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self.search(depth - 1, -beta, -alpha, 1)
            finally:
                self.unmake()
            scores[m] = score
            if score > alpha:
                alpha = score
                self.iter_best = Result(m, score, depth, 0, [m, *self.pv[1]])
                if score >= beta:
                    return


def continuation(previous: int, piece: int, m: int) -> int:
    """The continuation history's key of the move ``m`` of ``piece`` after
    ``previous`` (``piece << 8 | to``, as ``Searcher.played`` holds it): the
    two pieces' types and to-points."""
    return ((previous >> 8 & 15) << 8 | previous & 255) << 12 | (piece & 15) << 8 | m & 255


def is_mate_score(score: int) -> bool:
    return abs(score) > MATE_BOUND


def mate_in(score: int) -> int:
    """Moves to mate from a mate score (negative: the side to move is mated)."""
    plies = MATE - abs(score)
    moves = (plies + 1) // 2
    return moves if score > 0 else -moves
