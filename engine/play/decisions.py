"""When the computer gives up or proposes a draw, and how it answers a draw offered while it
was thinking: pure functions of what its searches said (no search here, no Django).

Each of the computer's moves leaves a ``Judgement``: the score of its search, from its own
side (centipawns, or a mate: positive, it mates; negative, it is mated). The site keeps them
with the moves, so the history of a game is the list of the computer's judgements in order.

- **Resign** (``resignation``) when the game is lost beyond doubt: two searches in a row
  proved a mate against it, or ``RESIGN_AFTER`` searches in a row stood at
  ``RESIGN_BELOW`` centipawns or worse (a mate against it counts as worse).
- **Offer a draw** (``offers_draw``) when the position is dead even: its last
  ``DRAW_OFFER_AFTER`` searches all within ``DRAW_OFFER_MARGIN`` of zero, little material
  left (``DRAW_MATERIAL_AT_MOST``, see ``attacking_material``), and never within
  ``DRAW_OFFER_EVERY`` of its own moves of its last offer.
- **Take a draw** (``takes_draw``, the one line for an offer answered before its search,
  ``engine.play.accepts_draw``, and for one offered while it was thinking,
  ``accepts_offer_after_move``): when it stands at ``ACCEPT_AFTER_MOVE_BELOW`` or worse, or
  when the position is as even as it would offer a draw in: within ``DRAW_OFFER_MARGIN`` of
  zero with no more than ``DRAW_MATERIAL_AT_MOST`` of attacking material left (two bare
  generals, say, where neither side can give mate).

Every function is deterministic: the same history gives the same decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.play.evaluation import MATERIAL
from engine.variants import CANNON, CHARIOT, FIGHTER, HORSE, LETTER_OF_TYPE, MISSILE, SOLDIER

RESIGN_BELOW: Final = -1000  # about a chariot and more down, with nothing to show for it
RESIGN_AFTER: Final = 3  # searches in a row at RESIGN_BELOW or worse
MATE_PROOFS: Final = 2  # searches in a row that prove a mate against it
DRAW_OFFER_MARGIN: Final = 30  # |score| at most this: even
DRAW_OFFER_AFTER: Final = 6  # searches in a row that were even
DRAW_OFFER_EVERY: Final = 10  # of its own moves between two offers, at least
DRAW_MATERIAL_AT_MOST: Final = 1800  # both sides' attacking material together, centipawns
ACCEPT_AFTER_MOVE_BELOW: Final = -50  # the line of engine.play.DRAW_ACCEPT_BELOW

# The pieces that can give mate, by FEN letter (either case; a turncoat "+N" counts as its
# piece), worth what the evaluation's material table says: chariot, horse, cannon, soldier,
# and feidan's fighter and missile. Generals, advisors and elephants defend and are left out.
ATTACKING_VALUES: Final[dict[str, int]] = {
    LETTER_OF_TYPE[kind]: MATERIAL[kind]
    for kind in (CHARIOT, HORSE, CANNON, SOLDIER, FIGHTER, MISSILE)
}


@dataclass(frozen=True)
class Judgement:
    """What one of the computer's searches said, from the computer's side: ``score`` in
    centipawns, or ``mate`` (moves to mate; negative: it is the one mated) instead."""

    score: int | None
    mate: int | None = None

    @property
    def mated(self) -> bool:
        return self.mate is not None and self.mate < 0

    def at_most(self, centipawns: int) -> bool:
        """Is it this bad or worse? (Being mated is worse than any score.)"""
        if self.mate is not None:
            return self.mate < 0
        return self.score is not None and self.score <= centipawns


@dataclass(frozen=True)
class Resignation:
    """Why the computer resigns: ``reason`` is ``mate`` (a forced mate against it, in
    ``mate`` moves) or ``lost`` (``score`` centipawns down for ``moves`` searches)."""

    reason: str
    moves: int
    mate: int | None = None
    score: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"reason": self.reason, "moves": self.moves, "mate": self.mate, "score": self.score}


def resignation(history: Sequence[Judgement]) -> Resignation | None:
    """Does the computer resign now? ``history`` is its judgements in order, the last one the
    search it has just made for the move it would play."""
    if not history:
        return None
    last = history[-1]
    recent = history[-MATE_PROOFS:]
    if len(recent) == MATE_PROOFS and all(j.mated for j in recent):
        return Resignation("mate", MATE_PROOFS, mate=-(last.mate or 0))
    recent = history[-RESIGN_AFTER:]
    if len(recent) == RESIGN_AFTER and all(j.at_most(RESIGN_BELOW) for j in recent):
        if last.mated:
            return Resignation("mate", RESIGN_AFTER, mate=-(last.mate or 0))
        return Resignation("lost", RESIGN_AFTER, score=last.score)
    return None


def attacking_material(letters: Iterable[str]) -> int:
    """Both sides' attacking material together, in centipawns, from the FEN letters of the
    pieces on the board (``Position.pieces().values()``)."""
    return sum(ATTACKING_VALUES.get(letter.lstrip("+").lower(), 0) for letter in letters)


def offers_draw(
    history: Sequence[Judgement],
    *,
    material: int,
    moves_since_offer: int | None,
) -> bool:
    """Does the computer offer a draw after its move? ``history`` as for ``resignation``;
    ``material`` from ``attacking_material`` (after its move); ``moves_since_offer`` is how
    many of its own moves it has made since its last offer (None: it never offered)."""
    if material > DRAW_MATERIAL_AT_MOST:
        return False
    if moves_since_offer is not None and moves_since_offer < DRAW_OFFER_EVERY:
        return False
    recent = history[-DRAW_OFFER_AFTER:]
    if len(recent) < DRAW_OFFER_AFTER:
        return False
    return all(
        j.mate is None and j.score is not None and abs(j.score) <= DRAW_OFFER_MARGIN for j in recent
    )


def takes_draw(judgement: Judgement, *, material: int) -> bool:
    """Does the computer take a draw, its position judged so, with ``material`` (from
    ``attacking_material``) on the board? Yes when it stands at ``ACCEPT_AFTER_MOVE_BELOW``
    or worse (being mated included), or when the position is dead even with little
    material: the line on which it offers one itself, less the wait."""
    if judgement.at_most(ACCEPT_AFTER_MOVE_BELOW):
        return True
    return (
        material <= DRAW_MATERIAL_AT_MOST
        and judgement.mate is None
        and judgement.score is not None
        and judgement.score <= DRAW_OFFER_MARGIN
    )


def accepts_offer_after_move(judgement: Judgement, *, material: int) -> bool:
    """Does the computer take a draw the player offered while it was thinking? Answered after
    its move by the score of that move and the material left (``takes_draw``)."""
    return takes_draw(judgement, material=material)
