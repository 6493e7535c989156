"""The master games' headers made tidy for the library, when the games are loaded: one form
for a date (``1996-04-17``, ``1996-04``, ``1996`` or unknown), names without the padding some
records put inside a two-character name (``吕  钦``), and the names in pinyin, so that a search
in Latin letters ("Hu Ronghua", "Lü Qin" or "Lu Qin") finds them.

The shipped file keeps the records as they are written (core.masters); only the database
rows are cleaned (games.library). Pure functions: no Django.
"""

from __future__ import annotations

import datetime
import itertools
import re
import unicodedata
from functools import cache

# Dates some records write for "not known": the collection's placeholder.
PLACEHOLDER_DATES = frozenset({"2000-01-01"})
FIRST_YEAR, LAST_YEAR = 1900, 2030
PINYIN_VARIANTS_MAX = 4  # readings of a name kept for a search (a surname read two ways)

_SEPARATORS = re.compile(r"[\s.\-/·。、，,年月日－]+")
_CJK = r"[\u3400-\u9fff\uf900-\ufaff]"
_PADDED_NAME = re.compile(rf"({_CJK})[\s\u3000]+({_CJK})")


def _day(year: int, month: int, day: int | None) -> str:
    """``YYYY-MM-DD`` (``YYYY-MM`` without a day or with day 0, ``YYYY`` with month 0) when it
    is a real date, else ``""``."""
    if not FIRST_YEAR <= year <= LAST_YEAR:
        return ""
    if month == 0:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return ""
    if day is None or day == 0:
        return f"{year:04d}-{month:02d}"
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return ""


def _century(year: int) -> int:
    """A two-digit year: 50–99 are the 1900s, 00–49 the 2000s (the collection is 1950–2013)."""
    return year + (1900 if year >= 50 else 2000)


def clean_date(raw: str) -> str:
    """The date a record writes, in one form: ``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``; ``""``
    when it is unknown (blank, without a year, not a date, or the placeholder 2000-01-01).

    Read: ``1996年4月17日``, ``2001.11.17.``, ``19800825``, ``1995.7.18``, ``2010-12-01 09:00``,
    day first ``23-9-2009``, month first ``4/17/1996`` (a slash is read month first unless the
    first number cannot be a month), two-digit years ``86-4-29``, ``11/21/97``."""
    text = unicodedata.normalize("NFKC", raw).strip()
    text = text.replace("l", "1").replace("O", "0")  # letters typed for digits (l999年)
    compact = re.match(r"((?:19|20)\d{2})(\d{2})(\d{2})(?!\d)", text)
    if compact:
        year, month, day = (int(part) for part in compact.groups())
        found = _day(year, month, day)
        return "" if found in PLACEHOLDER_DATES else found
    numbers = [part for part in _SEPARATORS.split(text) if part]
    digits = list(itertools.takewhile(str.isdigit, numbers))
    found = ""
    if digits and len(digits[0]) == 4:  # the year first: Y M D, Y M or Y
        year = int(digits[0])
        if len(digits) >= 3:
            found = _day(year, int(digits[1]), int(digits[2]))
        elif len(digits) == 2:
            found = _day(year, int(digits[1]), None)
        elif FIRST_YEAR <= year <= LAST_YEAR:
            found = f"{year:04d}"
    elif len(digits) >= 3 and len(digits[2]) == 4:  # the year last: D M Y or M/D/Y
        first, second, year = int(digits[0]), int(digits[1]), int(digits[2])
        month_first = "/" in text and first <= 12 or second > 12
        found = _day(year, first, second) if month_first else _day(year, second, first)
    elif len(digits) >= 3 and all(len(d) <= 2 for d in digits[:3]):  # two-digit years
        first, second, third = (int(d) for d in digits[:3])
        if "/" in text:  # 11/21/97: month, day, year
            found = _day(_century(third), first, second)
        else:  # 86-4-29: year, month, day
            found = _day(_century(first), second, third)
    return "" if found in PLACEHOLDER_DATES else found


def clean_name(raw: str) -> str:
    """A player's name without the spaces some records pad a two-character name with
    (``吕  钦`` → ``吕钦``); a place before the name (``廣東 呂欽``) keeps its space."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    return _PADDED_NAME.sub(r"\1\2", name) if re.fullmatch(rf"{_CJK}\s{_CJK}", name) else name


def latin_key(text: str) -> str:
    """Latin letters as a search compares them: lower case, without tone marks, spaces or
    hyphens, ü (written ü, u: or v) as u: "Lü Qin", "Lu Qin" and "lvqin" are all ``luqin``."""
    text = text.lower().replace("u:", "u").replace("ü", "u").replace("v", "u")
    letters = unicodedata.normalize("NFKD", text)
    return "".join(c for c in letters if "a" <= c <= "z")


def is_latin_query(text: str) -> bool:
    """A search written in Latin letters (pinyin), not in characters."""
    return bool(latin_key(text)) and not re.search(_CJK, text)


@cache
def _readings(char: str, first: bool) -> tuple[str, ...]:
    from pypinyin import Style, pinyin

    found = pinyin(char, style=Style.NORMAL, heteronym=first, errors="ignore")
    readings = found[0] if found else []
    return tuple(dict.fromkeys(latin_key(r) for r in readings if latin_key(r))) or ("",)


def pinyin_key(name: str) -> str:
    """A name in pinyin as :func:`latin_key` compares it, each reading of a surname (the
    first character of each part: 曾 is zeng or ceng, 单 shan or dan) a key of its own,
    separated by spaces: ``胡荣华`` → ``huronghua``, ``呂欽`` → ``luqin``."""
    keys = [""]
    for part in name.split():
        for index, char in enumerate(part):
            if not re.fullmatch(_CJK, char):
                keys = [key + latin_key(char) for key in keys]
                continue
            readings = _readings(char, index == 0)
            keys = [key + reading for key in keys for reading in readings]
            keys = keys[:PINYIN_VARIANTS_MAX]
    return " ".join(dict.fromkeys(key for key in keys if key))
