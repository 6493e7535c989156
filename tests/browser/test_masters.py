"""The master games library in real headless Chromium: a search in Chinese finds a player
written in either script, a game opens as its replay with its players, event and the source's
credit, and its moves step back and forth; on a phone in English the pages fit the width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from core.masters import import_collection
from games.library import master_games_load
from tests.games.test_masters import record, write_source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def library(tmp_path: Path) -> None:
    games = [
        record(1),
        record(3, ["炮二平五", "馬８進７", "馬二進三", "車一進九"], red="呂欽", black="許銀川",
               event="全國象棋個人賽", date="2001.5.1"),
    ]  # fmt: skip
    source = write_source(tmp_path / "source.jsonl.gz", [json.dumps(g) for g in games])
    import_collection(source, tmp_path / "shipped.jsonl.gz")
    master_games_load(tmp_path / "shipped.jsonl.gz")


def fits_the_width(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


@pytest.mark.usefixtures("library")
def test_a_master_game_is_found_opened_and_replayed(page: Page, artifacts: Path) -> None:
    page.goto("/play/")
    page.get_by_test_id("masters-link").click()
    expect(page.get_by_test_id("masters-list")).to_contain_text("柳大华 – 吴贵临")
    page.fill("#masters-q", "呂欽")  # traditional characters find the same game
    page.locator("[data-testid='masters-search'] button").click()
    rows = page.locator("[data-testid='masters-list'] tbody tr")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("吕钦 – 许银川")
    rows.get_by_role("link").click()

    expect(page.get_by_test_id("record-players")).to_contain_text("吕钦 – 许银川")
    expect(page.get_by_test_id("record-players")).to_contain_text("全国象棋个人赛")
    expect(page.get_by_test_id("record-stop")).to_contain_text("第 4 着（車一進九）")
    expect(page.get_by_test_id("masters-credit")).to_contain_text("CC BY 4.0")
    moves = page.locator("[data-testid='moves'] li")
    expect(moves).to_have_count(2)  # three plies: two numbered moves
    expect(page.get_by_test_id("result-line")).to_be_hidden()  # at the last move, the status
    last_fen = page.locator("#board").get_attribute("data-fen")
    page.click("#first")
    expect(page.get_by_test_id("replay-ply")).to_contain_text("开局局面")
    page.click("#next")
    expect(page.get_by_test_id("replay-ply")).to_contain_text("1")
    expect(page.get_by_test_id("result-line")).to_contain_text("红方胜")
    # Home and End: to the start and to the last move, from the keyboard.
    page.keyboard.press("End")
    expect(page.get_by_test_id("result-line")).to_be_hidden()
    expect(page.locator("#board")).to_have_attribute("data-fen", last_fen)
    page.keyboard.press("Home")
    expect(page.get_by_test_id("replay-ply")).to_contain_text("开局局面")
    assert page.evaluate("window.scrollY") == 0  # the keys moved the replay, not the page
    page.screenshot(path=str(artifacts / "master-game-zh.png"))


@pytest.mark.usefixtures("library")
def test_the_library_fits_a_phone(phone: Page, artifacts: Path) -> None:
    phone.goto("/play/masters/")
    expect(phone.get_by_test_id("masters-list")).to_contain_text("柳大華 – 吳貴臨")
    assert fits_the_width(phone)
    phone.screenshot(path=str(artifacts / "masters-phone.png"))
    phone.goto("/play/masters/1/")
    expect(phone.get_by_test_id("masters-credit")).to_contain_text("Chinese Chess Practical")
    assert fits_the_width(phone)
