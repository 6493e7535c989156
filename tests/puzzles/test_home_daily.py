"""The home page shows today's puzzle of each variant that has one, linked to its page. It only
reads: the day's puzzles are chosen by the scheduled task or the daily page, never by a visit
to the home page."""

from __future__ import annotations

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from puzzles.models import DailyPuzzle
from puzzles.services import daily_puzzles_choose
from tests.puzzles.conftest import MakePuzzle

WRITES = ("INSERT", "UPDATE", "DELETE")


def test_home_page_shows_no_daily_card_without_puzzles(client: Client, db: None) -> None:
    page = client.get("/").content.decode()
    assert 'data-testid="daily-cards"' in page
    assert "/puzzles/daily/xiangqi/" not in page


def test_home_page_links_today_s_puzzle(client: Client, make_puzzle: MakePuzzle) -> None:
    make_puzzle()
    daily_puzzles_choose(date=timezone.localdate())  # what the scheduled task does
    page = client.get("/").content.decode()
    assert 'data-variant="xiangqi"' in page
    assert "/puzzles/daily/xiangqi/" in page
    assert client.get("/puzzles/daily/xiangqi/").status_code == 200


def test_a_home_page_visit_writes_nothing(client: Client, make_puzzle: MakePuzzle) -> None:
    make_puzzle()  # a candidate that a visit could have made today's puzzle
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
    assert writes == []
    assert not DailyPuzzle.objects.exists()


def test_the_daily_page_still_chooses_today_s_puzzles(
    client: Client, make_puzzle: MakePuzzle
) -> None:
    make_puzzle()
    assert client.get("/puzzles/daily/").status_code == 200
    assert DailyPuzzle.objects.filter(date=timezone.localdate(), variant="xiangqi").exists()
    assert "/puzzles/daily/xiangqi/" in client.get("/").content.decode()
