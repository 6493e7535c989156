"""Ratings cannot be bought: the two forgeries of issue 12, replayed request for request as a
signed-in player, no longer raise a rating, and their versions for the attempts the server
plays fail too. A player's rating rises only by solving a puzzle on the first try, unaided."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from engine import Position
from puzzles.models import PuzzleAttempt, PuzzleRating
from puzzles.services import puzzle_attempt_score, puzzle_judge, puzzle_line_hint
from tests.security.conftest import logged_in, open_attempt, post

pytestmark = pytest.mark.django_db


def winning_line(puzzle: Any) -> list[str]:
    moves: list[str] = []
    while True:
        move = puzzle_line_hint(puzzle=puzzle, moves=moves)
        assert move is not None
        moves.append(move)
        judged = puzzle_judge(puzzle=puzzle, moves=moves)
        if judged.verdict == "solved":
            return moves
        assert judged.reply is not None
        moves.append(judged.reply.iccs)


def score_everything() -> None:
    """What the worker would do with every try that ended."""
    for attempt in PuzzleAttempt.objects.filter(state=PuzzleAttempt.State.SUBMITTED):
        puzzle_attempt_score(attempt_id=attempt.pk)


def rating_of(client: Client) -> float:
    user = client.session["_auth_user_id"]
    row = PuzzleRating.objects.filter(user_id=user, variant="xiangqi").first()
    return row.rating if row is not None else 1500.0


def play(client: Client, puzzle: Any, attempt: dict[str, Any], move: str) -> Any:
    url = f"/api/puzzles/{puzzle.pk}/judge/"
    return post(client, url, {"attempt": attempt["id"], "move": move})


def test_hints_under_a_throwaway_id_then_a_clean_submission(published: Any) -> None:
    """Forgery 1 as reported: hint, judge, hint under attempt X, then the whole line
    submitted under attempt Y, rated as a clean first-try solve (1530 -> 1588)."""
    puzzle = published()
    player = logged_in("forger")
    line = winning_line(puzzle)
    x = str(uuid.uuid4())
    hint = post(player, f"/api/puzzles/{puzzle.pk}/hint/",
                {"attempt_id": x, "moves": [], "level": 2})  # fmt: skip
    assert hint.status_code == 400 and line[0] not in hint.content.decode()
    judged = post(player, f"/api/puzzles/{puzzle.pk}/judge/", {"moves": [line[0]]})
    assert judged.status_code == 400 and "verdict" not in judged.json()
    again = post(player, f"/api/puzzles/{puzzle.pk}/hint/",
                 {"attempt_id": x, "moves": line[:2], "level": 2})  # fmt: skip
    assert again.status_code == 400
    submitted = post(player, f"/api/puzzles/{puzzle.pk}/attempts/",
                     {"attempt_id": str(uuid.uuid4()), "moves": line})  # fmt: skip
    # The line sent is not played: the answer is an attempt at the start, nothing solved.
    assert submitted.json()["moves"] == [] and submitted.json()["state"] == "started"
    score_everything()
    assert rating_of(player) == 1500.0
    assert not PuzzleAttempt.objects.filter(rated=True).exists()


def test_hints_in_one_attempt_then_the_line_in_another(published: Any) -> None:
    """The same forgery with the attempts the server opens: "another" attempt is the same
    open one, hints recorded, and its solve is unrated."""
    puzzle = published()
    player = logged_in("forger")
    helped = open_attempt(player, puzzle)
    hint = post(player, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt": helped["id"], "level": 2})
    assert hint.status_code == 200
    clean = open_attempt(player, puzzle)
    assert clean["id"] == helped["id"] and clean["hints_used"] == 1
    for move in winning_line(puzzle)[::2]:
        judged = play(player, puzzle, clean, move).json()
    assert judged["verdict"] == "solved" and judged["attempt"]["hints_used"] == 1
    score_everything()
    assert rating_of(player) == 1500.0
    assert not PuzzleAttempt.objects.filter(rated=True).exists()


def test_the_judge_is_no_oracle(published: Any) -> None:
    """Forgery 2 as reported: every first move tried through the judge, then the one found
    submitted as a rated first-try solve."""
    puzzle = published()
    player = logged_in("prober")
    firsts = sorted(m.iccs() for m in Position.from_fen(puzzle.variant, puzzle.fen).legal_moves)
    url = f"/api/puzzles/{puzzle.pk}/judge/"
    answers = [post(player, url, {"moves": [move]}) for move in firsts]
    assert {a.status_code for a in answers} == {400}  # no attempt: refused, nothing judged
    assert not any("verdict" in a.json() for a in answers)
    key = puzzle.proof["keys"][0]
    post(player, f"/api/puzzles/{puzzle.pk}/attempts/",
         {"attempt_id": str(uuid.uuid4()), "moves": [key]})  # fmt: skip
    score_everything()
    assert rating_of(player) == 1500.0 and not PuzzleAttempt.objects.filter(rated=True).exists()


def test_probing_through_attempts_costs_the_rated_try(published: Any) -> None:
    """The oracle with the attempts the server opens: the first wrong move ends the rated
    try (a rated loss); every later attempt is a second attempt and unrated, whatever id."""
    puzzle = published()
    player = logged_in("prober")
    key = puzzle.proof["keys"][0]
    firsts = sorted(m.iccs() for m in Position.from_fen(puzzle.variant, puzzle.fen).legal_moves)
    tried = []
    for move in [m for m in firsts if m != key][:5] + [key]:
        attempt = open_attempt(player, puzzle)
        tried.append(attempt)
        answer = play(player, puzzle, attempt, move)
        assert answer.status_code == 200
        if answer.json()["verdict"] != "wrong":
            break
        # The same attempt takes no second move.
        assert play(player, puzzle, attempt, key).json()["error"]["extra"]["code"] == "attempt_over"
    assert tried[0]["first_try"] and not any(a["first_try"] for a in tried[1:])
    line = winning_line(puzzle)
    for move in line[2::2]:
        play(player, puzzle, tried[-1], move)
    score_everything()
    rated = list(PuzzleAttempt.objects.filter(rated=True))
    assert [a.pk for a in rated] == [tried[0]["id"]] and rated[0].result == "failed"
    solved = PuzzleAttempt.objects.get(pk=tried[-1]["id"])
    assert solved.result == "solved" and not solved.rated
    assert rating_of(player) < 1500.0


def test_an_honest_first_try_still_raises_the_rating(published: Any) -> None:
    """The control: solved on the first try, unaided, through the same requests."""
    puzzle = published()
    player = logged_in("honest")
    attempt = open_attempt(player, puzzle)
    for move in winning_line(puzzle)[::2]:
        judged = play(player, puzzle, attempt, move).json()
    assert judged["verdict"] == "solved"
    score_everything()
    assert rating_of(player) > 1500.0
