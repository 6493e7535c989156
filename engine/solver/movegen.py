"""Move generation tuned for the prover: checking moves and check evasions.

A problem solver spends most of its time on two questions: "which of my
moves give check?" and "can the side in check get out of it?". Both are
answered here without playing every move of the position:

- a move can change whether a general is attacked only if it leaves or
  lands on a point of that general's *relevance set* (its rank and file,
  the points a horse, fighter or soldier would attack it from, and the legs
  between); only those moves are tried;
- a side in check can only answer by moving its general, or by landing on
  a checker, on a point between a line checker and the general, or on a
  horse's or fighter's leg, or by moving a cannon's screen away. Only those
  moves are generated, each then tested for legality by the engine.

Both give exactly the engine's answers (the tests compare them with
``Position.legal_codes`` on many positions of every variant).
"""

from __future__ import annotations

from functools import cache
from typing import Final

from engine.geometry import Geometry, geometry
from engine.position import Position
from engine.variants import (
    ADVISOR,
    BLACK,
    CANNON,
    CHARIOT,
    ELEPHANT,
    FIGHTER,
    HORSE,
    KING,
    MISSILE,
    PIECE_MASK,
    SOLDIER,
)

_MASK: Final = PIECE_MASK  # colour + type, turncoat bit ignored
_LINE_TYPES: Final = (CHARIOT, MISSILE, CANNON, KING)


@cache
def relevance(width: int, ksq: int, enemy_ci: int) -> frozenset[int]:
    """Every point whose contents can decide whether a piece of colour
    index ``enemy_ci`` attacks the general on ``ksq``."""
    g = geometry(width)
    points: set[int] = {p for ray in g.rays[ksq] for p in ray}
    for h, leg in g.horse_attackers[ksq]:
        points.add(h)
        points.add(leg)
    for f, l1, l2 in g.fighter_attackers[ksq]:
        points.update((f, l1, l2))
    points.update(g.soldier_attackers[enemy_ci][ksq])
    return frozenset(points)


def checking_moves(pos: Position, legal: list[int]) -> list[int]:
    """The moves of ``legal`` (legal moves of the side to move) that give check."""
    own = pos.side
    enemy_king = pos.kings[(own >> 5) ^ 1]
    rel = relevance(pos.width, enemy_king, own >> 5)
    out = []
    for m in legal:
        if ((m >> 8) in rel or (m & 255) in rel) and pos.attacked_after(m, enemy_king, own):
            out.append(m)
    return out


def gives_check(pos: Position, m: int) -> bool:
    """Does the legal move ``m`` of the side to move give check?"""
    own = pos.side
    enemy_king = pos.kings[(own >> 5) ^ 1]
    if (m >> 8) not in relevance(pos.width, enemy_king, own >> 5) and (m & 255) not in relevance(
        pos.width, enemy_king, own >> 5
    ):
        return False
    return pos.attacked_after(m, enemy_king, own)


def _between(g: Geometry, ksq: int, sq: int) -> tuple[int, ...] | None:
    """The points strictly between ``ksq`` and ``sq`` if they share a line."""
    for ray in g.rays[ksq]:
        if sq in ray:
            return ray[: ray.index(sq)]
    return None


def _movers_to(pos: Position, t: int, own: int, out: list[int]) -> None:
    """Append every pseudo-legal move of colour ``own`` onto point ``t``
    (the general's own moves excepted)."""
    b = pos.board
    g = pos.g
    ci = own >> 5
    target = b[t]
    if target and target & BLACK == own:
        return
    for ray in g.rays[t]:
        movers = pos.line_movers(ray, own, False, not target)
        if movers & 255 != 255:
            out.append((movers & 255) << 8 | t)
        if movers >> 8 != 255:
            out.append((movers >> 8) << 8 | t)
    horse = HORSE | own
    for h, leg in g.horse_attackers[t]:
        if b[h] & _MASK == horse and not b[leg]:
            out.append(h << 8 | t)
    soldier = SOLDIER | own
    for s in g.soldier_attackers[ci][t]:
        if b[s] & _MASK == soldier:
            out.append(s << 8 | t)
    if t in g.advisor_points[ci]:
        advisor = ADVISOR | own
        for s in g.advisor_moves[ci][t]:
            if b[s] & _MASK == advisor:
                out.append(s << 8 | t)
    if t in g.own_half[ci]:
        elephant = ELEPHANT | own
        for s, eye in g.elephant_moves[ci][t]:
            if b[s] & _MASK == elephant and not b[eye]:
                out.append(s << 8 | t)
    if pos.has_fighters:
        fighter = FIGHTER | own
        for f, l1, l2 in g.fighter_attackers[t]:
            if b[f] & _MASK == fighter and not (b[l1] and b[l2]):
                out.append(f << 8 | t)


def evasions(
    pos: Position, checkers: list[int], first_only: bool = False
) -> tuple[list[int], bool]:
    """The legal moves of the side to move, which is in check by
    ``checkers``, and whether it has a dead general (no legal move because
    its general cannot escape a missile in its palace).

    With ``first_only`` the list stops at the first legal move found.
    """
    own = pos.side
    ci = own >> 5
    ksq = pos.kings[ci]
    b = pos.board
    g = pos.g
    untouchable = pos.untouchable
    out: list[int] = []
    for to in g.king_moves[ci][ksq]:
        q = b[to]
        if q and (q & BLACK == own or q & 15 in untouchable):
            continue
        m = ksq << 8 | to
        if pos.is_legal_code(m):
            out.append(m)
            if first_only:
                return out, False
    dead_types = pos.dead_types
    if dead_types and not out:
        palace = g.palace[ci]
        if any(c in palace and b[c] & 15 in dead_types for c in checkers):
            return out, True
    targets: list[int] = []
    screens: list[int] = []
    for c in checkers:
        targets.append(c)
        t = b[c] & 15
        if t in _LINE_TYPES:
            between = _between(g, ksq, c)
            if between:
                targets.extend(between)
                if t == CANNON:
                    for s in between:
                        if b[s] and b[s] & BLACK == own:
                            screens.append(s)
        elif t == HORSE:
            for h, leg in g.horse_attackers[ksq]:
                if h == c:
                    targets.append(leg)
        elif t == FIGHTER:
            for f, l1, l2 in g.fighter_attackers[ksq]:
                if f == c:
                    targets.append(l1)
                    targets.append(l2)
    candidates: list[int] = []
    for t in set(targets):
        _movers_to(pos, t, own, candidates)
    if screens:
        for m in pos.pseudo_codes():
            if (m >> 8) in screens and (m >> 8) != ksq:
                candidates.append(m)
    seen: set[int] = set()
    for m in candidates:
        if m in seen:
            continue
        seen.add(m)
        if pos.is_legal_code(m):
            out.append(m)
            if first_only:
                return out, False
    return out, False


def legal_replies(pos: Position) -> tuple[list[int], bool, bool]:
    """The legal moves of the side to move, whether it is in check, and
    whether it has a dead general. The list must not be changed."""
    own = pos.side
    checkers = pos.attackers(pos.kings[own >> 5], own ^ BLACK)
    if checkers:
        moves, dead = evasions(pos, checkers)
        return moves, True, dead
    return pos.legal_codes(), False, False


def status_of(pos: Position) -> str:
    """checkmate | stalemate | dead_general | ongoing, like ``Position.status``
    but stopping at the first legal move."""
    own = pos.side
    checkers = pos.attackers(pos.kings[own >> 5], own ^ BLACK)
    if checkers:
        moves, dead = evasions(pos, checkers, first_only=True)
        if moves:
            return "ongoing"
        return "dead_general" if dead else "checkmate"
    return "ongoing" if pos.legal_codes() else "stalemate"


@cache
def _check_map(
    width: int, ksq: int, own_ci: int
) -> tuple[dict[int, tuple[int, int]], frozenset[int], frozenset[int], frozenset[int]]:
    """For a general on ``ksq`` attacked by colour index ``own_ci``: each
    point of its rank and file as (ray, distance - 1), and the points a
    horse, a soldier and a fighter check it from."""
    g = geometry(width)
    on_ray = {s: (r, i) for r, ray in enumerate(g.rays[ksq]) for i, s in enumerate(ray)}
    horses = frozenset(h for h, _ in g.horse_attackers[ksq])
    soldiers = frozenset(g.soldier_attackers[own_ci][ksq])
    fighters = frozenset(f for f, _, _ in g.fighter_attackers[ksq])
    return on_ray, horses, soldiers, fighters


def legal_checks(pos: Position) -> list[int]:
    """The legal checking moves of the side to move, without generating
    its other moves' legality.

    The enemy general is not in check before the move, so a check after it
    comes from the moved piece, or from a line piece, horse or fighter that
    the move uncovers (a point left on its line or leg), or from a cannon
    that the move gives a screen. Only moves that can do one of these are
    played out on the board; captures with a special effect (collision,
    defection) are always played out.
    """
    own = pos.side
    ci = own >> 5
    enemy = own ^ BLACK
    ksq = pos.kings[ci]
    if pos.cached_legal() is not None or pos.attacked(ksq, enemy):
        return checking_moves(pos, pos.legal_codes())
    enemy_king = pos.kings[ci ^ 1]
    width = pos.width
    on_ray, horse_points, soldier_points, fighter_points = _check_map(width, enemy_king, ci)
    board = pos.board
    # per ray: the farthest own line piece, the farthest own cannon; the legs of
    # own horses and fighters aimed at the general
    line_reach, cannon_reach, legs = pos.lines_and_legs(enemy_king, own)
    special = bool(pos.colliding or pos.variant.defection)
    rel = relevance(width, enemy_king, ci) if special else frozenset()
    out = []
    for m in pos.pseudo_codes():
        fr = m >> 8
        to = m & 255
        if special and board[to]:
            if fr not in rel and to not in rel:
                continue
        else:
            t = board[fr] & 15
            at = on_ray.get(to)
            if not (
                (
                    at is not None
                    and (t in (CHARIOT, CANNON, MISSILE) or at[1] < cannon_reach[at[0]])
                )
                or ((at := on_ray.get(fr)) is not None and at[1] < line_reach[at[0]])
                or fr in legs
                or (t == HORSE and to in horse_points)
                or (t == SOLDIER and to in soldier_points)
                or (t == FIGHTER and to in fighter_points)
            ):
                continue
        # a check, by a move that leaves the mover's own general safe
        if pos.attacked_after(m, enemy_king, own) and pos.is_legal_code(m):
            out.append(m)
    return out


def is_pseudo_legal(pos: Position, m: int) -> bool:
    """Is ``m`` a move of the side to move by the movement rules?"""
    fr, to = m >> 8, m & 255
    b = pos.board
    size = len(b)
    if fr >= size or to >= size:
        return False
    p = b[fr]
    own = pos.side
    if not p or p & BLACK != own:
        return False
    q = b[to]
    if q and q & BLACK == own:
        return False
    if p & 15 == KING:
        return to in pos.g.king_moves[own >> 5][fr] and not (q and q & 15 in pos.untouchable)
    out: list[int] = []
    _movers_to(pos, to, own, out)
    return m in out


def has_legal_move(pos: Position, unchecked: bool = False) -> bool:
    """Has the side to move any legal move (stops at the first found)?
    ``unchecked``: the caller knows the side to move is not in check (the
    move just played gave none), which saves looking for checkers. The
    stalemate test of both searches."""
    known = pos.cached_legal()
    if known is not None:
        return bool(known)
    if not unchecked:
        own = pos.side
        checkers = pos.attackers(pos.kings[own >> 5], own ^ BLACK)
        if checkers:
            return bool(evasions(pos, checkers, first_only=True)[0])
    # called on ``pos`` itself: a bound method kept in a local is a slow
    # generic call in the compiled build
    return any(pos.is_legal_code(m) for m in pos.pseudo_codes())
