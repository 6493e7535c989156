"""How a game ends: mate, stalemate, dead general, and the rules that need
the move history (repetition, perpetual check and chase, the natural limit,
xinban's forced variation and attack-power draw claims)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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
)
from engine.vocab import TERMINATIONS as TERMINATIONS  # every termination (docs/rules.md §7)

if TYPE_CHECKING:
    from engine.position import Position

# Values for judging a chase (docs/rules.md §8.3: chariot 9 > missile 6 > fighter 5 >
# cannon 4.5 > horse 4 > advisor 2 = elephant 2 > soldier 1).
CHASE_VALUE = {
    CHARIOT: 9.0,
    MISSILE: 6.0,
    FIGHTER: 5.0,
    CANNON: 4.5,
    HORSE: 4.0,
    ADVISOR: 2.0,
    ELEPHANT: 2.0,
    SOLDIER: 1.0,
}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``termination`` and ``winner`` (``None`` for a draw)."""

    termination: str
    winner: str | None

    def result(self) -> str:
        return {"red": "1-0", "black": "0-1", None: "1/2-1/2"}[self.winner]


def _other(colour: str) -> str:
    return "black" if colour == "red" else "red"


def outcome(pos: Position) -> Outcome | None:
    """The board outcome first (mate, stalemate, dead general), then the
    outcomes that need the move history."""
    status = pos.status()
    if status != "ongoing":
        return Outcome(status, _other(pos.turn))
    repeated = repetition_outcome(pos)
    if repeated is not None:
        return repeated
    if pos.halfmove >= pos.variant.natural_limit_plies:
        return Outcome("natural_limit", None)
    return None


def hash_history(pos: Position) -> list[int]:
    """The hash of every position of the game, the current one last."""
    return pos.hash_history()


def repetition_span(pos: Position) -> int | None:
    """If the current position has just occurred for the third time, the
    number of plies since its first occurrence; otherwise ``None``."""
    history = hash_history(pos)
    current = history[-1]
    seen = [i for i, h in enumerate(history) if h == current]
    if len(seen) < 3:
        return None
    return len(history) - 1 - seen[-3]


def ply_flags(pos: Position, span: int) -> list[tuple[bool, bool]]:
    """For each of the last ``span`` plies, (gave check, chased)."""
    replay = pos.copy()
    undone = [replay.pop_code() for _ in range(span)]
    flags = []
    for m in reversed(undone):
        chased = _chases(replay, m)
        replay.push_code(m)
        flags.append((replay.is_check(), chased))
    return flags


def repetition_outcome(pos: Position) -> Outcome | None:
    span = repetition_span(pos)
    if span is None:
        return None
    return judge_cycle(pos, span)


def judge_cycle(pos: Position, span: int) -> Outcome:
    """Judge the cycle of the last ``span`` plies, which brought back the
    current position (docs/rules.md §8): one-sided perpetual check, then
    one-sided perpetual chase, lose; in a variant with forced variation the
    side that completed the cycle loses unless its move was forced;
    otherwise a draw. The rules ask at the position's third occurrence; the
    searches ask at its second, for the ruling it would get if it came
    round once more."""
    flags = ply_flags(pos, span)
    last_mover = _other(pos.turn)
    # plies alternate; the last ply was played by last_mover
    movers = [last_mover if (span - 1 - i) % 2 == 0 else pos.turn for i in range(span)]
    for flag, termination in ((0, "perpetual_check"), (1, "perpetual_chase")):
        every = {
            c: all(f[flag] for f, m in zip(flags, movers, strict=True) if m == c)
            for c in ("red", "black")
        }
        if every["red"] != every["black"]:
            return Outcome(termination, "black" if every["red"] else "red")
        if every["red"]:
            break  # both sides checked throughout: no chase is judged
    if pos.variant.repetition_rule == "forced_variation":
        before = pos.copy()
        before.pop_code()
        if len(before.legal_codes()) > 1:
            return Outcome("forced_variation", pos.turn)
    return Outcome("repetition", None)


def _attack_pairs(pos: Position, colour_bit: int) -> set[tuple[int, int]]:
    """(attacker point, target point) for every capture the side
    ``colour_bit`` could make by its pieces' capture rules, by pieces that
    may be judged as chasing (not general, not soldier), of targets that are
    not the general. A missile's base-to-base move that would only destroy
    itself attacks nothing (docs/rules.md §8.4, chase with missiles). Whether the side is in check does not matter: an attack
    that stands while the other side answers a check is not new."""
    flipped = pos.side != colour_bit
    if flipped:
        pos.push_pass()
    try:
        b = pos.board
        self_destructs = pos.variant.base_self_destruct
        pairs = set()
        for m in pos.pseudo_codes():
            fr, to = m >> 8, m & 255
            target = b[to]
            if target and b[fr] & 15 not in (KING, SOLDIER) and target & 15 != KING:
                if (
                    self_destructs
                    and b[fr] & 15 == MISSILE
                    and target & 15 == MISSILE
                    and pos.effects(m)[1] == "self_destruct"
                ):
                    continue  # base to base: the attacker alone would vanish
                pairs.add((fr, to))
        return pairs
    finally:
        if flipped:
            pos.pop_code()


def _protected(pos: Position, attacker: int, target: int) -> bool:
    """After ``attacker`` takes ``target`` (the attacker's side to move), can
    the other side legally recapture on that point?"""
    m = attacker << 8 | target
    if pos.effects(m)[1] == "collision":
        return True  # a trade (docs/rules.md §8.4, chase with missiles): the target counts as protected
    pos.push_code(m)
    try:
        return any(m & 255 == target for m in pos.legal_codes())
    finally:
        pos.pop_code()


def _chases(pos: Position, m: int) -> bool:
    """Does move ``m`` (legal in ``pos``) chase? A new attack by a piece
    other than general or soldier on a piece other than the general, whose
    target is unprotected or worth more than the attacker."""
    mover = pos.side
    fr, to = m >> 8, m & 255
    before = {(to if a == fr else a, t) for a, t in _attack_pairs(pos, mover)}
    pos.push_code(m)
    try:
        after = _attack_pairs(pos, mover)
        fresh = after - before
        if not fresh:
            return False
        b = pos.board
        for a, t in fresh:
            attacker_value = CHASE_VALUE.get(b[a] & 15, 0.0)
            target_value = CHASE_VALUE.get(b[t] & 15, 0.0)
            if target_value > attacker_value:
                return True
            pos.push_pass()
            try:
                protected = _protected(pos, a, t)
            finally:
                pos.pop_code()
            if not protected:
                return True
        return False
    finally:
        pos.pop_code()


def attack_power(pos: Position, colour: str) -> int:
    """The xinban attack power of one side (0 where the variant has none)."""
    values = pos.variant.attack_power
    bit = BLACK if colour == "black" else 0
    return sum(values.get(v & 15, 0) for v in pos.board if v and v & BLACK == bit)


def can_claim_draw(pos: Position, colour: str) -> bool:
    """May ``colour`` declare a draw by attack power (xinban)? Both totals
    must be below the limit, and the claimant's at least the other's."""
    if not pos.variant.attack_power:
        return False
    mine = attack_power(pos, colour)
    theirs = attack_power(pos, _other(colour))
    limit = pos.variant.attack_power_limit
    return mine < limit and theirs < limit and mine >= theirs
