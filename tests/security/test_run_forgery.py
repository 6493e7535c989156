"""Puzzle Streak and Storm scores cannot be forged with the trainer's answers, a storm cannot
outrun its clock, a run played faster than a person can move stays off the leaderboard, and a
run is refused to a request that cannot hold the session it lives in (issue 37, findings 2
and 5).

The forgery as reported: start a run, open a trainer attempt at the run's puzzle, give it up
(the answer holds ``solution.line``) and play that line in the run. Every test drives the site
through its HTTP API, as the attacker did."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db.models import F
from django.test import Client

from puzzles.models import Puzzle, PuzzleRun, PuzzleRunMet
from puzzles.services import runs
from tests.security.conftest import MATE_IN_1, MATE_IN_2, logged_in, open_attempt, post
from tests.security.test_rating_forgery import winning_line

pytestmark = pytest.mark.django_db

HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.9"


def at(client: Client, address: str = HOME) -> Client:
    """Every request of ``client`` comes from ``address``, in English."""
    client.defaults["REMOTE_ADDR"] = address
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def player(username: str, address: str = HOME) -> Client:
    """A signed-in account at ``address`` that has loaded the storm page."""
    client = at(logged_in(username), address)
    assert client.get("/puzzles/storm/").status_code == 200
    return client


def visitor(address: str = HOME) -> Client:
    """A visitor's browser at ``address`` that has loaded the storm page (and so holds the
    site's cookies)."""
    client = at(Client(), address)
    assert client.get("/puzzles/storm/").status_code == 200
    return client


def bank(published: Any, count: int, fen: str = MATE_IN_1, moves: int = 1) -> list[Puzzle]:
    """``count`` published puzzles of rising rating."""
    made = []
    for n in range(count):
        puzzle = published(fen, moves)
        Puzzle.objects.filter(pk=puzzle.pk).update(rating=900 + 10 * n)
        made.append(puzzle)
    return made


def start(client: Client, mode: str = "storm") -> dict[str, Any]:
    started = post(client, "/api/puzzles/runs/", {"mode": mode, "variant": "xiangqi"})
    assert started.status_code == 201, started.content
    return dict(started.json())


def run_move(client: Client, run: dict[str, Any], move: str) -> Any:
    body = {"index": run["index"], "ply": run["ply"], "move": move}
    return post(client, f"/api/puzzles/runs/{run['id']}/move/", body)


def play(client: Client, run: dict[str, Any], move: str) -> dict[str, Any]:
    """Play ``move`` where the run stands; the answer (its ``run`` is the run after it)."""
    answer = run_move(client, run, move)
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


def given_up_line(client: Client, puzzle_id: int) -> list[str]:
    """The attacker's step: open a trainer attempt at the run's puzzle and give it up; the
    attacker's moves of the solution it shows."""
    attempt = open_attempt(client, Puzzle.objects.get(pk=puzzle_id))
    shown = post(client, f"/api/puzzles/{puzzle_id}/give-up/", {"attempt": attempt["id"]})
    assert shown.status_code == 200, shown.content
    line = [move["iccs"] for move in shown.json()["solution"]["line"]]
    return line[::2]


def key(puzzle_id: int, line: list[str] | None = None) -> str:
    """The right move where the run's puzzle stands (from the proof, as an honest solver who
    found it)."""
    puzzle = Puzzle.objects.get(pk=puzzle_id)
    return winning_line(puzzle)[len(line or [])]


def leaderboard(client: Client, mode: str = "storm") -> list[dict[str, Any]]:
    answer = client.get(f"/api/puzzles/runs/leaderboard/?mode={mode}&variant=xiangqi")
    assert answer.status_code == 200
    return list(answer.json())


# --- The trainer's answers do not count in a run ---------------------------------------------


def test_a_solution_given_up_in_the_trainer_counts_as_missed_in_a_storm(published: Any) -> None:
    """The forgery as reported: every puzzle of the storm given up in the trainer, its line
    played in the run. Each one is missed: the score stays 0 and each costs the miss's
    seconds."""
    bank(published, 4)
    cheat = player("cheat")
    run = start(cheat)
    for _ in range(3):
        puzzle_id = run["puzzle"]["id"]
        line = given_up_line(cheat, puzzle_id)
        answer = play(cheat, run, line[0])
        assert answer["verdict"] == "wrong", answer
        assert answer["reason"] == "solution_seen"
        assert answer["seconds"] == -runs.STORM_MISS_SECONDS
        run = answer["run"]
        assert run["score"] == 0 and run["combo"] == 0
        assert puzzle_id in [missed["id"] for missed in run["missed"]]
    assert leaderboard(cheat) == []


def test_a_solution_given_up_halfway_through_a_streak_puzzle_ends_the_streak(
    published: Any,
) -> None:
    """The first move found honestly, then the rest of the mate looked up in the trainer."""
    bank(published, 1, MATE_IN_2, 2)
    cheat = player("cheat")
    run = start(cheat, "streak")
    puzzle_id = run["puzzle"]["id"]
    first = play(cheat, run, key(puzzle_id))
    assert first["verdict"] == "continue"
    run = first["run"]
    line = given_up_line(cheat, puzzle_id)
    answer = play(cheat, run, line[1])
    assert answer["verdict"] == "wrong" and answer["reason"] == "solution_seen"
    assert answer["run"]["open"] is False and answer["run"]["end"] == "wrong"
    assert answer["run"]["score"] == 0
    assert leaderboard(cheat, "streak") == []


def test_a_hint_in_the_trainer_counts_as_missed(published: Any) -> None:
    bank(published, 3)
    cheat = player("cheat")
    run = start(cheat)
    puzzle_id = run["puzzle"]["id"]
    attempt = open_attempt(cheat, Puzzle.objects.get(pk=puzzle_id))
    hint = post(cheat, f"/api/puzzles/{puzzle_id}/hint/", {"attempt": attempt["id"], "level": 2})
    assert hint.status_code == 200
    answer = play(cheat, run, hint.json()["move"])
    assert answer["verdict"] == "wrong" and answer["reason"] == "solution_seen"
    assert answer["run"]["score"] == 0


def test_a_solution_shown_to_another_identity_at_the_same_address_counts_as_missed(
    published: Any,
) -> None:
    """A second, cookie-less identity at the same address gives the puzzle up (the "seen from
    this address" record); one at another address is not seen."""
    bank(published, 3)
    cheat = player("cheat")
    run = start(cheat)
    helper = visitor(HOME)
    line = given_up_line(helper, run["puzzle"]["id"])
    answer = play(cheat, run, line[0])
    assert answer["verdict"] == "wrong" and answer["reason"] == "solution_seen"
    # Elsewhere: not known to the site, the move is judged as it is (what remains possible).
    far = visitor(ELSEWHERE)
    line = given_up_line(far, answer["run"]["puzzle"]["id"])
    assert play(cheat, answer["run"], line[0])["verdict"] == "solved"


def test_a_run_never_offers_a_puzzle_whose_solution_was_seen_before_it_started(
    published: Any,
) -> None:
    """Solutions seen before the run (given up, solved, a hint, from this address) keep those
    puzzles out of it: they can neither be played from memory nor cost an honest player."""
    made = bank(published, 5)
    me = player("me")
    given_up_line(me, made[0].pk)  # given up by me
    attempt = open_attempt(me, made[1])  # solved by me: its page now shows the solution
    solved = post(me, f"/api/puzzles/{made[1].pk}/judge/",
                  {"attempt": attempt["id"], "move": key(made[1].pk)})  # fmt: skip
    assert solved.json()["verdict"] == "solved"
    attempt = open_attempt(me, made[2])  # a hint, the attempt still open
    post(me, f"/api/puzzles/{made[2].pk}/hint/", {"attempt": attempt["id"], "level": 1})
    given_up_line(visitor(HOME), made[3].pk)  # given up by someone else at my address
    for mode in ("storm", "streak"):
        run = start(me, mode)
        assert run["puzzle"]["id"] == made[4].pk and run["total"] == 1, mode
    other = player("other", ELSEWHERE)  # nothing seen there: every puzzle
    assert start(other)["total"] == 5


def test_all_solutions_seen_gets_a_clear_refusal(published: Any) -> None:
    made = bank(published, 1)
    me = player("me")
    given_up_line(me, made[0].pk)
    refused = post(me, "/api/puzzles/runs/", {"mode": "storm", "variant": "xiangqi"})
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "run.all_seen"
    assert "seen the solution" in refused.json()["error"]["message"]


# --- A storm's clock ---------------------------------------------------------------------


def test_a_storms_bonus_time_is_capped(published: Any) -> None:
    """Every 5 in a row add 3 s, but a storm never gains more than STORM_BONUS_MAX_SECONDS in
    all: a bot that solves faster than the bonus comes cannot keep a storm going."""
    bank(published, 11)
    me = player("me")
    run = start(me)
    # As after 19 combos of 5: one second of bonus is left.
    PuzzleRun.objects.filter(pk=run["id"]).update(bonus_seconds=runs.STORM_BONUS_MAX_SECONDS - 1)
    seconds = []
    for _ in range(10):
        answer = play(me, run, key(run["puzzle"]["id"]))
        assert answer["verdict"] == "solved"
        seconds.append(answer["seconds"])
        run = answer["run"]
    assert seconds == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    row = PuzzleRun.objects.get(pk=run["id"])
    assert row.bonus_seconds == runs.STORM_BONUS_MAX_SECONDS
    latest = row.started_at + timedelta(seconds=runs.STORM_SECONDS + runs.STORM_BONUS_MAX_SECONDS)
    assert runs.storm_deadline(row) <= latest
    assert run["time_left"] <= runs.STORM_SECONDS + runs.STORM_BONUS_MAX_SECONDS


# --- Faster than a person can move ---------------------------------------------------------


def test_a_run_played_faster_than_a_person_can_move_is_kept_off_the_leaderboard(
    published: Any,
) -> None:
    """A bot that knows every answer sends each move as soon as the last answer is in: the
    run counts for its owner, but not on the day's leaderboard."""
    bank(published, 12)
    bot = player("bot")
    run = start(bot)
    for _ in range(12):
        answer = play(bot, run, key(run["puzzle"]["id"]))
        assert answer["verdict"] == "solved"
        run = answer["run"]
    assert run["score"] == 12 and run["listed"] is False
    assert leaderboard(bot) == []
    stopped = post(bot, f"/api/puzzles/runs/{run['id']}/stop/").json()
    assert stopped["score"] == 12 and stopped["listed"] is False
    assert leaderboard(bot) == []


def test_a_run_at_a_persons_pace_is_on_the_leaderboard(published: Any) -> None:
    """The same run, each move sent a couple of seconds after the answer before it (the
    person's thinking time, set on the run's clock rather than waited for)."""
    bank(published, 12)
    person = player("person")
    run = start(person)
    for _ in range(12):
        PuzzleRun.objects.filter(pk=run["id"]).update(
            updated_at=F("updated_at") - timedelta(seconds=2),
            started_at=F("started_at") - timedelta(seconds=2),
        )
        answer = play(person, run, key(run["puzzle"]["id"]))
        assert answer["verdict"] == "solved"
        run = answer["run"]
    assert run["score"] == 12 and run["listed"] is True
    assert leaderboard(person) == [{"rank": 1, "username": "person", "score": 12}]


def test_a_few_quick_moves_do_not_take_a_run_off_the_leaderboard(published: Any) -> None:
    """A person may now and then move at once (a mate in 1 seen at a glance): the run is kept
    off only when many of its moves came that fast. Here 5 of 24 do (fewer than a quarter)."""
    bank(published, 24)
    person = player("person")
    run = start(person)
    for n in range(24):
        if n % 5:  # every fifth move as fast as the client goes
            PuzzleRun.objects.filter(pk=run["id"]).update(
                updated_at=F("updated_at") - timedelta(seconds=2)
            )
        run = play(person, run, key(run["puzzle"]["id"]))["run"]
    assert run["score"] == 24 and run["listed"] is True
    assert PuzzleRun.objects.get(pk=run["id"]).quick_moves <= 5
    assert leaderboard(person)[0]["score"] == 24


# --- A run needs a session to live in -------------------------------------------------------


def test_a_run_is_refused_to_a_request_without_cookies(published: Any) -> None:
    """A cookie-less POST made a visitor and a run of 4–5 KB each time that nobody could read
    again. It is refused with a sentence the page shows, and leaves nothing behind."""
    bank(published, 2)
    sessions = Session.objects.count()
    for _ in range(3):
        refused = post(at(Client()), "/api/puzzles/runs/", {"mode": "storm", "variant": "xiangqi"})
        assert refused.status_code == 400, refused.content
        error = refused.json()["error"]
        assert error["code"] == "run.cookies_needed"
        assert "cookies" in error["message"]
        assert "sessionid" not in refused.cookies
    assert not PuzzleRun.objects.exists() and not PuzzleRunMet.objects.exists()
    assert Session.objects.count() == sessions
    # In Chinese too.
    chinese = post(Client(HTTP_ACCEPT_LANGUAGE="zh-hans"), "/api/puzzles/runs/",
                   {"mode": "streak", "variant": "xiangqi"})  # fmt: skip
    assert chinese.status_code == 400 and "Cookie" in chinese.json()["error"]["message"]
    # A browser that loaded the page holds the site's cookies: its run starts, and it finds
    # the run again.
    browser = visitor()
    run = start(browser)
    assert (
        browser.get("/api/puzzles/runs/?mode=storm&variant=xiangqi").json()["run"]["id"]
        == (run["id"])
    )
    # Signed in, a session is there anyway.
    assert start(logged_in("someone"))["total"] == 2


def test_a_run_left_behind_by_a_client_that_drops_its_session_is_swept(published: Any) -> None:
    """A program can send a made-up CSRF cookie and drop the session it is given: its runs
    start, and no one can read them again. They are swept once they have waited an hour for
    a move."""
    bank(published, 2)
    bot = at(Client())
    bot.cookies["csrftoken"] = "x" * 32
    started = [start(bot)["id"]]
    for _ in range(2):
        bot.cookies.pop("sessionid", None)
        started.append(start(bot)["id"])
    assert len(set(started)) == 3
    assert PuzzleRunMet.objects.filter(user__isnull=True).count() == 3
    hour = timedelta(hours=1, minutes=1)
    PuzzleRun.objects.filter(pk__in=started).update(updated_at=F("updated_at") - hour)
    PuzzleRunMet.objects.update(created_at=F("created_at") - hour)
    assert runs.run_sweep_abandoned() == 3
    assert not PuzzleRun.objects.exists() and not PuzzleRunMet.objects.exists()
