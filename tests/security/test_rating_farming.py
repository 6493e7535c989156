"""Ratings cannot be farmed through a throwaway identity (issue 24, item 6): a solution shown
from an address, to anyone (a cookie-less visitor giving up, a wrong move refuted, a hint),
keeps an account's try at that puzzle from the same address unrated for a day, and an account
ends at most ``PUZZLE_RATED_PER_MINUTE`` rated tries a minute. Both tries are accepted and
judged as usual; the answer says why the try is not rated."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from puzzles.models import PuzzleAttempt, PuzzleSolutionSeen
from tests.security.conftest import MATE_IN_1, logged_in, open_attempt, post
from tests.security.test_rating_forgery import rating_of, score_everything, winning_line

pytestmark = pytest.mark.django_db

HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.9"


def at(client: Client, address: str) -> Client:
    """Every request of ``client`` comes from ``address``, in English."""
    client.defaults["REMOTE_ADDR"] = address
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def solve(client: Client, puzzle: Any) -> dict[str, Any]:
    """Open an attempt and play the winning line: the judge's last answer."""
    attempt = open_attempt(client, puzzle)
    for move in winning_line(puzzle)[::2]:
        answer = post(client, f"/api/puzzles/{puzzle.pk}/judge/",
                      {"attempt": attempt["id"], "move": move})  # fmt: skip
        assert answer.status_code == 200, answer.content
    judged = dict(answer.json())
    assert judged["verdict"] == "solved"
    return judged


def test_a_solution_given_up_by_a_visitor_keeps_the_accounts_solve_unrated(
    published: Any,
) -> None:
    """The farming as reported: give up as a cookie-less visitor to see the solution, then
    solve as the account "on its first try"."""
    puzzle = published()
    visitor = at(Client(), HOME)  # a fresh visitor: no cookie of the account's
    attempt = open_attempt(visitor, puzzle)
    shown = post(visitor, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
    assert shown.status_code == 200 and shown.json()["solution"] is not None
    # The address is kept as a keyed hash only.
    assert PuzzleSolutionSeen.objects.get(puzzle=puzzle).address not in (HOME, "")
    assert HOME not in PuzzleSolutionSeen.objects.get(puzzle=puzzle).address

    farmer = at(logged_in("farmer"), HOME)
    judged = solve(farmer, puzzle)
    score_everything()
    assert rating_of(farmer) == 1500.0
    assert judged["attempt"]["first_try"] and not judged["attempt"]["rated"]
    assert judged["attempt"]["unrated_reason"] == "seen_nearby"
    assert "shown from your address" in judged["attempt"]["unrated_reason_text"]
    scored = PuzzleAttempt.objects.get(pk=judged["attempt"]["id"])
    assert scored.result == "solved" and not scored.rated and scored.unrated_reason == "seen_nearby"

    # Someone solving it from another address is rated as usual.
    honest = at(logged_in("honest"), ELSEWHERE)
    assert solve(honest, puzzle)["attempt"]["unrated_reason"] == ""
    score_everything()
    assert rating_of(honest) > 1500.0


def test_a_wrong_move_or_a_hint_from_the_address_counts_too(published: Any) -> None:
    wrong, hinted = published(), published()
    prober = at(Client(), HOME)
    attempt = open_attempt(prober, wrong)
    key = wrong.proof["keys"][0]
    other = next(m for m in attempt["legal_moves"] if m != key)
    refuted = post(prober, f"/api/puzzles/{wrong.pk}/judge/",
                   {"attempt": attempt["id"], "move": other})  # fmt: skip
    assert refuted.json()["verdict"] == "wrong"
    helped = open_attempt(prober, hinted)
    hint = post(prober, f"/api/puzzles/{hinted.pk}/hint/", {"attempt": helped["id"], "level": 2})
    assert hint.status_code == 200

    farmer = at(logged_in("farmer"), HOME)
    answers = [solve(farmer, puzzle)["attempt"] for puzzle in (wrong, hinted)]
    score_everything()
    assert rating_of(farmer) == 1500.0
    assert [a["unrated_reason"] for a in answers] == ["seen_nearby", "seen_nearby"]


def test_the_reason_is_said_in_chinese(published: Any) -> None:
    puzzle = published()
    visitor = at(Client(), HOME)
    attempt = open_attempt(visitor, puzzle)
    post(visitor, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
    farmer = at(logged_in("farmer"), HOME)
    farmer.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-hans"
    text = solve(farmer, puzzle)["attempt"]["unrated_reason_text"]
    assert "24 小时" in text and "答案" in text


@override_settings(PUZZLE_RATED_PER_MINUTE=3)
def test_rated_tries_are_held_to_a_human_pace(published: Any) -> None:
    """Past ``PUZZLE_RATED_PER_MINUTE`` tries in a minute, solves are accepted, unrated."""
    puzzles = [published(MATE_IN_1, 1) for _ in range(5)]
    sprinter = at(logged_in("sprinter"), HOME)
    answers = [solve(sprinter, puzzle)["attempt"] for puzzle in puzzles]
    score_everything()
    attempts = PuzzleAttempt.objects.filter(user__username="sprinter").order_by("id")
    assert [a.rated for a in attempts] == [True, True, True, False, False]
    assert {a.result for a in attempts} == {"solved"}
    assert [a["unrated_reason"] for a in answers] == ["", "", "", "pace", "pace"]
    assert "last minute" in answers[3]["unrated_reason_text"]
