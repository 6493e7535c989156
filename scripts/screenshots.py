"""Take README's screenshots (docs/img/*.png) of a running site with headless Chromium.

    scripts/run &                                  # the site, with its content loaded
    .venv/bin/python scripts/screenshots.py http://127.0.0.1:8000/

Each picture is one screen of 1280 × 800 as a visitor sees it, in the language its caption in
README.md says. CHROMIUM names the browser (default: chromium on the PATH, Debian's).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

OUT = Path(__file__).resolve().parent.parent / "docs" / "img"
VIEWPORT = {"width": 1280, "height": 800}
TIMEOUT = 30_000


def shoot(page: Page, name: str, height: int = VIEWPORT["height"]) -> None:
    """One screen, or its top ``height`` pixels (a page of text: each picture stays under the
    250 KB README allows, tests/docs/test_links.py)."""
    page.wait_for_timeout(400)  # the board's pieces settle after their first drawing
    clip = {"x": 0, "y": 0, "width": VIEWPORT["width"], "height": height}
    page.screenshot(path=str(OUT / name), clip=clip)
    print(f"wrote docs/img/{name}")


def home(page: Page) -> None:
    page.goto("/")
    expect(page.locator("[data-testid='practise-cards']")).to_be_visible()
    shoot(page, "home.png")


def lesson(page: Page) -> None:
    """A Missile Xiangqi lesson in Chinese, its first step played."""
    page.goto("/learn/")
    page.locator("a[href^='/learn/feidan-']").first.click()
    expect(page.locator("body[data-ready='1']")).to_have_count(1, timeout=TIMEOUT)
    shoot(page, "lesson-zh.png")


def trainer(page: Page) -> None:
    """The trainer on a Missile Xiangqi puzzle, a hint asked for."""
    page.goto("/puzzles/?variant=feidan")
    expect(page.locator("body[data-puzzle-state='ready']")).to_have_count(1, timeout=TIMEOUT)
    page.click("#hint")
    expect(page.locator("#result")).not_to_be_empty()
    shoot(page, "puzzle.png")


def storm(page: Page) -> None:
    """Puzzle Storm under way: the clock, the score and the task beside the board."""
    page.goto("/puzzles/storm/")
    expect(page.locator("body[data-run-state='idle']")).to_have_count(1, timeout=TIMEOUT)
    page.click("#run-start")
    expect(page.locator("body[data-run-state='playing']")).to_have_count(1, timeout=TIMEOUT)
    shoot(page, "storm.png")


def masters(page: Page) -> None:
    """The master games found by a name typed in pinyin."""
    page.goto("/play/masters/?q=Lu+Qin")
    expect(page.locator("[data-testid='masters-count']")).to_be_visible()
    shoot(page, "masters.png", height=560)


def patterns(page: Page) -> None:
    page.goto("/puzzles/patterns/")
    expect(page.locator(".pattern-card").first).to_be_visible()
    shoot(page, "patterns.png", height=560)


SHOTS = [("en-US", home), ("zh-CN", lesson), ("en-US", trainer), ("en-US", storm),
         ("en-US", masters), ("zh-CN", patterns)]  # fmt: skip


def main(base_url: str) -> None:
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        for locale, take in SHOTS:
            context = browser.new_context(base_url=base_url, viewport=VIEWPORT, locale=locale)
            context.set_default_timeout(TIMEOUT)
            take(context.new_page())
            context.close()
        browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
