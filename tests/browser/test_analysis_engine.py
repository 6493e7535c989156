"""The engine on the analysis board in real headless Chromium, on a real Celery worker: it
starts with the page (no click), shows three lines for a xiangqi position with the numbers from
Red's side (Black to move and Red winning: positive), names itself and its depth, looks deeper
while the position stays, stops when switched off (nothing asked of the server; the switch is
remembered) or when the tab is hidden, finds and plays out a forced mate, and gives way to
another tab's position; at 1280 × 800 and 390 × 844, in Chinese and in English. Screenshots
land in test-artifacts/."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from engine import Move, Position
from games.analysis import ANALYSIS_BUDGETS
from judge import FAIRY_STOCKFISH, judge_for
from tests.browser.test_analysis_board import open_board
from tests.puzzles.positions import MATE_IN_2, MATE_IN_2_KEY
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Black to move, a chariot down: Red is winning (by about four pawns), no mate in sight.
RED_AHEAD_BLACK_TO_MOVE = "1nbakab2/9/9/4p4/9/9/9/9/9/R1BAKABN1 b - - 0 1"
ENGINE_API = "/api/games/analysis/"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LOCALES = {"zh": "zh-CN", "en": "en-US"}
FAIRY = judge_for("xiangqi").name == FAIRY_STOCKFISH


def lines(page: Page) -> list[dict[str, Any]]:
    """The lines shown: Red's score (cp, mate) as the page keeps it, the number as it is
    written, and the moves (ICCS and Chinese)."""
    return page.eval_on_selector_all(
        "#engine-lines li",
        """items => items.map(li => ({
            cp: li.dataset.cp === '' ? null : Number(li.dataset.cp),
            mate: li.dataset.mate === '' ? null : Number(li.dataset.mate),
            number: li.querySelector('.engine-line-score').textContent,
            moves: [...li.querySelectorAll('.engine-move')].map(b => ({
                iccs: b.dataset.iccs, chinese: b.querySelector('.chinese').textContent})),
        }))""",
    )


def depth(page: Page) -> int:
    return int(page.get_attribute("#engine-info", "data-depth") or 0)


def answered(page: Page, timeout: float = 60_000) -> None:
    """Wait for the engine's first answer about the position shown."""
    expect(page.locator("#engine-lines li").first).to_be_visible(timeout=timeout)


def engine_requests(page: Page) -> list[str]:
    """Every request the page makes of the engine API from now on ("POST /…", "GET /…")."""
    seen: list[str] = []

    def keep(request: Request) -> None:
        if ENGINE_API in request.url:
            seen.append(f"{request.method} {request.url}")

    page.on("request", keep)
    return seen


def test_the_engine_starts_with_the_page_and_shows_three_lines_from_reds_side(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    page.set_viewport_size(SIZES["desktop"])
    started = time.monotonic()
    open_board(page, f"variant=xiangqi&fen={quote(RED_AHEAD_BLACK_TO_MOVE)}")
    expect(page.locator("#engine-toggle")).to_be_checked()
    answered(page)
    first_line = time.monotonic() - started
    shown = lines(page)
    assert len(shown) == 3, shown
    pos = Position.from_fen("xiangqi", RED_AHEAD_BLACK_TO_MOVE)
    for line in shown:
        assert line["mate"] is None and line["cp"] > 200, line  # Red is winning
        assert re.fullmatch(r"\+\d+\.\d\d", line["number"]), line
        first = line["moves"][0]
        assert pos.chinese(Move.from_iccs(first["iccs"])) == first["chinese"]
    assert len({line["moves"][0]["iccs"] for line in shown}) == 3
    number = page.locator("#engine-number")
    expect(number).to_have_text(re.compile(r"^\+\d+\.\d\d$"))
    assert int(page.get_attribute("#eval-bar", "aria-valuenow") or 0) > 50  # Red's share
    expect(page.locator("#engine-verdict")).to_contain_text("红方")
    info = page.locator("#engine-info")
    expect(info).to_contain_text(re.compile(r"深度 \d+"))
    if FAIRY:
        expect(info).to_contain_text(re.compile(r"^Fairy-Stockfish \d+(\.\d+)*，深度 \d+$"))
    expect(page.locator("#engine")).to_contain_text("按红方计")
    print(f"\nfirst line shown {first_line:.2f} s after the page was asked for")
    page.screenshot(path=str(artifacts / "analysis-engine-lines-zh-desktop.png"))


@pytest.mark.parametrize("variant", ["xiangqi", "feidan"])
def test_the_engine_looks_deeper_while_the_position_stays(
    page: Page, live_server: Any, celery_worker: Any, variant: str
) -> None:
    """Each answer is followed by a question on a budget four times larger, up to the last;
    the depth shown grows. Nothing more is asked once the last has answered."""
    requests = engine_requests(page)
    open_board(page, f"variant={variant}")
    answered(page)
    first = depth(page)
    engine_name = "fairy-stockfish" if variant == "xiangqi" and FAIRY else "ours"
    expect(page.locator("#engine-info")).to_have_attribute("data-engine", engine_name)
    if engine_name == "ours":
        expect(page.locator("#engine-info")).to_contain_text("本站自己的引擎，深度")
    assert len(lines(page)) == 3
    expect(page.locator("#engine[data-state='final']")).to_have_count(1, timeout=120_000)
    assert depth(page) > first
    posts = [r for r in requests if r.startswith("POST")]
    assert len(posts) == len(ANALYSIS_BUDGETS[engine_name])
    page.wait_for_timeout(1500)
    assert len([r for r in requests if r.startswith("POST")]) == len(posts)  # no more


def test_the_switch_turns_the_engine_off_and_is_remembered(
    page: Page, live_server: Any, settings: Any
) -> None:
    """Off: the lines go, nothing is asked of the server (a move made, a reload); on again:
    the engine looks at the position shown. No worker here: the searches only wait."""
    settings.ANALYSIS_SEARCHES_AT_ONCE = 0
    requests = engine_requests(page)
    with page.expect_request(lambda r: ENGINE_API in r.url and r.method == "POST"):
        open_board(page, "variant=xinban")  # no click: the engine is asked at once
    expect(page.locator("#engine[data-state='pending']")).to_have_count(1)
    expect(page.locator("#engine-pending")).to_be_visible()
    page.locator("#engine-toggle").click()
    expect(page.locator("#engine[data-state='off']")).to_have_count(1)
    expect(page.locator("#engine-toggle")).not_to_be_checked()
    expect(page.locator("#engine-pending")).to_be_hidden()
    expect(page.locator("#engine-result")).to_be_hidden()
    page.wait_for_timeout(1000)  # a poll under way ends
    requests.clear()
    page.fill("#move-input", "h2e2")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list td.move")).to_have_count(1)
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#engine-toggle")).not_to_be_checked()
    expect(page.locator("#engine[data-state='off']")).to_have_count(1)
    page.wait_for_timeout(1500)
    assert requests == []
    with page.expect_request(lambda r: ENGINE_API in r.url and r.method == "POST"):
        page.locator("#engine-toggle").click()
    expect(page.locator("#engine[data-state='pending']")).to_have_count(1)
    expect(page.locator("#engine-toggle")).to_be_checked()


def test_a_hidden_tab_asks_nothing_until_it_is_shown_again(
    page: Page, live_server: Any, settings: Any
) -> None:
    settings.ANALYSIS_SEARCHES_AT_ONCE = 0
    requests = engine_requests(page)
    open_board(page, "variant=feidan")
    expect(page.locator("#engine[data-state='pending']")).to_have_count(1)
    visibility = """hidden => {
        Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }"""
    page.evaluate(visibility, True)
    expect(page.locator("#engine[data-state='paused']")).to_have_count(1)
    page.wait_for_timeout(1000)  # a poll under way ends
    requests.clear()
    page.wait_for_timeout(1500)
    assert requests == []
    with page.expect_request(lambda r: ENGINE_API in r.url):
        page.evaluate(visibility, False)
    expect(page.locator("#engine[data-state='pending']")).to_have_count(1)


def test_the_engine_finds_a_forced_mate_and_shows_it(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    """A mate in 2 loaded by its FEN: the bar and number lean to Red (M2), the best line is
    said in Chinese notation with ICCS beside it, the mate is proved forced (nothing deeper is
    asked), and "show it" plays the mate out on the board."""
    open_board(page, f"variant=xiangqi&fen={quote(MATE_IN_2)}")
    expect(page.locator("#engine[data-state='final']")).to_have_count(1, timeout=60_000)
    expect(page.locator("#engine-error")).to_be_hidden()
    expect(page.locator("#engine-verdict")).to_contain_text("红方")
    expect(page.locator("#engine-number")).to_have_text("M2")
    expect(page.locator("#eval-bar")).to_have_attribute("aria-valuenow", "100")
    first = page.locator("#engine-lines li").first
    expect(first.locator(".engine-line-score")).to_have_text("M2")
    key = first.locator(".engine-move").first
    expect(key).to_have_attribute("data-iccs", MATE_IN_2_KEY)
    expect(key.locator(".chinese")).to_have_text("兵三进一")
    expect(key.locator(".iccs")).to_have_text(MATE_IN_2_KEY)
    expect(page.locator("#engine-mate")).to_contain_text("2 步杀")
    expect(page.locator("#engine-mate")).to_contain_text("连杀")
    expect(page.locator("#engine-mate")).to_have_attribute("data-forced", "1")
    page.screenshot(path=str(artifacts / "analysis-engine-mate.png"))
    page.locator("#engine-show").click()
    expect(page.locator("#engine[data-shown='1']")).to_have_count(1, timeout=30_000)
    expect(page.locator("#status")).to_have_attribute("data-termination", "checkmate")
    expect(page.locator("#move-list td.move")).to_have_count(3)
    expect(page.locator("#move-list td.move").first).to_have_attribute("data-iccs", MATE_IN_2_KEY)
    expect(page.locator("#engine[data-state='over']")).to_have_count(1)
    page.screenshot(path=str(artifacts / "analysis-engine-mate-shown.png"))


def test_a_click_on_a_move_of_a_line_plays_the_line_up_to_it(
    page: Page, live_server: Any, celery_worker: Any
) -> None:
    open_board(page, "variant=xinban")
    answered(page)
    second = lines(page)[1]["moves"][:2]
    page.locator("#engine-lines li").nth(1).locator(".engine-move").nth(1).click()
    expect(page.locator("#move-list td.move")).to_have_count(2)
    played = page.eval_on_selector_all(
        "#move-list td.move", "cells => cells.map(c => c.dataset.iccs)"
    )
    assert played == [move["iccs"] for move in second]
    answered(page)  # the engine looks at the new position in its turn


def test_another_tabs_position_takes_the_engine_and_the_first_tab_says_so(
    page: Page, live_server: Any, settings: Any
) -> None:
    """While the first tab's search waits its turn, a second tab of the same visitor shows
    another position: the engine looks at that one, and the first tab says why it stopped.
    No analysis may run here, so the first search waits whether or not a worker is up."""
    settings.ANALYSIS_SEARCHES_AT_ONCE = 0
    # the first tab's question must reach the server before the second tab's: under load its
    # request could otherwise arrive second and take the engine back
    with page.expect_response(
        lambda response: response.request.method == "POST" and response.url.endswith(ENGINE_API)
    ):
        open_board(page, "variant=xinban")
    expect(page.locator("#engine-pending")).to_be_visible()
    other = page.context.new_page()
    open_board(other, "variant=xinban&moves=h2e2")
    expect(other.locator("#engine[data-state='pending']")).to_have_count(1)
    expect(page.locator("#engine[data-state='superseded']")).to_have_count(1)
    expect(page.locator("#engine-note")).to_contain_text("另一个局面")
    expect(page.locator("#engine-pending")).to_be_hidden()
    expect(other.locator("#engine-error")).to_be_hidden()
    other.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LOCALES)
def test_the_engine_panel_in_both_languages_and_sizes(
    browser: Browser,
    live_server: Any,
    celery_worker: Any,
    size: str,
    language: str,
    artifacts: Path,
) -> None:
    context = browser.new_context(
        base_url=live_server.url,
        viewport=SIZES[size],
        locale=LOCALES[language],
        bypass_csp=True,
        **(
            {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
            if size == "phone"
            else {}
        ),
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_board(page, f"variant=xiangqi&fen={quote(RED_AHEAD_BLACK_TO_MOVE)}")
        answered(page)
        assert len(lines(page)) == 3
        assert all(line["cp"] > 0 for line in lines(page))
        panel = page.locator("#engine")
        if language == "en":
            expect(page.locator("#engine-info")).to_contain_text(re.compile(r", depth \d+"))
            expect(panel).to_contain_text("from Red’s side")
            expect(page.locator("#engine-verdict")).to_contain_text("Red")
            expect(page.locator("#engine-toggle + span")).to_have_text("Engine")
        else:
            expect(page.locator("#engine-info")).to_contain_text(re.compile(r"，深度 \d+"))
            expect(page.locator("#engine-toggle + span")).to_have_text("引擎")
            for text in page.locator("#engine").all_inner_texts():
                for paragraph in text.split("\n"):
                    assert not chinese_text_faults(paragraph), paragraph
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        box = panel.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
        switch = page.locator("#engine-toggle").bounding_box()
        assert switch is not None and switch["width"] >= 24 and switch["height"] >= 16
        panel.screenshot(path=str(artifacts / f"analysis-engine-{language}-{size}.png"))
        assert not errors, errors
    finally:
        context.close()
