"""The plum-blossom open setup of feidan (梅花易数).

The moment a game starts, read on the Chinese calendar, gives four numbers (year branch,
lunar month, lunar day, hour branch). They make a hexagram, and the hexagram picks one of
the 2520 ways to put the eight "officer" pieces (two chariots, two horses, two cannons, two
fighters) on the eight officer points. Black mirrors Red across the river.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from math import factorial

from lunar_python import Solar  # type: ignore[import-untyped]

from engine.errors import EngineError
from engine.setups.points import board_fen, mirror, start_board

CHINA_TIME_ZONE = timezone(timedelta(hours=8), "UTC+8")

#: The eight officer points of the plum-blossom setup, in the order that ranks arrangements.
OFFICER_POINTS: tuple[str, ...] = ("b0", "c0", "i0", "j0", "c2", "i2", "a2", "k2")
#: The officer pieces in their ranking order (C < F < N < R), two of each.
OFFICER_LETTERS: tuple[str, ...] = ("C", "F", "N", "R")
ARRANGEMENT_COUNT = factorial(8) // 2**4  # 2520


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
    board = start_board()
    for point, letter in zip(OFFICER_POINTS, arrangement(index), strict=True):
        board[point] = letter
        board[mirror(point)] = letter.lower()
    return board


def arrangement_fen(index: int) -> str:
    """The start FEN with Red's officers in arrangement ``index`` and Black's mirrored."""
    return board_fen(_arrangement_board(index))


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
    officer_points = OFFICER_POINTS + tuple(mirror(p) for p in OFFICER_POINTS)
    hexa = hexagram(upper, lower)
    return PlumBlossomSetup(
        fen=board_fen(board),
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
