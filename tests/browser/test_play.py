"""Playing in real headless Chromium against the computer on a real Celery worker: a feidan
game with a secret setup (a fault explained, the reveal, a few moves answered, resign), a
xinban game where a capture makes a turncoat defect on the board, a game at one board replayed
move by move, its moves numbered as players count them; the computer offering a draw (taken,
declined), resigning a lost game with its reason, and its clock running while it thinks; a
finished game shared and replayed by someone else until its link is taken back.
Screenshots at 1280 × 800 and 390 × 844 land in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine import Position
from games.models import Game
from tests.text_rules import chinese_text_faults

YOUR_TURN = re.compile(r"^(your-turn|check)$")

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def point(page: Page, square: str) -> tuple[float, float]:
    page.locator("#board").scroll_into_view_if_needed()
    box = page.locator("#board .xb-wrap").bounding_box()
    assert box is not None
    width = 11 if "xb-11x10" in (page.get_attribute("#board", "class") or "") else 9
    red = page.get_attribute("#board", "data-orientation") == "red"
    file, rank = ord(square[0]) - ord("a"), int(square[1:])
    col = file if red else width - 1 - file
    row = 9 - rank if red else rank
    return (
        box["x"] + (col + 0.5) * box["width"] / width,
        box["y"] + (row + 0.5) * box["height"] / 10,
    )


def click_move(page: Page, move: str) -> None:
    page.mouse.click(*point(page, move[:2]))
    page.mouse.click(*point(page, move[2:]))


def arrange(page: Page, move: str) -> None:
    """Move a piece of the half being arranged, and wait until the board shows it.

    The list of faults may say "legal" both before and after the move, so it cannot tell
    that the move has been made; the board's position can.
    """
    board = page.locator("#board")
    before = board.get_attribute("data-fen") or ""
    click_move(page, move)
    expect(board).not_to_have_attribute("data-fen", before)


def start(page: Page, variant: str, setup: str | None = None, **choices: str) -> int:
    page.goto("/play/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.select_option("#variant", variant)
    if setup:
        page.select_option("#setup", setup)
    for name, value in choices.items():
        if name in ("red-rules", "black-rules", "level"):
            page.select_option(f"#{name}", value)
        else:
            page.check(f"input[name='{name}'][value='{value}']")
    page.click("#start-game")
    page.wait_for_url("**/play/*/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def wait_my_turn(page: Page, plies: int) -> None:
    """The computer has answered: it is the learner's move, in check or not (the computer's
    secret half is drawn at random, so its first moves may give check)."""
    expect(page.locator("#board")).to_have_attribute("data-plies", str(plies), timeout=60_000)
    expect(page.locator("#status")).to_have_attribute("data-kind", YOUR_TURN, timeout=60_000)


def test_feidan_secret_setup_against_the_computer_then_resign(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    page.set_viewport_size(DESKTOP)
    gid = start(page, "feidan", "five_soldiers", mode="computer", side="red", level="1")
    expect(page.locator("#setup-panel")).to_be_visible()
    expect(page.locator("#violations li.ok")).to_have_count(1)
    # the general walks out of its palace: the engine explains the fault at once
    arrange(page, "f0f4")
    expect(page.locator("#violations li[data-code='general_outside_palace']")).to_contain_text(
        "九宫"
    )
    expect(page.locator("#setup-reveal")).to_be_disabled()
    page.screenshot(path=str(artifacts / "play-secret-setup-fault.png"))
    arrange(page, "f4f0")
    # two chariots trade places with the horses: a legal secret half of one's own
    arrange(page, "b0c0")
    arrange(page, "j0i0")
    expect(page.locator("#violations li.ok")).to_have_count(1)
    mine = {p: v for p, v in Position.start("feidan").pieces().items() if v.isupper()}
    mine["b0"], mine["c0"], mine["j0"], mine["i0"] = "N", "R", "N", "R"
    for _ in range(20):  # a void reveal is set up again
        page.click("#setup-reveal")
        page.wait_for_function("() => !window.gamePage.state.busy")
        if Game.objects.get(pk=gid).status == "playing":
            break
    game = Game.objects.get(pk=gid)
    assert game.status == "playing"
    start_pieces = Position.from_fen("feidan", game.start_fen).pieces()
    assert {p: v for p, v in start_pieces.items() if v.isupper()} == mine
    expect(page.locator("#setup-panel")).to_be_hidden()
    wait_my_turn(page, 0)

    for plies in (0, 2, 4):
        legal = page.evaluate("() => window.gamePage.state.game.legal_moves")
        quiet = [m for m in legal if m[:2] not in ("a0", "k0")]
        click_move(page, quiet[0])
        wait_my_turn(page, plies + 2)
    page.screenshot(path=str(artifacts / "play-feidan-1280x800.png"))
    game = Game.objects.get(pk=gid)
    assert [m["by"] for m in game.moves] == ["player", "computer"] * 3

    page.click("#resign")
    expect(page.locator("#resign")).to_have_attribute("data-armed", "1")  # asks first
    assert Game.objects.get(pk=gid).status == "playing"
    page.click("#resign")
    expect(page.locator("#status")).to_have_attribute("data-kind", "over")
    expect(page.locator("#status")).to_contain_text("认输")
    assert Game.objects.get(pk=gid).termination == "resignation"
    # replay: back to the start and forward again; the links follow the shown move
    page.click("#first")
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    expect(page.locator("#board")).to_have_attribute("data-fen", game.start_fen)
    expect(page.locator("#replay-ply")).to_have_text("开局局面")  # a position, not a button
    # the result stays in sight while the game is replayed, and goes at its last move
    expect(page.locator("#result-line")).to_be_visible()
    expect(page.locator("#result-line")).to_contain_text("结果：红方认输")
    expect(page.locator("#status")).to_contain_text("回放：开局局面")
    page.click("#next")
    page.click("#next")
    expect(page.locator("#board")).to_have_attribute("data-fen", game.moves[1]["fen"])
    analyse = page.get_attribute("#analyse-link", "href") or ""
    assert "moves=" + "%2C".join(m["iccs"] for m in game.moves[:2]) in analyse
    page.click("#last")
    expect(page.locator("#result-line")).to_be_hidden()
    expect(page.locator("#status")).to_contain_text("认输")
    page.click("#prev")
    page.screenshot(path=str(artifacts / "play-feidan-resigned.png"), full_page=True)
    page.goto("/play/games/")
    expect(page.locator(f"a[href='/play/{gid}/']")).to_have_count(1)


def test_xinban_defection_on_the_board(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    page.set_viewport_size(PHONE)
    gid = start(page, "xinban", mode="computer", side="red", level="1", **{"red-rules": "new"})
    assert Game.objects.get(pk=gid).setup == "new"
    wait_my_turn(page, 0)
    # the totals, and when the attack-power draw may be declared (not now: its button waits)
    expect(page.locator("#attack-power")).to_contain_text("双方都低于 10 时")
    expect(page.locator("#claim")).to_be_disabled()
    click_move(page, "h2h9")  # the cannon takes the turncoat horse: it defects to h2
    expect(page.locator("#moves li button").first).to_have_attribute("data-effect", "defection")
    expect(page.locator("#moves li").first).to_contain_text("反间策反")
    after = Game.objects.get(pk=gid).moves[0]
    assert after["effect"] == "defection"
    assert Position.from_fen("xinban", after["fen"]).piece_at("h2") == "N"
    wait_my_turn(page, 2)
    page.click("#first")
    page.click("#next")
    expect(page.locator("#board")).to_have_attribute("data-fen", after["fen"])
    # the defected horse stands, plain and red, on the cannon's old point (Red's own horses
    # are turncoats, drawn apart): one plain red horse on the board
    expect(page.locator("#board piece.n-piece.white:not(.fading)")).to_have_count(1)
    page.screenshot(path=str(artifacts / "play-xinban-defection-390x844.png"), full_page=True)


def test_two_players_at_one_board_on_a_phone(phone: Page, artifacts: Path) -> None:
    page = phone
    page.goto("/play/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.check("input[name='mode'][value='local']")
    expect(page.locator("#level")).to_be_hidden()
    page.screenshot(path=str(artifacts / "play-new-game-390x844.png"), full_page=True)
    page.click("#start-game")
    page.wait_for_url("**/play/*/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    click_move(page, "h2e2")
    expect(page.locator("#board")).to_have_attribute("data-plies", "1")
    expect(page.locator("#status")).to_contain_text("Black to move")
    click_move(page, "a6b6")  # a black soldier steps sideways before the river
    expect(page.locator("#explanation")).to_contain_text("river")
    expect(page.locator("#board")).to_have_attribute("data-plies", "1")
    page.fill("#move-input", "马8进7")
    page.press("#move-input", "Enter")
    expect(page.locator("#board")).to_have_attribute("data-plies", "2")
    expect(page.locator("#moves li")).to_have_count(1)  # one move: Red's and Black's plies
    expect(page.locator("#moves li button")).to_have_count(2)
    page.click("#prev")
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(page.locator("#status")).to_contain_text("Replay: Move 1, Red (ply 1 of 2)")
    page.click("#flip")
    expect(page.locator("#board")).to_have_attribute("data-orientation", "black")
    puzzle = page.get_attribute("#puzzle-link", "href") or ""
    assert puzzle.startswith("/puzzles/create/?variant=xiangqi&fen=")
    page.screenshot(path=str(artifacts / "play-local-390x844.png"), full_page=True)
    # at one board both players agree a draw: the first click asks, the second ends the game
    page.click("#last")
    draw = page.locator("#draw")
    expect(draw).to_have_text("Agree a draw")
    draw.click()
    expect(draw).to_have_attribute("data-armed", "1")
    expect(draw).to_have_text("Click again: both agree to a draw")
    expect(page.locator("#status")).not_to_have_attribute("data-kind", "over")
    draw.click()
    expect(page.locator("#status")).to_have_attribute("data-kind", "over")


def test_a_plum_blossom_start_shows_its_hexagram_and_why(page: Page, artifacts: Path) -> None:
    page.set_viewport_size(DESKTOP)
    gid = start(page, "feidan", "plum_blossom", mode="computer", side="red", level="2")
    info = Game.objects.get(pk=gid).setup_info
    expect(page.locator("#plum-panel")).to_be_visible()
    expect(page.locator("#plum-hexagram")).to_contain_text(info["hexagram"])
    why = page.locator("#plum-why")
    expect(why).to_contain_text(info["lunar_date"])
    expect(why).to_contain_text(f"S = {info['number']}")
    expect(why).to_contain_text(f"第 {info['arrangement_index']} 种")
    # typeset as Chinese once filled in, and without the English gloss
    assert not chinese_text_faults(why.inner_text())
    assert info["hexagram_english"] not in why.inner_text() + page.inner_text("#plum-hexagram")
    expect(page.locator("#board")).to_have_attribute("data-fen", Game.objects.get(pk=gid).start_fen)
    page.screenshot(path=str(artifacts / "play-plum-blossom-1280x800.png"))


def test_make_a_puzzle_and_analyse_from_a_games_position(
    page: Page, live_server: Any, artifacts: Path
) -> None:
    from django.test import Client

    from accounts.models import User

    user = User.objects.create_user(username="player", password="a-long-test-password")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    gid = start(page, "xiangqi", mode="local")
    click_move(page, "h2e2")
    expect(page.locator("#board")).to_have_attribute("data-plies", "1")
    fen = Game.objects.get(pk=gid).moves[0]["fen"]
    page.click("#puzzle-link")
    page.wait_for_url("**/puzzles/create/**")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    # the editor keeps the board and the side to move (its own counters start again)
    expect(page.locator("#editor-fen")).to_have_value(fen.replace(" - - 1 1", " - - 0 1"))
    expect(page.locator("#editor-turn")).to_have_value("b")
    page.go_back()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#board")).to_have_attribute("data-plies", "1")  # not a stale page
    page.click("#analyse-link")
    page.wait_for_url("**/analysis/**")
    expect(page.locator("#board")).to_have_attribute("data-fen", fen, timeout=15_000)


def test_a_secret_setup_as_black_on_a_phone(phone: Page, artifacts: Path) -> None:
    page = phone
    gid = start(page, "feidan", "middle_soldier", mode="computer", side="black", level="1")
    expect(page.locator("#setup-panel")).to_be_visible()
    expect(page.locator("#board")).to_have_attribute("data-orientation", "black")
    expect(page.locator("#violations li.ok")).to_have_count(1)
    click_move(page, "b6b8")  # a soldier behind its start rank
    expect(page.locator("#violations li[data-code='soldier_behind_start_rank']")).to_have_count(1)
    expect(page.locator("#violations")).to_contain_text("b8")
    page.screenshot(path=str(artifacts / "play-secret-setup-black-390x844.png"), full_page=True)
    assert Game.objects.get(pk=gid).status == "setting_up"


def test_the_move_list_numbers_moves_not_plies(page: Page, artifacts: Path) -> None:
    page.set_viewport_size(DESKTOP)
    gid = start(page, "xiangqi", mode="local")
    # the side panel stands beside the board, not across an empty half of the page
    board = page.locator("#board .xb-wrap").bounding_box()
    side = page.locator(".game-side").bounding_box()
    assert board and side and 0 < side["x"] - (board["x"] + board["width"]) < 120
    for plies, move in enumerate(("h2e2", "h9g7", "h0g2"), start=1):
        click_move(page, move)
        expect(page.locator("#board")).to_have_attribute("data-plies", str(plies))
    rows = page.locator("#moves li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator(".move-number")).to_have_text("1.")
    expect(rows.nth(0).locator("button")).to_have_count(2)
    expect(rows.nth(0).locator("button").nth(1)).to_have_attribute("data-side", "black")
    expect(rows.nth(1).locator(".move-number")).to_have_text("2.")
    expect(rows.nth(1).locator("button")).to_have_count(1)
    expect(rows.nth(1)).to_contain_text("马二进三")
    page.click("#moves li[data-number='1'] button[data-side='black']")
    expect(page.locator("#replay-ply")).to_have_text("第 1 回合，黑方")
    # at one board a takeback undoes the last ply, and that move is played again
    page.click("#takeback")
    expect(page.locator("#board")).to_have_attribute("data-plies", "2")
    expect(rows).to_have_count(1)
    click_move(page, "h0g2")
    expect(page.locator("#board")).to_have_attribute("data-plies", "3")

    # a start with Black to move: "1. … (Black's move)"
    black_start = Position.start("xiangqi").fen().replace(" w ", " b ")
    Game.objects.filter(pk=gid).update(start_fen=black_start, moves=[])
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    click_move(page, "h9g7")
    expect(page.locator("#board")).to_have_attribute("data-plies", "1")
    click_move(page, "h2e2")
    expect(page.locator("#board")).to_have_attribute("data-plies", "2")
    rows = page.locator("#moves li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator(".move-number")).to_have_text("1.")
    expect(rows.nth(0).locator(".move-gap")).to_have_text("…")
    expect(rows.nth(0).locator("button")).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("马8进7")
    expect(rows.nth(1).locator(".move-number")).to_have_text("2.")
    expect(rows.nth(1)).to_contain_text("炮二平五")
    page.screenshot(path=str(artifacts / "play-move-numbers.png"), full_page=True)


def test_the_computer_offers_a_draw_and_it_is_accepted_on_the_page(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    from engine.play.decisions import DRAW_OFFER_AFTER
    from games.tasks import game_computer_move_task
    from tests.games.conftest import even_history

    page.set_viewport_size(DESKTOP)
    gid = start(page, "xiangqi", mode="computer", side="red", level="7")
    plies = 2 * (DRAW_OFFER_AFTER - 1) + 1  # a long dead-even endgame, the computer to move
    even_history(gid, plies)
    game_computer_move_task.delay(gid, plies).get(timeout=60)
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    offer = page.locator("#computer-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("电脑提议和棋")
    expect(page.locator("#offer-accept")).to_have_text("接受和棋")
    page.screenshot(path=str(artifacts / "play-computer-offers-a-draw.png"))
    page.click("#offer-accept")
    expect(page.locator("#status")).to_have_attribute("data-kind", "over")
    expect(page.locator("#status")).to_contain_text("双方同意和棋")
    expect(offer).to_be_hidden()
    game = Game.objects.get(pk=gid)
    assert game.termination == "agreement" and game.draw_offers[-1]["accepted"] is True


def test_a_declined_offer_goes_and_the_game_plays_on(
    page: Page, live_server: Any, celery_worker: Any
) -> None:
    from engine.play.decisions import DRAW_OFFER_AFTER
    from games.tasks import game_computer_move_task
    from tests.games.conftest import even_history

    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    gid = start(page, "xiangqi", mode="computer", side="red", level="7")
    plies = 2 * (DRAW_OFFER_AFTER - 1) + 1
    even_history(gid, plies)
    game_computer_move_task.delay(gid, plies).get(timeout=60)
    page.reload()
    expect(page.locator("#computer-offer")).to_contain_text("The computer offers a draw.")
    page.click("#offer-decline")
    expect(page.locator("#computer-offer")).to_be_hidden()
    expect(page.locator("#status")).to_have_attribute("data-kind", "your-turn")
    game = Game.objects.get(pk=gid)
    assert game.status == "playing" and game.draw_offers[-1]["accepted"] is False


def test_the_computer_resigns_a_lost_game_with_its_reason(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    import random
    import time

    from tests.games.conftest import LOST_FOR_BLACK
    from tests.games.test_endings_by_the_computer import quiet_red_move

    page.set_viewport_size(DESKTOP)
    gid = start(page, "xiangqi", mode="computer", side="red", level="3")
    Game.objects.filter(pk=gid).update(start_fen=LOST_FOR_BLACK.replace(" b ", " w "), seed=1)
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    rng = random.Random(2)
    for turn in range(4):
        click_move(page, quiet_red_move(gid, rng))
        answered = 2 * turn + 2
        for _wait in range(300):  # the computer's answer: a move, or its resignation
            game = Game.objects.get(pk=gid)
            if game.status == "finished" or game.ply >= answered:
                break
            time.sleep(0.2)
        if game.status == "finished":
            break
        wait_my_turn(page, answered)
    expect(page.locator("#status")).to_have_attribute("data-kind", "over")
    expect(page.locator("#status")).to_contain_text("黑方（电脑）认输")
    game = Game.objects.get(pk=gid)
    assert game.termination == "resignation" and game.winner == "red"
    page.screenshot(path=str(artifacts / "play-computer-resigns.png"))


def test_the_clock_runs_while_the_computer_thinks(
    page: Page, live_server: Any, celery_worker: Any, artifacts: Path
) -> None:
    from django.utils import timezone

    from games.tasks import game_computer_move_task

    page.set_viewport_size(DESKTOP)
    gid = start(page, "xiangqi", mode="computer", side="black", level="1")
    wait_my_turn(page, 1)
    # a minute each, and a worker has just started the computer's (Red's) search: its clock
    # runs; its move was handed to the workers just now, so a poll does not hand it over again
    now = timezone.now()
    Game.objects.filter(pk=gid).update(
        clock_initial_ms=60_000,
        red_clock_ms=60_000,
        black_clock_ms=60_000,
        moves=[],
        human_side="black",
        start_fen=Position.start("xiangqi").fen(),
        turn_started_at=now,
        computer_queued_at=now,
        computer_dispatched_at=now,
    )
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-kind", "thinking")
    # the sign that it thinks is a drawn, turning ring: no emoji a font may lack
    after = page.evaluate(
        "() => { const s = getComputedStyle(document.getElementById('status'), '::after');"
        " return [s.content, s.animationName]; }"
    )
    assert after == ['""', "thinking-turn"]
    top = page.locator("#clock-top")  # Black plays from the bottom: Red's clock is on top
    expect(top).to_have_class("clock running")
    expect(top).to_contain_text("红方")
    expect(top).to_contain_text("0:5", timeout=15_000)  # down from 1:00 while it thinks
    page.screenshot(path=str(artifacts / "play-clock-while-thinking.png"))
    game_computer_move_task.delay(gid, 0).get(timeout=60)
    wait_my_turn(page, 1)
    game = Game.objects.get(pk=gid)
    assert game.moves[0]["by"] == "computer" and game.moves[0]["spent_ms"] >= 1_000
    assert game.red_clock_ms == game.moves[0]["clock_ms"] <= 59_000
    expect(page.locator("#clock-bottom")).to_have_class("clock running")
    seconds = -(-game.red_clock_ms // 1000)  # the page rounds up
    expect(top).to_have_text(f"红方 0:{seconds:02d}")


def test_the_new_game_form_shows_the_server_s_refusal(page: Page) -> None:
    page.goto("/play/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    # past the form's own limit (the browser's check switched off): the server says why
    page.evaluate("() => { document.getElementById('new-game').noValidate = true; }")
    page.fill("#clock-minutes", "500")
    page.click("#start-game")
    error = page.locator("#new-game-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("180")
    expect(page.locator("#start-game")).to_be_enabled()
    assert Game.objects.count() == 0


def test_a_draw_offered_while_the_computer_thinks_is_answered_after_its_move(
    page: Page, live_server: Any, celery_worker: Any
) -> None:
    from django.utils import timezone

    from games.tasks import game_computer_move_task

    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    gid = start(page, "xiangqi", mode="computer", side="black", level="1")
    wait_my_turn(page, 1)
    # the computer (Red) to move at the start, its move queued just now and not yet taken
    Game.objects.filter(pk=gid).update(
        moves=[], human_side="black", computer_queued_at=timezone.now()
    )
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-kind", "thinking")
    expect(page.locator("#draw")).to_be_enabled()  # an offer may be made while it thinks
    page.click("#draw")
    note = page.locator("#draw-note")
    expect(note).to_contain_text("once it has made the move it is thinking about")
    game_computer_move_task.delay(gid, 0).get(timeout=60)
    wait_my_turn(page, 1)
    expect(note).to_contain_text("The computer declines the draw.")
    offer = Game.objects.get(pk=gid).draw_offers[-1]
    assert offer == {"ply": 0, "by": "player", "accepted": False, "answered_ply": 1}


def fits_the_width(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


def test_the_play_pages_fit_a_phone(phone: Page, artifacts: Path) -> None:
    page = phone
    page.goto("/play/")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator("#setup-field")).to_be_hidden()  # xiangqi has one start: no choice
    page.select_option("#variant", "xinban")  # the rules of each side: long choices
    expect(page.locator("#red-rules")).to_be_visible()
    assert fits_the_width(page)
    # feidan's four ways to start, each said in a sentence under the choice
    page.select_option("#variant", "feidan")
    description = page.locator("#setup-description")
    expect(description).to_contain_text("in the open")
    page.select_option("#setup", "middle_soldier")
    expect(description).to_contain_text("only the centre soldier staying on its point")
    assert fits_the_width(page)
    gid = start(page, "feidan", "plum_blossom", mode="local")
    # the start's name and the opponent go on a line of their own under the variant's name
    title = page.locator(".play-head h1").bounding_box()
    meta = page.locator(".game-meta").bounding_box()
    assert title and meta and meta["x"] - title["x"] < 2
    assert fits_the_width(page)
    click_move(page, "f3f4")
    expect(page.locator("#board")).to_have_attribute("data-plies", "1")
    page.goto("/play/games/")
    row = page.locator(f"tr:has(a[href='/play/{gid}/'])")
    expect(row.locator("td").nth(4)).to_have_text("1")  # one move (Red's half of move 1)
    assert fits_the_width(page)
    expect(row.locator(f"a[href='/play/{gid}/']")).to_be_in_viewport()
    page.screenshot(path=str(artifacts / "play-my-games-390x844.png"), full_page=True)


def test_at_one_board_red_sets_up_hands_over_and_black_reveals(page: Page) -> None:
    gid = start(page, "feidan", "five_soldiers", mode="local")
    status, reveal = page.locator("#status"), page.locator("#setup-reveal")
    expect(status).to_have_text("红方布局。")
    expect(reveal).to_have_text("摆好了，轮到黑方布局")
    # both generals step onto the open e-file: the reveal does not count, and says why once
    arrange(page, "f0e1")
    expect(page.locator("#violations li.ok")).to_have_count(1)
    reveal.click()
    expect(status).to_have_text("黑方布局。")
    arrange(page, "f9e8")
    expect(page.locator("#violations li.ok")).to_have_count(1)
    # The setup has the game's own address: a reload goes on with Black's half as arranged,
    # and shows nothing of Red's (handed in, and forgotten by the page).
    assert page.url.endswith(f"/play/{gid}/"), page.url
    arranged = page.locator("#board").get_attribute("data-fen") or ""
    assert "k" in arranged.split()[0] and not any(c.isupper() for c in arranged.split()[0])
    page.reload()
    expect(status).to_have_text("黑方布局。")
    expect(page.locator("#board")).to_have_attribute("data-fen", arranged)
    kept = page.evaluate("() => Object.keys(sessionStorage)")
    assert not [key for key in kept if ":red:" in key], kept
    expect(page.locator("#violations li.ok")).to_have_count(1)
    reveal.click()
    void = page.locator("#void-reveal")
    expect(void).to_have_text("揭开后两个将帅在同一直线上直接对面，这次布局无效，双方重新布局。")
    expect(status).to_have_text("红方布局。")
    expect(page.locator("#violations li.ok")).to_have_count(1)
    reveal.click()
    expect(status).to_have_text("黑方布局。")
    expect(reveal).to_have_text("揭开布局")
    expect(page.locator("#setup-help")).to_contain_text("摆好后两边一起揭开")
    expect(page.locator("#violations li.ok")).to_have_count(1)
    reveal.click()
    expect(page.locator("#setup-panel")).to_be_hidden()
    expect(status).to_have_text("轮到红方走。")
    # Red in check: one sentence, typeset as Chinese (no space after the exclamation mark)
    Game.objects.filter(pk=gid).update(
        start_fen="3k5/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1", variant="xiangqi", moves=[]
    )
    page.reload()
    expect(status).to_have_text("将军！轮到红方走。")


def test_a_finished_game_is_shared_and_replayed_by_a_stranger(
    page: Page, phone: Page, artifacts: Path
) -> None:
    page.set_viewport_size(DESKTOP)
    gid = start(page, "xiangqi", mode="local")
    for ply, move in enumerate(("h2e2", "h7e7", "b0c2"), start=1):
        click_move(page, move)
        expect(page.locator("#board")).to_have_attribute("data-plies", str(ply))
    expect(page.locator("#share-panel")).to_be_hidden()  # not while the game is played
    page.click("#resign")
    page.click("#resign")
    expect(page.locator("#status")).to_have_attribute("data-kind", "over")
    expect(page.locator("#share-panel")).to_be_visible()
    page.click("#share")
    expect(page.locator("#share-box")).to_be_visible()
    expect(page.locator("#share")).to_be_hidden()
    link = page.input_value("#share-link")
    slug = Game.objects.get(pk=gid).share_slug
    assert slug and link.endswith(f"/play/g/{slug}/") and link.startswith("http")
    page.click("#copy-link")
    expect(page.locator("#copy-link")).to_have_text("已复制")
    page.screenshot(path=str(artifacts / "play-share-1280x800.png"))
    # someone else, on a phone: the replay, and nothing that acts on the game
    stranger = phone
    stranger.goto(link)
    expect(stranger.locator("body[data-ready='1']")).to_have_count(1)
    expect(stranger.locator("[data-testid='shared-note']")).to_be_visible()
    expect(stranger.locator("#status")).to_contain_text("resigned")
    expect(stranger.locator("#moves li button")).to_have_count(3)
    expect(stranger.locator("#share-panel")).to_have_count(0)
    for hidden in ("#game-controls", "#move-form"):
        expect(stranger.locator(hidden)).to_be_hidden()
    stranger.locator("#first").click()
    expect(stranger.locator("#board")).to_have_attribute("data-ply", "0")
    expect(stranger.locator("#result-line")).to_contain_text("Result:")
    stranger.locator("#next").click()
    expect(stranger.locator("#board")).to_have_attribute("data-ply", "1")
    analyse = stranger.get_attribute("#analyse-link", "href") or ""
    assert analyse.startswith("/analysis/?variant=xiangqi") and "moves=h2e2" in analyse
    assert fits_the_width(stranger)
    stranger.screenshot(path=str(artifacts / "play-shared-390x844.png"), full_page=True)
    # the owner takes the link back: it no longer opens
    page.click("#unshare")
    expect(page.locator("#share")).to_be_visible()
    expect(page.locator("#share-box")).to_be_hidden()
    assert Game.objects.get(pk=gid).share_slug is None
    assert stranger.goto(link).status == 404
