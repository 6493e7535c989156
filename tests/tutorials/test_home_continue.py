"""The home page's "continue where you left off" link follows the learner's progress."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.usefixtures("lessons")


def test_home_page_offers_to_start_learning_before_any_progress(client: Client) -> None:
    page = client.get("/").content.decode()
    assert 'data-testid="continue-lesson"' not in page
    assert 'href="/learn/"' in page


def test_home_page_continues_the_lesson_in_progress(client: Client) -> None:
    response = client.post(
        "/api/learn/lessons/xiangqi-horse/steps/1/moves/",
        {"moves": ["b0c2"]},
        content_type="application/json",
    )
    assert response.status_code == 200
    page = client.get("/").content.decode()
    assert 'data-testid="continue-lesson"' in page
    assert "/learn/xiangqi-horse/" in page
