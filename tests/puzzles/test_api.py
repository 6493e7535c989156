"""The puzzles API through the full HTTP stack: the solution never leaks, forged attempts and
other people's attempts are refused, only authors edit, and the schema lists every operation."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client

from puzzles.models import Puzzle, PuzzleAttempt
from puzzles.services import Player, puzzle_attempt_score
from tests.puzzles.positions import COOKED_IN_1, MATE_IN_1, MATE_IN_2, MATE_IN_2_KEY
from tests.puzzles.test_solving import a_wrong_first_move, winning_line

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def patch(client: Client, url: str, body: Any) -> Any:
    return client.patch(url, data=json.dumps(body), content_type="application/json")


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def leaks(data: Any, puzzle: Puzzle) -> list[str]:
    """Anything in a response that gives the solution away."""
    text = json.dumps(data)
    found = [word for word in ('"proof"', '"tree"', '"main_line"', '"keys"') if word in text]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("solution") not in (None, {}):
                found.append("solution")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return found


def test_list_filters_and_never_shows_solutions(client: Client, make_puzzle) -> None:
    two = make_puzzle()
    one = make_puzzle(MATE_IN_1, moves_to_win=1)
    make_puzzle(COOKED_IN_1, moves_to_win=1, status=Puzzle.Status.DRAFT)
    data = client.get("/api/puzzles/").json()
    assert data["count"] == 2 and not leaks(data, two)
    assert [p["id"] for p in data["results"]] == [one.pk, two.pk]  # easiest first
    only = client.get("/api/puzzles/?themes=mate_in_2,quiet_move").json()
    assert [p["id"] for p in only["results"]] == [two.pk]
    assert client.get("/api/puzzles/?themes=mate_in_2,mate_in_1").json()["count"] == 0
    assert client.get("/api/puzzles/?variant=feidan").json()["count"] == 0
    assert client.get("/api/puzzles/?variant=nope").status_code == 400
    assert client.get("/api/puzzles/?variant=").status_code == 400
    assert client.get("/api/puzzles/?offset=x").status_code == 400
    assert client.get("/api/puzzles/?limit=1").json()["results"][0]["id"] == one.pk
    assert client.get("/api/puzzles/daily/?date=").status_code == 400


def test_a_puzzle_shows_its_solution_only_after_a_finished_try(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    detail = client.get(f"/api/puzzles/{puzzle.pk}/").json()
    assert detail["solution"] is None and not leaks(detail, puzzle)
    assert detail["turn"] == "red" and MATE_IN_2_KEY in detail["legal_moves"]
    assert detail["share_url"].endswith(f"/puzzles/p/{puzzle.slug}/")
    # A hint is not a finished try.
    hint = post(
        client, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt_id": str(uuid.uuid4()), "moves": []}
    )
    assert hint.json() == {"level": 1, "square": "g8", "move": None}
    assert client.get(f"/api/puzzles/{puzzle.pk}/").json()["solution"] is None
    submitted = post(
        client,
        f"/api/puzzles/{puzzle.pk}/attempts/",
        {"attempt_id": str(uuid.uuid4()), "moves": [], "gave_up": True},
    )
    assert submitted.status_code == 202
    assert submitted.json()["solution"]["key"] == MATE_IN_2_KEY
    after = client.get(f"/api/puzzles/{puzzle.pk}/").json()
    assert after["solution"]["line"][0]["iccs"] == MATE_IN_2_KEY
    # Someone else still does not see it.
    assert Client().get(f"/api/puzzles/{puzzle.pk}/").json()["solution"] is None


def test_next_and_daily_never_show_solutions(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    nxt = client.get("/api/puzzles/next/?variant=xiangqi")
    assert (
        nxt.status_code == 200 and nxt.json()["id"] == puzzle.pk and not leaks(nxt.json(), puzzle)
    )
    daily = client.get("/api/puzzles/daily/").json()
    assert [d["puzzle"]["id"] for d in daily] == [puzzle.pk] and not leaks(daily, puzzle)
    assert client.get("/api/puzzles/next/?variant=feidan").status_code == 404


def test_judging_through_the_api(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    good = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"moves": [MATE_IN_2_KEY]}).json()
    assert good["verdict"] == "continue" and good["reply"]["chinese"]
    assert good["move"] == {
        "iccs": MATE_IN_2_KEY,
        "chinese": "兵三进一",
        "fen": good["move"]["fen"],
    }
    wrong = post(
        client, f"/api/puzzles/{puzzle.pk}/judge/", {"moves": [a_wrong_first_move(puzzle)]}
    )
    assert wrong.json()["verdict"] == "wrong"
    bad = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"moves": ["a0a9"]})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "solving.not_in_line"


def test_a_forged_attempt_is_refused(client: Client, make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = logged_in(make_user())
    url = f"/api/puzzles/{puzzle.pk}/attempts/"
    not_from_here = post(user, url, {"attempt_id": str(uuid.uuid4()), "moves": ["e0e1", "d9d8"]})
    assert not_from_here.status_code == 400
    garbage = post(user, url, {"attempt_id": str(uuid.uuid4()), "moves": ["zz99"]})
    assert garbage.status_code == 400
    too_long = post(user, url, {"attempt_id": str(uuid.uuid4()), "moves": ["g8g9"] * 9})
    assert too_long.status_code == 400
    assert PuzzleAttempt.objects.filter(state=PuzzleAttempt.State.SUBMITTED).count() == 0


def test_another_users_attempt_is_refused(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    alice, bob = logged_in(make_user()), logged_in(make_user())
    attempt_id = str(uuid.uuid4())
    body = {"attempt_id": attempt_id, "moves": winning_line(puzzle)}
    mine = post(alice, f"/api/puzzles/{puzzle.pk}/attempts/", body)
    assert mine.status_code == 202
    status_url = mine.json()["status_url"]
    assert alice.get(status_url).status_code == 200
    assert bob.get(status_url).status_code == 404
    assert Client().get(status_url).status_code == 404
    stolen = post(bob, f"/api/puzzles/{puzzle.pk}/attempts/", body)
    assert stolen.status_code == 403
    hint = post(bob, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt_id": attempt_id, "moves": []})
    assert hint.status_code == 403


def test_attempt_status_reports_the_rating_change(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    client = logged_in(user)
    submitted = post(
        client,
        f"/api/puzzles/{puzzle.pk}/attempts/",
        {"attempt_id": str(uuid.uuid4()), "moves": winning_line(puzzle), "seconds": 20},
    ).json()
    assert submitted["state"] == "submitted" and submitted["result"] == "pending"
    puzzle_attempt_score(attempt_id=submitted["id"])  # the task's work, run here
    status = client.get(submitted["status_url"]).json()
    assert status["state"] == "scored" and status["result"] == "solved" and status["rated"]
    assert status["user_rating_after"] > status["user_rating_before"] == 1500
    dashboard = client.get("/api/puzzles/dashboard/").json()
    xiangqi = next(r for r in dashboard["ratings"] if r["variant"] == "xiangqi")
    assert xiangqi["games"] == 1
    assert [point[1] for point in xiangqi["history"]] == [
        1500,
        round(status["user_rating_after"], 1),
    ]
    assert {t["slug"] for t in dashboard["themes"]} >= {"mate_in_2"}


def test_anonymous_visitors_play_unrated(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    submitted = post(
        client,
        f"/api/puzzles/{puzzle.pk}/attempts/",
        {"attempt_id": str(uuid.uuid4()), "moves": [a_wrong_first_move(puzzle)]},
    ).json()
    attempt = puzzle_attempt_score(attempt_id=submitted["id"])
    assert attempt is not None and attempt.user is None and attempt.visitor_id and not attempt.rated
    dashboard = client.get("/api/puzzles/dashboard/").json()
    assert [r["puzzle"] for r in dashboard["replays"]] == [puzzle.pk]
    assert dashboard["ratings"] == []


def test_authoring_flow_and_permissions(make_puzzle, make_user) -> None:
    author_user = make_user()
    author, stranger = logged_in(author_user), logged_in(make_user())
    assert post(Client(), "/api/puzzles/authored/", {}).status_code == 403
    illegal = post(
        author,
        "/api/puzzles/authored/",
        {"variant": "xiangqi", "fen": "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "moves_to_win": 1},
    )
    assert illegal.status_code == 400
    assert illegal.json()["error"]["code"] == "fen.other_side_in_check"
    check = post(author, "/api/puzzles/authored/check/", {"variant": "xiangqi", "fen": MATE_IN_2})
    assert check.json() == {"fen": MATE_IN_2, "turn": "red"}
    created = post(
        author,
        "/api/puzzles/authored/",
        {
            "variant": "xiangqi",
            "fen": MATE_IN_2,
            "goal": "mate",
            "moves_to_win": 2,
            "title": "Mine",
        },
    )
    assert created.status_code == 201
    draft = created.json()
    assert draft["status"] == "draft" and draft["solution"] is None
    url = f"/api/puzzles/authored/{draft['id']}/"
    # A draft is invisible to others; its author sees it.
    assert stranger.get(f"/api/puzzles/{draft['id']}/").status_code == 404
    assert stranger.get(url).status_code == 404
    assert patch(stranger, url, {"title": "theirs"}).status_code == 404
    assert patch(author, url, {"title": "Renamed"}).json()["title"] == "Renamed"
    assert [p["id"] for p in author.get("/api/puzzles/authored/").json()] == [draft["id"]]
    # Published puzzles: visible to all, editable by nobody.
    published = make_puzzle(author=author_user, source=Puzzle.Source.AUTHORED)
    purl = f"/api/puzzles/authored/{published.pk}/"
    assert patch(stranger, purl, {"title": "theirs"}).status_code == 403
    refused = patch(author, purl, {"title": "changed"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "puzzle.published"
    assert post(stranger, f"/api/puzzles/authored/{draft['id']}/submit/").status_code == 404


def test_the_schema_lists_every_puzzle_operation(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    operations = {
        op["operationId"]
        for path in schema["paths"].values()
        for op in path.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert {
        "puzzles_list", "puzzles_get", "puzzles_next", "puzzles_daily", "puzzles_judge",
        "puzzles_hint", "puzzles_attempt_submit", "puzzles_attempt_get", "puzzles_dashboard",
        "puzzles_themes", "puzzles_authored_list", "puzzles_authored_create",
        "puzzles_authored_get", "puzzles_authored_update", "puzzles_authored_submit",
        "puzzles_position_check",
    } <= operations  # fmt: skip
    assert "solution" in json.dumps(schema["components"]["schemas"]["Puzzle"])


def test_players_are_identified_by_session(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    body = {"attempt_id": str(uuid.uuid4()), "moves": [], "gave_up": True}
    assert post(client, f"/api/puzzles/{puzzle.pk}/attempts/", body).status_code == 202
    visitor = client.session["visitor_id"]
    assert PuzzleAttempt.objects.get().visitor_id == visitor
    assert Player(visitor_id=visitor).owner_fields()["visitor_id"] == visitor
