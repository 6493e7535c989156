"""The engine on the analysis board (games.analysis): the search itself, called directly (three
lines scored from Red's side, by Fairy-Stockfish or the site's engine); the API that asks for
one and polls it (bad requests refused with the reason, the budgets that deepen a position and
their cap, one search pending per visitor and a new position taking the old one's place,
another's search a 404); and the task through a real Celery worker."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from engine import Position
from games.analysis import (
    ANALYSIS_BUDGETS,
    ANALYSIS_LINES,
    PROVE_UP_TO,
    STALE_AFTER,
    analysis_budgets,
    analysis_key,
    analysis_next_nodes,
    engine_analyse,
    engine_analysis_run,
    engine_analysis_sweep,
)
from games.models import EngineAnalysis
from games.queueing import SEARCH, dispatch, handed
from games.tasks import engine_analysis_sweep_task
from judge import FAIRY_STOCKFISH, OURS, OurEngine, judge_for
from tests.games.conftest import post
from tests.puzzles.positions import MATE_IN_1, MATE_IN_1_KEY, MATE_IN_2, MATE_IN_2_KEY

URL = "/api/games/analysis/"
START = {v: Position.start(v).fen() for v in ("xiangqi", "feidan", "xinban")}
# Black to move, a chariot down: Red is winning (by about four pawns), no mate in sight.
RED_AHEAD_BLACK_TO_MOVE = "1nbakab2/9/9/4p4/9/9/9/9/9/R1BAKABN1 b - - 0 1"


def legal_line(variant: str, fen: str, moves: list[str], line: list[dict[str, str]]) -> None:
    """Every move of ``line`` is legal in turn after ``moves``, and said right in Chinese."""
    pos = Position.from_fen(variant, fen)
    for text in moves:
        pos.push_iccs(text)
    for step in line:
        move = pos.parse_move(step["iccs"])
        assert pos.chinese(move) == step["chinese"]
        assert pos.parse_move(step["chinese"]) == move
        pos.push(move)


# -- the search ------------------------------------------------------------------------------


def test_a_mate_in_two_is_seen_and_proved_forced() -> None:
    found = engine_analyse(variant="xiangqi", fen=MATE_IN_2)
    assert found["turn"] == "red"
    assert (found["mate"], found["forced"], found["score"]) == (2, True, None)
    assert found["proof"]["status"] == "win" and found["proof"]["moves_to_win"] == 2
    assert found["line"][0] == {"iccs": MATE_IN_2_KEY, "chinese": "兵三进一"}
    assert len(found["line"]) == 3  # the key, the defence, the mate
    legal_line("xiangqi", MATE_IN_2, [], found["line"])
    pos = Position.from_fen("xiangqi", MATE_IN_2)
    for step in found["line"]:
        pos.push_iccs(step["iccs"])
    assert pos.outcome() is not None and pos.outcome().winner == "red"  # type: ignore[union-attr]


def test_the_side_to_move_that_is_mated_is_told_so_but_not_as_forced() -> None:
    """A mate against the side to move is shown (negative) and not put to the prover."""
    fen = "4k4/9/9/9/9/9/9/9/R8/1R1K5 b - - 0 1"  # Black's general alone against two chariots
    found = engine_analyse(variant="xiangqi", fen=fen)
    assert found["mate"] is not None and found["mate"] < 0
    assert found["forced"] is False and found["proof"] is None


def within(found: dict[str, Any], budget: int) -> bool:
    """The search kept to its budget (Fairy-Stockfish ends the move it is at: a few more)."""
    return found["budget"] == budget and 0 < found["nodes"] <= budget * 1.01


def test_a_quiet_start_is_not_a_mate() -> None:
    found = engine_analyse(variant="xiangqi", fen=START["xiangqi"])
    assert found["mate"] is None and found["forced"] is False and found["proof"] is None
    assert abs(found["score"]) < 100  # the start is about even
    assert within(found, analysis_budgets("xiangqi")[0]) and found["depth"] >= 3
    assert len(found["line"]) >= 2
    legal_line("xiangqi", START["xiangqi"], [], found["line"])


@pytest.mark.parametrize("variant", ["feidan", "xinban"])
def test_the_variants_nobody_else_analyses_are_analysed(variant: str) -> None:
    pos = Position.start(variant)
    first = sorted(m.iccs() for m in pos.legal_moves)[0]
    found = engine_analyse(variant=variant, fen=START[variant], moves=[first])
    assert found["engine"] == OURS and found["label"] == OurEngine.label
    assert found["turn"] == "black"
    assert found["mate"] is None and isinstance(found["score"], int)
    assert found["line"] and within(found, ANALYSIS_BUDGETS[OURS][0])
    legal_line(variant, START[variant], [first], found["line"])
    assert len(found["lines"]) == ANALYSIS_LINES  # one search after another, best first
    for line in found["lines"]:
        legal_line(variant, START[variant], [first], line["moves"])
    assert len({line["moves"][0]["iccs"] for line in found["lines"]}) == ANALYSIS_LINES


@pytest.mark.parametrize("engine", [FAIRY_STOCKFISH, OURS])
def test_three_lines_scored_from_reds_side_when_black_is_to_move(engine: str) -> None:
    """Black to move and lost: every line's number is Red's, so positive; the best line's
    ``score`` stays the side to move's, so negative."""
    if engine == FAIRY_STOCKFISH and judge_for("xiangqi").name != FAIRY_STOCKFISH:
        pytest.skip("Fairy-Stockfish is not installed")
    judge = judge_for("xiangqi", engine=engine)
    budget = ANALYSIS_BUDGETS[engine][0]
    found = engine_analyse(
        variant="xiangqi", fen=RED_AHEAD_BLACK_TO_MOVE, nodes=budget, judge=judge
    )
    assert found["engine"] == engine and found["turn"] == "black"
    assert found["label"] == judge.label
    if engine == FAIRY_STOCKFISH:
        assert found["label"].startswith("Fairy-Stockfish ")
    assert len(found["lines"]) == 3
    assert len({line["moves"][0]["iccs"] for line in found["lines"]}) == 3
    for line in found["lines"]:
        assert line["mate"] is None and line["cp"] > 200
        legal_line("xiangqi", RED_AHEAD_BLACK_TO_MOVE, [], line["moves"])
    assert found["score"] == -found["lines"][0]["cp"]
    assert found["line"] == found["lines"][0]["moves"]
    assert within(found, budget) and found["depth"] >= 3


def test_a_proved_mate_is_said_from_reds_side_in_the_first_line() -> None:
    found = engine_analyse(variant="xiangqi", fen=MATE_IN_2)
    assert found["forced"] is True
    assert (found["lines"][0]["cp"], found["lines"][0]["mate"]) == (None, 2)
    black = engine_analyse(variant="xiangqi", fen="4k4/9/9/9/9/9/9/9/R8/1R1K5 b - - 0 1")
    assert all(line["mate"] is None or line["mate"] > 0 for line in black["lines"])


def test_each_budget_is_four_times_the_last_and_the_first_is_small() -> None:
    for budgets in ANALYSIS_BUDGETS.values():
        assert len(budgets) >= 3 and budgets[0] <= 50_000
        assert all(b == 4 * a for a, b in zip(budgets, budgets[1:], strict=False))


def test_only_short_wins_are_put_to_the_prover() -> None:
    assert 1 <= PROVE_UP_TO <= 7


# -- the API ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_request_waits_for_a_worker_and_is_polled(client: Client) -> None:
    response = post(client, URL, {"variant": "xiangqi", "fen": MATE_IN_2})
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "pending" and body["result"] == {}
    assert body["url"] == f"{URL}{body['id']}/"
    assert client.get(body["url"]).json()["status"] == "pending"
    assert engine_analysis_run(analysis_id=body["id"]) == "done"
    assert engine_analysis_run(analysis_id=body["id"]) == "skipped"  # searched once
    done = client.get(body["url"]).json()
    assert done["status"] == "done"
    assert done["result"]["forced"] is True and done["result"]["mate"] == 2


@pytest.mark.django_db
def test_moves_in_chinese_are_kept_in_iccs(client: Client) -> None:
    body = post(client, URL, {"variant": "xiangqi", "moves": ["炮二平五", "h9g7"]}).json()
    assert body["moves"] == ["h2e2", "h9g7"] and body["fen"] == START["xiangqi"]
    named = post(Client(), URL, {"variant": "feidan", "setup": "standard"}).json()
    assert named["fen"] == START["feidan"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "xiangqi", "fen": "not a fen"}, "fen."),
        ({"variant": "xiangqi", "fen": "3ak4/4aPP2/b8/9/9 w - - 0 1"}, "fen."),
        ({"variant": "xiangqi", "moves": ["h2h8"]}, "move."),  # the cannon cannot go there
        ({"variant": "xiangqi", "moves": ["zz99"]}, ""),  # no move in any notation
        ({"variant": "shogi"}, "variant."),
        ({"variant": "xiangqi", "fen": MATE_IN_1, "moves": [MATE_IN_1_KEY]}, "analysis.game_over"),
        ({"variant": "xiangqi", "moves": "h2e2"}, "input."),
        ({}, "input."),
        ({"variant": "xiangqi", "nodes": 10}, "input."),  # below any budget
        ({"variant": "xiangqi", "nodes": "deep"}, "input."),
        ({"variant": "feidan", "nodes": ANALYSIS_BUDGETS[OURS][-1] + 1}, "analysis.too_deep"),
        ({"variant": "xinban", "nodes": 10**12}, "analysis.too_deep"),
    ],
)
def test_a_bad_request_is_refused_with_the_reason(
    client: Client, body: dict[str, Any], code: str
) -> None:
    response = post(client, URL, body)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["message"] and (error["code"] or "").startswith(code), error
    assert not EngineAnalysis.objects.exists()


@pytest.mark.django_db
def test_an_illegal_move_is_explained_in_the_readers_language(client: Client) -> None:
    body = {"variant": "xiangqi", "moves": ["h2e2", "h2e2"]}  # the cannon has gone
    english = post(client, URL, body)
    chinese = client.post(
        URL, data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert english.status_code == chinese.status_code == 400
    assert english.json()["error"]["params"]["index"] == 2
    assert "2" in english.json()["error"]["message"]
    assert "第 2 步" in chinese.json()["error"]["message"]


@pytest.mark.django_db
def test_a_forged_budget_beyond_the_last_is_refused_with_the_cap(client: Client) -> None:
    cap = analysis_budgets("xiangqi")[-1]
    refused = post(client, URL, {"variant": "xiangqi", "nodes": cap * 4})
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "analysis.too_deep"
    assert error["params"] == {"nodes": cap * 4, "cap": cap}
    assert error["extra"]["field"] == "nodes"
    assert f"{cap}" in error["message"] and "最多搜索" in error["message"]
    english = client.post(
        URL,
        data={"variant": "xiangqi", "nodes": cap * 4},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "at most" in english.json()["error"]["message"]
    assert not EngineAnalysis.objects.exists()
    at_cap = post(client, URL, {"variant": "xiangqi", "nodes": cap})
    assert at_cap.status_code == 202 and at_cap.json()["nodes"] == cap


@pytest.mark.django_db
def test_each_answer_names_the_next_budget_up_to_the_last(client: Client) -> None:
    """The board deepens a position shown by asking again with ``next_nodes``; the first two
    budgets are searched here, the later ones judged from rows (their searches take seconds)."""
    budgets = analysis_budgets("feidan")
    first = post(client, URL, {"variant": "feidan"}).json()
    assert (first["nodes"], first["next_nodes"]) == (budgets[0], None)  # pending: nothing yet
    assert engine_analysis_run(analysis_id=first["id"]) == "done"
    done = client.get(first["url"]).json()
    assert done["next_nodes"] == budgets[1] == 4 * budgets[0]
    assert done["result"]["budget"] == budgets[0] and done["result"]["engine"] == OURS
    deeper = post(client, URL, {"variant": "feidan", "nodes": done["next_nodes"]})
    assert deeper.status_code == 202 and deeper.json()["id"] != first["id"]
    engine_analysis_run(analysis_id=deeper.json()["id"])
    second = client.get(deeper.json()["url"]).json()
    assert second["result"]["budget"] == budgets[1] and second["next_nodes"] == budgets[2]
    assert second["result"]["nodes"] > done["result"]["nodes"]
    assert second["result"]["depth"] >= done["result"]["depth"]
    row = EngineAnalysis.objects.get(pk=deeper.json()["id"])
    for nodes, following in zip(budgets, [*budgets[1:], None], strict=True):
        row.nodes = nodes
        assert analysis_next_nodes(row) == following
    row.result = {**row.result, "forced": True}
    row.nodes = budgets[0]
    assert analysis_next_nodes(row) is None  # a proved mate is deep enough


@pytest.mark.django_db
def test_a_proved_mate_asks_for_nothing_deeper(client: Client) -> None:
    asked = post(client, URL, {"variant": "xiangqi", "fen": MATE_IN_2}).json()
    engine_analysis_run(analysis_id=asked["id"])
    done = client.get(asked["url"]).json()
    assert done["result"]["forced"] is True and done["next_nodes"] is None


@pytest.mark.django_db
def test_a_deeper_recent_search_answers_a_shallower_question(client: Client) -> None:
    budgets = analysis_budgets("xinban")
    deep = post(client, URL, {"variant": "xinban", "nodes": budgets[1]}).json()
    engine_analysis_run(analysis_id=deep["id"])
    again = post(client, URL, {"variant": "xinban"})  # the first budget, after a reload
    assert again.status_code == 200 and again.json()["id"] == deep["id"]
    assert again.json()["nodes"] == budgets[1] and again.json()["next_nodes"] == budgets[2]
    other = post(Client(), URL, {"variant": "xinban"}).json()  # anyone's, kept as theirs
    assert other["status"] == "done" and other["nodes"] == budgets[1]
    assert other["id"] != deep["id"]
    deeper = post(client, URL, {"variant": "xinban", "nodes": budgets[2]})
    assert deeper.status_code == 202  # not known yet that deep


@pytest.mark.django_db
def test_asking_about_another_position_takes_the_place_of_the_pending_one(
    client: Client,
) -> None:
    first = post(client, URL, {"variant": "xiangqi"})
    assert first.status_code == 202
    again = post(client, URL, {"variant": "xiangqi"})  # the same one: the pending one again
    assert again.status_code == 202 and again.json()["id"] == first.json()["id"]
    second = post(client, URL, {"variant": "xiangqi", "moves": ["h2e2"]})
    assert second.status_code == 202
    gone = client.get(first.json()["url"]).json()
    assert gone["status"] == "failed" and gone["next_nodes"] is None
    error = gone["result"]["error"]
    assert error["code"] == "analysis.superseded"
    assert "another position" in error["message"]["en"]
    assert "另一个局面" in error["message"]["zh"]
    row = EngineAnalysis.objects.get(pk=first.json()["id"])
    assert row.finished_at is not None  # never handed over: nothing holds its lanes
    assert EngineAnalysis.objects.filter(status="pending").count() == 1
    assert engine_analysis_run(analysis_id=first.json()["id"]) == "skipped"
    assert engine_analysis_run(analysis_id=second.json()["id"]) == "done"


@pytest.mark.django_db
def test_a_search_given_way_holds_its_lanes_until_its_worker_has_stopped(
    client: Client,
) -> None:
    """One search of an owner with the workers at a time, even when they move on: the new
    position waits until the worker searching the old one has stopped."""
    first = post(client, URL, {"variant": "xiangqi"}).json()
    assert handed(dispatch(), SEARCH, first["id"])  # what the commit runs: a worker's now
    second = post(client, URL, {"variant": "feidan"}).json()
    row = EngineAnalysis.objects.get(pk=first["id"])
    assert row.status == "failed" and row.finished_at is None  # a worker may be on it
    assert not handed(dispatch(), SEARCH, second["id"])
    assert engine_analysis_run(analysis_id=first["id"]) == "skipped"  # the worker stops
    assert EngineAnalysis.objects.get(pk=first["id"]).finished_at is not None
    assert handed(dispatch(), SEARCH, second["id"])


@pytest.mark.django_db
def test_an_address_has_a_bounded_number_of_searches_pending() -> None:
    limit = settings.ANALYSIS_PENDING_PER_ADDRESS
    openings = ["h2e2", "b2e2", "h0g2", "b0c2", "c3c4", "g3g4", "a3a4", "i3i4"]
    assert limit <= len(openings)
    for opening in openings[:limit]:  # one visitor each, all at one address
        answer = post(
            Client(REMOTE_ADDR="10.2.0.9"), URL, {"variant": "xiangqi", "moves": [opening]}
        )
        assert answer.status_code == 202
    refused = post(Client(REMOTE_ADDR="10.2.0.9"), URL, {"variant": "xinban"})
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "analysis.busy_address" and error["params"]["count"] == limit
    assert "wait a moment" in error["extra"]["explanation"]["en"]
    assert "请稍等片刻再问" in error["extra"]["explanation"]["zh"]
    assert post(Client(REMOTE_ADDR="10.2.0.10"), URL, {"variant": "xinban"}).status_code == 202


@pytest.mark.django_db
def test_a_lost_search_holds_nobody_back(client: Client) -> None:
    first = post(client, URL, {"variant": "xiangqi"}).json()
    EngineAnalysis.objects.filter(pk=first["id"]).update(
        dispatched_at=timezone.now() - STALE_AFTER - timedelta(seconds=1)
    )
    second = post(client, URL, {"variant": "feidan"})
    assert second.status_code == 202
    lost = client.get(first["url"]).json()
    assert lost["status"] == "failed" and lost["result"]["error"]["code"] == "analysis.lost"
    assert EngineAnalysis.objects.get(pk=first["id"]).finished_at is not None
    assert handed(dispatch(), SEARCH, second.json()["id"])


@pytest.mark.django_db
def test_a_recent_identical_search_is_answered_again_at_once(client: Client) -> None:
    first = post(client, URL, {"variant": "xiangqi", "fen": MATE_IN_2}).json()
    engine_analysis_run(analysis_id=first["id"])
    other = Client()
    again = post(other, URL, {"variant": "xiangqi", "fen": MATE_IN_2})
    assert again.status_code == 200
    body = again.json()
    assert body["id"] != first["id"] and body["status"] == "done"
    assert body["result"]["forced"] is True
    assert other.get(body["url"]).status_code == 200


@pytest.mark.django_db
def test_a_search_is_its_owners_alone(client: Client) -> None:
    mine = post(client, URL, {"variant": "xiangqi"}).json()
    assert client.get(mine["url"]).status_code == 200
    assert Client().get(mine["url"]).status_code == 404  # another visitor
    assert client.get(f"{URL}{mine['id'] + 1000}/").status_code == 404  # no such search
    assert client.get(f"{URL}abc/").status_code == 404
    assert client.get(f"{URL}-1/").status_code == 404
    assert post(client, mine["url"], {}).status_code == 405  # nothing to post to a search


@pytest.mark.django_db(transaction=True)
def test_a_worker_stops_a_search_its_owner_no_longer_waits_for(client: Client) -> None:
    """The deepest search (seconds of work) is stopped within a moment once its owner asks
    about another position, so that the new position's first line comes soon."""
    budget = analysis_budgets("xiangqi")[-1]
    deep = post(client, URL, {"variant": "xiangqi", "nodes": budget}).json()
    ran: dict[str, Any] = {}

    def worker() -> None:
        started = time.monotonic()
        try:
            ran["state"] = engine_analysis_run(analysis_id=deep["id"])
        finally:
            ran["seconds"] = time.monotonic() - started
            connection.close()

    searching = threading.Thread(target=worker)
    searching.start()
    time.sleep(0.5)
    moved_on = time.monotonic()
    assert post(client, URL, {"variant": "xiangqi", "moves": ["h2e2"]}).status_code == 202
    searching.join(timeout=60)
    stopped_after = time.monotonic() - moved_on
    assert ran["state"] == "skipped"
    assert stopped_after < 2.0, ran  # unstopped, it searches for seconds
    row = EngineAnalysis.objects.get(pk=deep["id"])
    assert row.status == "failed" and row.finished_at is not None


@pytest.mark.parametrize(
    "variant", ["xiangqi", "feidan"]
)  # Fairy-Stockfish (where installed), ours
@pytest.mark.django_db(transaction=True)
def test_a_deep_search_gives_way_to_another_visitors_first_look(
    client: Client, variant: str
) -> None:
    """A deep search (seconds of work) stops within a moment once another visitor's first look
    at a position waits for its turn; what it found so far is its answer, marked cut short,
    the same budget is the one to ask for next, and no one is answered with it in place of a
    full search."""
    budget = analysis_budgets(variant)[-1]
    # with the workers already, as the dispatcher leaves it (made here, not through the API,
    # so that no commit hands it to a worker of this test process as well)
    fen = Position.start(variant).fen()
    deep = EngineAnalysis.objects.create(
        visitor_id="deep-looker", variant=variant, fen=fen, moves=[], nodes=budget,
        key=analysis_key(variant, fen, []), address="198.51.100.6", dispatched_at=timezone.now(),
    )  # fmt: skip
    ran: dict[str, Any] = {}

    def worker() -> None:
        try:
            ran["state"] = engine_analysis_run(analysis_id=deep.pk)
        finally:
            connection.close()

    searching = threading.Thread(target=worker)
    searching.start()
    time.sleep(0.5)
    asked = time.monotonic()
    other = Client(REMOTE_ADDR="198.51.100.7")
    look = post(other, URL, {"variant": variant})  # the first budget
    assert look.status_code == 202
    assert look.json()["status"] == "pending"  # the deep search holds the place
    searching.join(timeout=60)
    gave_way_after = time.monotonic() - asked
    assert ran["state"] == "done"
    assert gave_way_after < 2.0, ran  # not given way, it searches for seconds
    deep.refresh_from_db()
    assert deep.status == "done" and deep.cut_short
    assert deep.result["lines"] and deep.result["nodes"] < budget
    assert analysis_next_nodes(deep) == budget
    third = post(Client(REMOTE_ADDR="198.51.100.8"), URL, {"variant": variant, "nodes": budget})
    assert third.status_code == 202 and third.json()["status"] == "pending"  # searched afresh
    assert client.get(f"{URL}{deep.pk}/").status_code == 404  # another visitor's, as ever


@pytest.mark.django_db
def test_a_first_look_never_gives_way(client: Client) -> None:
    """A first look runs to its budget whatever waits: only deeper searches give way."""
    first = post(client, URL, {"variant": "feidan"}).json()
    EngineAnalysis.objects.filter(pk=first["id"]).update(dispatched_at=timezone.now())
    assert post(Client(REMOTE_ADDR="198.51.100.7"), URL, {"variant": "feidan"}).status_code == 202
    assert engine_analysis_run(analysis_id=first["id"]) == "done"
    answer = client.get(first["url"]).json()
    assert not answer["cut_short"] and answer["next_nodes"] == analysis_budgets("feidan")[1]


# -- a visitor signs up or logs in -----------------------------------------------------------

PASSWORD = "a-long-pass-phrase-42"


def visitor_with_searches(client: Client) -> tuple[dict[str, Any], dict[str, Any]]:
    """A visitor's finished search (a mate in 1) and pending one (the start), through the API."""
    done = post(client, URL, {"variant": "xiangqi", "fen": MATE_IN_1}).json()
    assert engine_analysis_run(analysis_id=done["id"]) == "done"
    pending = post(client, URL, {"variant": "xiangqi"}).json()
    assert pending["status"] == "pending"
    return done, pending


@pytest.mark.django_db
def test_a_visitors_searches_follow_them_into_the_account_they_sign_up_for(
    client: Client,
) -> None:
    done, pending = visitor_with_searches(client)
    visitor = EngineAnalysis.objects.get(pk=done["id"]).visitor_id
    assert visitor
    signup = {"username": "ming", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", signup).status_code == 302
    user = User.objects.get(username="ming")
    for search in (done, pending):
        row = EngineAnalysis.objects.get(pk=search["id"])
        assert (row.user_id, row.visitor_id) == (user.pk, None)
        assert client.get(search["url"]).status_code == 200  # the board polls on
    assert client.get(done["url"]).json()["result"]["mate"] == 1
    assert engine_analysis_run(analysis_id=pending["id"]) == "done"
    assert client.get(pending["url"]).json()["status"] == "done"
    assert not EngineAnalysis.objects.filter(visitor_id=visitor).exists()


@pytest.mark.django_db
def test_a_visitors_pending_search_stays_theirs_when_the_account_has_one_pending(
    client: Client,
) -> None:
    user = User.objects.create_user(username="hong", password=PASSWORD)
    other_tab = Client()
    other_tab.force_login(user)
    mine = post(other_tab, URL, {"variant": "xiangqi", "fen": MATE_IN_2}).json()
    assert mine["status"] == "pending"
    done, pending = visitor_with_searches(client)
    login = {"username": "hong", "password": PASSWORD}
    assert client.post("/accounts/login/", login).status_code == 302
    assert EngineAnalysis.objects.get(pk=done["id"]).user_id == user.pk
    assert client.get(done["url"]).status_code == 200
    kept = EngineAnalysis.objects.get(pk=pending["id"])
    assert kept.user_id is None and kept.visitor_id and kept.status == "pending"
    assert EngineAnalysis.objects.filter(user=user, status="pending").get().pk == mine["id"]
    assert engine_analysis_run(analysis_id=pending["id"]) == "done"  # it finishes all the same


# -- old searches are swept ------------------------------------------------------------------


def search_aged(status: str, age: timedelta, now: Any, n: int = 0) -> int:
    row = EngineAnalysis.objects.create(
        visitor_id=f"sweep-{status}-{age.total_seconds()}-{n}",
        variant="xiangqi",
        fen=START["xiangqi"],
        key=f"k{n}",
        nodes=ANALYSIS_BUDGETS[OURS][0],
        status=status,
        finished_at=None if status == "pending" else now - age,
    )
    EngineAnalysis.objects.filter(pk=row.pk).update(created_at=now - age)
    return row.pk


@pytest.mark.django_db
def test_the_sweep_deletes_old_searches_and_keeps_recent_ones() -> None:
    now = timezone.now()
    keep_days = settings.ANALYSIS_KEEP_DAYS
    day, hour = timedelta(days=1), timedelta(hours=1)
    kept = [
        search_aged("done", timedelta(days=keep_days) - hour, now),
        search_aged("done", day + hour, now),
        search_aged("failed", day - hour, now),
        search_aged("pending", day - hour, now),
        search_aged("pending", timedelta(seconds=5), now),
    ]
    gone = [
        search_aged("done", timedelta(days=keep_days) + hour, now),
        search_aged("done", timedelta(days=keep_days * 3), now),
        search_aged("failed", day + hour, now),
        search_aged("pending", day + hour, now),
    ]
    assert engine_analysis_sweep(now=now) == len(gone)
    assert set(EngineAnalysis.objects.values_list("pk", flat=True)) == set(kept)
    assert engine_analysis_sweep(now=now) == 0  # nothing left to sweep


@pytest.mark.django_db
def test_the_sweep_goes_in_bounded_batches_oldest_first() -> None:
    now = timezone.now()
    old = timedelta(days=settings.ANALYSIS_KEEP_DAYS + 1)
    rows = [search_aged("done", old + timedelta(minutes=n), now, n) for n in range(7)]
    fresh = search_aged("done", timedelta(minutes=1), now, 99)
    assert engine_analysis_sweep(now=now, batch=2, max_batches=2) == 4  # a run's bound
    left = set(EngineAnalysis.objects.values_list("pk", flat=True))
    assert left == {*rows[:3], fresh}  # the four oldest went first
    assert engine_analysis_sweep(now=now, batch=2, max_batches=5) == 3
    assert set(EngineAnalysis.objects.values_list("pk", flat=True)) == {fresh}


def test_the_sweep_runs_every_hour_under_celery_beat() -> None:
    from config.celery import app

    entry = app.conf.beat_schedule["games-engine-analysis-sweep"]
    assert entry["task"] == engine_analysis_sweep_task.name == "games.engine_analysis_sweep"
    assert entry["schedule"] == 3600.0


@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_the_sweep(celery_worker: Any) -> None:
    now = timezone.now()
    search_aged("failed", timedelta(days=2), now)
    kept = search_aged("done", timedelta(days=2), now)
    assert engine_analysis_sweep_task.delay().get(timeout=60) == {"deleted": 1}
    assert set(EngineAnalysis.objects.values_list("pk", flat=True)) == {kept}


# -- through a real worker -------------------------------------------------------------------


def test_the_task_goes_to_the_deep_playing_queue() -> None:
    route = settings.CELERY_TASK_ROUTES["games.engine_analysis"]
    assert route["queue"] == settings.CELERY_PLAYING_DEEP_QUEUE


@pytest.mark.django_db(transaction=True)
def test_a_worker_searches_and_proves_the_mate(celery_worker: Any, client: Client) -> None:
    started = time.monotonic()
    asked = post(client, URL, {"variant": "xiangqi", "fen": MATE_IN_2})
    assert asked.status_code == 202
    url = asked.json()["url"]
    deadline = time.monotonic() + 60
    body = client.get(url).json()
    while body["status"] == "pending" and time.monotonic() < deadline:
        time.sleep(0.2)
        body = client.get(url).json()
    assert body["status"] == "done", celery_worker.output()
    assert body["result"]["mate"] == 2 and body["result"]["forced"] is True
    assert [m["iccs"] for m in body["result"]["line"]][:1] == [MATE_IN_2_KEY]
    assert time.monotonic() - started < 30
    # the next search of the visitor is taken and searched too
    quiet = post(client, URL, {"variant": "xinban"})
    assert quiet.status_code == 202
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        row = EngineAnalysis.objects.get(pk=quiet.json()["id"])
        if row.status != "pending":
            break
        time.sleep(0.2)
    assert row.status == "done", celery_worker.output()
    assert row.result["mate"] is None and row.result["line"]
