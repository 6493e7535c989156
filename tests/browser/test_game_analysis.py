"""The computer's analysis of a finished game in real headless Chromium, on a real Celery
worker: a game at one board in which Black throws a cannon away, resigned, then analysed on
its page: the evaluation graph (an SVG with its title and the numbers as a table), the marked
move with its symbol and the engine's better move, a click on the mark or on the graph going
to that ply, the keyboard too; in Chinese at 1280 × 800, in English at 390 × 844 (nothing wider
than the phone). Screenshots land in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.game_analysis import GAME_ANALYSIS_NODES, SETTLE_FACTOR, analysis_judge
from games.models import GameAnalysis
from tests.browser.test_play import DESKTOP, PHONE, click_move, start
from tests.text_rules import chinese_text_faults

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

BLUNDER_GAME = ["h2e2", "h9g7", "h0g2", "h7h0", "g2h0"]


def test_a_finished_game_is_analysed_and_its_marks_lead_to_their_moves(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    page.set_viewport_size(DESKTOP)
    gid = start(page, "xiangqi", mode="local")
    panel = page.locator("#game-analysis")
    expect(panel).to_be_hidden()  # the game goes on: nothing to analyse yet
    for plies, move in enumerate(BLUNDER_GAME, start=1):
        click_move(page, move)
        expect(page.locator("#board")).to_have_attribute("data-plies", str(plies))
    page.click("#resign")
    page.click("#resign")  # confirmed
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("电脑分析")
    judge = analysis_judge("xiangqi")
    nodes = f"{GAME_ANALYSIS_NODES[judge.name]:,}"
    expect(panel).to_contain_text(f"每个局面 {nodes} 个节点，最多 300 个半回合")
    page.click("#analysis-ask")
    svg = page.locator("[data-testid='analysis-svg']")
    expect(svg).to_have_count(1, timeout=120_000)
    assert GameAnalysis.objects.get(game_id=gid).status == "done"
    expect(svg.locator("title").first).to_have_text("形势图：每步之后红方的胜算")
    expect(svg.locator("desc")).to_contain_text("中线表示均势")

    # the thrown cannon: marked in the list of marks and in the game's own move list
    mark = page.locator("#analysis-marks li").first
    expect(mark).to_contain_text("炮8进7")
    expect(mark).to_contain_text("引擎更愿意走")
    expect(mark.locator(".analysis-symbol")).to_have_text(re.compile(r"^ \?{1,2}$"))
    expect(page.locator("#moves button[data-ply='4'] .analysis-symbol")).to_have_count(1)
    expect(page.locator("#moves button[data-ply='1'] .analysis-symbol")).to_have_count(0)
    expect(page.locator("#analysis-summary")).to_contain_text("黑方")
    # the page names the engine that judged, its budget and how deep it looked
    said = page.locator("[data-testid='analysis-judge']")
    expect(said).to_contain_text(f"每个局面 {nodes} 个节点")
    expect(said).to_contain_text("Fairy-Stockfish" if judge.name == "fairy-stockfish" else "本站")
    # the thrown cannon was a close call at the budget (a drop of about 0.35): searched again
    settle_nodes = f"{GAME_ANALYSIS_NODES[judge.name] * SETTLE_FACTOR:,}"
    settled = GameAnalysis.objects.get(game_id=gid).result["judge"]["settled"]
    assert settled >= 1
    expect(said).to_contain_text(f"以 {settle_nodes} 个节点重新搜索后才定论")
    expect(page.locator("[data-testid='analysis-learn']")).to_have_text("从错误中学习（1 处）")
    # the numbers as text: the start and one row a move
    page.locator("#analysis-numbers summary").click()
    rows = page.locator("[data-testid='analysis-table'] tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.nth(4)).to_contain_text("炮8进7")
    expect(rows.nth(5)).to_contain_text("%")
    faults = chinese_text_faults(panel.inner_text())
    assert not faults, faults
    page.screenshot(path=str(artifacts / "game-analysis-1280x800.png"), full_page=True)

    # a marked move goes to its ply; so does the keyboard; so does a point of the graph
    mark.locator("button").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "4")
    cursor = page.locator("[data-testid='analysis-cursor']")
    x_at_four = float(cursor.get_attribute("x1") or 0)
    page.click("#first")
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    assert float(cursor.get_attribute("x1") or 0) < x_at_four  # the cursor follows
    mark.locator("button").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-ply", "4")
    box = svg.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * 0.405, box["y"] + box["height"] / 2)
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")

    # asked again after a reload: the same analysis, shown at once
    page.reload()
    expect(page.locator("[data-testid='analysis-svg']")).to_have_count(1)
    expect(page.locator("#analysis-ask")).to_be_hidden()
    assert GameAnalysis.objects.count() == 1

    # in English on a phone
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.set_viewport_size(PHONE)
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(panel).to_contain_text("Computer analysis")
    expect(panel).to_contain_text(f"({nodes} nodes each, up to 300 plies)")
    expect(page.locator("[data-testid='analysis-judge']")).to_contain_text(
        f"at {nodes} nodes a position"
    )
    expect(page.locator("[data-testid='analysis-judge']")).to_contain_text(
        ("One close call was" if settled == 1 else f"{settled} close calls were")
        + f" searched again at {settle_nodes} nodes"
    )
    expect(page.locator("#analysis-marks li").first).to_contain_text("The engine prefers")
    expect(page.locator("[data-testid='analysis-svg'] title").first).to_have_text(
        "Evaluation graph: Red's chances after each move"
    )
    panel.scroll_into_view_if_needed()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    graph = page.locator("[data-testid='analysis-svg']").bounding_box()
    assert graph is not None and graph["width"] <= PHONE["width"]
    button = page.locator("#analysis-marks li button").first.bounding_box()
    assert button is not None and button["height"] >= 30  # a finger can hit it
    page.locator("#analysis-marks li button").first.click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "4")
    page.screenshot(path=str(artifacts / "game-analysis-390x844.png"), full_page=True)


def test_learn_from_your_mistakes_replays_each_mistake_as_a_position_to_find_a_better_move(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    """The thrown cannon of the game above: the move played is asked again, a move that is
    not better says the chances it leaves and can be tried again, a move about as good as the
    best is found; in English on a phone, the best move shown instead; both end with a count."""
    page.set_viewport_size(DESKTOP)
    gid = start(page, "xiangqi", mode="local")
    for plies, move in enumerate(BLUNDER_GAME, start=1):
        click_move(page, move)
        expect(page.locator("#board")).to_have_attribute("data-plies", str(plies))
    page.click("#resign")
    page.click("#resign")
    page.click("#analysis-ask")
    learn = page.locator("[data-testid='analysis-learn']")
    expect(learn).to_be_visible(timeout=120_000)
    (step,) = GameAnalysis.objects.get(game_id=gid).result["learn"]
    answer = step["answers"][-1]
    worse = next(m for m, said in step["moves"].items() if m not in step["answers"] and m != "h7h0")
    learn.click()
    expect(page).to_have_url(re.compile(f"/play/{gid}/learn/$"))
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("[data-testid='learn-progress']")).to_have_text("第 1 处，共 1 处")
    expect(page.locator("[data-testid='learn-prompt']")).to_contain_text("黑方走了炮8进7 (h7h0)")
    feedback = page.locator("[data-testid='learn-feedback']")
    click_move(page, "h7h0")  # the move of the game
    expect(feedback).to_have_text("这就是对局中走的那步棋。再找找别的着法。")
    click_move(page, worse)
    expect(feedback).to_contain_text("并不更好")
    expect(feedback).to_contain_text("%")
    page.click("[data-testid='learn-retry']")
    expect(feedback).to_have_text("")
    click_move(page, answer)
    expect(feedback).to_contain_text("找得好")
    expect(feedback).to_have_attribute("data-kind", "good")
    faults = chinese_text_faults(page.locator("[data-testid='learn-panel']").inner_text())
    assert not faults, faults
    page.screenshot(path=str(artifacts / "learn-1280x800.png"), full_page=True)
    page.click("[data-testid='learn-next']")
    expect(feedback).to_have_text("1 处错着中，你找到了 1 处的更好着法。")

    # in English on a phone: the best move shown, nothing found
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.set_viewport_size(PHONE)
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("[data-testid='learn-prompt']")).to_contain_text(
        "Find a better move for Black"
    )
    page.click("[data-testid='learn-show']")
    expect(feedback).to_contain_text("The judge's best move here: ")
    expect(feedback).to_contain_text(step["best"]["iccs"])
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    page.screenshot(path=str(artifacts / "learn-390x844.png"), full_page=True)
    page.click("[data-testid='learn-next']")
    expect(feedback).to_have_text("You found a better move at 0 of 1 mistakes.")
