"""Precomputed move tables for a board of a given width.

A point is an int: ``rank * width + file`` with file 0 = ``a`` and rank 0 =
Red's back rank. Colour index 0 is Red, 1 is Black. Every table is built once
per board width and shared by all positions of that width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.variants import ADVISOR, ELEPHANT, FIGHTER, HORSE, KING, SOLDIER

HEIGHT = 10

# (d_file, d_rank) steps
ORTHOGONAL = ((0, 1), (0, -1), (-1, 0), (1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
HORSE_STEPS = ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1))
FIGHTER_STEPS = ((1, 3), (-1, 3), (1, -3), (-1, -3), (3, 1), (3, -1), (-3, 1), (-3, -1))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@dataclass(frozen=True)
class Geometry:
    width: int
    size: int
    # rays[sq] = four tuples of points walking up, down, left, right
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    king_moves: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    advisor_moves: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    # (to, eye)
    elephant_moves: tuple[
        tuple[tuple[tuple[int, int], ...], ...], tuple[tuple[tuple[int, int], ...], ...]
    ]
    # (to, leg)
    horse_moves: tuple[tuple[tuple[int, int], ...], ...]
    # (horse point, leg) of horses that could reach sq
    horse_attackers: tuple[tuple[tuple[int, int], ...], ...]
    # (to, leg1, leg2)
    fighter_moves: tuple[tuple[tuple[int, int, int], ...], ...]
    fighter_attackers: tuple[tuple[tuple[int, int, int], ...], ...]
    soldier_moves: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    # points from which a soldier of the colour attacks sq
    soldier_attackers: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    palace: tuple[frozenset[int], frozenset[int]]
    advisor_points: tuple[frozenset[int], frozenset[int]]
    elephant_points: tuple[frozenset[int], frozenset[int]]
    own_half: tuple[frozenset[int], frozenset[int]]
    # points on the same rank or file as sq (excluding sq)
    lines: tuple[frozenset[int], ...]
    # ray_dir[sq][p] = index of the ray of sq that passes through p
    ray_dir: tuple[dict[int, int], ...]
    # the same as one flat tuple: ray_index[sq * size + p], -1 off sq's lines
    ray_index: tuple[int, ...]
    # every step move as one flat tuple of ints for the move generator (``_leaps``)
    leaps: tuple[int, ...]

    def square(self, file: int, rank: int) -> int:
        return rank * self.width + file

    def name(self, sq: int) -> str:
        return "abcdefghijk"[sq % self.width] + str(sq // self.width)


def _leaps(
    size: int,
    king_moves: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
    advisor_moves: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
    elephant_moves: list[tuple[tuple[tuple[int, int], ...], ...]],
    horse_moves: list[tuple[tuple[int, int], ...]],
    soldier_moves: list[tuple[tuple[int, ...], ...]],
    fighter_moves: list[tuple[tuple[int, int, int], ...]],
) -> tuple[int, ...]:
    """Every step move of the pieces that do not slide, as one flat tuple of
    ints for the move generator: for piece type ``t`` of colour index ``c`` on
    point ``p``, the moves start at ``starts[(t * 2 + c) * size + p]`` and run
    to the next start, three ints each: the point moved to and the two points
    that block it when both are occupied (-1, -1 for a move nothing blocks; a
    horse's leg or an elephant's eye is given twice). The ``starts`` come
    first in the tuple, ``16 * 2 * size + 1`` of them."""
    per: list[list[tuple[int, int, int]]] = [[] for _ in range(16 * 2 * size)]
    for c in range(2):
        for p in range(size):
            at = c * size + p  # + t * 2 * size for piece type t
            per[KING * 2 * size + at] = [(to, -1, -1) for to in king_moves[c][p]]
            per[ADVISOR * 2 * size + at] = [(to, -1, -1) for to in advisor_moves[c][p]]
            per[ELEPHANT * 2 * size + at] = [(to, eye, eye) for to, eye in elephant_moves[c][p]]
            per[HORSE * 2 * size + at] = [(to, leg, leg) for to, leg in horse_moves[p]]
            per[SOLDIER * 2 * size + at] = [(to, -1, -1) for to in soldier_moves[c][p]]
            per[FIGHTER * 2 * size + at] = list(fighter_moves[p])
    starts: list[int] = []
    body: list[int] = []
    first = len(per) + 1
    for moves in per:
        starts.append(first + len(body))
        for to, l1, l2 in moves:
            body.extend((to, l1, l2))
    starts.append(first + len(body))
    return (*starts, *body)


@cache
def geometry(width: int) -> Geometry:
    size = width * HEIGHT

    def on(f: int, r: int) -> bool:
        return 0 <= f < width and 0 <= r < HEIGHT

    def sq(f: int, r: int) -> int:
        return r * width + f

    # (file, rank) of every point, in the order of the points
    coords = [(s % width, s // width) for s in range(size)]
    centre = width // 2
    palace_sets = []
    for ranks in ((0, 1, 2), (7, 8, 9)):
        palace_sets.append(
            frozenset(sq(f, r) for f in (centre - 1, centre, centre + 1) for r in ranks)
        )
    halves = (
        frozenset(sq(f, r) for f in range(width) for r in range(5)),
        frozenset(sq(f, r) for f in range(width) for r in range(5, 10)),
    )

    def mirror(points: list[tuple[int, int]]) -> tuple[frozenset[int], frozenset[int]]:
        return (
            frozenset(sq(f, r) for f, r in points),
            frozenset(sq(f, 9 - r) for f, r in points),
        )

    advisor_points = mirror(
        [(centre - 1, 0), (centre + 1, 0), (centre, 1), (centre - 1, 2), (centre + 1, 2)]
    )
    elephant_points = mirror(
        [
            (centre - 2, 0),
            (centre + 2, 0),
            (centre - 4, 2),
            (centre, 2),
            (centre + 4, 2),
            (centre - 2, 4),
            (centre + 2, 4),
        ]
    )

    rays = []
    ray_dir = []
    lines = []
    for f, r in coords:
        dirs = []
        for df, dr in ORTHOGONAL:
            ray = []
            nf, nr = f + df, r + dr
            while on(nf, nr):
                ray.append(sq(nf, nr))
                nf, nr = nf + df, nr + dr
            dirs.append(tuple(ray))
        rays.append(tuple(dirs))
        ray_dir.append({p: d for d, ray in enumerate(dirs) for p in ray})
        lines.append(frozenset(p for ray in dirs for p in ray))

    def steps_within(
        points: frozenset[int], steps: tuple[tuple[int, int], ...]
    ) -> tuple[tuple[int, ...], ...]:
        table = []
        for f, r in coords:
            table.append(
                tuple(
                    sq(f + df, r + dr)
                    for df, dr in steps
                    if on(f + df, r + dr) and sq(f + df, r + dr) in points
                )
            )
        return tuple(table)

    king_moves = (
        steps_within(palace_sets[0], ORTHOGONAL),
        steps_within(palace_sets[1], ORTHOGONAL),
    )
    advisor_moves = (
        steps_within(advisor_points[0], DIAGONAL),
        steps_within(advisor_points[1], DIAGONAL),
    )

    elephant_moves = []
    for c in range(2):
        table = []
        for f, r in coords:
            row = []
            for df, dr in DIAGONAL:
                tf, tr = f + 2 * df, r + 2 * dr
                if on(tf, tr) and sq(tf, tr) in halves[c]:
                    row.append((sq(tf, tr), sq(f + df, r + dr)))
            table.append(tuple(row))
        elephant_moves.append(tuple(table))

    horse_moves = []
    horse_attackers = []
    fighter_moves = []
    fighter_attackers = []
    for f, r in coords:
        hm = []
        ha = []
        for df, dr in HORSE_STEPS:
            if on(f + df, r + dr):
                # leg: one orthogonal step from the horse along the long side
                if abs(dr) == 2:
                    leg = sq(f, r + _sign(dr))
                    aleg = sq(f + df, r + _sign(dr))
                else:
                    leg = sq(f + _sign(df), r)
                    aleg = sq(f + _sign(df), r + dr)
                hm.append((sq(f + df, r + dr), leg))
                # a horse standing at (f+df, r+dr) moving by (-df, -dr) onto s
                ha.append((sq(f + df, r + dr), aleg))
        horse_moves.append(tuple(hm))
        horse_attackers.append(tuple(ha))
        fm = []
        fa = []
        for df, dr in FIGHTER_STEPS:
            if on(f + df, r + dr):
                if abs(dr) == 3:
                    s1 = _sign(dr)
                    legs = (sq(f, r + s1), sq(f, r + 2 * s1))
                    alegs = (sq(f + df, r + dr - s1), sq(f + df, r + dr - 2 * s1))
                else:
                    s1 = _sign(df)
                    legs = (sq(f + s1, r), sq(f + 2 * s1, r))
                    alegs = (sq(f + df - s1, r + dr), sq(f + df - 2 * s1, r + dr))
                fm.append((sq(f + df, r + dr), legs[0], legs[1]))
                fa.append((sq(f + df, r + dr), alegs[0], alegs[1]))
        fighter_moves.append(tuple(fm))
        fighter_attackers.append(tuple(fa))

    soldier_moves: list[tuple[tuple[int, ...], ...]] = []
    soldier_attackers: list[tuple[tuple[int, ...], ...]] = []
    for c, forward in ((0, 1), (1, -1)):
        moves_table: list[tuple[int, ...]] = []
        for f, r in coords:
            ahead: list[int] = []
            if on(f, r + forward):
                ahead.append(sq(f, r + forward))
            crossed = (r >= 5) if c == 0 else (r <= 4)
            if crossed:
                for df in (-1, 1):
                    if on(f + df, r):
                        ahead.append(sq(f + df, r))
            moves_table.append(tuple(ahead))
        soldier_moves.append(tuple(moves_table))
        attackers: list[list[int]] = [[] for _ in range(size)]
        for s in range(size):
            for t in moves_table[s]:
                attackers[t].append(s)
        soldier_attackers.append(tuple(tuple(a) for a in attackers))

    return Geometry(
        width=width,
        size=size,
        rays=tuple(rays),
        king_moves=king_moves,
        advisor_moves=advisor_moves,
        elephant_moves=(elephant_moves[0], elephant_moves[1]),
        horse_moves=tuple(horse_moves),
        horse_attackers=tuple(horse_attackers),
        fighter_moves=tuple(fighter_moves),
        fighter_attackers=tuple(fighter_attackers),
        soldier_moves=(soldier_moves[0], soldier_moves[1]),
        soldier_attackers=(soldier_attackers[0], soldier_attackers[1]),
        palace=(palace_sets[0], palace_sets[1]),
        advisor_points=advisor_points,
        elephant_points=elephant_points,
        own_half=halves,
        lines=tuple(lines),
        ray_dir=tuple(ray_dir),
        ray_index=tuple(ray_dir[s].get(p, -1) for s in range(size) for p in range(size)),
        leaps=_leaps(
            size,
            king_moves,
            advisor_moves,
            elephant_moves,
            horse_moves,
            soldier_moves,
            fighter_moves,
        ),
    )
