"""Reading the project's Markdown as GitHub renders it: the anchors a page offers (its headings'
slugs and its own ``<a id>`` anchors) and the links and images it points to."""

from __future__ import annotations

import re
from dataclasses import dataclass

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")
INLINE_CODE = re.compile(r"(`+)(?:.+?)\1")
# [text](target) and ![alt](target), with an optional "title"; the text may hold one level of
# brackets (a link inside an image's alt, "[§5.4]").
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_TARGET = re.compile(r"""<(?:img|a)\s[^>]*?(?:src|href)=["']([^"']+)["']""")
MARKUP_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class Link:
    line: int  # 1-based
    target: str

    @property
    def external(self) -> bool:
        return bool(SCHEME.match(self.target)) or self.target.startswith("//")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1, with inline code removed."""
    lines: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, INLINE_CODE.sub("", line)))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text: links and emphasis reduced to their words, lower
    case, every character but letters (any script), digits, spaces, '-' and '_' dropped, and
    each space a '-'."""
    text = MARKUP_LINK.sub(r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a page: each heading's slug (a repeated slug gets -1, -2, … in order)
    and each ``<a id=…>`` / ``<a name=…>`` written in it."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found.update(HTML_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str) -> list[Link]:
    """Every link and image target of a page, outside code."""
    found: list[Link] = []
    for number, line in prose_lines(text):
        found += [Link(number, target) for target in LINK.findall(line)]
        found += [Link(number, target) for target in HTML_TARGET.findall(line)]
    return found
