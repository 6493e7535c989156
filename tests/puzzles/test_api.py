"""The puzzles API through the full HTTP stack: the solution never leaks, forged attempts and
other people's attempts are refused, only authors edit, and the schema lists every operation."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.utils import timezone

from accounts.owners import Owner
from engine import Position
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRun
from puzzles.selectors import puzzle_opening
from puzzles.services import puzzle_attempt_score
from puzzles.themes import PATTERN_SLUGS
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


def open_attempt(client: Client, puzzle: Puzzle) -> dict[str, Any]:
    opened = post(client, f"/api/puzzles/{puzzle.pk}/attempts/")
    assert opened.status_code in (200, 201), opened.content
    return dict(opened.json())


def play(client: Client, puzzle: Puzzle, attempt: dict[str, Any], move: str, **kw: Any) -> Any:
    return post(
        client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt["id"], "move": move, **kw}
    )


def play_out(client: Client, puzzle: Puzzle) -> dict[str, Any]:
    """Open an attempt and play the winning line in it; the last judgement."""
    attempt = open_attempt(client, puzzle)
    line = winning_line(puzzle)
    for move in line[::2]:
        judged = play(client, puzzle, attempt, move).json()
    assert judged["verdict"] == "solved", judged
    return dict(judged)


def leaks(data: Any, puzzle: Puzzle) -> list[str]:
    """Anything in a response that gives the solution away."""
    text = json.dumps(data)
    found = [word for word in ('"proof"', '"tree"', '"main_line"', '"keys"') if word in text]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("solution") not in (None, {}):
                found.append("solution")
            # a named kill pattern names the answer's final position
            if node.get("patterns") is not None:
                found.append("patterns")
            if isinstance(node.get("themes"), list) and PATTERN_SLUGS & set(node["themes"]):
                found.append("themes")
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
    # Opening an attempt and taking a hint is not a finished try.
    attempt = open_attempt(client, puzzle)
    assert attempt["solution"] is None and not leaks(attempt, puzzle)
    hint = post(client, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt": attempt["id"]})
    assert hint.json() == {"level": 1, "square": "g8", "move": None, "hints_used": 1}
    assert client.get(f"/api/puzzles/{puzzle.pk}/").json()["solution"] is None
    shown = post(client, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
    assert shown.status_code == 200
    assert shown.json()["solution"]["key"] == MATE_IN_2_KEY and shown.json()["gave_up"]
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


def test_next_reads_its_lists_and_passes_over_what_is_not_a_puzzle_id(
    client: Client, make_puzzle
) -> None:
    puzzle = make_puzzle()
    # "²" is a digit to str.isdigit() but no number to int(): it was a server error.
    for exclude in ("²", "x, ,²", f"{puzzle.pk + 1000}, ²"):
        answer = client.get("/api/puzzles/next/", {"variant": "xiangqi", "exclude": exclude})
        assert answer.status_code == 200 and answer.json()["id"] == puzzle.pk
    excluded = client.get("/api/puzzles/next/", {"variant": "xiangqi", "exclude": f" {puzzle.pk},"})
    assert excluded.status_code == 404
    blank = client.get("/api/puzzles/next/?variant=xiangqi&exclude=")
    assert blank.status_code == 400 and "exclude" in blank.json()["error"]["extra"]["fields"]


def test_judging_through_the_api(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    attempt = open_attempt(client, puzzle)
    assert attempt["state"] == "started" and attempt["first_try"] and attempt["line"] == []
    assert attempt["fen"] == MATE_IN_2 and MATE_IN_2_KEY in attempt["legal_moves"]
    bad = play(client, puzzle, attempt, "a0a9")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "solving.not_in_line"
    assert "a0a9" in bad.json()["error"]["message"]  # said in the reader's language
    assert "不合法" in bad.json()["error"]["message"]  # in the reader's language
    good = play(client, puzzle, attempt, MATE_IN_2_KEY, ply=0).json()
    assert good["verdict"] == "continue" and good["reply"]["chinese"]
    assert good["move"] == {
        "iccs": MATE_IN_2_KEY,
        "chinese": "兵三进一",
        "fen": good["move"]["fen"],
    }
    assert good["attempt"]["moves"] == [MATE_IN_2_KEY, good["reply"]["iccs"]]
    # Reloading the page goes on with the same attempt and its line.
    again = open_attempt(client, puzzle)
    assert again["id"] == attempt["id"] and [m["iccs"] for m in again["line"]] == again["moves"]
    assert again["fen"] == good["fen"] and again["legal_moves"] == good["legal_moves"]


def test_the_general_in_check_is_named_by_the_opening_and_the_mate(
    client: Client, make_puzzle
) -> None:
    puzzle = make_puzzle()
    assert client.get(f"/api/puzzles/{puzzle.pk}/").json()["check"] is None
    assert open_attempt(Client(), puzzle)["check"] is None
    mated = Position.from_fen(puzzle.variant, puzzle.fen)
    for move in winning_line(puzzle):
        mated.push_iccs(move)
    black_general = next(p for p, letter in mated.pieces().items() if letter == "k")
    judged = play_out(client, puzzle)
    assert judged["check"] == black_general
    # a position whose side to move starts in check names its general from the start
    checked = Puzzle(variant="feidan", fen="5k5/11/11/11/11/11/11/5R5/11/4K6 b - - 0 1")
    assert puzzle_opening(puzzle=checked).check == "f9"


def test_a_wrong_move_ends_the_try_through_the_api(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    attempt = open_attempt(client, puzzle)
    wrong = play(client, puzzle, attempt, a_wrong_first_move(puzzle)).json()
    assert wrong["verdict"] == "wrong" and wrong["refutation"]
    assert wrong["attempt"]["state"] == "submitted" and wrong["attempt"]["result"] == "failed"
    assert wrong["attempt"]["solution"] is None  # shown on request only
    status = client.get(wrong["attempt"]["status_url"]).json()
    assert status["solution"]["key"] == MATE_IN_2_KEY  # the try is over
    over = play(client, puzzle, attempt, MATE_IN_2_KEY)
    assert over.status_code == 400 and over.json()["error"]["extra"]["code"] == "attempt_over"
    retry = open_attempt(client, puzzle)
    assert retry["id"] != attempt["id"] and not retry["first_try"]


def test_judge_and_hint_need_an_attempt_of_ones_own(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    alice, bob = logged_in(make_user()), logged_in(make_user())
    attempt = open_attempt(alice, puzzle)
    for client in (bob, Client()):
        assert play(client, puzzle, attempt, MATE_IN_2_KEY).status_code == 404
        hint = post(client, f"/api/puzzles/{puzzle.pk}/hint/", {"attempt": attempt["id"]})
        assert hint.status_code == 404
        shown = post(client, f"/api/puzzles/{puzzle.pk}/give-up/", {"attempt": attempt["id"]})
        assert shown.status_code == 404
        assert client.get(attempt["status_url"]).status_code == 404
    missing = post(alice, f"/api/puzzles/{puzzle.pk}/judge/", {"move": MATE_IN_2_KEY})
    assert missing.status_code == 400 and "attempt" in json.dumps(missing.json())
    stored = PuzzleAttempt.objects.get(pk=attempt["id"])
    assert stored.moves == [] and stored.hints_used == 0 and stored.is_open


def test_attempt_status_reports_the_rating_change(make_puzzle, make_user) -> None:
    puzzle = make_puzzle()
    user = make_user()
    client = logged_in(user)
    submitted = play_out(client, puzzle)["attempt"]
    assert submitted["state"] == "submitted" and submitted["result"] == "solved"
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
    attempt = open_attempt(client, puzzle)
    judged = play(client, puzzle, attempt, a_wrong_first_move(puzzle)).json()
    scored = puzzle_attempt_score(attempt_id=judged["attempt"]["id"])
    assert scored is not None and scored.user is None and scored.visitor_id and not scored.rated
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
    # the live check answers an illegal board (200, not legal), a FEN it cannot read with 400
    facing = {"variant": "xiangqi", "fen": "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"}
    check = post(author, "/api/puzzles/authored/check/", facing)
    assert check.status_code == 200 and check.json()["legal"] is False
    assert check.json()["error"]["code"] == "fen.other_side_in_check"
    unreadable = {"variant": "xiangqi", "fen": "4k4/9/9 w - - 0 1"}
    check = post(author, "/api/puzzles/authored/check/", unreadable)
    assert check.status_code == 400 and check.json()["error"]["code"] == "fen.rank_count"
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
    assert patch(stranger, purl, {"title": "theirs"}).status_code == 404
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
        "puzzles_hint", "puzzles_attempt_open", "puzzles_give_up", "puzzles_attempt_get",
        "puzzles_dashboard",
        "puzzles_themes", "puzzles_authored_list", "puzzles_authored_create",
        "puzzles_authored_get", "puzzles_authored_update", "puzzles_authored_submit",
        "puzzles_position_check",
    } <= operations  # fmt: skip
    assert "solution" in json.dumps(schema["components"]["schemas"]["Puzzle"])


def test_players_are_identified_by_session(client: Client, make_puzzle) -> None:
    puzzle = make_puzzle()
    assert post(client, f"/api/puzzles/{puzzle.pk}/attempts/").status_code == 201
    visitor = client.session["visitor_id"]
    assert PuzzleAttempt.objects.get().visitor_id == visitor
    assert Owner(visitor_id=visitor).fields() == {"user": None, "visitor_id": visitor}


VALUES = {
    "variant": "xiangqi",
    "fen": MATE_IN_1,
    "moves_to_win": 1,
    "goal": "mate",
    "title": "t",
    "move": "a0d0",
    "ply": 0,
    "level": 1,
    "moves": [],
    "attempt_id": "6d1c3c36-0d1e-4d57-9c59-2b8a8a4a1f11",
    "mode": "streak",
    "index": 0,
}


def fresh_run(client: Client) -> int:
    """A new streak run of the client's (its open ones ended first): at its first puzzle."""
    PuzzleRun.objects.filter(finished_at__isnull=True).update(
        finished_at=timezone.now(), end=PuzzleRun.End.STOPPED
    )
    started = post(client, "/api/puzzles/runs/", {"mode": "streak", "variant": "xiangqi"})
    return int(started.json()["id"])


def encoded(body: dict[str, Any], media: str) -> dict[str, Any]:
    """The body as a client following the schema sends it in ``media`` (lists as repeated
    fields in forms, so that an empty list is no field at all)."""
    if media == "application/json":
        return {"data": json.dumps(body), "content_type": media}
    if media == "application/x-www-form-urlencoded":
        return {"data": urlencode(body, doseq=True), "content_type": media}
    return {"data": body}  # the test client's multipart encoding


def test_the_schema_and_the_validation_agree_on_what_a_body_needs(make_puzzle, make_user) -> None:
    """For every puzzle operation with a body, in every media type the schema documents: a
    body with just the properties the schema requires is accepted, and one without any of
    them is refused. (Before, ``moves: []`` was valid by the schema and refused in forms.)"""
    client = logged_in(make_user())
    schema = client.get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    checked = set()
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/puzzles/"):
            continue
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            for media, spec in content.items():
                ref = spec["schema"]["$ref"].rsplit("/", 1)[-1]
                required = components[ref].get("required", [])
                if not required:
                    continue
                for left_out in [None, *required]:
                    puzzle = make_puzzle(MATE_IN_1, moves_to_win=1)
                    values = {**VALUES, "attempt": open_attempt(client, puzzle)["id"]}
                    body = {k: values[k] for k in required if k != left_out}
                    url = path.replace("{puzzle_id}", str(puzzle.pk))
                    if "{run_id}" in url:
                        url = url.replace("{run_id}", str(fresh_run(client)))
                    answer = getattr(client, method)(url, **encoded(body, media))
                    what = (method, path, media, sorted(body))
                    if left_out is None:
                        assert answer.status_code < 300, (what, answer.content)
                    else:
                        assert answer.status_code == 400, (what, answer.content)
                        assert left_out in json.dumps(answer.json()), (what, answer.content)
                checked.add(operation["operationId"])
    assert {"puzzles_judge", "puzzles_hint", "puzzles_give_up"} <= checked
    assert {"puzzles_runs_start", "puzzles_runs_move", "puzzles_runs_skip"} <= checked


def test_the_themes_filter_takes_known_themes_each_once(client: Client, make_puzzle) -> None:
    two = make_puzzle()
    make_puzzle(MATE_IN_1, moves_to_win=1)
    again = client.get("/api/puzzles/?themes=mate_in_2,mate_in_2, quiet_move,mate_in_2")
    assert [p["id"] for p in again.json()["results"]] == [two.pk]
    for url in ("/api/puzzles/", "/api/puzzles/next/"):
        refused = client.get(
            url, {"variant": "xiangqi", "themes": "mate_in_2,nope,quiet_move,bad,nope"}
        )
        assert refused.status_code == 400
        error = refused.json()["error"]
        assert error["code"] == "input.not_choices"
        assert error["params"]["field"] == "themes" and error["params"]["input"] == "nope, bad"
        assert "mate_in_2" in error["params"]["known"]
        assert client.get(url, {"variant": "xiangqi", "themes": "\x00"}).status_code == 400


def test_the_themes_filter_reads_the_same_tables_for_one_theme_or_several(
    client: Client, make_puzzle
) -> None:
    """One join per theme made PostgreSQL's planning grow steeply with the list (at 200
    themes a backend grew to 22 GB): the plan reads the same tables for one theme or five."""
    from tests.security.test_query_bounds import request_cost

    make_puzzle()
    few = ["stalemate", "mate_in_2", "quiet_move", "checks_only", "sacrifice"]  # none matches
    for url, query in (("/api/puzzles/", {}), ("/api/puzzles/next/", {"variant": "xiangqi"})):
        one = request_cost(url, {**query, "themes": few[0]})
        five = request_cost(url, {**query, "themes": ",".join(few)})
        assert (five.queries, five.scans) == (one.queries, one.scans), (one, five)
