"""Mates missed in the player's own games: each real game (one per variant, played through the
games services) with a missed forced win gives one private puzzle of it, judged like any other
but never rated; a game without a missed win gives none; nobody else sees, lists or tries
them, nor learns whether someone else's game has been searched; they follow a visitor into the
account on sign-up, even when the search ends after the sign-up."""

from __future__ import annotations

import datetime
import json
import re
import time
import uuid
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import translation

from accounts.merge import visitor_merge_run
from accounts.models import User
from accounts.owners import Owner
from accounts.visitors import VISITOR_SESSION_KEY
from engine import Position
from games.models import Game
from judge import OURS, Evaluation, JudgeDied, OurEngine, fairy_stockfish_path
from puzzles import selectors
from puzzles.missed import missed_mates
from puzzles.models import GameReview, MergedVisitor, MissedMate, Puzzle, PuzzleAttempt
from puzzles.services import daily_puzzles_choose, puzzle_attempt_score
from puzzles.services.missed import FinishedGame, missed_mates_review
from tests.puzzles.missed_games import (
    MISSED,
    TWO_KEYS,
    TWO_WINS,
    finished,
    message,
    played_game,
)

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def visitor_client() -> tuple[Client, Owner]:
    client = Client()
    session = client.session
    session[VISITOR_SESSION_KEY] = visitor = uuid.uuid4().hex
    session.save()
    return client, Owner(visitor_id=visitor)


@pytest.mark.parametrize("variant", sorted(MISSED))
def test_a_missed_win_in_a_real_game_becomes_a_private_puzzle(variant: str, make_user) -> None:
    user = make_user()
    game = played_game(Owner(user=user), variant)
    review = missed_mates_review(game=finished(game))
    assert review.found == 1
    (missed,) = MissedMate.objects.filter(game=game.pk)
    fen, played, key, goal = MISSED[variant]
    assert (missed.user_id, missed.visitor_id) == (user.pk, None)
    assert (missed.ply, missed.move_number, missed.side, missed.by_player) == (0, 1, "red", True)
    assert missed.played == played and missed.played_chinese
    puzzle = missed.puzzle
    assert (puzzle.status, puzzle.source, puzzle.variant) == ("private", "missed", variant)
    assert (puzzle.goal, puzzle.moves_to_win, puzzle.fen) == (goal, 1, fen)
    assert puzzle.proof is not None and puzzle.proof["keys"] == [key]

    client = Client()
    client.force_login(user)
    mine = client.get(f"/api/puzzles/missed/?game={game.pk}", HTTP_ACCEPT_LANGUAGE="en").json()
    assert mine["reviewed"] is True
    (row,) = mine["results"]
    assert row["puzzle"] == puzzle.pk and row["url"] == f"/puzzles/p/{puzzle.slug}/"
    assert row["game_url"] == f"/play/{game.pk}/#ply=0"
    word = "dead general" if goal == "dead_general" else "mate"
    assert row["text"] == f"At move 1 you had a {word} in 1."
    # the move played, as the move list writes it: Chinese notation with ICCS
    assert row["played"].endswith(")") and re.fullmatch(r".+ \([a-i]\d[a-i]\d\)", row["played"])
    zh = client.get(f"/api/puzzles/missed/?game={game.pk}", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert zh["results"][0]["text"].startswith("第 1 回合") and zh["results"][0]["played"]
    detail = client.get(f"/api/puzzles/{puzzle.pk}/").json()
    assert detail["game"]["kind"] == "own" and detail["game"]["url"] == row["game_url"]


def test_the_search_runs_once_per_game(make_user) -> None:
    game = played_game(Owner(user=make_user()), "xiangqi")
    first = missed_mates_review(game=finished(game))
    again = missed_mates_review(game=finished(game))
    assert again.pk == first.pk
    assert MissedMate.objects.filter(game=game.pk).count() == 1
    assert Puzzle.objects.filter(source="missed", source_game=f"play:{game.pk}").count() == 1


def test_a_win_found_and_played_is_no_missed_mate(make_user) -> None:
    game = played_game(Owner(user=make_user()), "xiangqi", play_the_win=True)
    assert game.termination == "checkmate"
    review = missed_mates_review(game=finished(game))
    assert review.found == 0
    assert not MissedMate.objects.filter(game=game.pk).exists()
    assert not Puzzle.objects.filter(source="missed").exists()


def test_the_computer_s_own_miss_at_a_low_level_is_told_as_an_escape(make_user) -> None:
    """A computer game where the computer (Red, level 1) had the mate and let the player
    escape; at level 8 its misses are not looked for."""
    user = make_user()
    data = message(played_game(Owner(user=user), "xiangqi"))
    data.update(mode="computer", human_side="black", level=1)
    missed_mates_review(game=FinishedGame.from_data(data))
    (missed,) = MissedMate.objects.filter(game=data["id"])
    assert missed.by_player is False and missed.side == "red"
    client = Client()
    client.force_login(user)
    (row,) = client.get("/api/puzzles/missed/", HTTP_ACCEPT_LANGUAGE="en").json()["results"]
    assert row["text"] == "At move 1 the computer let you escape: it had a mate in 1."

    deep = message(played_game(Owner(user=user), "xiangqi"))
    deep.update(mode="computer", human_side="black", level=8)
    assert missed_mates_review(game=FinishedGame.from_data(deep)).found == 0


def test_solving_my_missed_mate_is_judged_like_the_trainer_and_never_rated(make_user) -> None:
    user = make_user()
    game = played_game(Owner(user=user), "xiangqi")
    missed_mates_review(game=finished(game))
    puzzle = MissedMate.objects.get(game=game.pk).puzzle
    client = Client()
    client.force_login(user)
    opened = post(client, f"/api/puzzles/{puzzle.pk}/attempts/")
    assert opened.status_code == 201
    attempt = opened.json()["id"]
    wrong = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt, "move": "a0a1"})
    assert wrong.status_code == 200 and wrong.json()["verdict"] == "wrong"
    assert wrong.json()["refutation"], "the escape is shown"
    again = post(client, f"/api/puzzles/{puzzle.pk}/attempts/").json()["id"]
    right = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": again, "move": "a0a9"})
    assert right.json()["verdict"] == "solved"
    for pk in (attempt, again):
        scored = puzzle_attempt_score(attempt_id=pk)
        assert scored is not None and not scored.rated and scored.unrated_reason == "missed"
    assert [r.games for r in user.puzzle_ratings.all()] in ([], [0])
    listed = client.get(f"/api/puzzles/missed/?game={game.pk}").json()["results"]
    assert listed[0]["solved"] is True
    nxt = client.get("/api/puzzles/next/?variant=xiangqi&pool=mine").json()
    assert nxt["id"] == puzzle.pk


def test_a_mate_in_1_by_two_moves_is_missed_all_the_same_and_its_puzzle_takes_either(
    make_user,
) -> None:
    """Red had a mate in 1 by a0a9 or a0d0 and played h8h7: a missed mate (the search kept
    only a mate with a single winning move, and said "No missed mate in this game")."""
    user = make_user()
    game = played_game(Owner(user=user), "xiangqi", case=TWO_WINS)
    assert missed_mates_review(game=finished(game)).found == 1
    (missed,) = MissedMate.objects.filter(game=game.pk)
    assert (missed.ply, missed.side, missed.played) == (0, "red", "h8h7")
    puzzle = missed.puzzle
    assert (puzzle.fen, puzzle.goal, puzzle.moves_to_win) == (TWO_WINS[0], "mate", 1)
    assert sorted(puzzle.proof["keys"]) == TWO_KEYS
    client = Client()
    client.force_login(user)
    (row,) = client.get(f"/api/puzzles/missed/?game={game.pk}", HTTP_ACCEPT_LANGUAGE="en").json()[
        "results"
    ]
    assert row["text"] == "At move 1 you had a mate in 1."
    for key in TWO_KEYS:  # each winning move solves it
        attempt = post(client, f"/api/puzzles/{puzzle.pk}/attempts/").json()["id"]
        judged = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt, "move": key})
        assert judged.json()["verdict"] == "solved", (key, judged.json())
    attempt = post(client, f"/api/puzzles/{puzzle.pk}/attempts/").json()["id"]
    judged = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt, "move": "h8h7"})
    assert judged.json()["verdict"] == "wrong"


@pytest.mark.parametrize(
    "played",
    [
        "a0d0",  # one of the two mates
        "a0a1",  # a stalemate: Black has no move, and loses
    ],
)
def test_a_win_played_however_is_no_missed_mate(played: str) -> None:
    fen = TWO_WINS[0]
    assert missed_mates(variant="xiangqi", start_fen=fen, moves=[played], sides={"red"}) == []


def test_nobody_else_sees_lists_or_tries_my_missed_mates(make_user) -> None:
    owner = make_user()
    game = played_game(Owner(user=owner), "xiangqi")
    missed_mates_review(game=finished(game))
    puzzle = MissedMate.objects.get(game=game.pk).puzzle
    other = Client()
    other.force_login(make_user())
    for client in (other, Client()):
        assert client.get(f"/api/puzzles/{puzzle.pk}/").status_code == 404
        assert client.get(f"/puzzles/p/{puzzle.slug}/").status_code == 404
        assert post(client, f"/api/puzzles/{puzzle.pk}/attempts/").status_code == 404
        judged = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": 1, "move": "a0a9"})
        assert judged.status_code == 404
        assert client.get("/api/puzzles/missed/").json()["results"] == []
        assert client.get(f"/api/puzzles/missed/?game={game.pk}").json()["results"] == []
        assert client.get("/api/puzzles/next/?variant=xiangqi&pool=mine").status_code == 404
    # Not in the bank, nor the rated stream, nor the daily puzzle.
    listed = other.get("/api/puzzles/?variant=xiangqi&limit=50").json()["results"]
    assert puzzle.pk not in {p["id"] for p in listed}
    for _ in range(3):
        shown = other.get("/api/puzzles/next/?variant=xiangqi")
        assert shown.status_code == 404 or shown.json()["id"] != puzzle.pk
    chosen = daily_puzzles_choose(date=datetime.date(2026, 1, 1))
    assert puzzle.pk not in {daily.puzzle_id for daily in chosen}


def test_bad_queries_are_refused_with_a_message(make_user) -> None:
    client = Client()
    for query in ("game=abc", "game=0", "game=-3", "game=99999999999999999999999"):
        answer = client.get(f"/api/puzzles/missed/?{query}")
        assert answer.status_code == 400, query
        assert answer.json()["error"]["message"]
    assert client.get("/api/puzzles/next/?variant=xiangqi&pool=theirs").status_code == 400


def test_a_visitor_s_missed_mates_follow_them_into_the_account() -> None:
    client, visitor = visitor_client()
    game = played_game(visitor, "xinban")
    missed_mates_review(game=finished(game))
    puzzle = MissedMate.objects.get(game=game.pk).puzzle
    assert client.get(f"/api/puzzles/{puzzle.pk}/").status_code == 200
    assert visitor.visitor_id is not None
    # A game the visitor finished whose search ends only after the sign-up: its message
    # names the visitor.
    later = played_game(visitor, "feidan")
    sent_before = message(later)
    assert sent_before["visitor_id"] == visitor.visitor_id
    password = "a-long-pass-phrase-42"
    signed_up = client.post(
        "/accounts/signup/", {"username": "late", "password1": password, "password2": password}
    )
    assert signed_up.status_code == 302
    user = User.objects.get(username="late")
    visitor_merge_run(visitor_id=visitor.visitor_id, user=user)  # again: idempotent
    assert MergedVisitor.objects.get(visitor=visitor.visitor_id).user_id == user.pk
    missed_mates_review(game=FinishedGame.from_data(sent_before))
    assert set(MissedMate.objects.values_list("user_id", "visitor_id")) == {(user.pk, None)}
    assert Game.objects.get(pk=game.pk).user_id == user.pk
    games = {row["game"] for row in client.get("/api/puzzles/missed/").json()["results"]}
    assert games == {game.pk, later.pk}
    assert client.get(f"/api/puzzles/{puzzle.pk}/").status_code == 200
    assert Client().get(f"/api/puzzles/{puzzle.pk}/").status_code == 404
    assert GameReview.objects.filter(game__in=[game.pk, later.pk]).count() == 2
    assert PuzzleAttempt.objects.count() == 0


def missed_answer(client: Client, game: int) -> Any:
    answer = client.get(f"/api/puzzles/missed/?game={game}")
    assert answer.status_code == 200
    return answer.json()


NOT_SEARCHED = {"reviewed": False, "looked_by": None, "looked": "", "results": []}


def searched_with_nothing_missed(answer: Any) -> bool:
    return (
        answer["reviewed"] is True
        and answer["results"] == []
        and answer["looked_by"] in ("fairy-stockfish", "ours")
        and bool(answer["looked"])
    )


def test_whether_a_game_was_searched_is_told_to_its_owner_alone(make_user) -> None:
    """Someone else's game, searched or not, gets the answer of a game that does not exist:
    nobody learns from it which games have finished."""
    owner = make_user()
    visitors_client, visitor = visitor_client()
    accounts = [
        played_game(Owner(user=owner), "xiangqi", play_the_win=True),  # nothing missed
        played_game(Owner(user=owner), "xiangqi"),  # one mate missed
    ]
    visitors = played_game(visitor, "xiangqi", play_the_win=True)
    for game in (*accounts, visitors):
        missed_mates_review(game=finished(game))
    nothing = missed_answer(Client(), visitors.pk + 1000)  # no such game
    assert nothing == NOT_SEARCHED

    owners = Client()
    owners.force_login(owner)
    assert searched_with_nothing_missed(missed_answer(owners, accounts[0].pk))
    assert missed_answer(owners, accounts[1].pk)["reviewed"] is True
    assert searched_with_nothing_missed(missed_answer(visitors_client, visitors.pk))

    another_account = Client()
    another_account.force_login(make_user())
    for client in (another_account, visitor_client()[0], Client()):
        for game in (*accounts, visitors):
            assert missed_answer(client, game.pk) == nothing
    assert missed_answer(owners, visitors.pk) == nothing
    for game in accounts:
        assert missed_answer(visitors_client, game.pk) == nothing


def test_a_visitor_s_searched_games_stay_theirs_in_the_account(make_user) -> None:
    """A visitor's game searched before the sign-up, and one searched after it, are both
    told as searched to the account, and to nobody else."""
    client, visitor = visitor_client()
    before = played_game(visitor, "xiangqi", play_the_win=True)
    missed_mates_review(game=finished(before))
    after = played_game(visitor, "xiangqi", play_the_win=True)
    sent_before = message(after)
    password = "a-long-pass-phrase-42"
    signed_up = client.post(
        "/accounts/signup/", {"username": "later", "password1": password, "password2": password}
    )
    assert signed_up.status_code == 302
    missed_mates_review(game=FinishedGame.from_data(sent_before))
    for game in (before, after):
        assert searched_with_nothing_missed(missed_answer(client, game.pk))
        assert missed_answer(visitor_client()[0], game.pk) == NOT_SEARCHED


@pytest.mark.django_db(transaction=True)
def test_the_searches_made_before_they_had_owners_take_their_games_owners() -> None:
    before = [
        ("puzzles", "0012_run_pace_and_sweep"),
        ("games", "0010_engine_analysis_sweep_index"),
    ]
    after = [("puzzles", "0013_game_review_owner")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        user = old.get_model("accounts", "User").objects.create(username="zhou")
        games = old.get_model("games", "Game").objects
        review = old.get_model("puzzles", "GameReview").objects
        mine = games.create(variant="xiangqi", mode="local", user_id=user.pk)
        visitors = games.create(variant="xiangqi", mode="local", visitor_id="v-zhou")
        for game in (mine.pk, visitors.pk, visitors.pk + 1000):  # the last: a game gone
            review.create(game=game)

        executor = MigrationExecutor(connection)
        executor.migrate(after)
        new = executor.loader.project_state(after).apps
        owners = new.get_model("puzzles", "GameReview").objects.order_by("game")
        assert list(owners.values_list("game", "user_id", "visitor_id")) == [
            (mine.pk, user.pk, None),
            (visitors.pk, None, "v-zhou"),
        ]  # the search of a game that is gone has no owner left: dropped
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


# A master game's position (the bank's xiangqi-0229856334864f02): Red mates in 4, one way only;
# the prover's quick searches (3 moves deep) cannot see it, the judge's look does.
MATE_IN_4 = "2b1kaP1C/9/2Pa4N/9/5P3/4p4/3n1c3/3A4B/4K4/2B6 w - - 29 63"


@pytest.mark.skipif(fairy_stockfish_path() is None, reason="Fairy-Stockfish is not installed")
def test_a_missed_mate_in_4_is_seen_by_the_judge_and_proved() -> None:
    from judge import FAIRY_STOCKFISH
    from puzzles.services.missed import missed_judge

    judge = missed_judge("xiangqi")
    assert judge is not None and judge.name == FAIRY_STOCKFISH
    search: dict[str, Any] = {
        "variant": "xiangqi",
        "start_fen": MATE_IN_4,
        "moves": ["c0a2"],
        "sides": {"red"},
    }
    (missed,) = missed_mates(**search, judge=judge)
    assert (missed.ply, missed.side, missed.played) == (0, "red", "c0a2")
    assert missed.puzzle.moves_to_win == 4 and missed.puzzle.mode == "full"
    assert "c0a2" not in missed.puzzle.proof["keys"]
    assert missed_mates(**search) == []  # the quick searches look three moves deep
    assert missed_mates(**{**search, "moves": [missed.puzzle.proof["keys"][0]]}, judge=judge) == []


def test_without_fairy_stockfish_the_site_s_own_engine_looks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from judge import OURS
    from puzzles.services.missed import missed_judge

    monkeypatch.setenv("FAIRY_STOCKFISH", "")  # not installed
    for variant in ("xiangqi", "feidan", "xinban"):
        assert missed_judge(variant).name == OURS


def test_a_judge_that_dies_leaves_the_look_to_the_quick_searches(
    make_user, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Fairy-Stockfish dies at every search (twice, so the judge gives up): the game is still
    reviewed, by the quick searches, and the review says so."""
    from tests.games.test_game_analysis import stand_in_engine

    monkeypatch.setenv("FAIRY_STOCKFISH", stand_in_engine(tmp_path, "die"))
    game = played_game(Owner(user=make_user()), "xiangqi")
    review = missed_mates_review(game=finished(game))
    assert review.found == 1  # the mate in 1, seen by the quick searches
    assert review.stats["looked"] == "quick"
    assert "Fairy-Stockfish stopped" in review.stats["judge_failed"]
    with translation.override("en"):
        looked = selectors.review_looked(review)
    assert looked == (
        "ours",
        "Fairy-Stockfish failed on this game. "
        "The site's own engine looked for forced wins of up to 3 moves.",
    )


def test_the_answer_names_the_engine_that_looked_and_how_far(
    make_user, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A searched game's answer says which engine looked for its missed wins, and for wins of
    how many moves, in the reader's language: Fairy-Stockfish up to 5 moves for traditional
    xiangqi, the site's own engine up to 5 moves in the other variants and where
    Fairy-Stockfish is not installed."""
    owner = make_user()
    client = Client()
    client.force_login(owner)
    judged = played_game(Owner(user=owner), "xiangqi")
    missed_mates_review(game=finished(judged))
    feidan = played_game(Owner(user=owner), "feidan")
    missed_mates_review(game=finished(feidan))
    monkeypatch.setenv("FAIRY_STOCKFISH", "")  # not installed
    ours = played_game(Owner(user=owner), "xiangqi")
    missed_mates_review(game=finished(ours))

    client.cookies["django_language"] = "en"
    answer = missed_answer(client, judged.pk)
    if fairy_stockfish_path() is not None:
        assert answer["looked_by"] == "fairy-stockfish"
        assert answer["looked"] == "Fairy-Stockfish looked for forced wins of up to 5 moves."
    assert len(answer["results"]) == 1  # the mate in 1 it missed
    for game in (feidan, ours):
        answer = missed_answer(client, game.pk)
        assert answer["looked_by"] == "ours"
        assert answer["looked"] == "The site's own engine looked for forced wins of up to 5 moves."
        assert len(answer["results"]) == 1
    assert GameReview.objects.get(game=feidan.pk).stats["looked"] == "ours"
    client.cookies["django_language"] = "zh-hans"
    if fairy_stockfish_path() is not None:
        assert (
            missed_answer(client, judged.pk)["looked"]
            == "Fairy-Stockfish 搜寻了 5 步以内的必胜着法。"
        )
    for game in (feidan, ours):
        assert missed_answer(client, game.pk)["looked"] == "本站引擎搜寻了 5 步以内的必胜着法。"


class FailingJudge:
    """The site's own engine as a judge that answers its first ``answers`` looks and then
    fails (as an engine does that stops answering mid-game)."""

    name = OURS
    label = OurEngine.label

    def __init__(self, answers: int) -> None:
        self.left = answers
        self.engine = OurEngine()

    def plays(self, variant: str) -> bool:
        return True

    def evaluate(self, **search: Any) -> Evaluation:
        if self.left <= 0:
            raise JudgeDied(OURS)
        self.left -= 1
        return self.engine.evaluate(**search)


def test_a_judge_that_fails_mid_game_leaves_the_look_to_the_quick_searches(make_user) -> None:
    """A Missile Xiangqi game in which Red missed a dead general in 1 and the game went on two
    more plies: the site's own engine looks at the first position and fails at the next
    one it looks at. The game is still reviewed, all of it by the quick searches, and the
    answer says so in both languages."""
    owner = make_user()
    game = played_game(Owner(user=owner), "feidan")
    data = message(game)
    position = Position.from_fen("feidan", data["start_fen"])
    for move in data["moves"]:
        position.push_iccs(move)
    for _ in range(2):  # two more plies: the first legal move that does not end the game
        for move in sorted(m.iccs() for m in position.legal_moves):
            position.push_iccs(move)
            if position.outcome() is None:
                data["moves"].append(move)
                break
            position.pop()
    assert len(data["moves"]) == 4
    judge = FailingJudge(answers=1)
    review = missed_mates_review(game=FinishedGame.from_data(data), judge=judge)
    assert judge.left == 0  # it answered once, then failed
    assert review.found >= 1  # the dead general in 1 at least, seen by the quick searches
    assert (review.stats["looked"], review.stats["judge"]) == ("quick", OURS)
    assert "stopped in the middle of a search" in review.stats["judge_failed"]
    first = MissedMate.objects.filter(game=game.pk).order_by("ply").first()
    assert first is not None
    assert (first.ply, first.puzzle.goal, first.puzzle.moves_to_win) == (0, "dead_general", 1)
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    answer = missed_answer(client, game.pk)
    assert answer["looked_by"] == "ours"
    assert answer["looked"] == (
        "The site's own engine's deeper search failed on this game. "
        "The site's own engine looked for forced wins of up to 3 moves."
    )
    client.cookies["django_language"] = "zh-hans"
    assert missed_answer(client, game.pk)["looked"] == (
        "本站引擎的深入搜索在这盘棋上出错了。本站引擎搜寻了 3 步以内的必胜着法。"
    )


# Positions of the bank (from the engine's self-play games), each proved sound and unique in
# full mode: (variant, FEN, the move played instead, the key, the goal, moves to win). The
# quick searches (three moves deep) cannot see them; the site's own engine's look does.
LONG_WINS = {
    "feidan mate in 4": (
        "feidan", "5k5/8R2/6C4/7f3/11/4n6/1p1n7/11/5A5/4K1AB3 b - - 8 77",
        "b3a3", "e4d2", "mate", 4,
    ),
    "feidan dead general in 4": (
        "feidan", "7f1C1/5k5/11/1p3r1FMp1/11/11/1P5P1P1/11/5F5/4AKABcN1 w - - 3 29",
        "b3b4", "i6i8", "dead_general", 4,
    ),
    "xinban mate in 4": (
        "xinban", "2N6/7c1/5k3/p5R1p/9/4p1n2/P3P3P/8B/9/1R1AKA3 w - - 3 37",
        "a3a4", "b0b7", "mate", 4,
    ),
    "xinban mate in 5": (
        "xinban", "3k1ab2/4a4/N8/9/2R5p/4c4/6n1P/4Br3/4A4/4KAB1R w - - 9 31",
        "a7b5", "c5c9", "mate", 5,
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(LONG_WINS))
def test_a_long_missed_win_is_seen_by_the_site_s_own_engine_and_proved(case: str) -> None:
    from puzzles import proving
    from puzzles.services.missed import missed_judge

    variant, fen, played, key, goal, n = LONG_WINS[case]
    proof = proving.prove(variant=variant, fen=fen, goal=goal, moves_to_win=n)
    assert (proof.status, proof.key_moves) == ("sound_unique", [key])
    side = Position.from_fen(variant, fen).turn
    search: dict[str, Any] = {
        "variant": variant, "start_fen": fen, "moves": [played], "sides": {side},
    }  # fmt: skip
    judge = missed_judge(variant)
    assert judge.name == OURS
    (missed,) = missed_mates(**search, judge=judge)
    assert (missed.ply, missed.side, missed.played) == (0, side, played)
    assert (missed.puzzle.goal, missed.puzzle.moves_to_win, missed.puzzle.mode) == (goal, n, "full")
    assert missed.puzzle.proof["keys"] == [key]
    assert missed_mates(**search) == []  # the quick searches look three moves deep
    assert missed_mates(**{**search, "moves": [key]}, judge=judge) == []  # found and played


# Red mates in 4 (g8g9 first; the bank's xinban-65e1169190e6a72a). The site's own engine has
# counted it a win in 3: a line in which Black would have to repeat a position, which loses in
# New-version Xiangqi; the prover, which knows no game history, finds no mate in 3.
COUNTED_SHORT = "2+Rak2c1/4a1+R2/9/7P1/9/9/P8/9/4A4/3K2B2 w - - 9 46"


def test_a_win_the_judge_counts_too_short_is_proved_at_its_length() -> None:
    search: dict[str, Any] = {
        "variant": "xinban", "start_fen": COUNTED_SHORT, "moves": ["a3a4"], "sides": {"red"},
    }  # fmt: skip
    (missed,) = missed_mates(**search, judge=OurEngine())
    assert (missed.puzzle.goal, missed.puzzle.moves_to_win) == ("mate", 4)
    assert missed.puzzle.proof["keys"] == ["g8g9"]
    assert missed_mates(**search) == []


# Black wins in 3 (a9a0 first), by a mate against some defences and a dead general against
# others: neither a mate nor a dead general is forced in 3 on its own (the bank's
# feidan-3e635804e1f6607e, a dead general in 4).
MIXED_WIN = "m4kab3/5a1R3/5b5/1p1p1n1p3/9P1/1P9/9F1/3n1B5/4rA5/6KB3 b - - 0 40"


def test_a_win_by_mate_or_dead_general_is_one_missed_win(make_user) -> None:
    from puzzles import proving

    for goal in ("mate", "dead_general"):
        alone = proving.prove(variant="feidan", fen=MIXED_WIN, goal=goal, moves_to_win=3)
        assert alone.status == "no_win", goal
    user = make_user()
    game = played_game(Owner(user=user), "feidan", case=(MIXED_WIN, "a9a1", "a9a0", "win"))
    assert missed_mates_review(game=finished(game)).found == 1
    (missed,) = MissedMate.objects.filter(game=game.pk)
    assert (missed.ply, missed.side, missed.played) == (0, "black", "a9a1")
    assert (missed.puzzle.goal, missed.puzzle.moves_to_win) == ("win", 3)
    assert missed.puzzle.proof["keys"] == ["a9a0"]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    (row,) = missed_answer(client, game.pk)["results"]
    assert row["text"] == "At move 1 you had a forced win in 3."
    client.cookies["django_language"] = "zh-hans"
    (row,) = missed_answer(client, game.pk)["results"]
    assert row["text"] == "第 1 回合，你本有3步必胜。"


def test_a_long_game_is_looked_at_by_the_quick_searches_once_the_judge_s_budget_is_spent(
    make_user,
) -> None:
    """The judge's looks at one game have a budget of nodes: once it is spent, the quick
    searches look at the rest of the game, and the answer says from which move."""
    from puzzles.mining import MiningStats
    from puzzles.missed import Budgets, site_budgets

    _variant, fen, played, key, _goal, n = LONG_WINS["xinban mate in 5"]
    position = Position.from_fen("xinban", fen)
    position.push_iccs(played)
    reply = sorted(m.iccs() for m in position.legal_moves)[0]
    search: dict[str, Any] = {
        "variant": "xinban", "start_fen": fen, "moves": [played, reply],
        "sides": {"red", "black"},
    }  # fmt: skip
    judge = OurEngine()
    assert site_budgets(judge).game is not None
    stats = MiningStats()
    (missed,) = missed_mates(**search, judge=judge, budgets=Budgets(10_000, 40_000, game=1),
                             stats=stats)  # fmt: skip
    assert (missed.ply, missed.puzzle.moves_to_win, missed.puzzle.proof["keys"]) == (0, n, [key])
    assert (stats.judged_plies, stats.quick_plies) == (1, 1)  # the first look spent it
    assert 0 < stats.judge_nodes <= 50_000

    owner = make_user()
    GameReview.objects.create(game=7, user=owner, stats={"looked": "ours", "quick_from_move": 61})
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    answer = missed_answer(client, 7)
    assert answer["looked_by"] == "ours"
    assert answer["looked"] == (
        "The site's own engine looked for forced wins of up to 5 moves until move 61, "
        "and of up to 3 moves from there on."
    )
    client.cookies["django_language"] = "zh-hans"
    assert missed_answer(client, 7)["looked"] == (
        "本站引擎在第 61 回合之前搜寻了 5 步以内的必胜着法，此后搜寻了 3 步以内的必胜着法。"
    )


class SlowJudge(OurEngine):
    """The site's own engine, taking ``seconds`` of wall-clock time more for every search."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def evaluate(self, **search: Any) -> Evaluation:
        time.sleep(self.seconds)
        return super().evaluate(**search)


def test_a_look_stops_at_its_deadline_and_counts_the_plies_it_left() -> None:
    """No ply is looked at after the deadline, and no proof is begun after it: a look whose
    first search ends past the deadline proves nothing and stops there."""
    from puzzles.mining import MiningStats

    fen, played, _key, _goal = MISSED["xiangqi"]
    position = Position.from_fen("xiangqi", fen)
    position.push_iccs(played)
    reply = sorted(m.iccs() for m in position.legal_moves)[0]
    search: dict[str, Any] = {
        "variant": "xiangqi", "start_fen": fen, "moves": [played, reply],
        "sides": {"red", "black"},
    }  # fmt: skip
    assert len(missed_mates(**search, judge=OurEngine(), deadline=time.monotonic() + 600)) == 1
    stats = MiningStats()
    assert missed_mates(**search, stats=stats, deadline=time.monotonic() - 1) == []
    assert (stats.unlooked_plies, stats.candidates, stats.proofs) == (2, 0, 0)
    stats = MiningStats()
    late = missed_mates(**search, stats=stats, judge=SlowJudge(2.0), deadline=time.monotonic() + 1)
    assert late == []
    assert (stats.seen, stats.proofs, stats.unlooked_plies) == (1, 0, 1)


def test_a_review_out_of_time_says_from_which_move_the_game_was_not_looked_at(
    make_user,
) -> None:
    """A review has a time limit under its task's: past it, the look stops, the review is
    written with what was found, and the answer says from which move the game was not
    looked at, in both languages."""
    user = make_user()
    game = played_game(Owner(user=user), "xiangqi")
    review = missed_mates_review(game=finished(game), seconds=0)
    assert review.found == 0 and not MissedMate.objects.filter(game=game.pk).exists()
    assert review.stats["unlooked_from_move"] == 1 and review.stats["unlooked_plies"] == 2
    assert review.stats["material"] == {"looked": None, "stopped_at": 0}
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    answer = missed_answer(client, game.pk)
    assert answer["reviewed"] is True and answer["results"] == []
    assert answer["looked"].endswith(
        "moves. The game was too long to look at whole: moves from 1 on were not looked at."
    )
    client.cookies["django_language"] = "zh-hans"
    assert missed_answer(client, game.pk)["looked"].endswith(
        "必胜着法。这盘棋太长，没能全部搜寻：第 1 回合起的着法没有搜寻。"
    )
