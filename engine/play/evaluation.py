"""The playing engine's evaluation, read from the variant table.

Nothing here asks for a variant's name. What the table says decides:

- **material** per piece type, for the types the variant has (fighter and
  missile exist only where ``piece_types`` holds them); a turncoat piece
  (``TURNCOAT`` bit) of a type the ``defection`` table lists is worth less
  to its owner, since capturing it hands it to the captor;
- **piece-square tables**, written once per piece type as a function of the
  distance from the centre file and the rank counted from the owner's side,
  so the same table serves the 9- and the 11-file board (the outer files of
  the 11-file board count as the edge); those of the pieces of traditional
  xiangqi are fitted to the master games' results (``engine.play.tuned``,
  ``bench/tune_eval.py``), material included, the others hand-written;
- **mobility** (cheap: open points along a chariot's or missile's lines, a
  horse's free legs; weighted 0 by default, since self-play preferred it off);
- **the general's safety**: enemy attackers standing in one's own half
  against the advisors and elephants left, and above all an enemy piece of
  ``dead_general_types`` (the missile) inside one's palace, a mortal danger;
- **attack power** (where ``attack_power`` is set): when both sides' totals
  are below the limit, a side that may claim a draw never scores below 0.

Material and the tables are summed incrementally by the search from the
point changes a move makes (``delta``, or the flat ``Tables.squares`` read at
the two points a move changes), so a collision, a self-destruct or a
defection is valued exactly by what it does to the board. So are the counts
the general's safety is made of (``Tables.safety``, ``safety``): with the
mobility weights at 0 (the default) the whole positional term is a function
of them and no position is scanned (``positional`` is the full scan, kept
for mobility and as the reference the counts are tested against).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from engine.geometry import geometry
from engine.play.tuned import SQUARES as TUNED_SQUARES
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
    SOLDIER,
    TURNCOAT,
    Variant,
)

# Centipawns. A soldier across the river gains its worth from the tables.
MATERIAL: dict[int, int] = {
    KING: 0,
    ADVISOR: 200,
    ELEPHANT: 200,
    HORSE: 400,
    CHARIOT: 900,
    CANNON: 450,
    SOLDIER: 100,
    FIGHTER: 500,
    MISSILE: 600,
}


@dataclass(frozen=True)
class Weights:
    """The evaluation's tunable weights (centipawns unless said otherwise).
    The defaults are the tuned ones (see README, "Playing engine")."""

    # share of its worth a turncoat piece loses to its owner
    turncoat_discount: float = 0.15
    # an enemy dead-general piece (missile) inside one's palace
    palace_intruder: int = 300
    # per own attacker in the enemy half, plus per guard (advisor, elephant) the enemy has lost
    attacker_in_half: int = 12
    attacker_per_missing_guard: int = 6
    # per open point of a chariot's or missile's lines, per free horse leg;
    # off since self-play: the version without it scored 8.5/12 in xiangqi
    mobility_line: int = 0
    mobility_leg: int = 0
    # the side to move's bonus
    tempo: int = 10
    # the piece-square tables of the general, advisor, elephant, horse, chariot, cannon and
    # soldier fitted to the master games' results (``engine.play.tuned``) instead of the
    # hand-written ones (``base_square_bonus`` and ``MATERIAL``)
    tuned_squares: bool = True


DEFAULT_WEIGHTS = Weights()
# the evaluation before the fitted tables
CLASSIC_WEIGHTS = Weights(tuned_squares=False)

ATTACKERS: Final = frozenset({HORSE, CHARIOT, CANNON, SOLDIER, FIGHTER, MISSILE})
GUARDS: Final = frozenset({ADVISOR, ELEPHANT})

# The counts ``positional`` scores the generals' safety by, packed in one int
# of 8 bits a count (a board holds far fewer than 256 pieces): each colour's
# guards, its attackers in the enemy half and, of those, its dead-general
# pieces in the enemy palace, at these bits plus 8 times the colour index.
GUARD_BITS: Final = 0
ATTACKER_BITS: Final = 16
INTRUDER_BITS: Final = 32


def base_square_bonus(kind: int, off: int, rank: int, half_width: int) -> int:
    """The table value of a piece of ``kind`` ``off`` files from the centre
    file and on ``rank`` counted from its owner's back rank."""
    central = max(0, 4 - off)  # 4 on the centre file, 0 on the 9-file edge and beyond
    edge = off >= half_width  # the outermost file of the board
    if kind == SOLDIER:
        if rank <= 4:
            return 0 if rank <= 3 else 5
        if rank == 9:
            return 20 + 3 * central
        return (60, 80, 95, 95)[rank - 5] + 6 * central - (10 if edge else 0)
    if kind == HORSE:
        adv = (-15, -5, 5, 10, 15, 25, 30, 30, 20, 5)[rank]
        return adv + 5 * central - (15 if edge else 0)
    if kind == FIGHTER:
        adv = (-10, 0, 5, 10, 15, 20, 25, 25, 20, 10)[rank]
        return adv + 4 * central - (5 if edge else 0)
    if kind == CHARIOT:
        adv = (-10, 5, 0, 5, 10, 15, 15, 20, 25, 10)[rank]
        return adv + (10 if off == 1 else 5 if off == 0 else 0)
    if kind == MISSILE:
        adv = (0, 0, 0, 5, 5, 10, 10, 15, 15, 10)[rank]
        return adv + (5 if off <= 1 else 0)
    if kind == CANNON:
        adv = (0, 0, 5, 0, 0, 5, 0, 10, 5, 10)[rank]
        return adv + (20 if off == 0 else 5 if off == 1 else 0)
    if kind == ADVISOR:
        return 10 if off == 0 and rank == 1 else 0
    if kind == ELEPHANT:
        return 10 if off == 0 and rank == 2 else (-5 if edge else 0)
    if kind == KING:
        return (10, 0, -10)[rank] - (5 if off else 0) if rank <= 2 else 0
    return 0


@dataclass(frozen=True)
class Tables:
    """Per-variant evaluation tables, indexed by board value then point."""

    # value of (board value, point) from Red's point of view: material plus table
    psq: tuple[tuple[int, ...], ...]
    # piece worth by board value (always positive; colour-blind)
    worth: tuple[int, ...]
    width: int
    # points on the board (width * 10)
    size: int
    # ``psq`` as one flat tuple: ``squares[value * size + point]``
    squares: tuple[int, ...]
    # what a piece adds to the packed safety counts (``GUARD_BITS``), by
    # ``value * size + point``
    safety: tuple[int, ...]


@cache
def tables(variant: Variant, weights: Weights = DEFAULT_WEIGHTS) -> Tables:
    w = variant.width
    size = w * 10
    centre = w // 2
    half = w // 2
    psq: list[tuple[int, ...]] = []
    worth: list[int] = []
    for value in range(64):
        kind = value & 15
        if kind not in variant.piece_types or (value & TURNCOAT and kind not in variant.defection):
            psq.append((0,) * size)
            worth.append(0)
            continue
        base = MATERIAL[kind]
        if value & TURNCOAT:
            base = round(base * (1 - weights.turncoat_discount))
        black = bool(value & BLACK)
        row = []
        tuned = TUNED_SQUARES.get(kind) if weights.tuned_squares else None
        for sq in range(size):
            f, r = sq % w, sq // w
            own_rank = 9 - r if black else r
            off = abs(f - centre)
            if tuned is not None:
                # the fitted table's last column is the board's edge: on the 11-file board
                # the edge is a file further out, and the file inside it reads column 3
                v = tuned[own_rank][4 if off >= half else min(off, 3)] - (MATERIAL[kind] - base)
            else:
                v = base + base_square_bonus(kind, off, own_rank, half)
            row.append(-v if black else v)
        psq.append(tuple(row))
        worth.append(base)
    g = geometry(w)
    safety: list[int] = []
    for value in range(64):
        kind = value & 15
        ci = value >> 5 & 1
        for sq in range(size):
            counts = 0
            if value:
                if kind in GUARDS:
                    counts += 1 << (GUARD_BITS + 8 * ci)
                if kind in ATTACKERS and sq in g.own_half[ci ^ 1]:
                    counts += 1 << (ATTACKER_BITS + 8 * ci)
                    if kind in variant.dead_general_types and sq in g.palace[ci ^ 1]:
                        counts += 1 << (INTRUDER_BITS + 8 * ci)
            safety.append(counts)
    return Tables(
        psq=tuple(psq),
        worth=tuple(worth),
        width=w,
        size=size,
        squares=tuple(v for row in psq for v in row),
        safety=tuple(safety),
    )


def material_and_squares(board: list[int], t: Tables) -> int:
    """Sum of material and tables, from Red's point of view."""
    psq = t.psq
    return sum(psq[v][sq] for sq, v in enumerate(board) if v)


def safety_counts(board: list[int], t: Tables) -> int:
    """The packed safety counts (``GUARD_BITS``) of a board."""
    safety = t.safety
    size = t.size
    return sum(safety[v * size + sq] for sq, v in enumerate(board) if v)


def safety(counts: int, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The generals' safety from the packed counts, from Red's point of
    view: ``positional`` when the mobility weights are 0."""
    score = 0
    for ci in (0, 1):
        attackers = counts >> (ATTACKER_BITS + 8 * ci) & 255
        intruders = counts >> (INTRUDER_BITS + 8 * ci) & 255
        missing = 4 - (counts >> (GUARD_BITS + 8 * (ci ^ 1)) & 255)
        pressure = attackers * (
            weights.attacker_in_half + weights.attacker_per_missing_guard * missing
        )
        part = intruders * weights.palace_intruder + pressure
        score += part if ci == 0 else -part
    return score


def delta(changes: list[tuple[int, int, int]], t: Tables) -> int:
    """How point changes (point, before, after) move that sum."""
    psq = t.psq
    d = 0
    for sq, before, after in changes:
        if before:
            d -= psq[before][sq]
        if after:
            d += psq[after][sq]
    return d


def positional(
    board: list[int],
    occupied: tuple[set[int], set[int]],
    variant: Variant,
    weights: Weights = DEFAULT_WEIGHTS,
) -> int:
    """Mobility and the generals' safety, from Red's point of view."""
    g = geometry(variant.width)
    halves = g.own_half
    palace = g.palace
    rays = g.rays
    horse_moves = g.horse_moves
    dead_types = variant.dead_general_types
    mobility_line = weights.mobility_line
    mobility_leg = weights.mobility_leg
    guards = [0, 0]
    for ci in (0, 1):
        for sq in occupied[ci]:
            if board[sq] & 15 in GUARDS:
                guards[ci] += 1
    score = 0
    for ci in (0, 1):
        attackers = 0
        mob = 0
        intruders = 0
        enemy_half = halves[ci ^ 1]
        enemy_palace = palace[ci ^ 1]
        for sq in occupied[ci]:
            kind = board[sq] & 15
            if kind in ATTACKERS and sq in enemy_half:
                attackers += 1
                if kind in dead_types and sq in enemy_palace:
                    intruders += 1
            if not (mobility_line or mobility_leg):
                continue
            if kind in (CHARIOT, MISSILE):
                for ray in rays[sq]:
                    for s in ray:
                        if board[s]:
                            break
                        mob += mobility_line
            elif kind == HORSE:
                for _to, leg in horse_moves[sq]:
                    if not board[leg]:
                        mob += mobility_leg
        # this side's pressure on the other general: attackers across the
        # river count more for every guard the other side has lost
        missing = 4 - guards[ci ^ 1]
        pressure = attackers * (
            weights.attacker_in_half + weights.attacker_per_missing_guard * missing
        )
        part = mob + intruders * weights.palace_intruder + pressure
        score += part if ci == 0 else -part
    return score


def attack_power_clamp(score: int, board: list[int], variant: Variant, side_bit: int) -> int:
    """Clamp ``score`` (side to move's view) by the attack-power draw claim:
    a side that may claim a draw never stands below 0."""
    values = variant.attack_power
    if not values:
        return score
    red = black = 0
    for v in board:
        if v:
            p = values.get(v & 15, 0)
            if v & BLACK:
                black += p
            else:
                red += p
    limit = variant.attack_power_limit
    if red >= limit or black >= limit:
        return score
    mine, theirs = (black, red) if side_bit else (red, black)
    if mine >= theirs and score < 0:
        score = 0
    if theirs >= mine and score > 0:
        score = 0
    return score
