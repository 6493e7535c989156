"""Lessons in real headless Chromium: a newcomer clicks through the horse lesson and the
missile-base lesson, sees the stars, reloads and finds the progress kept; an anonymous learner
signs up and keeps the progress; the player works on a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tutorials.curriculum.schema import LESSONS_DIR, read_lesson_file
from tutorials.curriculum.solve import shortest_solution

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-pass-phrase-42"
PHONE_SIZE = {"width": 390, "height": 844}


def solutions(path: str) -> dict[str, list[str]]:
    """A shortest solution of every move step, found by the engine."""
    lesson = read_lesson_file(LESSONS_DIR / path)
    return {
        step.key: shortest_solution(step, step.par) or []
        for step in lesson.steps
        if step.goal.kind not in ("point", "setup")
    }


def point(page: Page, square: str) -> tuple[float, float]:
    """Where an ICCS point is on the screen, read once the board has settled.

    The board fits itself to the page in a resize observer, which runs at the next frame: text
    that has just appeared beside it (a verdict, a list of faults) can still resize it after the
    verdict is shown, and a box read before that sends the click to the point beside.
    """
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
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


def wait_for_answer(page: Page) -> str:
    page.wait_for_function("document.body.dataset.result !== 'waiting'")
    return page.evaluate("document.body.dataset.result")


def play(page: Page, move: str) -> str:
    """Click a move (origin, then destination) and wait for the server's verdict."""
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.mouse.click(*point(page, move[:2]))
    page.mouse.click(*point(page, move[2:]))
    return wait_for_answer(page)


def click_point(page: Page, square: str) -> str:
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.mouse.click(*point(page, square))
    return wait_for_answer(page)


def open_lesson(page: Page, slug: str) -> None:
    page.goto("/learn/")
    page.locator(f".lesson-card[data-lesson='{slug}'] a").click()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


def open_step(page: Page, slug: str, key: str) -> None:
    page.goto(f"/learn/{slug}/?step={key}")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)


def current_step(page: Page) -> str:
    return page.evaluate("document.body.dataset.step")


def test_newcomer_completes_the_horse_lesson(page: Page, lessons: None, artifacts: Path) -> None:
    answers = solutions("xiangqi/05-horse.toml")
    open_lesson(page, "xiangqi-horse")
    assert current_step(page) == "1"
    keys = sorted(answers, key=int)
    assert len(keys) >= 6  # the horse lesson's graded steps
    for key in keys:
        assert current_step(page) == key
        if key == "3":
            # A blocked horse move is refused and explained; the board stays as it was.
            assert play(page, "e2d4") == "refused"
            expect(page.locator("#status")).to_contain_text("蹩马脚")
            assert page.evaluate("document.body.dataset.refusal") == "horse_leg"
        for index, move in enumerate(answers[key]):
            result = play(page, move)
            last = index == len(answers[key]) - 1
            assert result == ("complete" if last else "playing"), (key, move, result)
        expect(page.locator("#stars")).to_have_attribute("data-stars", "3")
        expect(page.locator(f".step-dot[data-step='{key}']")).to_have_class(re.compile(r"\bdone\b"))
        if key != keys[-1]:
            page.locator("#next").click()
    page.screenshot(path=str(artifacts / "lesson-horse-complete.png"), full_page=True)
    expect(page.locator("#next-lesson")).to_be_visible()

    # Reload: every step is marked done, and the course map shows the lesson finished.
    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator(".step-dot.done")).to_have_count(len(keys))
    page.goto("/learn/")
    card = page.locator(".lesson-card[data-lesson='xiangqi-horse']")
    expect(card).to_have_class(re.compile(r"\bcomplete\b"))
    expect(card.locator(".lesson-stars")).to_have_attribute("data-stars", str(3 * len(keys)))
    expect(page.locator("[data-testid='continue']")).to_contain_text("车")
    page.screenshot(path=str(artifacts / "learn-course-map.png"), full_page=True)


def test_newcomer_completes_the_missile_base_lesson(
    page: Page, lessons: None, artifacts: Path
) -> None:
    open_lesson(page, "feidan-base")
    # Step 1: a question answered by clicking; a wrong point first costs a star.
    assert click_point(page, "a0") == "wrong"
    assert click_point(page, "k9") == "complete"
    expect(page.locator("#stars")).to_have_attribute("data-stars", "2")
    page.locator("#next").click()
    # Step 2: the base self-destruct: the red missile vanishes, the black one stays.
    assert play(page, "a0a9") == "complete"
    fen = page.get_attribute("#board", "data-fen") or ""
    assert fen.startswith("m3k6/") and fen.split()[0].endswith("/5K5")  # a0 is empty
    expect(page.locator("#ruling")).to_contain_text("本站规定")
    page.screenshot(path=str(artifacts / "lesson-missile-base-self-destruct.png"), full_page=True)
    page.locator("#next").click()
    assert play(page, "a0a5") == "complete"
    page.locator("#next").click()
    assert play(page, "a3a9") == "complete"
    expect(page.locator("#stars")).to_have_attribute("data-stars", "3")
    page.locator("#next").click()
    # Step 5: a horse hitting a missile in its base is an ordinary collision.
    assert play(page, "b7a9") == "complete"

    page.reload()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    expect(page.locator(".step-dot.done")).to_have_count(5)
    page.goto("/learn/")
    card = page.locator(".lesson-card[data-lesson='feidan-base']")
    expect(card).to_have_class(re.compile(r"\bcomplete\b"))
    expect(card.locator(".lesson-stars")).to_have_attribute("data-stars", "14")


def test_anonymous_learner_signs_up_and_keeps_progress(page: Page, lessons: None) -> None:
    open_lesson(page, "xiangqi-horse")
    assert play(page, "b0c2") == "complete"
    page.goto("/accounts/signup/?next=/learn/")
    page.fill("input[name=username]", "learner")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_url("**/learn/")
    expect(page.locator(".site-header .account")).to_have_text("learner")
    card = page.locator(".lesson-card[data-lesson='xiangqi-horse']")
    expect(card).to_have_class(re.compile(r"\bstarted\b"))
    expect(card.locator(".lesson-stars")).to_have_attribute("data-stars", "3")
    expect(page.locator("[data-testid='continue']")).to_be_visible()
    # The continue link opens the next unfinished step.
    page.locator("[data-testid='continue']").click()
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    assert current_step(page) == "2"
    # Signed in now: moves still go through (with the CSRF token) and count for the account.
    assert play(page, "b0c2") == "playing"
    assert play(page, "c2d4") == "playing"
    assert play(page, "d4e6") == "complete"
    from tutorials.models import StepProgress

    keys = sorted(
        StepProgress.objects.filter(user__username="learner").values_list("step__key", flat=True)
    )
    assert keys == ["1", "2"]


def test_a_secret_setup_is_arranged_on_the_board(
    page: Page, lessons: None, artifacts: Path
) -> None:
    page.goto("/learn/feidan-setups/?step=4")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.locator("#setup-submit").click()
    assert wait_for_answer(page) == "wrong"
    expect(page.locator("#violations li")).to_have_count(3)
    board = page.locator("#board")
    for move in ("a1a0", "f2f1", "b4b3"):  # click a piece, then the point it goes to
        before = board.get_attribute("data-fen") or ""
        page.mouse.click(*point(page, move[:2]))
        page.mouse.click(*point(page, move[2:]))
        expect(board).not_to_have_attribute("data-fen", before)
    page.evaluate("document.body.dataset.result = 'waiting'")
    page.locator("#setup-submit").click()
    assert wait_for_answer(page) == "complete"
    expect(page.locator("#violations")).to_be_hidden()
    expect(page.locator("#stars")).to_have_attribute("data-stars", "2")
    page.screenshot(path=str(artifacts / "lesson-secret-setup.png"), full_page=True)


def test_the_player_works_on_a_phone(phone: Page, lessons: None, artifacts: Path) -> None:
    phone.goto("/learn/feidan-fighter/")
    expect(phone.locator("body[data-ready='1']")).to_have_count(1)
    box = phone.locator("#board").bounding_box()
    assert box is not None and box["width"] <= 390
    assert play(phone, "a2b5") == "playing"
    assert play(phone, "b5e6") == "complete"
    phone.screenshot(path=str(artifacts / "lesson-fighter-phone.png"), full_page=True)


@pytest.mark.parametrize(
    ("page", "label"),
    [({}, "练习这种战术"), ({"locale": "en-US", "viewport": PHONE_SIZE}, "Practise this tactic")],
    indirect=["page"],
)
def test_a_tactics_lesson_ends_on_the_trainer_for_its_tactic(
    page: Page, label: str, lessons: None, tmp_path: Path
) -> None:
    """The pin lesson's last step done, "Practise this tactic" opens the trainer on pins: the
    puzzle it gives is one of the shipped tactics with a pin (Chinese on a desktop, English at a
    phone's size)."""
    from puzzles.bankfile import write_bank
    from puzzles.models import Puzzle
    from puzzles.services.bank import bank_load
    from puzzles.tactics_bank import read_tactics

    shipped = [e for e in read_tactics() if e["variant"] == "xiangqi"]
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([e for e in shipped if "pin" in e["themes"]] + shipped[:3], tactics)
    bank_load(bank, tactics)
    pinned = {
        str(pk) for pk in Puzzle.objects.filter(themes__slug="pin").values_list("pk", flat=True)
    }
    page.goto("/learn/xiangqi-pin/?step=5")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    practise = page.locator("#practise-theme")
    expect(practise).to_be_hidden()
    assert play(page, "c2d4") == "playing"
    assert play(page, "d4e6") == "complete"
    expect(practise).to_be_visible()
    expect(practise).to_have_text(label)
    expect(practise).to_have_attribute("data-kind", "tactic")
    practise.click()
    page.wait_for_url(re.compile(r"/puzzles/\?variant=xiangqi&themes=pin$"))
    info = page.locator("#puzzle-info")
    expect(info).to_have_attribute("data-puzzle-id", re.compile(r"^\d+$"), timeout=20_000)
    assert info.get_attribute("data-puzzle-id") in pinned
