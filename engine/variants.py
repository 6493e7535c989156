"""Each variant as a table of properties.

Move generation never asks which variant it is playing; it reads the table:
board size, which piece letters exist, which pieces collide, which captured
pieces defect and to whom, how repetitions end, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from engine.errors import EngineError, UnknownVariantError

# Piece type codes (the low four bits of a board value). ``Final``: the
# compiled modules read them as constants, not as module attributes.
KING: Final = 1
ADVISOR: Final = 2
ELEPHANT: Final = 3
HORSE: Final = 4
CHARIOT: Final = 5
CANNON: Final = 6
SOLDIER: Final = 7
FIGHTER: Final = 8
MISSILE: Final = 9
TURNCOAT: Final = 16  # flag bit: a turncoat ("new rule") piece of xinban
BLACK: Final = 32  # colour bit: set for Black's pieces; Red's pieces have it clear
TYPE_MASK: Final = 15

LETTER_OF_TYPE = {
    KING: "k",
    ADVISOR: "a",
    ELEPHANT: "b",
    HORSE: "n",
    CHARIOT: "r",
    CANNON: "c",
    SOLDIER: "p",
    FIGHTER: "f",
    MISSILE: "m",
}
TYPE_OF_LETTER = {letter: kind for kind, letter in LETTER_OF_TYPE.items()}
# Letters accepted on input besides ours (the common western letters of
# other xiangqi tools): h = horse, e = elephant.
TYPE_OF_LETTER_ALIASES = {"h": HORSE, "e": ELEPHANT}

ENGLISH_NAME = {
    KING: "general",
    ADVISOR: "advisor",
    ELEPHANT: "elephant",
    HORSE: "horse",
    CHARIOT: "chariot",
    CANNON: "cannon",
    SOLDIER: "soldier",
    FIGHTER: "fighter",
    MISSILE: "missile",
}


@dataclass(frozen=True, eq=False)
class Variant:
    """Everything the rules of one variant depend on."""

    name: str
    title_en: str
    title_zh: str
    width: int
    height: int
    # Piece types that exist in this variant.
    piece_types: frozenset[int]
    # Named start positions; the first is the default.
    starts: tuple[tuple[str, str], ...]
    # May pieces carry the turncoat mark?
    turncoats: bool = False
    # Captured turncoat type -> captor types that make it defect.
    defection: dict[int, frozenset[int]] = field(default_factory=dict)
    # The other reading of the defection rule: defect only when the defected
    # piece gives check on the spot.
    defection_requires_check: bool = False
    # Pieces that destroy themselves with what they hit (and with what hits them).
    colliding_types: frozenset[int] = frozenset()
    # Captor types that take a colliding piece and survive.
    collision_survivors: frozenset[int] = frozenset()
    # Piece types the general may never move onto.
    untouchable_by_general: frozenset[int] = frozenset()
    # Base points of each side's missiles (file, rank); a base-to-base hit
    # self-destructs the attacker.
    base_points: tuple[tuple[int, int], ...] = ()
    base_self_destruct: bool = False
    # Checking types that, standing inside the defender's palace, must be
    # evaded by the general alone or the game is lost (dead general).
    dead_general_types: frozenset[int] = frozenset()
    # "draw" or "forced_variation" (the side completing a repetition loses).
    repetition_rule: str = "draw"
    # Attack-power values for draw claims; empty when the variant has none.
    attack_power: dict[int, int] = field(default_factory=dict)
    attack_power_limit: int = 10
    natural_limit_plies: int = 120

    @property
    def files(self) -> str:
        return "abcdefghijk"[: self.width]

    @property
    def palace_files(self) -> tuple[int, int, int]:
        centre = self.width // 2
        return (centre - 1, centre, centre + 1)

    @property
    def default_start(self) -> str:
        return self.starts[0][1]

    def start_fen(self, setup: str | None = None) -> str:
        if setup is None:
            return self.default_start
        for name, fen in self.starts:
            if name == setup:
                return fen
        names = ", ".join(name for name, _ in self.starts)
        raise EngineError(
            "variant.unknown_start", {"setup": setup, "variant": self.name, "known": names}
        )

    def with_changes(self, **changes: object) -> Variant:
        """A copy of this table with some properties changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"find_variant({self.name!r})"


XIANGQI_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

TRADITIONAL_TYPES = frozenset({KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER})

XIANGQI = Variant(
    name="xiangqi",
    title_en="Xiangqi",
    title_zh="中国象棋",
    width=9,
    height=10,
    piece_types=TRADITIONAL_TYPES,
    starts=(("standard", XIANGQI_START),),
)

FEIDAN = XIANGQI.with_changes(
    name="feidan",
    title_en="Missile Xiangqi",
    title_zh="中国飞弹象棋",
    width=11,
    piece_types=TRADITIONAL_TYPES | {FIGHTER, MISSILE},
    starts=(
        (
            "standard",
            "mrnbakabnrm/11/f1c5c1f/1p1p1p1p1p1/11/11/1P1P1P1P1P1/F1C5C1F/11/MRNBAKABNRM w - - 0 1",
        ),
    ),
    colliding_types=frozenset({MISSILE}),
    collision_survivors=frozenset({CANNON}),
    untouchable_by_general=frozenset({MISSILE}),
    base_points=((0, 0), (10, 0), (0, 9), (10, 9)),
    base_self_destruct=True,
    dead_general_types=frozenset({MISSILE}),
)

_NEW_RED = "1+C5+C1/9/+R+NBAKAB+N+R"
_NEW_BLACK = "+r+nbakab+n+r/9/1+c5+c1"
_OLD_RED = "1C5C1/9/RNBAKABNR"
_OLD_BLACK = "rnbakabnr/9/1c5c1"
_MIDDLE = "p1p1p1p1p/9/9/P1P1P1P1P"

XINBAN = XIANGQI.with_changes(
    name="xinban",
    title_en="New-version Xiangqi",
    title_zh="新版中国象棋",
    starts=(
        ("new", f"{_NEW_BLACK}/{_MIDDLE}/{_NEW_RED} w - - 0 1"),
        ("traditional", XIANGQI_START),
        ("red-new", f"{_OLD_BLACK}/{_MIDDLE}/{_NEW_RED} w - - 0 1"),
        ("black-new", f"{_NEW_BLACK}/{_MIDDLE}/{_OLD_RED} w - - 0 1"),
    ),
    turncoats=True,
    defection={
        CHARIOT: frozenset({ADVISOR, ELEPHANT, HORSE, CANNON, SOLDIER}),
        HORSE: frozenset({CHARIOT, CANNON, SOLDIER}),
        CANNON: frozenset({KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, SOLDIER}),
    },
    repetition_rule="forced_variation",
    attack_power={CHARIOT: 7, HORSE: 4, CANNON: 3, SOLDIER: 2},
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (XIANGQI, FEIDAN, XINBAN)}


def find_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (or ``name`` itself if it is a Variant)."""
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise UnknownVariantError(name) from None
