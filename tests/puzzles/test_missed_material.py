"""Material wins missed in the player's own games: a real game (played through the games
services) where the player could have won a chariot and played another move gives a private
puzzle of that position, in the same place as the missed mates, judged like the tactics
puzzles (the winning move, every move about as good; also good; wrong) and never rated; an
even trade is no win; a missed mate is told once, as a mate; nobody else sees or tries it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from accounts.owners import Owner
from judge import FAIRY_STOCKFISH, OURS, fairy_stockfish_path
from puzzles import selectors, tactics
from puzzles.missed_material import MaterialStats, missed_material, skipped_plies
from puzzles.models import GameReview, MissedMate, Puzzle
from puzzles.services import puzzle_attempt_score
from puzzles.services.missed import material_judge, missed_mates_review
from tests.puzzles.missed_games import finished, message
from tests.puzzles.missed_material_games import CASES, material_game

pytestmark = pytest.mark.django_db

HAVE_FAIRY = fairy_stockfish_path() is not None


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def judged(client: Client, puzzle: Puzzle, move: str) -> dict[str, Any]:
    attempt = post(client, f"/api/puzzles/{puzzle.pk}/attempts/").json()["id"]
    answer = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt, "move": move})
    assert answer.status_code == 200, answer.content
    return {**answer.json(), "attempt": attempt}


def reviewed(user: Any, name: str) -> tuple[int, GameReview]:
    game = material_game(Owner(user=user), name)
    return game.pk, missed_mates_review(game=finished(game))


@pytest.mark.parametrize("judge", [FAIRY_STOCKFISH, OURS])
def test_a_missed_chariot_in_xiangqi_becomes_a_private_material_puzzle(
    judge: str, make_user, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red could take Black's loose chariot with its horse (c3d5) and lifted its own chariot
    instead: judged by Fairy-Stockfish where it is installed, by the site's engine where not."""
    if judge == FAIRY_STOCKFISH and not HAVE_FAIRY:
        pytest.skip("Fairy-Stockfish is not installed")
    if judge == OURS:
        monkeypatch.setenv("FAIRY_STOCKFISH", "")  # not installed
    user = make_user()
    game, review = reviewed(user, "xiangqi")
    assert review.found == 1
    assert review.stats["material"]["looked"] == judge
    (missed,) = MissedMate.objects.filter(game=game)
    _variant, fen, played, key = CASES["xiangqi"]
    assert (missed.ply, missed.move_number, missed.side, missed.by_player) == (0, 1, "red", True)
    assert (missed.played, missed.played_chinese) == ("i0i1", "车一进一")
    puzzle = missed.puzzle
    assert (puzzle.status, puzzle.source, puzzle.source_game) == (
        "private",
        "missed",
        f"play:{game}",
    )
    assert (puzzle.variant, puzzle.fen, puzzle.goal, puzzle.moves_to_win) == (
        "xiangqi", fen, "material", 1,
    )  # fmt: skip
    proof = puzzle.proof
    assert tactics.is_material(proof) and proof["engine"] == judge
    assert proof["line"] == [key] and proof["steps"][0]["accepted"] == [key]
    assert proof["won"] == {"chariot": 1} and proof["lost"] == {}
    assert proof["scores"]["best"] >= 250 > proof["scores"]["played"]
    assert {"material", "hanging_piece"} <= {t.slug for t in puzzle.themes.all()}

    client = Client()
    client.force_login(user)
    engine = "Fairy-Stockfish" if judge == FAIRY_STOCKFISH else "the site's own engine"
    answer = client.get(f"/api/puzzles/missed/?game={game}", HTTP_ACCEPT_LANGUAGE="en").json()
    (row,) = answer["results"]
    assert row["goal"] == "material" and row["url"] == f"/puzzles/p/{puzzle.slug}/"
    assert row["text"] == f"At move 1 you could have won a chariot (judged by {engine})."
    assert row["played"] == "车一进一 (i0i1)"
    zh = client.get(f"/api/puzzles/missed/?game={game}", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    engine_zh = "Fairy-Stockfish" if judge == FAIRY_STOCKFISH else "本站引擎"
    assert zh["results"][0]["text"] == f"第 1 回合，你本可以得一车（{engine_zh}判断）。"

    # Solved by the winning move, refused for the move played; never rated.
    wrong = judged(client, puzzle, played[0])
    assert wrong["verdict"] == "wrong"
    right = judged(client, puzzle, key)
    assert right["verdict"] == "solved"
    for answer in (wrong, right):
        scored = puzzle_attempt_score(attempt_id=answer["attempt"])
        assert scored is not None and not scored.rated and scored.unrated_reason == "missed"
    assert client.get(f"/api/puzzles/missed/?game={game}").json()["results"][0]["solved"]
    assert client.get("/api/puzzles/next/?variant=xiangqi&pool=mine").json()["id"] == puzzle.pk


def test_a_missed_turncoat_chariot_in_new_version_xiangqi_is_judged_by_the_site_s_engine(
    make_user,
) -> None:
    """In New-version Xiangqi the horse's capture makes Black's turncoat chariot defect: the
    win the player missed is a chariot, judged by the site's own engine (no other plays it)."""
    user = make_user()
    game, review = reviewed(user, "xinban")
    assert material_judge("xinban").name == OURS
    assert review.found == 1 and review.stats["material"]["looked"] == OURS
    (missed,) = MissedMate.objects.filter(game=game)
    puzzle = missed.puzzle
    assert (puzzle.variant, puzzle.goal, puzzle.proof["line"]) == ("xinban", "material", ["c3d5"])
    assert puzzle.proof["won"] == {"chariot": 1}
    client = Client()
    client.force_login(user)
    (row,) = client.get("/api/puzzles/missed/", HTTP_ACCEPT_LANGUAGE="en").json()["results"]
    assert (
        row["text"] == "At move 1 you could have won a chariot (judged by the site's own engine)."
    )
    assert judged(client, puzzle, "c3d5")["verdict"] == "solved"

    # The computer's own miss, at a low level, is told as an escape.
    data = message(material_game(Owner(user=user), "xinban"))
    data.update(mode="computer", human_side="black", level=1)
    from puzzles.services.missed import FinishedGame

    missed_mates_review(game=FinishedGame.from_data(data))
    escape = MissedMate.objects.get(game=data["id"])
    assert escape.by_player is False
    with translation.override("en"):
        assert selectors.missed_text(escape) == (
            "At move 1 the computer let you escape: it could have won a chariot "
            "(judged by the site's own engine)."
        )
    with translation.override("zh-hans"):
        assert selectors.missed_text(escape) == (
            "第 1 回合，电脑放过了你：它本可以得一车（本站引擎判断）。"
        )


def test_a_missed_fork_is_a_puzzle_of_two_moves_played_against_the_judge_s_defence(
    make_user,
) -> None:
    """Red's horse could check and fork the general and a chariot (c5d7, then take it): the
    puzzle is the line, the defender's reply the judge's; a wrong second move fails it."""
    user = make_user()
    game, review = reviewed(user, "fork")
    assert review.found == 1
    puzzle = MissedMate.objects.get(game=game).puzzle
    proof = puzzle.proof
    assert (puzzle.goal, puzzle.moves_to_win) == ("material", 2)
    assert proof["line"][0] == "c5d7" and proof["line"][2] == "d7b6"
    assert proof["won"] == {"chariot": 1}
    assert "fork" in {t.slug for t in puzzle.themes.all()}
    client = Client()
    client.force_login(user)
    first = judged(client, puzzle, "c5d7")
    assert (first["verdict"], first["reply"]["iccs"]) == ("continue", proof["line"][1])
    attempt = first["attempt"]
    url = f"/api/puzzles/{puzzle.pk}/judge/"
    wrong = post(client, url, {"attempt": attempt, "move": "a0a1"}).json()
    assert wrong["verdict"] == "wrong"
    again = judged(client, puzzle, "c5d7")["attempt"]
    right = post(client, url, {"attempt": again, "move": "d7b6"}).json()
    assert right["verdict"] == "solved", right


def test_an_even_trade_is_no_missed_win(make_user) -> None:
    """Red could take Black's chariot, but the horse behind it takes back (and the same holds
    the other way round): nothing is won, nothing is reported."""
    game, review = reviewed(make_user(), "trade")
    assert review.found == 0
    assert not MissedMate.objects.filter(game=game).exists()
    assert review.stats["material"]["kept"] == 0


def test_a_missed_mate_that_also_wins_material_is_told_once_as_a_mate(make_user) -> None:
    """Red had a mate in 1 and could also have taken a chariot: one moment, a mate; Black's
    capture of the chariot Red left hanging is a win found, not missed."""
    game, review = reviewed(make_user(), "mate")
    assert review.found == 1
    (missed,) = MissedMate.objects.filter(game=game)
    assert (missed.ply, missed.puzzle.goal, missed.puzzle.moves_to_win) == (0, "mate", 1)
    assert not Puzzle.objects.filter(source="missed", goal="material").exists()
    # The material look passes over the mate's ply and its line; and on its own it sees the
    # mate there (no material win: a mate is the mate search's), and Black's capture was played.
    variant, fen, moves, _key = CASES["mate"]
    look: dict[str, Any] = {
        "variant": variant, "start_fen": fen, "moves": moves, "sides": {"red", "black"},
        "judge": material_judge(variant),
    }  # fmt: skip
    passed = MaterialStats()
    assert missed_material(**look, skip=skipped_plies([(0, 1)]), stats=passed) == []
    assert passed.positions == 0
    alone = MaterialStats()
    assert missed_material(**look, stats=alone) == []
    assert alone.positions >= 2 and alone.candidates == 0


def test_nobody_else_sees_lists_or_tries_my_missed_material_win(make_user) -> None:
    owner = make_user()
    game, _review = reviewed(owner, "xinban")
    puzzle = MissedMate.objects.get(game=game).puzzle
    other = Client()
    other.force_login(make_user())
    for client in (other, Client()):
        assert client.get(f"/api/puzzles/{puzzle.pk}/").status_code == 404
        assert client.get(f"/puzzles/p/{puzzle.slug}/").status_code == 404
        assert post(client, f"/api/puzzles/{puzzle.pk}/attempts/").status_code == 404
        tried = post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": 1, "move": "c3d5"})
        assert tried.status_code == 404
        answer = client.get(f"/api/puzzles/missed/?game={game}").json()
        assert answer["results"] == [] and answer["reviewed"] is False


def test_a_judge_that_dies_leaves_the_material_look_to_the_site_s_engine(
    make_user, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Fairy-Stockfish dies at every search: the game's material win is still found, by the
    site's engine, and the review says why."""
    from tests.games.test_game_analysis import stand_in_engine

    monkeypatch.setenv("FAIRY_STOCKFISH", stand_in_engine(tmp_path, "die"))
    game, review = reviewed(make_user(), "xiangqi")
    assert review.found == 1
    material = review.stats["material"]
    assert material["looked"] == OURS and "Fairy-Stockfish stopped" in material["judge_failed"]
    assert MissedMate.objects.get(game=game).puzzle.proof["engine"] == OURS


def test_another_accepted_first_move_follows_its_own_line() -> None:
    """A missed win whose line is longer than one move and which two first moves win: each
    first move is followed on its own line; a move of ``good`` is answered "also good"."""
    proof = {
        "kind": "material",
        "line": ["a1a2", "b9b8", "a2b2"],
        "steps": [
            {"accepted": ["a1a2", "c1c2"], "good": ["d1d2"]},
            {"accepted": ["a2b2"], "good": []},
        ],
        "variations": [
            {
                "line": ["c1c2", "b9b7", "c2b2"],
                "steps": [
                    {"accepted": ["a1a2", "c1c2"], "good": ["d1d2"]},
                    {"accepted": ["c2b2", "c2c9"], "good": []},
                ],
            }
        ],
    }
    assert tactics.judge(proof, ["a1a2"]) == ("continue", "b9b8", "")
    assert tactics.judge(proof, ["c1c2"]) == ("continue", "b9b7", "")
    assert tactics.judge(proof, ["c1c2", "b9b7", "c2c9"])[0] == "solved"
    assert tactics.judge(proof, ["a1a2", "b9b8", "c2c9"])[0] == "wrong"
    assert tactics.judge(proof, ["d1d2"]) == ("good", None, "tactics.also_good")
    assert tactics.hint(proof, []) == "a1a2"


@pytest.mark.parametrize(
    ("won", "lost", "en", "zh"),
    [
        ({"chariot": 1}, {}, "won a chariot", "得一车"),
        ({"horse": 1, "soldier": 2}, {}, "won a horse and two soldiers", "得一马两卒"),
        ({"chariot": 1}, {"missile": 1}, "won a chariot for a missile", "用一导弹换得一车"),
    ],
)
def test_what_a_missed_win_wins_is_said_in_both_languages(
    won: dict[str, int], lost: dict[str, int], en: str, zh: str
) -> None:
    proof = {"won": won, "lost": lost}
    with translation.override("en"):
        assert selectors.material_won_text(proof, "red") == en
    with translation.override("zh-hans"):
        assert selectors.material_won_text(proof, "red") == zh
