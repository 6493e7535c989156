"""The database connection lost in the middle of a move, a hint or a give-up.

PostgreSQL ends the request's session (``pg_terminate_backend``, as a restart or a fail-over
does) just before the n-th query of the request, for every n in turn. Whichever query it is,
the answer is either the normal one or a 503 after which nothing was played: the attempt is
as it was, so that a client that sends the same request again (or opens the attempt again)
neither loses its try nor makes a second one. A 503 for a move the server kept would send a
client that opens the attempt again into a new, unrated attempt, and leave the player with
two (tests/faults/test_database_restart.py found it so, once the themes of a finished try were
read after the move had been committed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from puzzles.models import Puzzle, PuzzleAttempt
from tests.puzzles.positions import MATE_IN_1, MATE_IN_1_KEY

pytestmark = pytest.mark.django_db(transaction=True)  # commits are real: the point here

WRONG = "a0a1"  # not the mate in 1: a wrong move ends the try too
KILL = "SELECT pg_terminate_backend(pg_backend_pid())"


class CutBefore:
    """An execute wrapper: PostgreSQL ends this session just before the ``n``-th query."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.seen = 0
        self.cut: str | None = None  # the query it was cut before

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        self.seen += 1
        if self.seen == self.n:
            self.cut = sql
            execute(KILL, None, False, context)  # raises OperationalError: the session ended
        return execute(sql, params, many, context)


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


ACTIONS = {
    "solving move": ("judge", {"move": MATE_IN_1_KEY, "ply": 0}),
    "wrong move": ("judge", {"move": WRONG, "ply": 0}),
    "hint": ("hint", {"level": 2}),
    "give up": ("give-up", {}),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_request_cut_off_by_the_database_either_answers_or_changes_nothing(
    action: str, make_puzzle: Callable[..., Puzzle], make_user: Callable[..., Any]
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("ends the session the PostgreSQL way")
    puzzle = make_puzzle(MATE_IN_1, moves_to_win=1)
    path, body = ACTIONS[action]
    url = f"/api/puzzles/{puzzle.pk}/{path}/"
    cut_before = []
    for n in range(1, 200):
        user = make_user()
        client = Client(raise_request_exception=False)
        client.force_login(user)
        attempt = post(client, f"/api/puzzles/{puzzle.pk}/attempts/").json()
        cut = CutBefore(n)
        with connection.execute_wrapper(cut):
            answer = post(client, url, {"attempt": attempt["id"], **body})
        connection.close()  # the next query opens a new session
        if cut.cut is None:  # the request made fewer than n queries: every one has been cut
            assert answer.status_code == 200, answer.content
            break
        cut_before.append(cut.cut)
        assert answer.status_code == 503, (n, cut.cut, answer.content)
        assert answer["Retry-After"]
        row = PuzzleAttempt.objects.get(pk=attempt["id"])
        changed = {
            "state": row.state,
            "moves": row.moves,
            "hints_used": row.hints_used,
            "gave_up": row.gave_up,
        }
        assert changed == {"state": "started", "moves": [], "hints_used": 0, "gave_up": False}, (
            f"answered 503 when cut before query {n} ({cut.cut}), yet kept: {changed}"
        )
        # Sent again, it is answered; the player still has one attempt.
        again = post(client, url, {"attempt": attempt["id"], **body})
        assert again.status_code == 200, again.content
        assert PuzzleAttempt.objects.filter(user=user).count() == 1
    assert len(cut_before) >= 5, cut_before  # the session, the user, the puzzle, the attempt…
