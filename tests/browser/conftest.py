"""Headless Chromium (Debian's, driven by Playwright) against the live test server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

# How long an ``expect`` waits for the page to reach a state (Playwright's default is 5 s). CI runs
# these tests beside the rest of the suite on two cores, where an answer of the test server now
# and then takes longer than 5 s; a page that never reaches the state still fails, only later.
EXPECT_TIMEOUT_MS = 15_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    path = (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    if not path:
        pytest.fail("Chromium is needed for the browser tests (Debian: apt-get install chromium)")
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, live_server: Any, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page in Chinese at 1280 x 900 that fails its test on any JavaScript error. A test
    may change the browser context's options (``locale``, ``viewport``, ``is_mobile``...)
    with ``@pytest.mark.parametrize("page", [{...}], indirect=True)``."""
    # Playwright's wait_for_function evaluates strings in the page, which the site's
    # Content-Security-Policy forbids; the pages' own compliance is checked in
    # tests/core/test_security.py (no inline script or handler on any page).
    options: dict[str, Any] = {
        "viewport": {"width": 1280, "height": 900},
        "locale": "zh-CN",
        **getattr(request, "param", {}),
    }
    context = browser.new_context(base_url=live_server.url, bypass_csp=True, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def phone(browser: Browser, live_server: Any) -> Iterator[Page]:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
        bypass_csp=True,
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def lessons(transactional_db: None) -> Iterator[None]:
    """The lessons loaded from their files into the test database."""
    from tutorials.services import lessons_load

    lessons_load()
    yield
