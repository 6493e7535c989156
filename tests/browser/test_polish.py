"""The small things of a learner's first hour, in real headless Chromium: the analysis move
list goes back and forward (click, buttons, arrow keys); the editor refuses a malformed FEN
and keeps the board; puzzle moves carry ICCS, a daily or shared puzzle leads on to the next
one, and the cost of showing the solution is said before the click; a lesson step that is
done hides its hint; and the texts the scripts write on Chinese pages follow the rules of
Chinese typesetting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine import Move, Position
from tests.browser import test_analysis_board as analysis
from tests.browser import test_puzzles as puzzles
from tests.browser.test_tutorials import solutions
from tests.puzzles.positions import MATE_IN_2
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINE = ["h2e2", "h9g7", "b0c2"]


def list_moves(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#move-list td.move", "cells => cells.map(c => c.dataset.iccs)"
    )


def current_ply(page: Page) -> str | None:
    return page.evaluate(
        "() => { const c = document.querySelector('#move-list td.move.current');"
        " return c ? c.dataset.ply : null; }"
    )


def fen_after(moves: list[str]) -> str:
    position = Position.start("xiangqi")
    for move in moves:
        position.push(Move.from_iccs(move))
    return position.fen()


def ready(page: Page) -> None:
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


def shows(page: Page, line: list[str], ply: int) -> None:
    """Wait until the board shows the position after ``ply`` moves of ``line``, and the list
    the whole line with that move marked."""
    expect(page.locator("#fen-output")).to_have_value(fen_after(line[:ply]))
    ready(page)
    assert list_moves(page) == line
    assert current_ply(page) == (str(ply) if ply else None)


def test_the_analysis_move_list_goes_back_and_forward(page: Page, artifacts: Path) -> None:
    analysis.open_board(page, "variant=xiangqi")
    for move in LINE:
        analysis.click_move(page, move)
        expect(page.locator("#move-list td.move")).to_have_count(LINE.index(move) + 1)
    shows(page, LINE, 3)
    expect(page.locator("#forward")).to_be_disabled()

    page.locator("#move-list td.move[data-ply='1'] button").click()  # back to after h2e2
    shows(page, LINE, 1)  # the line stays
    expect(page.locator("#status")).to_have_attribute("data-turn", "black")

    page.keyboard.press("ArrowLeft")
    shows(page, LINE, 0)
    expect(page.locator("#back")).to_be_disabled()
    page.keyboard.press("ArrowRight")
    shows(page, LINE, 1)
    page.keyboard.press("ArrowRight")
    shows(page, LINE, 2)
    page.click("#forward")
    shows(page, LINE, 3)
    page.click("#first")
    shows(page, LINE, 0)
    page.keyboard.press("End")
    shows(page, LINE, 3)
    page.keyboard.press("Home")
    shows(page, LINE, 0)
    page.click("#last")
    shows(page, LINE, 3)

    # Playing the line's next move steps forward; another move replaces the rest of the line.
    page.click("#first")
    shows(page, LINE, 0)
    analysis.click_move(page, "h2e2")
    shows(page, LINE, 1)
    analysis.click_move(page, "b9c7")
    shows(page, ["h2e2", "b9c7"], 2)

    # The share link keeps the position shown.
    page.locator("#move-list td.move[data-ply='1'] button").click()
    shows(page, ["h2e2", "b9c7"], 1)
    link = page.input_value("#share-link")
    assert "ply=1" in link
    page.goto(link)
    shows(page, ["h2e2", "b9c7"], 1)
    page.screenshot(path=str(artifacts / "analysis-move-list-back.png"), full_page=True)


def test_the_editor_refuses_a_malformed_fen_and_keeps_the_board(
    page: Page, live_server: Any
) -> None:
    puzzles.log_in(page, live_server, "typist")
    page.goto("/puzzles/create/")
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
    before = page.evaluate("window.puzzleEditor.fen()")
    board_before = page.get_attribute("#board", "data-fen")
    for typed, words in [
        ("garbage", "10"),  # one row instead of ten
        ("3k5/9/9/9/9/9/9/9/45/4K4 w - - 0 1", "45"),  # a number is read whole
        ("3k5/9/9/9/9/9/9/9/9/4K3X w - - 0 1", "X"),
        ("3k5/9/9/9/9/9/9/9/9/4K4 x - - 0 1", "x"),
    ]:
        page.fill("#editor-fen", typed)
        page.locator("#editor-fen").press("Tab")  # the change event
        check = page.locator("#editor-check")
        expect(check).to_have_attribute("data-ok", "0")
        expect(check).to_contain_text("FEN")
        expect(check).to_contain_text(words)
        page.wait_for_timeout(400)  # no server answer overwrites the message
        expect(check).to_have_attribute("data-ok", "0")
        assert page.evaluate("window.puzzleEditor.fen()") == before, typed
        assert page.get_attribute("#board", "data-fen") == board_before
        assert page.input_value("#editor-fen") == typed  # left to be corrected
        expect(page.locator("#editor-fen")).to_have_attribute("aria-invalid", "true")
    page.fill("#editor-fen", MATE_IN_2)
    page.locator("#editor-fen").press("Tab")
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
    assert page.evaluate("window.puzzleEditor.fen()") == MATE_IN_2


def test_puzzle_moves_show_iccs_and_a_shared_puzzle_leads_on(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    puzzle = puzzles.published()
    puzzles.log_in(page, live_server, "learner")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"/puzzles/p/{puzzle.slug}/")
    puzzles.state(page, "ready")
    expect(page.locator(".puzzle-title")).to_have_text("Red to move: Checkmate in 2")
    note = page.locator("#give-up-note")
    expect(note).to_be_visible()  # said before the click
    expect(note).to_contain_text("rating")
    expect(page.locator("#next")).to_be_hidden()

    puzzles.click_move(page, puzzles.WRONG_FIRST_MOVE)
    expect(page.locator("#status")).to_have_attribute("data-kind", "wrong")
    first = page.locator("#moves li").first
    expect(first.locator(".chinese")).to_have_text(
        Position.from_fen("xiangqi", MATE_IN_2).chinese(Move.from_iccs(puzzles.WRONG_FIRST_MOVE))
    )
    expect(first.locator(".iccs")).to_have_text(puzzles.WRONG_FIRST_MOVE)
    expect(note).to_be_hidden()  # the try is over: nothing more to lose
    link = page.locator("#next")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", "/puzzles/?variant=xiangqi")
    page.click("#give-up")
    expect(page.locator("#solution-line li .iccs").first).to_have_text(puzzles.MATE_IN_2_KEY)
    page.screenshot(path=str(artifacts / "puzzle-shared-next.png"), full_page=True)
    link.click()
    expect(page).to_have_url(f"{live_server.url}/puzzles/?variant=xiangqi")


def test_a_puzzle_s_share_link_is_shown_whole_and_copied(
    page: Page, live_server: Any, celery_worker: Any
) -> None:
    # The link was a narrow box showing "http://127.0.0.1:8731/puzzles" and no way to copy it.
    puzzle = puzzles.published()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/puzzles/p/{puzzle.slug}/")
    puzzles.state(page, "ready")
    field = page.locator("#share-link")
    link = field.input_value()
    assert link == f"{live_server.url}/puzzles/p/{puzzle.slug}/"
    assert page.evaluate("el => el.scrollWidth <= el.clientWidth", field.element_handle())
    side = page.locator(".puzzle-side").bounding_box()
    box = field.bounding_box()
    assert side is not None and box is not None and box["width"] > side["width"] * 0.6
    page.click("#copy-link")
    expect(page.locator("#copy-link")).to_have_text("已复制")
    assert page.evaluate("navigator.clipboard.readText()") == link


def test_a_done_lesson_step_hides_its_hint(page: Page, transactional_db: None) -> None:
    from tutorials.services import lessons_load

    lessons_load()
    answer = solutions("xiangqi/10-check.toml")["4"]
    page.goto("/learn/xiangqi-check/?step=4")
    ready(page)
    expect(page.locator("#hint")).to_be_visible()
    page.click("#hint")
    expect(page.locator("#status")).to_have_attribute("data-kind", "hint")
    for move in answer:
        analysis.click_move(page, move)
    expect(page.locator("body[data-result='complete']")).to_have_count(1)
    expect(page.locator("#hint")).to_be_hidden()
    page.click("#retry")
    expect(page.locator("#hint")).to_be_visible()


def test_texts_written_by_the_scripts_follow_chinese_typesetting(
    page: Page, live_server: Any, celery_worker: Any
) -> None:
    puzzle = puzzles.published()
    faults: list[str] = []

    def scan(where: str) -> None:
        text = page.evaluate("document.body.innerText")
        faults.extend(
            f"{where}: {f}" for line in text.split("\n") for f in chinese_text_faults(line)
        )

    page.goto(f"/puzzles/p/{puzzle.slug}/")
    puzzles.state(page, "ready")
    expect(page.locator(".puzzle-title")).to_have_text("红方走棋：2步杀")
    scan("puzzle")
    puzzles.click_move(page, puzzles.WRONG_FIRST_MOVE)
    expect(page.locator("#status")).to_have_attribute("data-kind", "wrong")
    scan("puzzle after a wrong move")

    analysis.open_board(page, f"variant=xiangqi&fen={analysis.quote(analysis.CHECK_IN_ONE)}")
    scan("analysis")
    analysis.click_move(page, "a0a9")
    expect(page.locator("#status")).to_have_attribute("data-check", "1")
    scan("analysis in check")

    from tutorials.services import lessons_load

    lessons_load()
    page.goto("/learn/xiangqi-checkmate/?step=4")  # the opponent answers c9d7 with f7e8
    ready(page)
    analysis.click_move(page, "c9d7")
    expect(page.locator("body[data-result='playing']")).to_have_count(1)
    expect(page.locator("#status")).to_have_text("对方应着：士6退5（f7e8）")
    scan("lesson after the opponent's reply")

    # The editor's verdict on a puzzle that is no mate in 1 ("未发布： 1 步内…" had a space).
    puzzles.log_in(page, live_server, "composer")
    page.goto("/puzzles/create/")
    ready(page)
    page.fill("#editor-fen", "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1")
    page.locator("#editor-fen").press("Tab")
    expect(page.locator("#editor-check")).to_have_attribute("data-ok", "1")
    page.fill("#editor-n", "1")
    page.click("#editor-submit")
    result = page.locator("#editor-result")
    expect(result).to_have_attribute("data-kind", "rejected", timeout=60_000)
    expect(result).to_have_text("未发布：1 步内不能强制将死。")
    scan("editor after a rejection")
    page.goto("/puzzles/mine/")  # an untitled puzzle is not named by its share code
    expect(page.locator("td").first).to_contain_text("未命名")
    scan("my puzzles")
    assert not faults, "\n".join(faults)


def test_today_s_puzzles_are_pictured_on_the_home_page(page: Page, artifacts: Path) -> None:
    from django.utils import timezone

    from puzzles.services import daily_puzzles_choose

    puzzles.published()
    daily_puzzles_choose(date=timezone.localdate())
    page.goto("/")
    picture = page.locator(".daily-card[data-variant='xiangqi'] svg.board-diagram")
    expect(picture).to_be_visible()
    box = picture.bounding_box()
    assert box is not None and 150 <= box["width"] <= 260 and box["height"] > box["width"]
    expect(picture.locator(".diagram-piece")).to_have_count(7)
    page.screenshot(path=str(artifacts / "home-daily-pictures.png"), full_page=True)


def test_sign_up_from_the_header_comes_back_to_the_lesson(
    page: Page, transactional_db: None, artifacts: Path
) -> None:
    from tutorials.services import lessons_load

    lessons_load()
    page.goto("/learn/xiangqi-horse/?step=2")
    ready(page)
    page.locator(".site-header a[href^='/accounts/signup/']").click()
    page.fill("input[name=username]", "returner")
    page.fill("input[name=password1]", "a-long-pass-phrase-42")
    page.fill("input[name=password2]", "a-long-pass-phrase-42")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/learn/xiangqi-horse/?step=2")
    expect(page.locator(".site-header .account")).to_have_text("returner")
    page.locator(".site-header .account").click()
    expect(page.locator("[data-testid='profile-ratings'] .profile-card")).to_have_count(3)
    expect(page.locator("[data-testid='profile-lessons'] .profile-card")).to_have_count(3)
    expect(page.locator("a[href='/puzzles/dashboard/']").last).to_be_visible()
    page.screenshot(path=str(artifacts / "profile.png"), full_page=True)
