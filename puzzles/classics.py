"""How the classical problems are named to a reader.

The bank keeps a problem's title and collection as the source files spell them: a collection
as a folder path ("古谱篇/07《烂柯神机》"), a title with the book's verdict ("运实于虚 红胜",
"前诱后攻 红胜(1)"). A reader sees the book's name in their language and the problem's own
name without the verdict (the page already says who moves and wins)."""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The source's collection text -> the book's name (English msgid, Chinese msgstr).
COLLECTIONS: dict[str, Promise] = {
    "适情雅趣550局": _("Shiqing Yaqu (550 problems)"),
    "古谱篇/07《烂柯神机》": _("Lanke Shenji"),
    "古谱篇/03《橘中秘》朱晋桢": _("Juzhong Mi, by Zhu Jinzhen"),
    "古谱篇/某古谱": _("An old problem book"),
    "古谱篇/弈海烟波": _("Yihai Yanbo"),
    "古谱篇/象局汇存": _("Xiangju Huicun"),
    "古谱篇/弈海征帆": _("Yihai Zhengfan"),
    "古谱篇/湖涯集": _("Huya Ji"),
    "古谱篇/陶情弈趣": _("Taoqing Yiqu"),
    "古谱篇/周孟芳作品": _("Problems by Zhou Mengfang"),
}

# "红胜" (Red wins), alone, in brackets, or before a variation number "(1)".
_VERDICT = re.compile(r"\s*[(（]?红胜[)）]?(?:\s*[(（]\d+[)）])?\s*$")


def collection_name(collection: str) -> str:
    """The collection's name in the active language; an unknown one as it is, without the
    source's folder ("古谱篇/…") and numbering."""
    known = COLLECTIONS.get(collection)
    if known is not None:
        return str(known)
    name = collection.rsplit("/", 1)[-1]
    name = re.sub(r"^\d+\s*", "", name)
    return name.strip("《》 ") if name.count("《") == 1 and name.startswith("《") else name


# "第112局 飞鲸吞钓", "第七十四局 龙潭虎穴": the problem's number in the book, then its name.
_NUMBERED = re.compile(r"^第([0-9〇零一二三四五六七八九十百]+)局\s*(.*)$")
_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0}


def _number(text: str) -> int:
    """A number written in Arabic digits or in Chinese numerals below a thousand."""
    if text.isdigit():
        return int(text)
    total, digit = 0, 0
    for char in text:
        if char in _DIGITS:
            digit = _DIGITS[char]
        elif char == "百":
            total, digit = total + (digit or 1) * 100, 0
        elif char == "十":
            total, digit = total + (digit or 1) * 10, 0
    return total + digit


def classic_title(title: str) -> str:
    """A classical problem's own name, without the book's verdict; a numbered one says its
    number in the reader's language ("No. 112 飞鲸吞钓", "第112局 飞鲸吞钓")."""
    title = _VERDICT.sub("", title).strip()
    numbered = _NUMBERED.match(title)
    if numbered is None:
        return title
    number, name = _number(numbered.group(1)), numbered.group(2).strip()
    if not name:
        return str(_("No. {number}")).format(number=number)
    return str(_("No. {number} {name}")).format(number=number, name=name)
