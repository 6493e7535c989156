"""The analysis board in real headless Chromium: moves by click and drag, the move list,
check and mate announced, the ICCS-to-board mapping, and a screenshot of each variant. The
engine on the board: tests/browser/test_analysis_engine.py."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from engine import Move, Position
from tests.core.positions import DEAD_GENERAL_IN_ONE, MATE_IN_ONE, MATING_MOVE, OPENINGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VARIANTS = ["xiangqi", "feidan", "xinban"]
# Red to move; a0a9 gives check, and Black can answer it.
CHECK_IN_ONE = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"


def open_board(page: Page, query: str) -> None:
    page.goto(f"/analysis/?{query}")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


def point(page: Page, square: str) -> tuple[float, float]:
    """Where an ICCS point is on the screen, from the board's box alone."""
    box = page.locator("#board .xb-wrap").bounding_box()
    assert box is not None
    width = 11 if "xb-11x10" in (page.get_attribute("#board", "class") or "") else 9
    red = page.get_attribute("#board", "data-orientation") == "red"
    file, rank = ord(square[0]) - ord("a"), int(square[1:])
    col = file if red else width - 1 - file
    row = 9 - rank if red else rank
    return box["x"] + (col + 0.5) * box["width"] / width, box["y"] + (row + 0.5) * box[
        "height"
    ] / 10


def click(page: Page, square: str) -> None:
    page.mouse.click(*point(page, square))


def click_move(page: Page, move: str) -> None:
    click(page, move[:2])
    click(page, move[2:])


def drag_move(page: Page, move: str) -> None:
    start, end = point(page, move[:2]), point(page, move[2:])
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()


def piece_at_key(page: Page, key: str) -> str | None:
    """The classes of the chessground piece standing on a board key, or None."""
    return page.evaluate(
        """key => {
            const piece = [...document.querySelectorAll('#board cg-board piece')]
                .find(p => p.cgKey === key && !p.classList.contains('ghost'));
            return piece ? piece.className : null;
        }""",
        key,
    )


def moves_in_list(page: Page) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        "#move-list td.move",
        "cells => cells.map(c => ({iccs: c.dataset.iccs, chinese: c.querySelector('.chinese').textContent}))",
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_points_map_to_board_keys(page: Page, variant: str) -> None:
    open_board(page, f"variant={variant}")
    centre = "f" if variant == "feidan" else "e"
    # ICCS ranks 0..9 are chessground ranks "1".."9", ":" (explicit mapping in board.js).
    assert "k-piece" in (piece_at_key(page, f"{centre}1") or "")
    assert "white" in (piece_at_key(page, f"{centre}1") or "")
    black_general = piece_at_key(page, f"{centre}:") or ""
    assert "k-piece" in black_general and "black" in black_general
    assert page.evaluate(
        """async () => {
            const m = await import('/static/build/board.js');
            return [m.iccsToKey('a0'), m.iccsToKey('k9'), m.keyToIccs('e:'), m.keyToIccs('i1')];
        }"""
    ) == ["a1", "k:", "e9", "i0"]
    red_cannon = OPENINGS[variant][0][:2]
    cg_key = red_cannon[0] + "123456789:"[int(red_cannon[1])]
    classes = piece_at_key(page, cg_key) or ""
    assert ("pc-piece" if variant == "xinban" else "c-piece") in classes
    if variant == "xinban":
        assert "promoted" in classes  # a turncoat piece, drawn with its own mark
    if variant == "feidan":
        assert "m-piece" in (piece_at_key(page, "a1") or "")
        assert "f-piece" in (piece_at_key(page, "a3") or "")


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_both_sides_by_click_and_drag(page: Page, variant: str, artifacts: Path) -> None:
    open_board(page, f"variant={variant}")
    red, black = OPENINGS[variant]
    position = Position.start(variant)

    # Selecting a piece shows exactly the engine's moves for it as dots.
    click(page, red[:2])
    expected = sum(1 for m in position.legal_moves if m.iccs()[:2] == red[:2])
    expect(page.locator("#board cg-board square.move-dest")).to_have_count(expected)
    click(page, red[2:])
    expect(page.locator("#move-list td.move")).to_have_count(1)
    red_chinese = position.chinese(Move.from_iccs(red))
    position.push_iccs(red)

    drag_move(page, black)
    expect(page.locator("#move-list td.move")).to_have_count(2)
    black_chinese = position.chinese(Move.from_iccs(black))
    position.push_iccs(black)
    expect(page.locator("body[data-ready='1']")).to_have_count(1)

    assert moves_in_list(page) == [
        {"iccs": red, "chinese": red_chinese},
        {"iccs": black, "chinese": black_chinese},
    ]
    assert page.input_value("#fen-output") == position.fen()
    expect(page.locator("#board cg-board square.last-move")).to_have_count(2)
    expect(page.locator("#status")).to_have_attribute("data-turn", "red")
    assert f"moves={quote(red)}%2C{quote(black)}" in page.input_value("#share-link")
    page.locator("#board").screenshot(path=str(artifacts / f"analysis-{variant}.png"))

    page.click("#undo")
    expect(page.locator("#move-list td.move")).to_have_count(1)
    expect(page.locator("#status")).to_have_attribute("data-turn", "black")
    page.click("#flip")
    expect(page.locator("#board")).to_have_attribute("data-orientation", "black")
    click_move(page, black)  # clicks work the same on the flipped board
    expect(page.locator("#move-list td.move")).to_have_count(2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_mate_is_announced(page: Page, variant: str, artifacts: Path) -> None:
    open_board(page, f"variant={variant}&fen={quote(MATE_IN_ONE[variant])}")
    click_move(page, MATING_MOVE)
    status = page.locator("#status")
    expect(status).to_have_attribute("data-termination", "checkmate")
    expect(status).to_contain_text("将死")
    expect(status).to_contain_text("红方")
    expect(page.locator("#board cg-board square.check")).to_have_count(1)
    expect(page.locator("#board cg-board square.move-dest")).to_have_count(0)
    page.screenshot(path=str(artifacts / f"analysis-{variant}-mate.png"), full_page=True)


def test_dead_general_is_announced(page: Page, artifacts: Path) -> None:
    open_board(page, f"variant=feidan&fen={quote(DEAD_GENERAL_IN_ONE)}")
    click_move(page, "c7f7")
    expect(page.locator("#status")).to_have_attribute("data-termination", "dead_general")
    expect(page.locator("#status")).to_contain_text("死将")
    page.locator("#board").screenshot(path=str(artifacts / "analysis-feidan-dead-general.png"))


def test_check_is_announced(page: Page) -> None:
    open_board(page, f"variant=xiangqi&fen={quote(CHECK_IN_ONE)}&moves=a0a9")
    status = page.locator("#status")
    expect(status).to_have_attribute("data-check", "1")
    expect(status).to_contain_text("将军")
    expect(page.locator("#board cg-board square.check")).to_have_count(1)


def test_moves_can_be_typed_in_chinese_or_iccs(page: Page) -> None:
    open_board(page, "variant=xiangqi")
    page.fill("#move-input", "炮二平五")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list td.move")).to_have_count(1)
    page.fill("#move-input", "h9g7")
    page.click("#move-play")
    expect(page.locator("#move-list td.move")).to_have_count(2)
    assert [m["chinese"] for m in moves_in_list(page)] == ["炮二平五", "马8进7"]
    page.fill("#move-input", "e9e7")
    page.click("#move-play")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error")).to_contain_text("e9e7")
    expect(page.locator("#move-list td.move")).to_have_count(2)


def test_an_illegal_move_is_said_in_the_pages_language_inside_its_box(page: Page) -> None:
    open_board(page, "variant=xinban")
    page.fill("#move-input", "h2e3")
    page.press("#move-input", "Enter")
    box = page.locator("#error")
    expect(box).to_have_text("第 1 步（h2e3）：h2 上的炮走不到 e3。")
    text = box.inner_text()
    assert "+C" not in text and "/" not in text and "illegal" not in text
    fits = page.evaluate(
        "() => { const b = document.getElementById('error');"
        " return b.scrollWidth <= b.clientWidth + 1; }"
    )
    assert fits
    # a long unreadable move wraps inside the box too
    page.fill("#move-input", "炮" * 16 + "x" * 40)
    page.press("#move-input", "Enter")
    expect(box).to_contain_text("超过 16 个字符")
    assert page.evaluate(
        "() => { const b = document.getElementById('error');"
        " return b.scrollWidth <= b.clientWidth + 1; }"
    )


def test_pasted_fen_and_variant_switch(page: Page) -> None:
    open_board(page, "variant=xiangqi")
    page.fill("#fen-input", "not a fen")
    page.click("#fen-load")
    expect(page.locator("#error")).to_contain_text("局面不合法")
    page.fill("#fen-input", MATE_IN_ONE["xiangqi"])
    page.click("#fen-load")
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator("#fen-output")).to_have_value(MATE_IN_ONE["xiangqi"])
    page.select_option("#variant-select", "feidan")
    expect(page.locator("#board.xb-11x10")).to_have_count(1)
    expect(page.locator("#fen-output")).to_have_value(Position.start("feidan").fen())
    page.select_option("#start-select", "standard")
    page.select_option("#variant-select", "xinban")
    page.select_option("#start-select", "traditional")
    expect(page.locator("#fen-output")).to_have_value(Position.start("xinban", "traditional").fen())


def test_share_link_restores_the_game(page: Page) -> None:
    open_board(page, "variant=feidan")
    click_move(page, OPENINGS["feidan"][0])
    expect(page.locator("#move-list td.move")).to_have_count(1)
    link = page.input_value("#share-link")
    page.goto(link)
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    assert [m["iccs"] for m in moves_in_list(page)] == [OPENINGS["feidan"][0]]
    page_data = json.loads(page.text_content("#analysis-page") or "{}")
    assert page_data["variant"] == "feidan"


def test_board_fits_a_phone(phone: Page, artifacts: Path) -> None:
    open_board(phone, "variant=feidan")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator("#board .xb-wrap").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    phone.locator("#board").tap()  # touch does not break the page
    expect(phone.locator("#status")).to_contain_text("Red")
    phone.screenshot(path=str(artifacts / "analysis-phone.png"), full_page=True)


def test_board_draws_arrows_and_point_marks(page: Page) -> None:
    """Lessons and hints draw on the board through the module's ``shapes`` option."""
    open_board(page, "variant=xiangqi")
    page.evaluate(
        """() => window.analysisBoard.board().set({shapes: [
            {from: 'h2', to: 'e2', brush: 'green'},
            {at: 'e4', brush: 'red'},
        ]})"""
    )
    expect(page.locator("#board svg.cg-shapes line")).to_have_count(1)
    expect(page.locator("#board svg.cg-shapes circle")).to_have_count(1)
    page.evaluate("() => window.analysisBoard.board().set({shapes: []})")
    expect(page.locator("#board svg.cg-shapes line")).to_have_count(0)
