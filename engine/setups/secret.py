"""The secret setups of feidan (暗布明着).

Each side arranges its own half unseen, within a few constraints, then both halves are
revealed. Under "five soldiers guard the gate" (五兵守门) every soldier stays on its start
point; under "middle soldier guards the gate" (中兵守门) only the centre soldier does, and
the other four go on the two front ranks of the side's half. A reveal where the generals
face each other or a general is in check is void and both sides set up again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from engine.errors import EngineError
from engine.setups.plum import OFFICER_LETTERS
from engine.setups.points import (
    FILES,
    HEIGHT,
    PIECE_COUNTS,
    RED_ADVISOR_POINTS,
    RED_CENTRE_SOLDIER,
    RED_ELEPHANT_POINTS,
    RED_MISSILE_BASE,
    RED_PALACE,
    RED_SOLDIER_POINTS,
    RED_SOLDIER_RANK,
    Color,
    board_fen,
    checkers,
    own_ranks,
    parse_point,
    piece_name,
    side_points,
)

SecretMethod = Literal["five_soldiers", "middle_soldier"]
SECRET_METHODS: tuple[SecretMethod, ...] = ("five_soldiers", "middle_soldier")


def _soldier_start_rank(color: Color) -> int:
    return RED_SOLDIER_RANK if color == "red" else HEIGHT - 1 - RED_SOLDIER_RANK


def _behind_soldier_rank(rank: int, color: Color) -> bool:
    start = _soldier_start_rank(color)
    return rank < start if color == "red" else rank > start


@dataclass(frozen=True)
class Violation:
    """One reason a secret half is not a legal setup.

    ``point`` is the point concerned (None for a fault of the whole half, such as a
    missing piece), ``code`` a stable identifier and ``message`` a sentence for people.
    """

    point: str | None
    code: str
    message: str


class SetupError(EngineError):
    """A secret setup broke the rules; ``violations`` lists every fault found."""

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations: tuple[Violation, ...] = tuple(violations)
        super().__init__(
            "setup.invalid",
            {
                "details": "; ".join(v.message for v in self.violations),
                "codes": ",".join(v.code for v in self.violations),
            },
        )


@dataclass(frozen=True)
class SecretReveal:
    """Two secret halves put together.

    ``fen`` is the position with Red to move. ``void`` is true when the reveal does
    not count (both sides set up again); ``reasons`` then says why, with the codes
    ``generals_facing``, ``red_in_check`` and ``black_in_check``.
    """

    fen: str
    void: bool
    reasons: tuple[str, ...] = ()


def _check_color_and_method(color: str, method: str) -> None:
    if color not in ("red", "black"):
        raise EngineError("setup.bad_colour", {"found": color})
    if method not in SECRET_METHODS:
        raise EngineError("setup.bad_method", {"known": ", ".join(SECRET_METHODS), "found": method})


def _entries(placement: Mapping[str, str] | Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    if isinstance(placement, Mapping):
        return [(str(p), str(v)) for p, v in placement.items()]
    return [(str(p), str(v)) for p, v in placement]


# The kinds that may stand only on certain points of their half: Red's points (mirrored for
# Black), the fault's code, its sentence and how the allowed points are joined in it.
_RESTRICTED_POINTS: dict[str, tuple[Iterable[str], str, str, str]] = {
    "K": (
        RED_PALACE,
        "general_outside_palace",
        "{point}: the {side} general must stand in its palace.",
        " ",
    ),
    "A": (
        RED_ADVISOR_POINTS,
        "advisor_point",
        "{point}: a {side} advisor may only stand on an advisor point ({allowed}).",
        " ",
    ),
    "B": (
        RED_ELEPHANT_POINTS,
        "elephant_point",
        "{point}: a {side} elephant may only stand on an elephant point ({allowed}).",
        " ",
    ),
    "M": (
        RED_MISSILE_BASE,
        "missile_not_in_base",
        "{point}: a {side} missile must stand in its base ({allowed}).",
        " and ",
    ),
}


def _point_violation(
    point: str, kind: str, color: Color, method: SecretMethod, rank: int
) -> Violation | None:
    """The fault of one correctly coloured piece ``kind`` (upper case) on ``point``, if any."""
    side = color.capitalize()
    name = piece_name(kind)
    if rank not in own_ranks(color):
        half = "ranks 0-4" if color == "red" else "ranks 5-9"
        return Violation(
            point,
            "not_own_half",
            f"{point}: the {side} {name} must stand on its own half ({half}).",
        )
    restricted = _RESTRICTED_POINTS.get(kind)
    if restricted is not None:
        red_points, code, sentence, joiner = restricted
        points = side_points(red_points, color)
        if point not in points:
            return Violation(
                point, code, sentence.format(point=point, side=side, allowed=joiner.join(points))
            )
    if kind == "P":
        if method == "five_soldiers" and point not in side_points(RED_SOLDIER_POINTS, color):
            allowed = " ".join(side_points(RED_SOLDIER_POINTS, color))
            return Violation(
                point,
                "soldier_not_on_start_point",
                f"{point}: with five soldiers guarding the gate every {side} soldier stays on "
                f"its start point ({allowed}).",
            )
        if method == "middle_soldier" and _behind_soldier_rank(rank, color):
            start = _soldier_start_rank(color)
            front = f"{start}-{start + 1}" if color == "red" else f"{start - 1}-{start}"
            return Violation(
                point,
                "soldier_behind_start_rank",
                f"{point}: a {side} soldier must stand on ranks {front}, never behind its start rank.",
            )
    return None


def validate_secret_half(
    color: Color,
    placement: Mapping[str, str] | Iterable[tuple[str, str]],
    method: SecretMethod,
) -> list[Violation]:
    """Every reason why ``placement`` is not a legal secret half for ``color``.

    ``placement`` maps ICCS points to FEN letters of that side (upper case for Red,
    lower case for Black); a list of (point, letter) pairs is also accepted, and
    then two pieces named on one point are reported. An empty list means the half
    is legal: exactly the twenty feidan pieces, all on the side's own half, the
    general in the palace, advisors and elephants on their points, missiles in the
    base, and the soldiers as the method requires.
    """
    _check_color_and_method(color, method)
    side = color.capitalize()
    violations: list[Violation] = []
    counts: Counter[str] = Counter()
    seen: set[str] = set()
    for raw_point, letter in _entries(placement):
        # Only ASCII names a point: "f１" (a full-width digit) or "\u212a0" (the Kelvin sign,
        # which lower-cases to "k") would otherwise name a point twice under two spellings.
        point = raw_point.strip().lower()
        square = parse_point(point) if raw_point.isascii() else None
        if square is None:
            violations.append(
                Violation(
                    raw_point,
                    "unknown_point",
                    f"{raw_point!r} is not a point of the board (a0 to k9).",
                )
            )
            continue
        if point in seen:
            violations.append(
                Violation(
                    point, "two_pieces_one_point", f"{point}: two pieces are placed on this point."
                )
            )
            continue
        seen.add(point)
        kind = letter.upper()
        if kind not in PIECE_COUNTS or len(letter) != 1:
            violations.append(
                Violation(
                    point, "unknown_piece", f"{point}: {letter!r} is not a feidan piece letter."
                )
            )
            continue
        if letter != (kind if color == "red" else kind.lower()):
            other = "Black" if color == "red" else "Red"
            violations.append(
                Violation(
                    point,
                    "wrong_color",
                    f"{point}: {letter!r} is a {other} piece; {side} uses "
                    f"{'upper' if color == 'red' else 'lower'}-case letters.",
                )
            )
            continue
        counts[kind] += 1
        fault = _point_violation(point, kind, color, method, square[1])
        if fault is not None:
            violations.append(fault)
    for kind, needed in PIECE_COUNTS.items():
        if counts[kind] != needed:
            have = counts[kind]
            violations.append(
                Violation(
                    None,
                    "wrong_piece_count",
                    f"{side} has {have} {piece_name(kind, have)}; a side has exactly "
                    f"{needed} {piece_name(kind, needed)}.",
                )
            )
    if method == "middle_soldier":
        centre = side_points((RED_CENTRE_SOLDIER,), color)[0]
        placed = dict((p.strip().lower(), v) for p, v in _entries(placement))
        if placed.get(centre) != ("P" if color == "red" else "p"):
            violations.append(
                Violation(
                    centre,
                    "centre_soldier_missing",
                    f"{centre}: with the middle soldier guarding the gate a {side} soldier must "
                    "stay on the centre file's start point.",
                )
            )
    return violations


def _combined_board(red: Mapping[str, str], black: Mapping[str, str]) -> dict[str, str]:
    board = {p.strip().lower(): v for p, v in red.items()}
    board.update({p.strip().lower(): v for p, v in black.items()})
    return board


def secret_setup_fen(red: Mapping[str, str], black: Mapping[str, str]) -> str:
    """The FEN (Red to move) of two halves put together, without checking them."""
    return board_fen(_combined_board(red, black))


def combine_secret_setups(
    red: Mapping[str, str], black: Mapping[str, str], method: SecretMethod
) -> SecretReveal:
    """Reveal two secret halves made under ``method`` and judge whether the reveal counts.

    Raises SetupError listing every fault when either half breaks the rules. The
    reveal is void when the generals face each other on an open file or either
    general is in check.
    """
    violations = validate_secret_half("red", red, method)
    violations += validate_secret_half("black", black, method)
    if violations:
        raise SetupError(violations)
    board = _combined_board(red, black)
    fen = board_fen(board)
    red_checkers, black_checkers = checkers(board)
    black_general = next(p for p, v in board.items() if v == "k")
    if black_general in red_checkers:
        return SecretReveal(fen, True, ("generals_facing",))
    reasons = tuple(
        code
        for code, found in (("red_in_check", red_checkers), ("black_in_check", black_checkers))
        if found
    )
    return SecretReveal(fen, bool(reasons), reasons)


def random_secret_half(color: Color, method: SecretMethod, rng: random.Random) -> dict[str, str]:
    """A legal secret half for ``color`` under ``method``, drawn with ``rng``.

    The constrained pieces are placed first (missiles, general, advisors, elephants,
    soldiers), then the chariots, horses, cannons and fighters on free points of the
    side's own half. Every legal half can come out.
    """
    _check_color_and_method(color, method)
    half = [f"{f}{r}" for r in own_ranks(color) for f in FILES]
    placed: dict[str, str] = {}

    def put(kind: str, candidates: Iterable[str], count: int) -> None:
        free = [p for p in candidates if p not in placed]
        for point in rng.sample(free, count):
            placed[point] = kind if color == "red" else kind.lower()

    put("M", side_points(RED_MISSILE_BASE, color), 2)
    put("K", side_points(RED_PALACE, color), 1)
    put("A", side_points(RED_ADVISOR_POINTS, color), 2)
    put("B", side_points(RED_ELEPHANT_POINTS, color), 2)
    if method == "five_soldiers":
        put("P", side_points(RED_SOLDIER_POINTS, color), 5)
    else:
        put("P", side_points((RED_CENTRE_SOLDIER,), color), 1)
        front = [p for p in half if not _behind_soldier_rank(int(p[1]), color)]
        put("P", front, 4)
    officers = [kind for kind in OFFICER_LETTERS for _ in range(2)]
    free = [p for p in half if p not in placed]
    for point, kind in zip(rng.sample(free, len(officers)), officers, strict=True):
        placed[point] = kind if color == "red" else kind.lower()
    return placed


def redraw_until_valid(
    fixed_color: Color,
    fixed_half: Mapping[str, str],
    method: SecretMethod,
    rng: random.Random,
    attempts: int = 200,
) -> tuple[dict[str, str], SecretReveal]:
    """Draw the other side's half until the reveal against ``fixed_half`` counts.

    Used when one side (the engine) sets up against a player's half. Returns the
    drawn half and the reveal. Raises SetupError if ``fixed_half`` is not legal, and
    ValueError if no valid reveal was found in ``attempts`` draws.
    """
    other: Color = "black" if fixed_color == "red" else "red"
    for _ in range(attempts):
        drawn = random_secret_half(other, method, rng)
        red, black = (fixed_half, drawn) if fixed_color == "red" else (drawn, fixed_half)
        reveal = combine_secret_setups(red, black, method)
        if not reveal.void:
            return drawn, reveal
    raise EngineError("setup.no_reveal", {"colour": fixed_color, "attempts": attempts})
