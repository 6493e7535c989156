"""A proof-number prover: df-pn behind the same questions as ``Search``.

``DfpnSearch`` answers the questions the prover asks (``distance``,
``move_wins``) with depth-first proof-number search (df-pn, with the
1 + epsilon trick for the thresholds). Its answers are those of ``Search``.

How exactness is kept:

- A node is a position and the number of attacker moves left; the graph
  of nodes has no cycles (the count goes down), so df-pn terminates.
- Repetitions are judged on the path, by the rules. A move that brings
  back a position of the search's path for the second time is judged as
  the game engine judges it (``engine.rules.judge_cycle``: the cycle
  as the rules would rule it if it came round once more, docs/rules.md §8).
  When the ruling does not give the attacker the win (a draw, the
  attacker's perpetual check or chase, xinban's forced variation against
  it) the line fails for the attacker: it could have played from the
  first occurrence with more moves left, so a shortest win never needs
  it. When the ruling would punish the defender the line goes on, and a
  third occurrence is judged by the rules (``Search.judge_repetition``) —
  the defender may still vary. So does a line back to a position that
  occurred before the puzzle's start.
- A result that needed such a ruling depends on the path when the cycle
  began above the node: it is kept apart, keyed by the whole path (the
  graph-history-interaction fix), and never enters the path-independent
  table. Every other result is the same on every path without a repeated
  position and is shared with the exact search.
- Stored disproofs are not used where a position repeated on the path
  could come back below (as in ``Search``).
- Questions asked where the path already holds a repeated position go to
  the exact ``Search`` (``fallbacks`` counts them).
- The natural limit is handled as in ``Search``: when it is within reach
  positions are told apart by their plies without capture.

The hot loop allocates no object per child: the children of a node are
four parallel lists of ints, table entries are single ints (proof and
disproof numbers packed; the path-independent results as the smallest n
proved, the largest n disproved and the best move), and the attacker's
moves of a position are kept as one flat list of ints.

The tables are bounded by memory (``memory_mib``, default 256 MiB): at most
three quarters for the results, at an estimated ``ENTRY_BYTES`` each (when
full, the unfinished entries are dropped first, then everything), at most a
sixteenth for the rulings of cycles at ``CYCLE_BYTES`` each (dropped when
full), the rest, and what those do not use, for the move lists of expanded
nodes at ``EXPANSION_BYTES`` each (dropped when the whole is full). Results
are only lost, never wrong. The exact search's own table is bounded by its
count of entries (``search._TABLE_LIMIT``).
"""

from __future__ import annotations

from typing import Final

from engine.position import Position
from engine.rules import judge_cycle
from engine.solver.movegen import (
    checking_moves,
    gives_check,
    has_legal_move,
    is_pseudo_legal,
    legal_checks,
    legal_replies,
    status_of,
)
from engine.solver.proof import SolverInputError
from engine.solver.search import _NEVER, Budget, Search, terminal_status

INF: Final = (1 << 30) - 1  # an infinite (or saturated) proof or disproof number
TOP: Final = INF + 1  # the root's thresholds: never reached
SHIFT: Final = 31  # a table entry: pn | dn << SHIFT
LOW: Final = (1 << SHIFT) - 1
PROVED: Final = INF << SHIFT  # pn 0, dn infinite
DISPROVED: Final = INF  # pn infinite, dn 0
MAX_N: Final = 31  # attacker moves left, at most (five bits in a result)
DEFAULT_MEMORY_MIB = 256
QUIET_PN: Final = 8  # the first proof number of a move that gives no check
# the first disproof numbers of the defender's replies: the one that refuted last and any
# reply that gives check start at 1 (a check leaves the attacker a few replies instead of all
# its moves, so it is by far the cheapest refutation to show when it holds); every other reply
# starts at this many times the attacker's number of moves
OTHER_REPLY_DN: Final = 4
# a dict slot with a 64-bit int key and an int value: 106-128 bytes between the dict's
# resizes (tracemalloc, CPython 3.11)
ENTRY_BYTES = 128
EXPANSION_BYTES = 4000  # one expansion: about 135 bytes a move (measured), 30 moves
CYCLE_BYTES = 360  # a cycle's ruling: a dict slot, a tuple of six hashes (measured)
# kinds of an attacker move in an expansion (a positive kind: a first proof number)
_WINS: Final = 0
_ENDS: Final = -1
_LIMIT: Final = -2
_KIND: Final = 16  # an expansion's move code: move | (kind + 2) << _KIND
_MOVE_MASK: Final = (1 << _KIND) - 1
_MASK64: Final = (1 << 64) - 1
# mixed into a position key to tell the attacker's moves left apart
_NKEY: Final = [(n * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK64 for n in range(MAX_N + 2)]
_COLOUR: Final = ("red", "black")


class DfpnSearch(Search):
    """``Search`` with df-pn answering ``distance`` and ``move_wins``."""

    def __init__(
        self,
        pos: Position,
        goal: str,
        checks_only: bool,
        budget: Budget | None = None,
        memory_mib: int = DEFAULT_MEMORY_MIB,
    ) -> None:
        if isinstance(memory_mib, bool) or not isinstance(memory_mib, int) or memory_mib < 1:
            raise SolverInputError("solver.bad_memory", {"value": repr(memory_mib)})
        super().__init__(pos, goal, checks_only, budget)
        # (position key ^ _NKEY[n]) -> pn | dn << SHIFT of an unfinished node
        self.tt: dict[int, int] = {}
        # position key -> smallest n proved (0: none) | largest n disproved << 5
        # | the move that proved (attacker) or refuted (defender) << 10
        self.res: dict[int, int] = {}
        # results that depend on the path: (path key ^ position key ^
        # _NKEY[n]) -> proved (1 or 0) | the earliest path index they depend on << 1
        self.ptt: dict[int, int] = {}
        # position key -> the attacker's moves there (``_generate_or``)
        self.expansions: dict[int, list[int]] = {}
        # cycles closed by a second occurrence -> does the ruling give the attacker the win
        self.cycles: dict[tuple[int, ...], bool] = {}
        # at most three quarters of the memory for the results, the rest
        # (and what the results leave) for the expansions
        self.memory = memory_mib << 20
        self.entry_limit = max(1024, memory_mib * (3 << 18) // ENTRY_BYTES)
        self.cycle_limit = max(64, memory_mib * (1 << 16) // CYCLE_BYTES)
        self.winner = _COLOUR[self.attacker >> 5]
        self.rtaint = _NEVER  # the path index the last result depends on (_NEVER: none)
        # the last refutation found at each depth of the path (a killer move)
        self.refuters = [0] * 512
        # the number of the attacker's moves at each depth of the path, as last expanded
        self.breadth = [0] * 512
        self.fallbacks = 0  # questions handed to the exact search
        self.purges = 0  # times the table was full

    # ------------------------------------------------------------------
    # table

    def _entries(self) -> int:
        return len(self.tt) + len(self.res) + len(self.ptt)

    def _make_room(self) -> None:
        self.purges += 1
        self.tt.clear()
        self.ptt.clear()
        if len(self.res) > self.entry_limit // 2:
            self.res.clear()

    def _path_key(self) -> int:
        return hash(tuple(self.path))

    def _look(self, pk: int, n: int) -> int:
        """The stored value of the current node (pn | dn << SHIFT), or -1.
        A path-dependent result sets ``rtaint``."""
        if self.ptt:
            e = self.ptt.get(self._path_key() ^ pk ^ _NKEY[n])
            if e is not None:
                self.rtaint = e >> 1
                return PROVED if e & 1 else DISPROVED
        r = self.res.get(pk)
        if r is not None:
            w = r & 31
            if w and w <= n:
                return PROVED
            if (r >> 5) & 31 >= n and not (self.doubled and self._may_repeat()):
                return DISPROVED
        e = self.tt.get(pk ^ _NKEY[n])
        return -1 if e is None else e

    def _save(self, pk: int, n: int, v: int, taint: int, move: int) -> None:
        """Store the value ``v`` of the current node; a final one that
        depends on the path above it (``taint``) only under the path."""
        entries = len(self.tt) + len(self.res) + len(self.ptt)
        if entries >= self.entry_limit:
            self._make_room()
        elif (
            entries * ENTRY_BYTES
            + len(self.expansions) * EXPANSION_BYTES
            + len(self.cycles) * CYCLE_BYTES
            > self.memory
        ):
            self.expansions.clear()
        pn = v & LOW
        dn = v >> SHIFT
        if pn and dn:
            self.tt[pk ^ _NKEY[n]] = v
            return
        if taint < len(self.path) - 1:
            self.ptt[self._path_key() ^ pk ^ _NKEY[n]] = (0 if pn else 1) | taint << 1
            return
        r = self.res.get(pk, 0)
        w = r & 31
        f = (r >> 5) & 31
        best = r >> 10
        if pn == 0:
            if w == 0 or n < w:
                w = n
                if move:
                    best = move
        elif n > f:
            f = n
            if move and w == 0:
                best = move
        self.res[pk] = w | f << 5 | best << 10
        self.tt.pop(pk ^ _NKEY[n], None)

    # ------------------------------------------------------------------
    # repetitions

    def _cycle_lost(self) -> int:
        """The position just entered stands on the path for the second
        time: the path index of its first occurrence if the attacker loses
        the line by the ruling of the cycle, ``_NEVER`` if the line goes on
        (the ruling would punish the defender, or the first occurrence was
        before the search's start)."""
        path = self.path
        first = path.index(path[-1])
        if first < self.base - 1:
            return _NEVER
        key = tuple(path[first:])
        won = self.cycles.get(key)
        if won is None:
            outcome = judge_cycle(self.pos, len(path) - 1 - first)
            won = outcome is not None and outcome.winner == self.winner
            if len(self.cycles) >= self.cycle_limit:
                self.cycles.clear()
            self.cycles[key] = won
        return _NEVER if won else first

    def _repeat(self, m: int, n: int) -> int:
        """Move ``m`` (not ending the game, the attacker then with ``n``
        moves left) brings back a position of the path: its value by the
        rules (``rtaint`` set), or -1 when the node is searched as any
        other."""
        c = self.enter(m)
        v = -1
        self.rtaint = _NEVER
        if c >= 3:
            self.taint = _NEVER
            won = self.judge_repetition()
            self.rtaint = self.taint
            self.taint = _NEVER
            v = PROVED if won else DISPROVED
        elif self.over_limit():
            v = DISPROVED
        else:
            first = self._cycle_lost()
            if first != _NEVER:
                v = DISPROVED
                if not self._fails(self._pkey(), n):
                    self.rtaint = first
        self.leave()
        return v

    def _repeat_child(
        self,
        m: int,
        n: int,
        pn: int,
        km: list[int],
        kp: list[int],
        kd: list[int],
        kt: list[int],
    ) -> None:
        """Add the child of move ``m``, which brings back a position of the
        path (the attacker then with ``n`` moves left), to the lists of an
        expansion: valued by ``_repeat``, or with proof number ``pn`` and
        disproof number 1 when it is searched as any other."""
        v = self._repeat(m, n)
        km.append(m)
        if v < 0:
            kp.append(pn)
            kd.append(1)
        else:
            kp.append(v & LOW)
            kd.append(v >> SHIFT)
        kt.append(self.rtaint)

    def _fails(self, pk: int, n: int) -> bool:
        """Is the position known to fail within ``n`` on every path (then a
        line that the rules end as a failure fails anyway)?"""
        f = (self.res.get(pk, 0) >> 5) & 31
        return f >= n and f > 0

    # ------------------------------------------------------------------
    # expansions

    def _generate_or(self, last: bool) -> list[int]:
        """The attacker's moves as a flat list of (code, hash, key): the
        code is the move | (kind + 2) << _KIND, where the kind is ``_WINS``
        (ends the game with the goal: the only entry then), ``_ENDS`` (ends
        it otherwise), ``_LIMIT`` (reaches the natural limit) or the
        child's first proof number (the defender's replies to a check; for
        a move without check ``QUIET_PN``, without generating them).
        ``last``: the attacker has two moves left, so each child is decided
        at once (``_and_last``) and the order of the checks matters little:
        a check's first proof number is 1, and only whether the defender
        has a reply is looked at (the rest of its replies are not
        generated)."""
        pos = self.pos
        goal = self.goal
        if self.checks_only:
            checks = legal_checks(pos)
            quiet: list[int] = []
        else:
            legal = pos.legal_codes()
            checks = checking_moves(pos, legal)
            if checks:
                check_set = set(checks)
                quiet = [m for m in legal if m not in check_set]
            else:
                quiet = legal
        out: list[int] = []
        for m in checks:
            pos.push_code(m)
            if last:
                status = status_of(pos)
                count = 1
            else:
                replies, in_check, dead = legal_replies(pos)
                status = terminal_status(replies, in_check, dead) if not replies else "ongoing"
                count = len(replies)
            if status != "ongoing":
                pos.pop_code()
                if status in goal:
                    return [m | (_WINS + 2) << _KIND, 0, 0]
                out.append(m | (_ENDS + 2) << _KIND)
                out.append(0)
                out.append(0)
                continue
            kind = _LIMIT if self.over_limit() else count
            out.append(m | (kind + 2) << _KIND)
            out.append(pos.hash)
            out.append(self._pkey())
            pos.pop_code()
        if self.quiet_can_end:
            for m in quiet:
                pos.push_code(m)
                if not has_legal_move(pos, unchecked=True):
                    pos.pop_code()
                    return [m | (_WINS + 2) << _KIND, 0, 0]  # stalemate, and the goal is ``win``
                kind = _LIMIT if self.over_limit() else QUIET_PN
                out.append(m | (kind + 2) << _KIND)
                out.append(pos.hash)
                out.append(self._pkey())
                pos.pop_code()
            return out
        # moves without check cannot end the game: their hashes without playing them
        board = pos.board
        watch = self.watch_limit
        for m in quiet:
            h = self.pos.hash_after(m)
            if not watch:
                out.append(m | (QUIET_PN + 2) << _KIND)
                out.append(h)
                out.append(h)
                continue
            halfmove = 0 if board[m & 255] else pos.halfmove + 1
            kind = _LIMIT if halfmove >= self.halfmove_limit else QUIET_PN
            out.append(m | (kind + 2) << _KIND)
            out.append(h)
            out.append(hash((h, halfmove)))
        return out

    def _expand_or(
        self, n: int, km: list[int], kp: list[int], kd: list[int], kt: list[int]
    ) -> None:
        """The attacker's moves (n >= 2 left) as children, into the lists of
        moves, proof numbers, disproof numbers and path dependences."""
        pk = self._pkey()
        moves = self.expansions.get(pk)
        if moves is None and n == 2:
            moves = self._generate_or(True)  # not kept: an expansion for n > 2 counts replies
        elif moves is None:
            moves = self._generate_or(False)
            used = self._entries() * ENTRY_BYTES + len(self.cycles) * CYCLE_BYTES
            if used + (len(self.expansions) + 1) * EXPANSION_BYTES > self.memory:
                self.expansions.clear()
            self.expansions[pk] = moves
        self._count(len(moves) // 3)
        self.breadth[len(self.path) & 511] = len(moves) // 3
        counts = self.counts
        res = self.res
        tt = self.tt
        nk = _NKEY[n - 1]
        fails_ok = not self.doubled
        for i in range(0, len(moves), 3):
            code = moves[i]
            m = code & _MOVE_MASK
            kind = (code >> _KIND) - 2
            if kind == _WINS:
                km.append(m)
                kp.append(0)
                kd.append(INF)
                kt.append(_NEVER)
                return
            if kind == _ENDS:
                km.append(m)
                kp.append(INF)
                kd.append(0)
                kt.append(_NEVER)
                continue
            h = moves[i + 1]
            if h in counts:
                self._repeat_child(m, n - 1, kind if kind > 0 else 1, km, kp, kd, kt)
                continue
            km.append(m)
            kt.append(_NEVER)
            if kind == _LIMIT:
                kp.append(INF)
                kd.append(0)
                continue
            cpk = moves[i + 2]
            r = res.get(cpk)
            if r is not None:
                w = r & 31
                if w and w < n:
                    kp.append(0)
                    kd.append(INF)
                    continue
                if fails_ok and (r >> 5) & 31 >= n - 1:
                    kp.append(INF)
                    kd.append(0)
                    continue
            e = tt.get(cpk ^ nk)
            if e is None:
                kp.append(kind)
                kd.append(1)
            else:
                kp.append(e & LOW)
                kd.append(e >> SHIFT)

    def _expand_and(
        self,
        n: int,
        replies: list[int],
        km: list[int],
        kp: list[int],
        kd: list[int],
        kt: list[int],
    ) -> None:
        """The defender's replies (the attacker has n >= 2 moves left) as
        children; a reply known to refute (with no path dependence) is
        then the only one."""
        pos = self.pos
        counts = self.counts
        res = self.res
        tt = self.tt
        nk = _NKEY[n]
        fails_ok = not self.doubled
        watch = self.watch_limit
        self._count(len(replies))
        # the first disproof number of a reply not searched yet: the number of
        # moves the attacker had before (about what it has after the reply)
        first_dn = self.breadth[(len(self.path) - 1) & 511] or 1
        hint = self.res.get(self._pkey(), 0) >> 10 or self.refuters[len(self.path) & 511]
        for d in replies:
            over = False
            if watch:
                pos.push_code(d)
                h = pos.hash
                over = self.over_limit()
                cpk = self._pkey()
                pos.pop_code()
            else:
                h = self.pos.hash_after(d)
                cpk = h
            if h in counts:
                self._repeat_child(d, n, 1, km, kp, kd, kt)
                continue
            refuted = over
            if not refuted:
                r = res.get(cpk)
                if r is not None:
                    w = r & 31
                    if w and w <= n:
                        km.append(d)
                        kp.append(0)
                        kd.append(INF)
                        kt.append(_NEVER)
                        continue
                    refuted = fails_ok and (r >> 5) & 31 >= n
            if refuted:
                km.clear()
                kp.clear()
                kd.clear()
                kt.clear()
                km.append(d)
                kp.append(INF)
                kd.append(0)
                kt.append(_NEVER)
                return
            km.append(d)
            kt.append(_NEVER)
            e = tt.get(cpk ^ nk)
            if e is None:
                kp.append(1)
                if d == hint or gives_check(pos, d):
                    kd.append(1)
                else:
                    kd.append(first_dn * OTHER_REPLY_DN)
            else:
                kp.append(e & LOW)
                kd.append(e >> SHIFT)

    def _last_reply(self, d: int) -> tuple[bool, int]:
        """The defender plays ``d`` with the attacker then one move from the
        end: does the attacker win at once, and the path index the answer
        depends on (``_NEVER``: none)."""
        c = self.enter(d)
        t = _NEVER
        if c >= 3:
            self.taint = _NEVER
            won = self.judge_repetition()
            t = self.taint
            self.taint = _NEVER
        elif self.over_limit():
            won = False
        else:
            lost = self._cycle_lost() if c == 2 else _NEVER
            if lost != _NEVER:
                won = False
                if not self._fails(self._pkey(), 1):
                    t = lost
            else:
                cpk = self._pkey()
                self.rtaint = _NEVER
                v = self._look(cpk, 1)
                if v >= 0 and (v & LOW == 0 or v >> SHIFT == 0):
                    won = v & LOW == 0
                    t = self.rtaint
                else:
                    self.taint = _NEVER
                    move = self._finish(self.res.get(cpk, 0) >> 10)
                    t = self.taint
                    self.taint = _NEVER
                    won = move != 0
                    self._save(cpk, 1, PROVED if won else DISPROVED, t, move)
        self.leave()
        return won, t

    def _first_refutes(self, pk: int) -> bool:
        """The defender is to move, not in check, and the attacker has one
        move left: does the reply that refuted here or at this depth before
        refute again (then the node is saved as disproved, ``rtaint`` set)?
        Tried before the other replies are generated: most such nodes are
        refuted by it."""
        first = self.res.get(pk, 0) >> 10
        depth = len(self.path) & 511
        if not first:
            first = self.refuters[depth]
        pos = self.pos
        if not first or not is_pseudo_legal(pos, first) or not pos.is_legal_code(first):
            return False
        won, t = self._last_reply(first)
        if won or t < len(self.path) - 1:
            return False  # the other replies decide (a held refutation is the last resort)
        self._save(pk, 1, DISPROVED, t, first)
        self.refuters[depth] = first
        self.rtaint = t
        return True

    def _and_last(self, pk: int, replies: list[int]) -> int:
        """The defender is to move and the attacker has one move left: the
        value (proved when every reply loses at once; ``rtaint`` set)."""
        first = self.res.get(pk, 0) >> 10
        if not first:
            first = self.refuters[len(self.path) & 511]
        order = replies
        if first and first in replies:
            order = [first] + [d for d in replies if d != first]
        taint = _NEVER
        idx = len(self.path) - 1
        held = 0  # a refutation only by a ruling of a cycle begun above: the last resort
        held_taint = -1
        for d in order:
            won, t = self._last_reply(d)
            if not won:
                if t < idx:
                    if t > held_taint:
                        held = d
                        held_taint = t
                    continue
                self._save(pk, 1, DISPROVED, t, d)
                self.refuters[len(self.path) & 511] = d
                self.rtaint = t
                return DISPROVED
            if t < taint:
                taint = t
        if held:
            self._save(pk, 1, DISPROVED, held_taint, held)
            self.rtaint = held_taint
            return DISPROVED
        self._save(pk, 1, PROVED, taint, 0)
        self.rtaint = taint
        return PROVED

    # ------------------------------------------------------------------
    # df-pn

    def _mid(self, attacking: bool, n: int, thpn: int, thdn: int) -> int:
        """Search the current node (attacker to move with ``n`` moves left,
        or defender to move with the attacker's ``n`` moves left) until its
        proof number reaches ``thpn`` or its disproof number ``thdn``;
        returns pn | dn << SHIFT, and sets ``rtaint`` to the path index a
        final result depends on (``_NEVER``: none)."""
        pk = self._pkey()
        self.rtaint = _NEVER
        v = self._look(pk, n)
        if v >= 0:
            pn = v & LOW
            dn = v >> SHIFT
            if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
                return v
            self.rtaint = _NEVER
        if attacking and n == 1:
            self.taint = _NEVER
            move = self._finish(self.res.get(pk, 0) >> 10)
            taint = self.taint
            self.taint = _NEVER
            v = PROVED if move else DISPROVED
            self._save(pk, 1, v, taint, move)
            self.rtaint = taint
            return v
        km: list[int] = []
        kp: list[int] = []
        kd: list[int] = []
        kt: list[int] = []
        if attacking:
            self._expand_or(n, km, kp, kd, kt)
            child_n = n - 1
        else:
            if n == 1 and not self.pos.is_check() and self._first_refutes(pk):
                return DISPROVED
            replies, in_check, dead = legal_replies(self.pos)
            if not replies:
                # after a quiet move: the defender is stalemated
                won = terminal_status(replies, in_check, dead) in self.goal
                v = PROVED if won else DISPROVED
                self._save(pk, n, v, _NEVER, 0)
                return v
            if n == 1:
                return self._and_last(pk, replies)
            self._expand_and(n, replies, km, kp, kd, kt)
            child_n = n
        count = len(km)
        hint = self.res.get(pk, 0) >> 10
        if not hint and not attacking:
            hint = self.refuters[len(self.path) & 511]  # the last refutation at this depth
        if hint and count > 1 and km[0] != hint:
            for i in range(1, count):
                if km[i] == hint:
                    km[0], km[i] = km[i], km[0]
                    kp[0], kp[i] = kp[i], kp[0]
                    kd[0], kd[i] = kd[i], kd[0]
                    kt[0], kt[i] = kt[i], kt[0]
                    break
        # With the attacker to move the node's pn is its children's least pn
        # and its dn their sum; with the defender to move the other way round.
        # A child that decides the node only by a ruling of a cycle that
        # began above it is held back: the node is searched as if it were
        # not there, for an answer that holds on every path, and it decides
        # only when every other child went the other way.
        mins = kp if attacking else kd
        sums = kd if attacking else kp
        idx = len(self.path) - 1
        best = -1
        held = -1
        low = INF
        total = 0
        while True:
            best = -1
            held = -1
            low = INF + 1
            second = INF
            total = 0
            for i in range(count):
                x = mins[i]
                if x == 0 and kt[i] < idx:
                    if held < 0 or kt[i] > kt[held]:
                        held = i
                    continue
                if x < low:
                    second = low
                    low = x
                    best = i
                elif x < second:
                    second = x
                total += sums[i]
            if best < 0:
                break
            if total > INF:
                total = INF
            if total == 0 or low == 0:
                break
            if second > INF:
                second = INF
            if attacking:
                pn = low
                dn = total
            else:
                pn = total
                dn = low
            if pn >= thpn or dn >= thdn:
                break
            eps = second + (second >> 2) + 1
            if attacking:
                cthpn = thpn if eps > thpn else eps
                cthdn = thdn - dn + kd[best]
                if cthdn > TOP:
                    cthdn = TOP
            else:
                cthdn = thdn if eps > thdn else eps
                cthpn = thpn - pn + kp[best]
                if cthpn > TOP:
                    cthpn = TOP
            self.enter(km[best])
            r = self._mid(not attacking, child_n, cthpn, cthdn)
            self.leave()
            kp[best] = r & LOW
            kd[best] = r >> SHIFT
            kt[best] = self.rtaint
        taint = _NEVER
        move = 0
        by_one = PROVED if attacking else DISPROVED  # the node decided by one child
        by_all = DISPROVED if attacking else PROVED  # by all of them
        if best >= 0 and low == 0:
            # decided by one child: the one that depends least on the path
            mark = -1
            for i in range(count):
                if mins[i] == 0 and (mark < 0 or kt[i] > kt[mark]):
                    mark = i
            taint = kt[mark]
            move = km[mark]
            v = by_one
        elif held >= 0 and (best < 0 or total == 0):
            taint = kt[held]
            move = km[held]
            v = by_one
        elif best < 0 or total == 0:
            # decided by every child (or the attacker has no move)
            for i in range(count):
                if kt[i] < taint:
                    taint = kt[i]
            v = by_all
        elif attacking:
            v = low | total << SHIFT
        else:
            v = total | low << SHIFT
        if move and not attacking:
            self.refuters[len(self.path) & 511] = move
        self._save(pk, n, v, taint, move)
        self.rtaint = taint
        return v

    def _root(self, attacking: bool, n: int) -> bool | None:
        """df-pn's answer at the current node, or ``None`` when the path
        already holds a repeated position (a question for ``Search``)."""
        if self.doubled:
            return None
        v = self._mid(attacking, n, TOP, TOP)
        if v & LOW == 0:
            return True
        if v >> SHIFT == 0:
            return False
        raise AssertionError("df-pn stopped before a proof or a disproof")

    # ------------------------------------------------------------------
    # the questions asked by the prover

    def _share(self) -> None:
        """Pool the path-independent results of df-pn and of the exact
        search: both hold only results that are the same on every path
        without a repeated position, with the same meaning of n (attacker
        moves left) and the same keys."""
        res = self.res
        for pk, r in res.items():
            w = r & 31
            self._store(pk, w if w else _NEVER, (r >> 5) & 31, r >> 10)
        for pk, e in self.table.items():
            w, f, best = e
            r = res.get(pk, 0)
            ow = r & 31
            of = (r >> 5) & 31
            ob = r >> 10
            if w < _NEVER and (ow == 0 or w < ow):
                ow = w
            if f > of:
                of = min(f, MAX_N)
            res[pk] = ow | of << 5 | (ob or best) << 10

    def _exact(self, attacking: bool, n: int, replies: list[int]) -> bool:
        """Ask the exact search, with what df-pn knows."""
        self.fallbacks += 1
        self._share()
        if attacking:
            r = self.attack(n)
        else:
            r = self.defend(n, list(replies))
        self._share()
        return r

    def attack_dfpn(self, n: int) -> bool:
        """The attacker is to move: does it force the goal within ``n``?"""
        r = self._root(True, n)
        if r is None:
            return self._exact(True, n, [])
        return r

    def distance(self, n: int) -> int | None:
        if not self.attack_dfpn(n):
            return None
        d = n
        while d > 1 and self.attack_dfpn(d - 1):
            d -= 1
        return d

    def _replies_lose(self, c: int, n: int, replies: list[int]) -> bool:
        # a position repeated on the path before this move: a question for ``Search``
        # (entering a position for the second time counts one more)
        if self.doubled > (1 if c == 2 else 0):
            return super()._replies_lose(c, n, replies)
        if c == 2:
            if self._cycle_lost() != _NEVER:
                return False
            return self._exact(False, n, replies)
        r = self._root(False, n)
        if r is None:
            return self._exact(False, n, replies)
        return r

    def best_move(self) -> int:
        m = super().best_move()
        return m or self.res.get(self._pkey(), 0) >> 10
