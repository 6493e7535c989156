"""The site's header on a phone with a long account name: the site's name, the language switch,
the account and the menu sit side by side without overlapping, and logging out is in the menu."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_signed_in_phone_header_overlaps_nothing_and_logs_out_from_the_menu(
    phone: Page, live_server: Any, language: str
) -> None:
    user = get_user_model().objects.create_user(
        username="a-rather-long-player-name", password="pw-123456789"
    )
    client = Client()
    client.force_login(user)
    phone.context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            },
            {"name": "django_language", "value": language, "url": live_server.url},
        ]
    )
    phone.goto("/learn/")
    header = phone.locator(".site-header")
    parts = [
        header.locator(".brand"),
        header.locator(".language-form"),
        header.locator(".account"),
        header.locator(".menu-button"),
    ]
    boxes = [part.bounding_box() for part in parts]
    assert all(box is not None for box in boxes)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not boxes_overlap(a, b), (a, b)  # type: ignore[arg-type]
    # nor does the site's name spill out of its box over the tools
    spill = phone.evaluate(
        "(() => { const b = document.querySelector('.site-header .brand');"
        " return b.scrollWidth - b.clientWidth; })()"
    )
    assert spill <= 1, spill
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 391, width

    expect(header.locator(".site-tools .inline-form")).to_be_hidden()
    header.locator(".menu-button").click()
    logout = phone.locator("#site-nav .nav-logout button")
    expect(logout).to_be_visible()
    logout.click()
    expect(header.locator(".account")).to_have_count(0)
