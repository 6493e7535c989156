"""Rules of Chinese typesetting the site's pages must follow, and a reader of a page's text.

``chinese_text_faults(text)`` names what is wrong in one piece of Chinese text: a space next
to Chinese punctuation, a space between two Chinese characters, an ASCII colon (or other
ASCII punctuation) right after a Chinese character, two spaces in a row. ``page_texts(html)``
gives what a reader sees of a page: the text of each block (whitespace collapsed as the
browser does), the attributes people read (title, alt, placeholder, aria-label, value of
buttons), and every string of the page's embedded JSON (what its scripts will show).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_PUNCT = "，。：；！？、（）《》「」『』【】…—“”‘’"
RULES = [
    ("space before Chinese punctuation", re.compile(rf"[ \u3000]+[{CJK_PUNCT}]")),
    # (" · " is the site's separator, with its own spaces)
    ("space after Chinese punctuation", re.compile(rf"[{CJK_PUNCT}][ \u3000]+(?!· )")),
    ("space between Chinese characters", re.compile(rf"[{CJK}][ \u3000]+[{CJK}]")),
    ("ASCII punctuation after a Chinese character", re.compile(rf"[{CJK}] ?[:;,!?]")),
    ("two spaces in a row", re.compile(r"\S {2,}\S")),
]
BLOCKS = {
    "address", "article", "aside", "blockquote", "body", "br", "button", "caption", "dd",
    "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
    "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "html", "label", "legend", "li",
    "main", "nav", "ol", "option", "p", "pre", "section", "select", "summary", "table", "tbody",
    "td", "tfoot", "th", "thead", "title", "tr", "ul", "head", "svg", "text", "textarea", "input",
}  # fmt: skip
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip
READ_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")
# Containers laid out as separate items (flex rows of links and buttons): the whitespace
# between their children is not a space anyone reads.
ITEM_ROWS = {"site-nav", "site-tools", "puzzle-nav", "controls-row", "lesson-buttons",
             "language-form", "buttons", "crumbs", "form-alt"}  # fmt: skip
# Inline elements the site's styles show as blocks of their own.
BLOCK_CLASSES = {"lesson-number", "lesson-text", "lesson-title", "lesson-summary", "lesson-meta",
                 "lesson-stars", "lesson-steps", "continue-label", "continue-where",
                 "game-meta"}  # fmt: skip


def has_chinese(text: str) -> bool:
    return re.search(f"[{CJK}]", text) is not None


def chinese_text_faults(text: str) -> list[str]:
    if not has_chinese(text):
        return []
    return [f"{name}: {found.group(0)!r} in {text!r}" for name, rule in RULES
            for found in rule.finditer(text)]  # fmt: skip


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.raw: list[str] = []
        self.attributes: list[str] = []
        self.scripts: list[str] = []
        self._current: list[str] = []
        self._skip = 0
        self._json = False
        # per open element: (is it a row of separate items, is it shown as a block)
        self._rows: list[tuple[bool, bool]] = []

    def _flush(self) -> None:
        text = re.sub(r"[ \t\r\n]+", " ", "".join(self._current)).strip()
        if text:
            self.blocks.append(text)
        self._current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
            self._json = tag == "script" and values.get("type") == "application/json"
            return
        in_row = bool(self._rows) and self._rows[-1][0]
        classes = set((values.get("class") or "").split())
        block = tag in BLOCKS or bool(classes & BLOCK_CLASSES)
        if block or in_row:
            self._flush()
        if tag not in VOID:
            self._rows.append((tag == "nav" or bool(classes & ITEM_ROWS), block))
        for name in READ_ATTRIBUTES:
            if values.get(name):
                self.attributes.append(str(values[name]))
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.attributes.append(str(values["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1
            self._json = False
            return
        block = tag in BLOCKS
        if tag not in VOID and self._rows:
            _row, styled_block = self._rows.pop()
            block = block or styled_block
        if block or (self._rows and self._rows[-1][0]):
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._skip:
            if self._json:
                self.scripts.append(data)
            return
        self._current.append(data)
        self.raw.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def page_texts(html: str) -> list[str]:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    texts = reader.blocks + reader.attributes
    # Two spaces inside one line of the source are two spaces of a text (indentation is not).
    texts += [line for raw in reader.raw for line in raw.split("\n") if "  " in line.strip()]
    for script in reader.scripts:
        texts += list(_strings(json.loads(script)))
    return texts


def page_faults(html: str) -> list[str]:
    return [fault for text in page_texts(html) for fault in chinese_text_faults(text)]
