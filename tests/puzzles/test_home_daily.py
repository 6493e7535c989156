"""The home page shows today's puzzle of each variant that has one, linked to its page."""

from __future__ import annotations

from django.test import Client

from tests.puzzles.conftest import MakePuzzle


def test_home_page_shows_no_daily_card_without_puzzles(client: Client, db: None) -> None:
    page = client.get("/").content.decode()
    assert 'data-testid="daily-cards"' in page
    assert "/puzzles/daily/xiangqi/" not in page


def test_home_page_links_today_s_puzzle(client: Client, make_puzzle: MakePuzzle) -> None:
    make_puzzle()
    page = client.get("/").content.decode()
    assert 'data-variant="xiangqi"' in page
    assert "/puzzles/daily/xiangqi/" in page
    assert client.get("/puzzles/daily/xiangqi/").status_code == 200
