"""The solution of a puzzle the player has not finished never appears in any answer: not in
the API (detail, lists, next, daily, dashboard, hint answers; a judged wrong move never names
the key), not in the pages (the
solving page, the share link, the daily page, the dashboard), for an anonymous visitor or a
logged-in player. Once the player gives up, the solution is shown: the same search then finds
it, so the check can fail."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine import Move, Position
from tests.security.conftest import give_up, logged_in, open_attempt, post

pytestmark = pytest.mark.django_db


def secrets_of(puzzle: Any) -> list[str]:
    """The moves after the key (ICCS and Chinese) that are not also legal moves of the start
    position (those appear in any list of legal moves, and tell nothing)."""
    from puzzles import proving

    line = proving.main_line(puzzle.proof)
    assert len(line) >= 3, line
    start = Position.from_fen(puzzle.variant, puzzle.fen)
    public = {m.iccs() for m in start.legal_moves} | {start.chinese(m) for m in start.legal_moves}
    position = start.copy()
    secrets = []
    for index, text in enumerate(line):
        move = Move.from_iccs(text)
        if index > 0:
            secrets += [t for t in (move.iccs(), position.chinese(move)) if t not in public]
        position.push(move)
    assert secrets
    return secrets


def answers(client: Client, puzzle: Any) -> dict[str, str]:
    wrong = next(
        m.iccs() for m in Position.from_fen(puzzle.variant, puzzle.fen).legal_moves
        if m.iccs() != puzzle.proof["keys"][0]
    )  # fmt: skip
    gets = [
        f"/api/puzzles/{puzzle.pk}/", "/api/puzzles/", "/api/puzzles/next/",
        "/api/puzzles/daily/", "/api/puzzles/dashboard/", "/api/puzzles/themes/",
        "/puzzles/", f"/puzzles/p/{puzzle.slug}/", "/puzzles/daily/", "/puzzles/daily/xiangqi/",
        "/puzzles/dashboard/", f"/puzzles/?id={puzzle.pk}",
        "/puzzles/streak/", "/puzzles/storm/",
    ]  # fmt: skip
    seen = {url: client.get(url, follow=True).content.decode() for url in gets}
    for mode in ("streak", "storm"):  # a run at its first puzzle: the position, not the answer
        body = {"mode": mode, "variant": puzzle.variant}
        seen[mode] = post(client, "/api/puzzles/runs/", body).content.decode()
    attempt = open_attempt(client, puzzle)
    seen["attempt"] = json.dumps(attempt, ensure_ascii=False)
    hint = {"attempt": attempt["id"], "level": 1}
    seen["hint"] = post(client, f"/api/puzzles/{puzzle.pk}/hint/", hint).content.decode()
    assert client.get(f"/api/puzzles/{puzzle.pk}/").json()["solution"] is None
    # A wrong move ends the try; it is answered with the defence that refutes it (which may be
    # a move of the solution's line too); the key itself is never named.
    judged = post(client, f"/api/puzzles/{puzzle.pk}/judge/",
                  {"attempt": attempt["id"], "move": wrong})  # fmt: skip
    assert judged.status_code == 200 and judged.json()["verdict"] == "wrong"
    key = Move.from_iccs(puzzle.proof["keys"][0])
    start = Position.from_fen(puzzle.variant, puzzle.fen)
    assert key.iccs() not in judged.content.decode()
    assert start.chinese(key) not in judged.content.decode()
    return seen


def leaks(seen: dict[str, str], secrets: list[str]) -> list[tuple[str, str]]:
    return [(url, s) for url, body in seen.items() for s in secrets if s in body]


@pytest.fixture
def puzzle(published: Any) -> Any:
    from puzzles.services import daily_puzzles_choose

    made = published()
    daily_puzzles_choose(date=timezone.localdate())  # today's daily puzzle is this one
    return made


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_no_answer_shows_the_solution_before_the_try_is_over(puzzle: Any, who: str) -> None:
    client = Client() if who == "anonymous" else logged_in("solver")
    secrets = secrets_of(puzzle)
    seen = answers(client, puzzle)
    assert all(body for body in seen.values())
    assert leaks(seen, secrets) == []


def test_the_solution_is_shown_once_the_player_gives_up(puzzle: Any) -> None:
    client = logged_in("solver")
    secrets = secrets_of(puzzle)
    submitted = give_up(client, puzzle)
    assert submitted.status_code == 200
    assert leaks({"attempt": submitted.content.decode()}, secrets)  # the search finds it
    # ... and still not for anyone else.
    assert leaks(answers(logged_in("someone-else"), puzzle), secrets) == []
    assert leaks(answers(Client(), puzzle), secrets) == []
