"""Feidan setups: the plum-blossom open setup and the secret setups.

Feidan (Missile Xiangqi) can start in three ways besides the fixed start position:

* **Plum-blossom numbers (梅花易数).** The moment a game starts, read on the Chinese
  calendar, gives four numbers (year branch, lunar month, lunar day, hour branch).
  They make a hexagram, and the hexagram picks one of the 2520 ways to put the eight
  "officer" pieces (two chariots, two horses, two cannons, two fighters) on the eight
  officer points. Black mirrors Red across the river.
* **Secret setups (暗布明着).** Each side arranges its own half unseen, within a few
  constraints, then both halves are revealed. Under "five soldiers guard the gate"
  (五兵守门) every soldier stays on its start point; under "middle soldier guards the
  gate" (中兵守门) only the centre soldier does, and the other four go on the two front
  ranks of the side's half. A reveal where the generals face each other or a general
  is in check is void and both sides set up again.

Points are ICCS names on the 11-file board (``a0`` … ``k9``), pieces are FEN letters.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from math import factorial
from typing import Literal

from lunar_python import Solar  # type: ignore[import-untyped]

from engine.errors import EngineError, InvalidFenError

__all__ = [
    "ARRANGEMENT_COUNT",
    "CHINA_TIME_ZONE",
    "OFFICER_LETTERS",
    "OFFICER_POINTS",
    "SECRET_METHODS",
    "TRIGRAMS",
    "Color",
    "Hexagram",
    "PlumBlossomSetup",
    "SecretMethod",
    "SecretReveal",
    "SetupError",
    "Violation",
    "arrangement",
    "arrangement_fen",
    "arrangement_rank",
    "combine_secret_setups",
    "hexagram",
    "plum_blossom",
    "plum_blossom_from_numbers",
    "random_secret_half",
    "redraw_until_valid",
    "secret_setup_fen",
    "validate_secret_half",
]

Color = Literal["red", "black"]
SecretMethod = Literal["five_soldiers", "middle_soldier"]
SECRET_METHODS: tuple[SecretMethod, ...] = ("five_soldiers", "middle_soldier")

CHINA_TIME_ZONE = timezone(timedelta(hours=8), "UTC+8")

# ---------------------------------------------------------------------------
# Board geometry of the 11-file feidan board
# ---------------------------------------------------------------------------

FILES = "abcdefghijk"
WIDTH = len(FILES)
HEIGHT = 10
START_FEN = "mrnbakabnrm/11/f1c5c1f/1p1p1p1p1p1/11/11/1P1P1P1P1P1/F1C5C1F/11/MRNBAKABNRM w - - 0 1"

# Red's points; Black's are the same files on rank 9 - r.
_RED_PALACE = tuple(f"{f}{r}" for r in range(3) for f in "efg")
_RED_ADVISOR_POINTS = ("e0", "g0", "f1", "e2", "g2")
_RED_ELEPHANT_POINTS = ("d0", "h0", "b2", "f2", "j2", "d4", "h4")
_RED_MISSILE_BASE = ("a0", "k0")
_RED_SOLDIER_POINTS = ("b3", "d3", "f3", "h3", "j3")
_RED_CENTRE_SOLDIER = "f3"
_RED_SOLDIER_RANK = 3

#: The eight officer points of the plum-blossom setup, in the order that ranks arrangements.
OFFICER_POINTS: tuple[str, ...] = ("b0", "c0", "i0", "j0", "c2", "i2", "a2", "k2")
#: The officer pieces in their ranking order (C < F < N < R), two of each.
OFFICER_LETTERS: tuple[str, ...] = ("C", "F", "N", "R")
ARRANGEMENT_COUNT = factorial(8) // 2**4  # 2520

# Exactly how many of each piece a feidan side has (20 in all).
_PIECE_COUNTS: dict[str, int] = {
    "K": 1,
    "A": 2,
    "B": 2,
    "N": 2,
    "R": 2,
    "C": 2,
    "P": 5,
    "F": 2,
    "M": 2,
}
_PIECE_NAMES: dict[str, tuple[str, str]] = {
    "K": ("general", "generals"),
    "A": ("advisor", "advisors"),
    "B": ("elephant", "elephants"),
    "N": ("horse", "horses"),
    "R": ("chariot", "chariots"),
    "C": ("cannon", "cannons"),
    "P": ("soldier", "soldiers"),
    "F": ("fighter", "fighters"),
    "M": ("missile", "missiles"),
}


def _parse_point(point: str) -> tuple[int, int] | None:
    """Return (file, rank) of an ICCS point such as ``e0``, or None if it is not one."""
    if len(point) != 2 or point[0] not in FILES or not point[1].isdigit():
        return None
    return FILES.index(point[0]), int(point[1])


def _mirror(point: str) -> str:
    """The same file on the other side of the river (rank r becomes 9 - r)."""
    return f"{point[0]}{HEIGHT - 1 - int(point[1])}"


def _side_points(points: Iterable[str], color: Color) -> tuple[str, ...]:
    return tuple(points) if color == "red" else tuple(_mirror(p) for p in points)


def _own_ranks(color: Color) -> range:
    return range(0, 5) if color == "red" else range(5, 10)


def _soldier_start_rank(color: Color) -> int:
    return _RED_SOLDIER_RANK if color == "red" else HEIGHT - 1 - _RED_SOLDIER_RANK


def _behind_soldier_rank(rank: int, color: Color) -> bool:
    start = _soldier_start_rank(color)
    return rank < start if color == "red" else rank > start


def _board_fen(board: Mapping[str, str], side: Literal["w", "b"] = "w") -> str:
    """The FEN of a board given as point -> letter, with ``side`` to move."""
    rows = []
    for rank in range(HEIGHT - 1, -1, -1):
        row, empty = "", 0
        for file in FILES:
            letter = board.get(f"{file}{rank}")
            if letter is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + f" {side} - - 0 1"


def _start_board() -> dict[str, str]:
    board: dict[str, str] = {}
    for i, row in enumerate(START_FEN.split()[0].split("/")):
        rank, file, digits = HEIGHT - 1 - i, 0, ""
        for ch in row + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                file += int(digits)
                digits = ""
            if ch != " ":
                board[f"{FILES[file]}{rank}"] = ch
                file += 1
    return board


# ---------------------------------------------------------------------------
# Arrangements of the eight officers
# ---------------------------------------------------------------------------


def _count_arrangements(remaining: Mapping[str, int]) -> int:
    """How many distinct orders the remaining letters (a multiset) can take."""
    total = factorial(sum(remaining.values()))
    for n in remaining.values():
        total //= factorial(n)
    return total


def arrangement(index: int) -> tuple[str, ...]:
    """The officer letters of arrangement ``index`` (0 … 2519), one per officer point.

    Arrangements are numbered in lexicographic order of their letters read along
    ``OFFICER_POINTS``, with C < F < N < R. The result is computed directly (unranked),
    without listing the others.
    """
    if not 0 <= index < ARRANGEMENT_COUNT:
        raise EngineError(
            "setup.arrangement_index", {"limit": ARRANGEMENT_COUNT - 1, "value": index}
        )
    remaining = dict.fromkeys(OFFICER_LETTERS, 2)
    letters: list[str] = []
    for _ in OFFICER_POINTS:
        for letter in OFFICER_LETTERS:
            if remaining[letter] == 0:
                continue
            remaining[letter] -= 1
            block = _count_arrangements(remaining)
            if index < block:
                letters.append(letter)
                break
            index -= block
            remaining[letter] += 1
    return tuple(letters)


def arrangement_rank(letters: Iterable[str]) -> int:
    """The number of an arrangement given as eight officer letters along ``OFFICER_POINTS``.

    The inverse of ``arrangement``; raises ValueError unless the letters are exactly
    two each of C, F, N and R.
    """
    letters = tuple(letters)
    if sorted(letters) != sorted(OFFICER_LETTERS * 2):
        raise EngineError("setup.arrangement_letters", {"letters": "".join(letters)})
    remaining = dict.fromkeys(OFFICER_LETTERS, 2)
    rank = 0
    for letter in letters:
        for smaller in OFFICER_LETTERS:
            if smaller == letter:
                break
            if remaining[smaller]:
                remaining[smaller] -= 1
                rank += _count_arrangements(remaining)
                remaining[smaller] += 1
        remaining[letter] -= 1
    return rank


def _arrangement_board(index: int) -> dict[str, str]:
    board = _start_board()
    for point, letter in zip(OFFICER_POINTS, arrangement(index), strict=True):
        board[point] = letter
        board[_mirror(point)] = letter.lower()
    return board


def arrangement_fen(index: int) -> str:
    """The start FEN with Red's officers in arrangement ``index`` and Black's mirrored."""
    return _board_fen(_arrangement_board(index))


# ---------------------------------------------------------------------------
# Trigrams and hexagrams
# ---------------------------------------------------------------------------

#: The eight trigrams in the 先天 (Earlier Heaven) order; a trigram's number is its place + 1.
#: Each entry: (name, nature in a hexagram's full name, pinyin, English nature).
TRIGRAMS: tuple[tuple[str, str, str, str], ...] = (
    ("乾", "天", "Qián", "Heaven"),
    ("兑", "泽", "Duì", "Lake"),
    ("离", "火", "Lí", "Fire"),
    ("震", "雷", "Zhèn", "Thunder"),
    ("巽", "风", "Xùn", "Wind"),
    ("坎", "水", "Kǎn", "Water"),
    ("艮", "山", "Gèn", "Mountain"),
    ("坤", "地", "Kūn", "Earth"),
)
_TRIGRAM_NUMBER = {name: i + 1 for i, (name, *_rest) in enumerate(TRIGRAMS)}

# The 64 hexagrams in King Wen order: (short name, pinyin, English name, upper, lower).
_KING_WEN: tuple[tuple[str, str, str, str, str], ...] = (
    ("乾", "Qián", "The Creative", "乾", "乾"),
    ("坤", "Kūn", "The Receptive", "坤", "坤"),
    ("屯", "Zhūn", "Difficulty at the Beginning", "坎", "震"),
    ("蒙", "Méng", "Youthful Folly", "艮", "坎"),
    ("需", "Xū", "Waiting", "坎", "乾"),
    ("讼", "Sòng", "Conflict", "乾", "坎"),
    ("师", "Shī", "The Army", "坤", "坎"),
    ("比", "Bǐ", "Holding Together", "坎", "坤"),
    ("小畜", "Xiǎo Chù", "The Taming Power of the Small", "巽", "乾"),
    ("履", "Lǚ", "Treading", "乾", "兑"),
    ("泰", "Tài", "Peace", "坤", "乾"),
    ("否", "Pǐ", "Standstill", "乾", "坤"),
    ("同人", "Tóng Rén", "Fellowship with Men", "乾", "离"),
    ("大有", "Dà Yǒu", "Possession in Great Measure", "离", "乾"),
    ("谦", "Qiān", "Modesty", "坤", "艮"),
    ("豫", "Yù", "Enthusiasm", "震", "坤"),
    ("随", "Suí", "Following", "兑", "震"),
    ("蛊", "Gǔ", "Work on What Has Been Spoiled", "艮", "巽"),
    ("临", "Lín", "Approach", "坤", "兑"),
    ("观", "Guān", "Contemplation", "巽", "坤"),
    ("噬嗑", "Shì Kè", "Biting Through", "离", "震"),
    ("贲", "Bì", "Grace", "艮", "离"),
    ("剥", "Bō", "Splitting Apart", "艮", "坤"),
    ("复", "Fù", "Return", "坤", "震"),
    ("无妄", "Wú Wàng", "Innocence", "乾", "震"),
    ("大畜", "Dà Chù", "The Taming Power of the Great", "艮", "乾"),
    ("颐", "Yí", "The Corners of the Mouth", "艮", "震"),
    ("大过", "Dà Guò", "Preponderance of the Great", "兑", "巽"),
    ("坎", "Kǎn", "The Abysmal", "坎", "坎"),
    ("离", "Lí", "The Clinging", "离", "离"),
    ("咸", "Xián", "Influence", "兑", "艮"),
    ("恒", "Héng", "Duration", "震", "巽"),
    ("遁", "Dùn", "Retreat", "乾", "艮"),
    ("大壮", "Dà Zhuàng", "The Power of the Great", "震", "乾"),
    ("晋", "Jìn", "Progress", "离", "坤"),
    ("明夷", "Míng Yí", "Darkening of the Light", "坤", "离"),
    ("家人", "Jiā Rén", "The Family", "巽", "离"),
    ("睽", "Kuí", "Opposition", "离", "兑"),
    ("蹇", "Jiǎn", "Obstruction", "坎", "艮"),
    ("解", "Xiè", "Deliverance", "震", "坎"),
    ("损", "Sǔn", "Decrease", "艮", "兑"),
    ("益", "Yì", "Increase", "巽", "震"),
    ("夬", "Guài", "Breakthrough", "兑", "乾"),
    ("姤", "Gòu", "Coming to Meet", "乾", "巽"),
    ("萃", "Cuì", "Gathering Together", "兑", "坤"),
    ("升", "Shēng", "Pushing Upward", "坤", "巽"),
    ("困", "Kùn", "Oppression", "兑", "坎"),
    ("井", "Jǐng", "The Well", "坎", "巽"),
    ("革", "Gé", "Revolution", "兑", "离"),
    ("鼎", "Dǐng", "The Cauldron", "离", "巽"),
    ("震", "Zhèn", "The Arousing", "震", "震"),
    ("艮", "Gèn", "Keeping Still", "艮", "艮"),
    ("渐", "Jiàn", "Development", "巽", "艮"),
    ("归妹", "Guī Mèi", "The Marrying Maiden", "震", "兑"),
    ("丰", "Fēng", "Abundance", "震", "离"),
    ("旅", "Lǚ", "The Wanderer", "离", "艮"),
    ("巽", "Xùn", "The Gentle", "巽", "巽"),
    ("兑", "Duì", "The Joyous", "兑", "兑"),
    ("涣", "Huàn", "Dispersion", "巽", "坎"),
    ("节", "Jié", "Limitation", "坎", "兑"),
    ("中孚", "Zhōng Fú", "Inner Truth", "巽", "兑"),
    ("小过", "Xiǎo Guò", "Preponderance of the Small", "震", "艮"),
    ("既济", "Jì Jì", "After Completion", "坎", "离"),
    ("未济", "Wèi Jì", "Before Completion", "离", "坎"),
)


@dataclass(frozen=True)
class Hexagram:
    """One of the 64 hexagrams: an upper and a lower trigram.

    ``name`` is the usual full Chinese name built from the two trigrams' natures
    (天风姤, or 乾为天 when both trigrams are the same); ``short_name`` is the
    hexagram's own name (姤), ``pinyin`` its reading and ``english`` a common
    English rendering. ``number`` is its place in the King Wen sequence (1 … 64).
    """

    number: int
    name: str
    short_name: str
    pinyin: str
    english: str
    upper: int
    lower: int


def _build_hexagrams() -> dict[tuple[int, int], Hexagram]:
    table: dict[tuple[int, int], Hexagram] = {}
    for number, (short, pinyin, english, upper, lower) in enumerate(_KING_WEN, start=1):
        u, lo = _TRIGRAM_NUMBER[upper], _TRIGRAM_NUMBER[lower]
        nature_u, nature_l = TRIGRAMS[u - 1][1], TRIGRAMS[lo - 1][1]
        name = f"{short}为{nature_u}" if u == lo else f"{nature_u}{nature_l}{short}"
        table[(u, lo)] = Hexagram(number, name, short, pinyin, english, u, lo)
    return table


_HEXAGRAMS = _build_hexagrams()


def hexagram(upper: int, lower: int) -> Hexagram:
    """The hexagram with the given upper and lower trigram numbers (1 … 8, 先天 order)."""
    try:
        return _HEXAGRAMS[(upper, lower)]
    except KeyError:
        raise EngineError("setup.trigram", {"upper": upper, "lower": lower}) from None


# ---------------------------------------------------------------------------
# Plum-blossom setup
# ---------------------------------------------------------------------------

_BRANCHES = "子丑寅卯辰巳午未申酉戌亥"


@dataclass(frozen=True)
class PlumBlossomSetup:
    """A feidan start position drawn by the plum-blossom time method.

    ``year_branch`` (Y, 子=1 … 亥=12), ``lunar_month`` (M), ``lunar_day`` (D) and
    ``hour_branch`` (H, 子时=1 …) are the four numbers read from the calendar.
    They give the upper and lower trigrams (numbers 1 … 8 in the 先天 order and
    names), the moving line (1 … 6), the number ``number`` (S, 0 … 383) and the
    arrangement of the officers. ``officers`` maps each of the sixteen officer
    points (Red's and Black's) to the letter standing there. ``lunar_date`` is the
    calendar reading in Chinese (e.g. 乙巳年闰六月初八 午时), empty when the setup
    was made from bare numbers.
    """

    fen: str
    hexagram: str
    hexagram_pinyin: str
    hexagram_english: str
    hexagram_number: int
    upper_trigram: str
    upper_number: int
    lower_trigram: str
    lower_number: int
    moving_line: int
    year_branch: int
    lunar_month: int
    lunar_day: int
    hour_branch: int
    number: int
    arrangement_index: int
    officers: dict[str, str] = field(hash=False)
    lunar_date: str = ""


def plum_blossom_from_numbers(
    year_branch: int, lunar_month: int, lunar_day: int, hour_branch: int
) -> PlumBlossomSetup:
    """The plum-blossom setup for the four calendar numbers Y, M, D, H.

    Upper trigram U = (Y+M+D) mod 8 and lower trigram L = (Y+M+D+H) mod 8, where 0
    counts as 8; moving line X = (Y+M+D+H) mod 6, where 0 counts as 6. Then
    S = ((U-1)*8 + (L-1))*6 + (X-1) and the arrangement is number S*2520 // 384.
    """
    checks = (
        ("year branch", year_branch, 12),
        ("lunar month", lunar_month, 12),
        ("lunar day", lunar_day, 30),
        ("hour branch", hour_branch, 12),
    )
    for label, value, top in checks:
        if not 1 <= value <= top:
            raise EngineError("setup.number_range", {"label": label, "limit": top, "value": value})
    base = year_branch + lunar_month + lunar_day
    upper = base % 8 or 8
    lower = (base + hour_branch) % 8 or 8
    moving_line = (base + hour_branch) % 6 or 6
    number = ((upper - 1) * 8 + (lower - 1)) * 6 + (moving_line - 1)
    index = number * ARRANGEMENT_COUNT // 384
    board = _arrangement_board(index)
    officer_points = OFFICER_POINTS + tuple(_mirror(p) for p in OFFICER_POINTS)
    hexa = hexagram(upper, lower)
    return PlumBlossomSetup(
        fen=_board_fen(board),
        hexagram=hexa.name,
        hexagram_pinyin=hexa.pinyin,
        hexagram_english=hexa.english,
        hexagram_number=hexa.number,
        upper_trigram=TRIGRAMS[upper - 1][0],
        upper_number=upper,
        lower_trigram=TRIGRAMS[lower - 1][0],
        lower_number=lower,
        moving_line=moving_line,
        year_branch=year_branch,
        lunar_month=lunar_month,
        lunar_day=lunar_day,
        hour_branch=hour_branch,
        number=number,
        arrangement_index=index,
        officers={p: board[p] for p in officer_points},
    )


def plum_blossom(moment: datetime) -> PlumBlossomSetup:
    """The plum-blossom setup for the moment a game starts.

    ``moment`` must carry a time zone; it is read as China time (Asia/Shanghai).
    Y, M and D are the lunar year's branch, the lunar month (a leap month counts as
    its month's number) and the lunar day of that civil date, so the year turns at
    the lunar new year and the day does not turn before midnight. H comes from the
    clock hour: 23:00-00:59 is 子 (1), 01:00-02:59 丑 (2), … 21:00-22:59 亥 (12).
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise EngineError("setup.naive_time", {"moment": moment.isoformat()})
    local = moment.astimezone(CHINA_TIME_ZONE)
    # The lunar date of the civil date alone, so that 23:xx keeps that date's day.
    lunar = Solar.fromYmd(local.year, local.month, local.day).getLunar()
    year_branch = int(lunar.getYearZhiIndex()) + 1
    month = abs(int(lunar.getMonth()))
    day = int(lunar.getDay())
    hour_branch = (local.hour + 1) // 2 % 12 + 1
    setup = plum_blossom_from_numbers(year_branch, month, day, hour_branch)
    reading = (
        f"{lunar.getYearInGanZhi()}年{lunar.getMonthInChinese()}月{lunar.getDayInChinese()}"
        f"{_BRANCHES[hour_branch - 1]}时"
    )
    return replace(setup, lunar_date=reading)


# ---------------------------------------------------------------------------
# Secret setups
# ---------------------------------------------------------------------------


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


def _point_violation(
    point: str, kind: str, color: Color, method: SecretMethod, rank: int
) -> Violation | None:
    """The fault of one correctly coloured piece ``kind`` (upper case) on ``point``, if any."""
    side = color.capitalize()
    name = _PIECE_NAMES[kind][0]
    if rank not in _own_ranks(color):
        half = "ranks 0-4" if color == "red" else "ranks 5-9"
        return Violation(
            point,
            "not_own_half",
            f"{point}: the {side} {name} must stand on its own half ({half}).",
        )
    if kind == "K" and point not in _side_points(_RED_PALACE, color):
        return Violation(
            point,
            "general_outside_palace",
            f"{point}: the {side} general must stand in its palace.",
        )
    if kind == "A" and point not in _side_points(_RED_ADVISOR_POINTS, color):
        allowed = " ".join(_side_points(_RED_ADVISOR_POINTS, color))
        return Violation(
            point,
            "advisor_point",
            f"{point}: a {side} advisor may only stand on an advisor point ({allowed}).",
        )
    if kind == "B" and point not in _side_points(_RED_ELEPHANT_POINTS, color):
        allowed = " ".join(_side_points(_RED_ELEPHANT_POINTS, color))
        return Violation(
            point,
            "elephant_point",
            f"{point}: a {side} elephant may only stand on an elephant point ({allowed}).",
        )
    if kind == "M" and point not in _side_points(_RED_MISSILE_BASE, color):
        allowed = " and ".join(_side_points(_RED_MISSILE_BASE, color))
        return Violation(
            point,
            "missile_not_in_base",
            f"{point}: a {side} missile must stand in its base ({allowed}).",
        )
    if kind == "P":
        if method == "five_soldiers" and point not in _side_points(_RED_SOLDIER_POINTS, color):
            allowed = " ".join(_side_points(_RED_SOLDIER_POINTS, color))
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
        point = raw_point.strip().lower()
        square = _parse_point(point)
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
        if kind not in _PIECE_COUNTS or len(letter) != 1:
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
    for kind, needed in _PIECE_COUNTS.items():
        if counts[kind] != needed:
            have = counts[kind]
            singular, plural = _PIECE_NAMES[kind]
            violations.append(
                Violation(
                    None,
                    "wrong_piece_count",
                    f"{side} has {have} {singular if have == 1 else plural}; a side has exactly "
                    f"{needed} {singular if needed == 1 else plural}.",
                )
            )
    if method == "middle_soldier":
        centre = _side_points((_RED_CENTRE_SOLDIER,), color)[0]
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
    return _board_fen(_combined_board(red, black))


def _generals_facing(board: Mapping[str, str]) -> bool:
    red = next((p for p, v in board.items() if v == "K"), None)
    black = next((p for p, v in board.items() if v == "k"), None)
    if red is None or black is None or red[0] != black[0]:
        return False
    low, high = int(red[1]), int(black[1])
    return not any(f"{red[0]}{r}" in board for r in range(low + 1, high))


def _checks(board: Mapping[str, str]) -> tuple[bool, bool]:
    """(Red in check, Black in check) on ``board``, as the engine judges them.

    The engine refuses a FEN whose side not to move is in check, so the board is
    read twice, once with each side to move.
    """
    from engine.position import Position  # imported late: the engine package exports this module

    in_check: dict[str, bool] = {}
    sides: tuple[tuple[Literal["w", "b"], str, str], ...] = (
        ("w", "red", "black"),
        ("b", "black", "red"),
    )
    for side, mover, waiter in sides:
        try:
            position = Position.from_fen("feidan", _board_fen(board, side))
        except InvalidFenError as error:
            if "in check" not in error.reason:
                raise
            in_check[waiter] = True
        else:
            in_check[mover] = in_check.get(mover, False) or position.is_check()
            in_check.setdefault(waiter, False)
    return in_check["red"], in_check["black"]


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
    fen = _board_fen(board)
    if _generals_facing(board):
        return SecretReveal(fen, True, ("generals_facing",))
    red_in_check, black_in_check = _checks(board)
    reasons = tuple(
        code
        for code, flag in (("red_in_check", red_in_check), ("black_in_check", black_in_check))
        if flag
    )
    return SecretReveal(fen, bool(reasons), reasons)


def random_secret_half(color: Color, method: SecretMethod, rng: random.Random) -> dict[str, str]:
    """A legal secret half for ``color`` under ``method``, drawn with ``rng``.

    The constrained pieces are placed first (missiles, general, advisors, elephants,
    soldiers), then the chariots, horses, cannons and fighters on free points of the
    side's own half. Every legal half can come out.
    """
    _check_color_and_method(color, method)
    half = [f"{f}{r}" for r in _own_ranks(color) for f in FILES]
    placed: dict[str, str] = {}

    def put(kind: str, candidates: Iterable[str], count: int) -> None:
        free = [p for p in candidates if p not in placed]
        for point in rng.sample(free, count):
            placed[point] = kind if color == "red" else kind.lower()

    put("M", _side_points(_RED_MISSILE_BASE, color), 2)
    put("K", _side_points(_RED_PALACE, color), 1)
    put("A", _side_points(_RED_ADVISOR_POINTS, color), 2)
    put("B", _side_points(_RED_ELEPHANT_POINTS, color), 2)
    if method == "five_soldiers":
        put("P", _side_points(_RED_SOLDIER_POINTS, color), 5)
    else:
        put("P", _side_points((_RED_CENTRE_SOLDIER,), color), 1)
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
