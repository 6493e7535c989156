"""A small static picture of a position: the board and its pieces as inline SVG.

Used where a page shows a position without the interactive board (the daily puzzle cards).
The side to move is at the bottom unless ``orientation`` says otherwise. Each piece is a
``<g class="diagram-piece" data-point="e0" data-piece="K">`` so that tests and styles can
find it; the picture is labelled for screen readers by the caller's ``label``.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from engine import Position, find_variant

CELL = 20
MARGIN = 13
RADIUS = 8.6
GLYPHS = {
    "K": "帅", "A": "仕", "B": "相", "N": "马", "R": "车", "C": "炮", "P": "兵", "F": "战机", "M": "导弹",
    "k": "将", "a": "士", "b": "象", "n": "马", "r": "车", "c": "炮", "p": "卒", "f": "战机", "m": "导弹",
}  # fmt: skip
# A one-character name fills the piece; a two-character one (战机, 导弹) stands in two lines,
# one character above the other, each at 8 (side by side they fit only at 6.2, too small to
# read on a daily card).
GLYPH_SIZE = 10
STACKED_SIZE = 8
# from a character's middle to its baseline, in ems (the font's ideographic box)
BASELINE = 0.35
RED, BLACK, GOLD = "#b71c1c", "#222222", "#c9a227"
LABEL = "\x00label\x00"  # replaced by the escaped label of each use


def board_svg(*, variant: str, fen: str, label: str, orientation: str | None = None) -> SafeString:
    """The position as an ``<svg>`` element (``InvalidFenError`` for a FEN the engine refuses)."""
    svg = _board_svg(variant, fen, orientation).replace(LABEL, escape(label), 1)
    return mark_safe(svg)  # noqa: S308 - built from escaped parts


@lru_cache(maxsize=256)
def _board_svg(variant: str, fen: str, orientation: str | None) -> str:
    position = Position.from_fen(variant, fen)
    rules = find_variant(variant)
    files, ranks = rules.width, rules.height
    flipped = (orientation or position.turn) == "black"

    def xy(file: int, rank: int) -> tuple[float, float]:
        if flipped:
            file, rank = files - 1 - file, ranks - 1 - rank
        return MARGIN + file * CELL, MARGIN + (ranks - 1 - rank) * CELL

    width = 2 * MARGIN + (files - 1) * CELL
    height = 2 * MARGIN + (ranks - 1) * CELL
    lines: list[str] = []
    for rank in range(ranks):
        (x1, y), (x2, _y) = xy(0, rank), xy(files - 1, rank)
        lines.append(f"M{x1:g} {y:g}H{x2:g}")
    river = ranks // 2
    for file in range(files):
        edge = file in (0, files - 1)
        spans = [(0, ranks - 1)] if edge else [(0, river - 1), (river, ranks - 1)]
        for low, high in spans:
            (x, y1), (_x, y2) = xy(file, low), xy(file, high)
            lines.append(f"M{x:g} {y1:g}V{y2:g}")
    centre = files // 2
    for low in (0, ranks - 3):
        for (f1, r1), (f2, r2) in (
            ((centre - 1, low), (centre + 1, low + 2)),
            ((centre + 1, low), (centre - 1, low + 2)),
        ):
            (x1, y1), (x2, y2) = xy(f1, r1), xy(f2, r2)
            lines.append(f"M{x1:g} {y1:g}L{x2:g} {y2:g}")

    parts = [
        f'<svg class="board-diagram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
        f' role="img" aria-label="{LABEL}" data-variant="{variant}" data-fen="{escape(fen)}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" rx="4" fill="#f0d9a8"/>',
        f'<path d="{"".join(lines)}" stroke="#7a5a32" stroke-width="0.8" fill="none"/>',
    ]
    for point, letter in sorted(position.pieces().items()):
        file, rank = "abcdefghijk".index(point[0]), int(point[1:])
        x, y = xy(file, rank)
        plain = letter.lstrip("+")
        colour = RED if plain.isupper() else BLACK
        turncoat = letter.startswith("+")
        fill, ink = (colour, "#fff") if turncoat else ("#fbf3df", colour)
        parts.append(
            f'<g class="diagram-piece" data-point="{point}" data-piece="{escape(letter)}">'
            f'<circle cx="{x:g}" cy="{y:g}" r="{RADIUS}" fill="{fill}"'
            f' stroke="{GOLD if turncoat else colour}" stroke-width="{1.6 if turncoat else 1}"/>'
            f"{_glyph(GLYPHS[plain], x, y, ink)}</g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _glyph(glyph: str, x: float, y: float, ink: str) -> str:
    """The piece's name as ``<text>``: one character at the full size, or two stacked."""
    if len(glyph) == 1:
        return (
            f'<text x="{x:g}" y="{y:g}" dy="{BASELINE}em" text-anchor="middle"'
            f' font-size="{GLYPH_SIZE}" fill="{ink}">{glyph}</text>'
        )
    half = STACKED_SIZE / 2
    lines = "".join(
        f'<tspan x="{x:g}" y="{y + offset + BASELINE * STACKED_SIZE:.2f}">{character}</tspan>'
        for character, offset in zip(glyph, (-half, half), strict=True)
    )
    return (
        f'<text text-anchor="middle" font-size="{STACKED_SIZE}" fill="{ink}"'
        f' data-stacked="1">{lines}</text>'
    )
