"""The static board picture: every piece of the FEN at its point, the side to move at the
bottom, the board's size per variant, and a bad FEN refused."""

from __future__ import annotations

import re

import pytest

from core.diagram import board_svg
from engine import InvalidFenError, Position

XINBAN = "2ba5/4a4/3k5/9/9/5+c3/5+R+n1+r/9/4K4/9 w - - 0 1"
FEIDAN = "4k6/1n3a5/5N5/5M5/11/11/11/6K4/11/11 b - - 1 2"
FEIDAN_START = (
    "mrnbakabnrm/11/f1c5c1f/1p1p1p1p1p1/11/11/1P1P1P1P1P1/F1C5C1F/11/MRNBAKABNRM w - - 0 1"
)


def pieces(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-point="(\w\d)" data-piece="([^"]+)"', svg))


def centre(svg: str, point: str) -> tuple[float, float]:
    found = re.search(rf'data-point="{point}"[^>]*><circle cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert found, point
    return float(found.group(1)), float(found.group(2))


@pytest.mark.parametrize(("variant", "fen"), [("xinban", XINBAN), ("feidan", FEIDAN)])
def test_every_piece_is_drawn_at_its_point(variant: str, fen: str) -> None:
    svg = board_svg(variant=variant, fen=fen, label="today")
    assert pieces(svg) == Position.from_fen(variant, fen).pieces()
    assert svg.startswith('<svg class="board-diagram"') and 'aria-label="today"' in svg


def test_the_side_to_move_is_at_the_bottom() -> None:
    red = board_svg(variant="xinban", fen=XINBAN, label="x")
    assert centre(red, "e1")[1] > centre(red, "d7")[1]  # Red's general low, Black's high
    assert centre(red, "f3")[0] > centre(red, "e1")[0]  # files from Red's left
    black = board_svg(variant="feidan", fen=FEIDAN, label="x")
    assert centre(black, "e9")[1] > centre(black, "g2")[1]  # Black to move: Black below
    assert centre(black, "b8")[0] > centre(black, "f7")[0]  # seen from Black's side


def test_the_board_has_the_variant_s_size() -> None:
    nine = board_svg(variant="xinban", fen=XINBAN, label="x")
    eleven = board_svg(variant="feidan", fen=FEIDAN, label="x")
    assert 'viewBox="0 0 186 206"' in nine
    assert 'viewBox="0 0 226 206"' in eleven


def test_turncoat_pieces_are_marked() -> None:
    svg = board_svg(variant="xinban", fen=XINBAN, label="x")
    assert pieces(svg)["f3"] == "+R"
    assert re.search(r'data-point="f3" data-piece="\+R"><circle [^>]*stroke="#c9a227"', svg)


def test_the_label_is_escaped() -> None:
    svg = board_svg(variant="xinban", fen=XINBAN, label='<b>"x"</b>')
    assert "<b>" not in svg and "&lt;b&gt;" in svg


def test_a_bad_fen_is_refused() -> None:
    with pytest.raises(InvalidFenError):
        board_svg(variant="xiangqi", fen="garbage", label="x")


def test_fighters_and_missiles_are_legible() -> None:
    """战机 and 导弹 stand in two lines, each character nearly as large as a one-character
    name (they were drawn side by side at 6.2 where 车 has 10), inside the piece."""
    svg = board_svg(variant="feidan", fen=FEIDAN_START, label="x")
    single = re.search(r'data-piece="R"><circle [^>]*/><text [^>]*font-size="([\d.]+)"', svg)
    assert single
    full = float(single.group(1))
    seen = {}
    for letter, x, y, radius, size, lines in re.findall(
        r'data-piece="([FMfm])"><circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"[^>]*/>'
        r'<text [^>]*font-size="([\d.]+)"[^>]*>(.*?)</text>',
        svg,
    ):
        spans = re.findall(r'<tspan x="([\d.]+)" y="([\d.]+)">(.)</tspan>', lines)
        seen[letter] = "".join(character for _, _, character in spans)
        size_ = float(size)
        assert size_ >= 0.8 * full  # 8 of 10
        middles = [float(sy) - 0.35 * size_ for _, sy, _ in spans]
        assert middles[1] - middles[0] >= size_ - 0.01  # one under the other, not overlapping
        for sx, _, _ in spans:
            assert float(sx) == float(x)
        # the outer edge of each character's box is inside the circle
        assert float(y) - middles[0] + size_ / 2 <= float(radius)
        assert middles[1] + size_ / 2 - float(y) <= float(radius)
    assert seen == {"F": "战机", "M": "导弹", "f": "战机", "m": "导弹"}
