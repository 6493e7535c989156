"""A proof-number prover: df-pn behind the same questions as ``Search``.

``DfpnSearch`` answers the questions the prover asks (``distance``,
``move_wins``) with depth-first proof-number search (df-pn, with the
1 + epsilon trick for the thresholds) and falls back to the exact
depth-first ``Search`` it extends whenever its answer could depend on the
path. The result is always the exact one of ``Search``.

How exactness is kept:

- A node is a position and the number of attacker moves left; the graph
  of nodes has no cycles (the count goes down), so df-pn terminates.
- Repetitions are treated by the path: a move that brings back a position
  already on the path (the puzzle's history included) is taken as a
  failure of the attacker. Proofs found this way never repeat a position,
  so the repetition rules never apply inside them and they hold on every
  path without repeated positions: they are stored as path-independent.
  A disproof that met no such cut is exact and path-independent too.
- A disproof that met a cut (possibly a repetition the rules would have
  ruled for the attacker) is *tainted*: it is kept only for the current
  top-level question, and a tainted answer at the root is never trusted:
  the question goes to the exact ``Search``.
- df-pn is not used at all when the path already holds a repeated position
  (then a third occurrence is one move away) — ``Search`` answers.
- The natural limit is handled as in ``Search``: when it is within reach
  positions are told apart by their plies without capture.

The tables are bounded by memory (``memory_mib``, default 256 MiB): three
quarters for the results, at an estimated ``ENTRY_BYTES`` each (when full,
the unfinished entries are dropped first, then everything), a quarter for
the move lists of expanded nodes (dropped when full). Results are only
lost, never wrong. The exact search's own table is bounded by its count of
entries (``search._TABLE_LIMIT``).
"""

from __future__ import annotations

from engine.position import ZOBRIST, ZOBRIST_BLACK, Position
from engine.solver.movegen import checking_moves, has_legal_move, legal_checks, legal_replies
from engine.solver.proof import SolverInputError
from engine.solver.search import _NEVER, Budget, Search, terminal_status

INF = 1 << 40
MAX_N = 31  # attacker moves left, at most (the table keys hold n in five bits)
DEFAULT_MEMORY_MIB = 256
QUIET_PN = 24  # the first proof number of a move that gives no check
ENTRY_BYTES = 200  # a dict slot, an int key and a tuple of three ints (estimated, CPython 3.11)

# A child of a node while it is being searched: [pn, dn, taint, move, fixed]
# (fixed: its value is known without searching below it).
_PN, _DN, _TAINT, _MOVE, _FIXED = 0, 1, 2, 3, 4
# kinds of an attacker move in an expansion (a positive kind: a first proof number)
_WINS, _ENDS, _LIMIT = 0, -1, -2
EXPANSION_BYTES = 8000  # one expansion, about 40 moves (measured: about 6 KB)


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
        # (position key * 32 + n) -> (pn, dn, taint generation); unfinished
        # nodes and tainted disproofs
        self.tt: dict[int, tuple[int, int, int]] = {}
        # position key -> smallest n proved / largest n disproved (clean)
        self.wins: dict[int, int] = {}
        self.fails: dict[int, int] = {}
        # position key -> the move that proved (attacker) or refuted (defender)
        self.moves: dict[int, int] = {}
        # position key -> the attacker's moves there (``_generate_or``)
        self.expansions: dict[int, list[tuple[int, int, int, int]]] = {}
        # three quarters of the memory for the results, a quarter for the expansions
        self.entry_limit = max(1024, memory_mib * (3 << 18) // ENTRY_BYTES)
        self.expansion_limit = max(64, memory_mib * (1 << 18) // EXPANSION_BYTES)
        self.generation = 0
        self.fallbacks = 0  # questions handed to the exact search
        self.purges = 0  # times the table was full

    # ------------------------------------------------------------------
    # table

    def _pkey(self) -> int:
        pos = self.pos
        return pos.hash if not self.watch_limit else hash((pos.hash, pos.halfmove))

    def _entries(self) -> int:
        return len(self.tt) + len(self.wins) + len(self.fails) + len(self.moves)

    def _make_room(self) -> None:
        self.purges += 1
        self.tt.clear()
        if self._entries() > self.entry_limit // 2:
            self.wins.clear()
            self.fails.clear()
            self.moves.clear()

    def _look(self, pk: int, n: int) -> tuple[int, int, int] | None:
        w = self.wins.get(pk)
        if w is not None and w <= n:
            return (0, INF, 0)
        f = self.fails.get(pk)
        if f is not None and f >= n:
            return (INF, 0, 0)
        e = self.tt.get(pk * 32 + n)
        if e is None:
            return None
        if e[1] == 0 and e[2] and e[2] != self.generation:
            return None  # a tainted disproof of an earlier question
        return e

    def _save(self, pk: int, n: int, pn: int, dn: int, taint: int, move: int) -> None:
        if self._entries() >= self.entry_limit:
            self._make_room()
        if pn == 0:
            w = self.wins.get(pk)
            if w is None or n < w:
                self.wins[pk] = n
                if move:
                    self.moves[pk] = move
            self.tt.pop(pk * 32 + n, None)
        elif dn == 0 and not taint:
            f = self.fails.get(pk)
            if f is None or n > f:
                self.fails[pk] = n
                if move and pk not in self.wins:
                    self.moves[pk] = move
            self.tt.pop(pk * 32 + n, None)
        else:
            self.tt[pk * 32 + n] = (pn, dn, taint)

    # ------------------------------------------------------------------
    # df-pn

    def _expand_or(self, n: int) -> list[list[int]]:
        """The attacker's moves (n >= 2 left) as children: the checks with
        their replies counted (the fewest first), the other moves without
        generating the replies (they cannot mate; ``QUIET_PN`` as if they
        left that many). What does not depend on the path (the moves, the
        positions they lead to, game ends) is kept in ``expansions``."""
        pk = self._pkey()
        moves = self.expansions.get(pk)
        if moves is None:
            moves = self._generate_or()
            if len(self.expansions) >= self.expansion_limit:
                self.expansions.clear()
            self.expansions[pk] = moves
        self._count(len(moves))
        counts = self.counts
        gen = self.generation
        look = self._look
        kids: list[list[int]] = []
        for m, h, cpk, kind in moves:
            if kind == _WINS:
                return [[0, INF, 0, m, 1]]
            if kind == _ENDS:
                kids.append([INF, 0, 0, m, 1])
            elif counts.get(h, 0):
                kids.append([INF, 0, gen, m, 1])
            elif kind == _LIMIT:
                kids.append([INF, 0, 0, m, 1])
            else:
                e = look(cpk, n - 1)
                if e is None:
                    kids.append([kind, 1, 0, m, 0])
                else:
                    kids.append([e[0], e[1], e[2], m, 1 if (e[0] == 0 or e[1] == 0) else 0])
        return kids

    def _generate_or(self) -> list[tuple[int, int, int, int]]:
        """(move, hash, key, kind) of the attacker's moves: ``kind`` is
        ``_WINS`` (ends the game with the goal: the only entry then),
        ``_ENDS`` (ends it otherwise), ``_LIMIT`` (reaches the natural
        limit) or the child's first proof number."""
        pos = self.pos
        push = pos.push_code
        pop = pos.pop_code
        goal = self.goal
        if self.checks_only:
            checks = legal_checks(pos)
            quiet: list[int] = []
        else:
            legal = pos.legal_codes()
            checks = checking_moves(pos, legal)
            check_set = set(checks)
            quiet = [m for m in legal if m not in check_set]
        out: list[tuple[int, int, int, int]] = []
        for m in checks:
            push(m)
            replies, in_check, dead = legal_replies(pos)
            if not replies:
                pop()
                if terminal_status(replies, in_check, dead) in goal:
                    return [(m, 0, 0, _WINS)]
                out.append((m, 0, 0, _ENDS))
                continue
            out.append(self._or_child(m, len(replies)))
            pop()
        if not self.quiet_can_end:
            after = self._after
            out.extend(after(m) for m in quiet)
            return out
        for m in quiet:
            push(m)
            if not has_legal_move(pos):
                pop()
                return [(m, 0, 0, _WINS)]  # stalemate, and the goal is ``win``
            out.append(self._or_child(m, QUIET_PN))
            pop()
        return out

    def _after(self, m: int) -> tuple[int, int, int, int]:
        """``_or_child`` of a move that gives no check, without playing it:
        the hash and plies without capture it leads to, as ``push_code`` makes
        them."""
        pos = self.pos
        changes, _ = pos.effects(m)
        h = pos.hash
        for sq, before, after in changes:
            if before:
                h ^= ZOBRIST[before][sq]
            if after:
                h ^= ZOBRIST[after][sq]
        h ^= ZOBRIST_BLACK
        if not self.watch_limit:
            return (m, h, h, QUIET_PN)
        halfmove = 0 if pos.board[m & 255] else pos.halfmove + 1
        kind = _LIMIT if halfmove >= self.halfmove_limit else QUIET_PN
        return (m, h, hash((h, halfmove)), kind)

    def _or_child(self, m: int, pn: int) -> tuple[int, int, int, int]:
        """The entry of attacker move ``m`` (just played, the defender has
        a move) with ``pn`` as its first proof number."""
        kind = _LIMIT if self.over_limit() else pn
        return (m, self.pos.hash, self._pkey(), kind)

    def _expand_and(self, n: int, replies: list[int]) -> tuple[list[int], list[list[int]]]:
        """The defender's replies (the attacker has n >= 2 moves left), and
        the cut ones apart: a reply that repeats a position of the path
        escapes only by the cut, so the node is searched as if it had not
        been played and its disproof, if it comes to that, is tainted."""
        pos = self.pos
        push = pos.push_code
        pop = pos.pop_code
        counts = self.counts
        self._count(len(replies))
        kids: list[list[int]] = []
        cut: list[int] = []
        for d in replies:
            push(d)
            if counts.get(pos.hash, 0):
                pop()
                cut.append(d)
                continue
            if self.over_limit():
                pop()
                return cut, [[INF, 0, 0, d, 1]]
            e = self._look(self._pkey(), n)
            pop()
            if e is None:
                kids.append([1, 1, 0, d, 0])
            else:
                if e[1] == 0 and not e[2]:
                    return cut, [[e[0], e[1], e[2], d, 1]]
                kids.append([e[0], e[1], e[2], d, 1 if e[0] == 0 else 0])
        return cut, kids

    def _and_last(self, replies: list[int]) -> tuple[int, int]:
        """The defender is to move and the attacker has one move left:
        (1 if every reply loses at once else 0, the refutation)."""
        pos = self.pos
        push = pos.push_code
        pop = pos.pop_code
        counts = self.counts
        gen = self.generation
        pk = self._pkey()
        first = self.moves.get(pk, 0)
        order = list(replies)
        if first and first in order:
            order.remove(first)
            order.insert(0, first)
        cut = 0
        for d in order:
            push(d)
            if counts.get(pos.hash, 0):
                pop()
                cut = d
                continue
            if self.over_limit():
                pop()
                self._save(pk, 1, INF, 0, 0, d)
                return 0, 0
            cpk = self._pkey()
            e = self._look(cpk, 1)
            if e is not None and (e[0] == 0 or e[1] == 0):
                won = e[0] == 0
            else:
                move = self._finish(self.moves.get(cpk, 0))
                won = move != 0
                self._save(cpk, 1, 0 if won else INF, INF if won else 0, 0, move)
            pop()
            if not won:
                self._save(pk, 1, INF, 0, 0, d)
                return 0, 0
        if cut:
            self._save(pk, 1, INF, 0, gen, cut)
            return 0, gen
        self._save(pk, 1, 0, INF, 0, 0)
        return 1, 0

    def _mid(
        self, attacking: bool, n: int, thpn: int, thdn: int, give_up: bool = False
    ) -> tuple[int, int, int]:
        """Search the current node (attacker to move with ``n`` moves left,
        or defender to move with the attacker's ``n`` moves left) until its
        proof number reaches ``thpn`` or its disproof number ``thdn``;
        returns (pn, dn, taint). ``give_up`` (attacker to move): stop, the
        node undecided, as soon as a move is disproved only with a taint
        (then the node's disproof could only be tainted too)."""
        pk = self._pkey()
        e = self._look(pk, n)
        if e is not None and (e[0] >= thpn or e[1] >= thdn or e[0] == 0 or e[1] == 0):
            return e
        if attacking and n == 1:
            move = self._finish(self.moves.get(pk, 0))
            r = (0, INF, 0) if move else (INF, 0, 0)
            self._save(pk, 1, r[0], r[1], 0, move)
            return r
        cut: list[int] = []
        if attacking:
            kids = self._expand_or(n)
        else:
            replies, in_check, dead = legal_replies(self.pos)
            if not replies:
                # after a quiet move: the defender is stalemated
                won = terminal_status(replies, in_check, dead) in self.goal
                r = (0, INF, 0) if won else (INF, 0, 0)
                self._save(pk, n, r[0], r[1], 0, 0)
                return r
            if n == 1:
                won1, taint = self._and_last(replies)
                return (0, INF, 0) if won1 else (INF, 0, taint)
            cut, kids = self._expand_and(n, replies)
        best_first = self.moves.get(pk, 0)
        if best_first and len(kids) > 1:
            for i, k in enumerate(kids):
                if k[_MOVE] == best_first:
                    kids.insert(0, kids.pop(i))
                    break
        enter = self.enter
        leave = self.leave
        while True:
            pn, dn, taint, move, best, second = _summary(attacking, kids)
            if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
                break
            if give_up and any(k[_DN] == 0 and k[_TAINT] for k in kids):
                break
            child = kids[best]
            if attacking:
                cthpn = min(thpn, second + (second >> 2) + 1)
                cthdn = min(INF, thdn - dn + child[_DN])
            else:
                cthdn = min(thdn, second + (second >> 2) + 1)
                cthpn = min(INF, thpn - pn + child[_PN])
            enter(child[_MOVE])
            try:
                r = self._mid(not attacking, n - 1 if attacking else n, cthpn, cthdn)
            finally:
                leave()
            child[_PN], child[_DN], child[_TAINT] = r
            if r[0] == 0 or r[1] == 0:
                child[_FIXED] = 1
        if cut and pn == 0:
            # every other reply loses: the cut one is the escape
            pn, dn, taint, move = INF, 0, self.generation, cut[0]
        self._save(pk, n, pn, dn, taint, move)
        return (pn, dn, taint)

    def _root(self, attacking: bool, n: int, give_up: bool = False) -> bool | None:
        """df-pn's exact answer at the current node, or ``None`` when it
        could depend on the path (or ``give_up`` saw that it would)."""
        if self.doubled:
            return None
        self.generation += 1
        pn, dn, taint = self._mid(attacking, n, INF, INF, give_up)
        if pn == 0:
            return True
        if dn == 0 and not taint:
            return False
        return None

    # ------------------------------------------------------------------
    # the questions asked by the prover

    def _share(self) -> None:
        """Pool the clean results of df-pn and of the exact search: both
        hold only results that are the same on every path without a
        repeated position, with the same meaning of n (attacker moves left)
        and the same keys."""
        table = self.table
        store = self._store
        for pk, n in self.wins.items():
            store(pk, n, 0, self.moves.get(pk, 0))
        for pk, n in self.fails.items():
            if pk not in self.wins:
                store(pk, _NEVER, n, self.moves.get(pk, 0))
            else:
                store(pk, _NEVER, n, 0)
        wins = self.wins
        fails = self.fails
        for pk, (w, f, _) in table.items():
            if w < _NEVER and w < wins.get(pk, _NEVER):
                wins[pk] = w
            if f > fails.get(pk, 0):
                fails[pk] = min(f, MAX_N)

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

    def attack_dfpn(self, n: int, expect_failure: bool = False) -> bool:
        """The attacker is to move: does it force the goal within ``n``?
        ``expect_failure``: a disproof is likely, so as soon as df-pn's
        could only be tainted the exact search takes the question."""
        r = self._root(True, n, expect_failure)
        if r is None:
            return self._exact(True, n, [])
        return r

    def distance(self, n: int) -> int | None:
        if not self.attack_dfpn(n):
            return None
        d = n
        while d > 1 and self.attack_dfpn(d - 1, expect_failure=True):
            d -= 1
        return d

    def move_wins(self, m: int, n: int) -> bool:
        if self.doubled or n <= 1:
            return super().move_wins(m, n)
        c = self.enter(m)
        try:
            replies, in_check, dead = legal_replies(self.pos)
            if not replies:
                return terminal_status(replies, in_check, dead) in self.goal
            if c >= 2 or self.over_limit():
                r = None
            else:
                r = self._root(False, n - 1)
            if r is None:
                if c >= 3:
                    return self.judge_repetition()
                if self.over_limit():
                    return False
                return self._exact(False, n - 1, replies)
            return r
        finally:
            self.leave()

    def best_move(self) -> int:
        m = super().best_move()
        return m or self.moves.get(self._pkey(), 0)


def _summary(attacking: bool, kids: list[list[int]]) -> tuple[int, int, int, int, int, int]:
    """(pn, dn, taint, deciding move, index of the child to search, the
    second-best child's number) of a node from its children."""
    best = -1
    first = INF + 1
    second = INF
    total = 0
    taint = 0
    if attacking:
        for i, k in enumerate(kids):
            p = k[_PN]
            if p < first:
                second = first
                first = p
                best = i
            elif p < second:
                second = p
            total += k[_DN]
            if k[_TAINT] > taint:
                taint = k[_TAINT]
        if not kids:
            return INF, 0, 0, 0, -1, INF
        if first == 0:
            return 0, INF, 0, kids[best][_MOVE], best, second
        dn = min(total, INF)
        return first, dn, taint if dn == 0 else 0, 0, best, min(second, INF)
    clean_refutation = -1
    for i, k in enumerate(kids):
        d = k[_DN]
        if d < first:
            second = first
            first = d
            best = i
        elif d < second:
            second = d
        total += k[_PN]
        if d == 0 and not k[_TAINT] and clean_refutation < 0:
            clean_refutation = i
    if first == 0:
        i = clean_refutation if clean_refutation >= 0 else best
        return INF, 0, kids[i][_TAINT], kids[i][_MOVE], i, second
    pn = min(total, INF)
    return pn, first, 0, 0, best, min(second, INF)
