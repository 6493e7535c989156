"""The computer's analysis of a finished game (games.game_analysis): the judgement of a move
(pure), the searches of a short real game in each variant, the API (asked for twice: the same
analysis; a game not finished refused; one pending per owner; another's game a 404), and the
task through a real Celery worker."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from engine import Position
from games.game_analysis import (
    ABOUT_AS_GOOD,
    BLUNDER_DROP,
    DECISIVE_CHANCE,
    GAME_ANALYSIS_NODES,
    INACCURACY_DROP,
    MISTAKE_DROP,
    SETTLE_BAND,
    SETTLE_FACTOR,
    STALE_AFTER,
    analysis_judge,
    classify,
    close_call,
    game_analysis_run,
    game_verdicts,
    learn_step,
    missed_win,
    move_ranking,
    position_evaluation,
    summary,
    win_chance,
)
from games.models import EngineAnalysis, Game, GameAnalysis
from judge import FAIRY_STOCKFISH, OURS, Evaluation, Line, fairy_stockfish_path
from tests.games.conftest import error_code, post

BROKEN_ENGINE = Path(__file__).resolve().parents[1] / "judge" / "broken_engine.py"
needs_fairy_stockfish = pytest.mark.skipif(
    fairy_stockfish_path() is None, reason="Fairy-Stockfish is not installed"
)

# A short game in which Black throws a cannon away (3... 炮8进7, h7h0) and Red takes it.
BLUNDER_GAME = ["h2e2", "h9g7", "h0g2", "h7h0", "g2h0"]


def cp(value: int) -> dict[str, Any]:
    return {"cp": value, "mate": None, "winner": None}


def mate(value: int) -> dict[str, Any]:
    return {"cp": None, "mate": value, "winner": None}


# -- the judgement ---------------------------------------------------------------------------


def test_chances_are_even_at_zero_and_rise_with_the_score_for_the_side_ahead() -> None:
    assert win_chance(cp(0), "red") == pytest.approx(0.5)
    assert win_chance(cp(400), "red") > 0.8 > 0.2 > win_chance(cp(400), "black")
    assert win_chance(cp(-900), "black") == pytest.approx(win_chance(cp(900), "red"))
    assert win_chance(mate(3), "red") == 1.0 and win_chance(mate(3), "black") == 0.0
    assert win_chance(mate(-2), "black") == 1.0
    assert win_chance({"winner": "draw"}, "red") == 0.5
    assert win_chance({"winner": "black"}, "black") == 1.0


def test_the_thresholds_rise_from_inaccuracy_to_blunder() -> None:
    assert 0 < INACCURACY_DROP < MISTAKE_DROP < BLUNDER_DROP < 1


@pytest.mark.parametrize(
    ("before", "after", "side", "verdict"),
    [
        (cp(0), cp(0), "red", None),
        (cp(30), cp(-20), "red", None),  # a little worse: not worth a mark
        (cp(0), cp(-150), "red", "inaccuracy"),
        (cp(0), cp(-300), "red", "mistake"),
        (cp(0), cp(-500), "red", "blunder"),  # a horse given away from even
        (cp(0), cp(500), "black", "blunder"),  # Black's move, scores from Red's side
        (cp(0), cp(-500), "black", None),  # Black's move made Black better
        (cp(1500), cp(1100), "red", None),  # still winning by far
        (cp(-1500), cp(-2500), "red", None),  # lost before, lost after
        (mate(3), cp(300), "red", "blunder"),  # the mate the engine saw, let go
        (mate(3), mate(5), "red", None),  # a longer mate is still a mate
        (mate(1), {"winner": "red"}, "red", None),  # the mate itself
        (mate(-4), cp(2000), "black", "blunder"),  # Black's mate let go
        (mate(-4), cp(-2000), "black", "inaccuracy"),  # Black's mate let go, the win kept
        (cp(200), mate(-3), "red", "blunder"),  # walking into a mate
        (cp(0), {"winner": "black"}, "red", "blunder"),
    ],
)
def test_a_move_is_judged_by_the_drop_of_the_movers_chances(
    before: dict[str, Any], after: dict[str, Any], side: str, verdict: str | None
) -> None:
    assert classify(before, after, side)[0] == verdict


def test_the_drop_is_what_the_mover_lost_and_never_negative() -> None:
    verdict, drop = classify(cp(0), cp(-500), "red")
    assert drop == pytest.approx(0.5 - win_chance(cp(-500), "red"), abs=0.001)
    assert classify(cp(0), cp(500), "red") == (None, 0.0)


@pytest.mark.parametrize(
    ("before", "after", "missed"),
    [
        (cp(600), cp(100), True),  # a decisive edge (0.92) thrown to a small one: a blunder
        (cp(600), cp(200), True),  # down to 0.69: a mistake, no longer decisive
        (cp(300), cp(-300), False),  # a blunder, but the win was never there (0.77)
        (mate(3), cp(500), False),  # a mate let go, still decisively ahead (0.88)
        (mate(3), cp(0), True),  # a mate let go for an even game
        (cp(900), cp(500), False),  # an inaccuracy at most: still decisive
    ],
)
def test_a_mistake_that_lets_a_decisive_win_slip_is_a_missed_win(
    before: dict[str, Any], after: dict[str, Any], missed: bool
) -> None:
    verdict, _drop = classify(before, after, "red")
    assert missed_win(before, after, "red", verdict) is missed
    black = {k: (-v if isinstance(v, int) else v) for k, v in before.items()}
    black_after = {k: (-v if isinstance(v, int) else v) for k, v in after.items()}
    verdict, _drop = classify(black, black_after, "black")
    assert missed_win(black, black_after, "black", verdict) is missed  # the same for Black


def test_missed_wins_are_marked_and_counted_for_the_side_that_let_them_slip() -> None:
    start = Position.start("xiangqi").fen()
    moves = [{"iccs": "h2e2", "chinese": "炮二平五"}, {"iccs": "h9g7", "chinese": "马8进7"}]
    evaluations = [
        {**cp(600), "best": {"iccs": "b2e2", "chinese": "炮八平五"}},
        {**cp(0), "best": {"iccs": "b9c7", "chinese": "马2进3"}},
        {**cp(0), "best": None},
    ]
    first, second = game_verdicts(fen=start, moves=moves, evaluations=evaluations)
    assert first["verdict"] == "blunder" and first["missed_win"]
    assert not second["missed_win"]
    counts = summary([first, second])
    assert counts["red"] == {"inaccuracy": 0, "mistake": 0, "blunder": 1, "missed_win": 1}
    assert counts["black"]["missed_win"] == 0
    ranking = [
        {"iccs": "b2e2", "chinese": "炮八平五", "chance": 0.92},
        {"iccs": "h2e2", "chinese": "炮二平五", "chance": 0.5},
    ]
    step = learn_step(first, start, ranking)
    assert step is not None and step["missed_win"] is True


def test_the_engines_own_choice_is_never_marked_and_a_mark_carries_the_better_move() -> None:
    start = Position.start("xiangqi").fen()
    moves = [{"iccs": "h2e2", "chinese": "炮二平五"}, {"iccs": "h9g7", "chinese": "马8进7"}]
    best = {"iccs": "h2e2", "chinese": "炮二平五"}
    evaluations = [
        {**cp(0), "best": best},
        {**cp(-600), "best": {"iccs": "h9g7", "chinese": "马8进7"}},  # searched again: lower
        {**cp(-600), "best": None},
    ]
    first, second = game_verdicts(fen=start, moves=moves, evaluations=evaluations)
    assert first["verdict"] is None and first["better"] is None  # the engine's own move
    assert second["verdict"] is None and second["side"] == "black"
    evaluations[0]["best"] = {"iccs": "b2e2", "chinese": "炮八平五"}
    first = game_verdicts(fen=start, moves=moves, evaluations=evaluations)[0]
    assert (first["verdict"], first["symbol"]) == ("blunder", "??")
    assert first["better"] == {"iccs": "b2e2", "chinese": "炮八平五"}
    assert first["seen_mate"] is None and first["chance"] < 0.2


def test_a_mate_let_go_says_the_mate_the_engine_saw() -> None:
    start = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1"
    moves = [{"iccs": "a1a2", "chinese": "车九进一"}]
    evaluations = [
        {**mate(2), "best": {"iccs": "b0b9", "chinese": "车八进九"}},
        {**cp(1800), "best": None},
    ]
    (entry,) = game_verdicts(fen=start, moves=moves, evaluations=evaluations)
    # the mate is let go, but a chariot and more up the win is not: an inaccuracy that names
    # the mate
    assert entry["verdict"] == "inaccuracy" and entry["seen_mate"] == 2
    assert not entry["missed_win"]
    # the mate let go with the win: a blunder, and a missed win
    evaluations[1] = {**cp(300), "best": None}
    (entry,) = game_verdicts(fen=start, moves=moves, evaluations=evaluations)
    assert entry["verdict"] == "blunder" and entry["seen_mate"] == 2 and entry["missed_win"]


def test_a_mate_let_go_with_the_win_kept_is_an_inaccuracy_whatever_the_scale() -> None:
    """Where the line lies: the chances the move leaves, against ``DECISIVE_CHANCE``, for
    either side and either judge's centipawns."""
    for side, sign in (("red", 1), ("black", -1)):
        for engine in ("fairy-stockfish", "ours"):
            before = mate(sign * 3)
            for centipawns in (300, 400, 500, 600, 1000, 3000):
                after = {**cp(sign * centipawns), "engine": engine}
                verdict, _ = classify(before, after, side)
                decisive = win_chance(after, side) >= DECISIVE_CHANCE
                assert verdict == ("inaccuracy" if decisive else "blunder"), (side, centipawns)


def test_a_mate_the_next_positions_search_still_sees_was_not_let_go() -> None:
    """Black mates in 6 (the judge's best move); the move played, searched alone from the same
    position, shows Black 15 soldiers up but no mate, while the search of the position it led
    to sees the mate in 7: the mate was kept, and the move is not a blunder (found measuring
    Missile Xiangqi's marks: a search of one root move can miss the mate)."""
    start = Position.start("xiangqi").fen().replace(" w ", " b ")
    moves = [{"iccs": "h9g7", "chinese": "马8进7"}]
    before = {**mate(-6), "best": {"iccs": "b9c7", "chinese": "马2进3"}, "played": cp(-1546)}
    (entry,) = game_verdicts(fen=start, moves=moves, evaluations=[before, mate(-7)])
    assert entry["verdict"] is None
    assert classify(mate(-6), cp(-1546), "black", next_position=mate(-7))[0] is None
    # with no mate seen after it either, the mate was let go, though not the win
    (entry,) = game_verdicts(fen=start, moves=moves, evaluations=[before, cp(-1500)])
    assert entry["verdict"] == "inaccuracy" and entry["seen_mate"] == 6


# -- the searches ----------------------------------------------------------------------------


def test_a_cannon_thrown_away_is_marked_with_the_better_move() -> None:
    start = Position.start("xiangqi").fen()
    pos = Position.from_fen("xiangqi", start)
    moves = []
    for text in BLUNDER_GAME:
        move = pos.parse_move(text)
        moves.append({"iccs": text, "chinese": pos.chinese(move)})
        pos.push(move)
    evaluations = [
        position_evaluation(variant="xiangqi", fen=start, moves=BLUNDER_GAME[:i])
        for i in range(len(BLUNDER_GAME) + 1)
    ]
    entries = game_verdicts(fen=start, moves=moves, evaluations=evaluations)
    thrown = entries[3]
    assert (thrown["iccs"], thrown["chinese"], thrown["side"]) == ("h7h0", "炮8进7", "black")
    assert thrown["verdict"] in ("mistake", "blunder"), thrown
    better = thrown["better"]
    assert better is not None and better["iccs"] != "h7h0"
    replay = Position.from_fen("xiangqi", start)
    for text in BLUNDER_GAME[:3]:
        replay.push_iccs(text)
    assert replay.chinese(replay.parse_move(better["iccs"])) == better["chinese"]
    assert entries[4]["verdict"] is None  # taking the cannon
    assert entries[0]["verdict"] is None  # the central cannon
    assert entries[4]["eval"]["cp"] > 200  # Red a cannon up


@pytest.mark.parametrize("variant", ["feidan", "xinban"])
def test_the_other_variants_are_searched_from_reds_side(variant: str) -> None:
    start = Position.start(variant).fen()
    pos = Position.from_fen(variant, start)
    first = sorted(m.iccs() for m in pos.legal_moves)[0]
    found = position_evaluation(variant=variant, fen=start, moves=[first])
    assert found["winner"] is None and isinstance(found["cp"], int)
    assert found["engine"] == OURS and found["depth"] > 0  # no other engine plays it
    pos.push_iccs(first)
    best = pos.parse_move(found["best"]["iccs"])
    assert pos.chinese(best) == found["best"]["chinese"]


@needs_fairy_stockfish
def test_traditional_xiangqi_is_judged_by_fairy_stockfish_where_it_is_installed() -> None:
    start = Position.start("xiangqi").fen()
    found = position_evaluation(variant="xiangqi", fen=start, moves=["h2e2"])
    assert found["engine"] == FAIRY_STOCKFISH and found["depth"] >= 8
    assert analysis_judge("xiangqi").name == FAIRY_STOCKFISH
    assert analysis_judge("feidan").name == OURS and analysis_judge("xinban").name == OURS


def test_without_fairy_stockfish_the_sites_engine_judges_xiangqi(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAIRY_STOCKFISH", "")  # switched off, as where it is not installed
    assert analysis_judge("xiangqi").name == OURS
    start = Position.start("xiangqi").fen()
    found = position_evaluation(variant="xiangqi", fen=start, moves=["h2e2"])
    assert found["engine"] == OURS and isinstance(found["cp"], int)


def test_the_judges_count_material_alike_so_one_scale_of_chances_fits_both() -> None:
    """A horse up is about 80 % for either judge, a chariot up about 98 %."""
    horse = {"cp": 332, "mate": None, "winner": None, "engine": FAIRY_STOCKFISH}
    ours = {"cp": 400, "mate": None, "winner": None, "engine": OURS}
    assert 0.75 < win_chance(horse, "red") < 0.85
    assert 0.8 < win_chance(ours, "red") < 0.9
    assert win_chance({**horse, "cp": 1060}, "red") > 0.97


# -- learning from the mistakes --------------------------------------------------------------

THROWN = {"ply": 4, "side": "black", "iccs": "h7h0", "chinese": "炮8进7", "verdict": "blunder", "symbol": "??"}  # fmt: skip


@needs_fairy_stockfish
def test_every_legal_move_is_weighed_at_a_mistake_and_the_answers_are_as_good_as_the_best() -> None:
    start = Position.start("xiangqi").fen()
    pos = Position.from_fen("xiangqi", start)
    for text in BLUNDER_GAME[:3]:
        pos.push_iccs(text)
    judge = analysis_judge("xiangqi")
    ranking = move_ranking(variant="xiangqi", fen=start, moves=BLUNDER_GAME[:3], judge=judge)
    assert sorted(m["iccs"] for m in ranking) == sorted(m.iccs() for m in pos.legal_moves)
    chances = [m["chance"] for m in ranking]
    assert all(c is not None for c in chances) and chances == sorted(chances, reverse=True)
    by_move = {m["iccs"]: m for m in ranking}
    assert by_move["h7h0"]["chinese"] == "炮8进7" and by_move["h7h0"]["chance"] < 0.3
    step = learn_step(THROWN, pos.fen(), ranking)
    assert step is not None and step["fen"] == pos.fen() and step["played"]["iccs"] == "h7h0"
    assert step["best"]["iccs"] == ranking[0]["iccs"] and step["best"]["iccs"] in step["answers"]
    assert "h7h0" not in step["answers"]
    floor = ranking[0]["chance"] - ABOUT_AS_GOOD
    assert set(step["answers"]) == {m["iccs"] for m in ranking if m["chance"] >= floor}


def test_the_sites_engine_weighs_every_move_of_a_new_variant() -> None:
    start = Position.start("xinban").fen()
    pos = Position.from_fen("xinban", start)
    judge = analysis_judge("xinban")
    ranking = move_ranking(variant="xinban", fen=start, moves=[], judge=judge, nodes=300)
    assert len(ranking) == len(list(pos.legal_moves))
    assert all(m["eval"]["engine"] == OURS and 0 <= m["chance"] <= 1 for m in ranking)


def test_a_marked_move_the_weighing_finds_as_good_as_the_best_is_nothing_to_learn() -> None:
    ranking = [
        {"iccs": "a0a1", "chinese": "车一进一", "chance": 0.55, "eval": {}},
        {"iccs": "h7h0", "chinese": "炮8进7", "chance": 0.50, "eval": {}},
        {"iccs": "b0c2", "chinese": "马二进三", "chance": 0.20, "eval": {}},
    ]
    assert learn_step(THROWN, "fen", ranking) is None  # 0.50 is within 0.10 of 0.55
    worse = [{**m, "chance": 0.30} if m["iccs"] == "h7h0" else m for m in ranking]
    step = learn_step(THROWN, "fen", worse)
    assert step is not None and step["answers"] == ["a0a1"]
    assert step["moves"]["b0c2"] == {"chinese": "马二进三", "chance": 0.20}


@needs_fairy_stockfish
def test_the_move_played_is_weighed_from_the_same_position_as_the_best_move() -> None:
    start = Position.start("xiangqi").fen()
    found = position_evaluation(variant="xiangqi", fen=start, moves=BLUNDER_GAME[:3], played="h7h0")
    assert found["played"]["engine"] == FAIRY_STOCKFISH
    # the cannon thrown away, searched alone from the same position: Red is well ahead after it
    assert found["played"]["cp"] > 200 > found["cp"]
    best = found["best"]["iccs"]
    again = position_evaluation(variant="xiangqi", fen=start, moves=BLUNDER_GAME[:3], played=best)
    assert "played" not in again  # the judge's own choice needs no second search


@pytest.mark.parametrize("variant", ["xiangqi", "xinban"])
def test_the_sites_engine_weighs_the_move_played_alone_too(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAIRY_STOCKFISH", "")
    pos = Position.start(variant)
    choice = sorted(m.iccs() for m in pos.legal_moves)[0]
    judge = analysis_judge(variant)
    alone = judge.evaluate(variant=variant, fen=pos.fen(), nodes=2_000, only=[choice])
    assert [line.move for line in alone.lines] == [choice]
    found = position_evaluation(
        variant=variant, fen=pos.fen(), moves=[], judge=judge, nodes=2_000, played=choice
    )
    assert found["best"]["iccs"] == choice or found["played"]["engine"] == OURS


def test_a_move_is_judged_by_its_own_search_from_the_position_before_when_it_has_one() -> None:
    """Black's move, searched alone from the position before, leaves Red six soldiers up: a
    blunder, whatever the search of the position it led to said."""
    start = Position.start("xiangqi").fen()
    before = {**cp(0), "best": {"iccs": "h9g7", "chinese": "马8进7"}, "played": cp(600)}
    after = cp(0)
    moves = [{"iccs": "h2e2", "chinese": "炮二平五"}]
    black = start.replace(" w ", " b ")
    (entry,) = game_verdicts(fen=black, moves=moves, evaluations=[before, after])
    assert entry["verdict"] == "blunder" and entry["drop"] > 0.4
    (entry,) = game_verdicts(
        fen=black,
        moves=moves,
        evaluations=[{k: v for k, v in before.items() if k != "played"}, after],
    )
    assert entry["verdict"] is None


class ScriptedJudge:
    """A judge that answers from a script (pure logic of ``position_evaluation``: which
    searches it asks for, on what budget): ``script[(nodes, only)]`` is the best line's move
    and its centipawns from the side to move."""

    name = FAIRY_STOCKFISH
    label = "scripted"

    def __init__(self, script: dict[tuple[int, str | None], tuple[str, int]]) -> None:
        self.script = script
        self.asked: list[tuple[int, str | None]] = []

    def plays(self, variant: str) -> bool:
        return True

    def evaluate(self, *, nodes: int, only: Any = (), **_: Any) -> Evaluation:
        key = (nodes, only[0] if only else None)
        self.asked.append(key)
        move, score = self.script[key]
        return Evaluation(FAIRY_STOCKFISH, "red", (Line((move,), score, None),), 10, nodes)


def _judged(script: dict[tuple[int, str | None], tuple[str, int]], **kw: Any) -> tuple:
    judge = ScriptedJudge(script)
    start = Position.start("xiangqi").fen()
    found = position_evaluation(
        variant="xiangqi", fen=start, moves=[], judge=judge, nodes=1_000, played="b0c2", **kw
    )
    return found, judge.asked


def test_a_close_call_is_a_drop_about_the_mistake_line_or_a_mate_that_seems_let_go() -> None:
    low, high = SETTLE_BAND
    assert low < MISTAKE_DROP < BLUNDER_DROP < high
    red_even = {**cp(0), "played": cp(-170)}  # Red's chances 0.50 -> 0.34: a drop of 0.16
    assert close_call(red_even, "red")
    assert not close_call({**cp(0), "played": cp(-30)}, "red")  # 0.03: plainly fine
    assert not close_call({**cp(0), "played": cp(-900)}, "red")  # 0.47: plainly a blunder
    assert not close_call(cp(0), "red")  # the judge's own choice
    assert close_call({**mate(3), "played": cp(800)}, "red")  # a mate that seems let go
    assert not close_call({**mate(3), "played": mate(4)}, "red")
    assert close_call({**cp(0), "played": cp(170)}, "black")  # from Black's side too


def test_a_close_call_is_searched_again_on_a_larger_budget_and_that_judgement_stands() -> None:
    big = 1_000 * SETTLE_FACTOR
    found, asked = _judged(
        {(1_000, None): ("h2e2", 0), (1_000, "b0c2"): ("b0c2", -170),
         (big, None): ("h2e2", 10), (big, "b0c2"): ("b0c2", -20)}
    )  # fmt: skip
    assert asked == [(1_000, None), (1_000, "b0c2"), (big, None), (big, "b0c2")]
    assert found["settled"] == big and found["cp"] == 10 and found["played"]["cp"] == -20
    start = Position.start("xiangqi").fen()
    (entry,) = game_verdicts(
        fen=start, moves=[{"iccs": "b0c2", "chinese": "马二进三"}], evaluations=[found, cp(0)]
    )
    assert entry["verdict"] is None  # a mistake at the budget, nothing on the larger one


def test_a_close_call_whose_move_the_larger_search_prefers_is_the_judges_own_choice() -> None:
    big = 1_000 * SETTLE_FACTOR
    found, asked = _judged(
        {(1_000, None): ("h2e2", 0), (1_000, "b0c2"): ("b0c2", -170), (big, None): ("b0c2", 15)}
    )
    assert asked == [(1_000, None), (1_000, "b0c2"), (big, None)]
    assert found["best"]["iccs"] == "b0c2" and "played" not in found


def test_a_plain_verdict_is_not_searched_again_and_settling_can_be_left_out() -> None:
    blunder = {(1_000, None): ("h2e2", 0), (1_000, "b0c2"): ("b0c2", -900)}
    found, asked = _judged(blunder)
    assert asked == [(1_000, None), (1_000, "b0c2")] and "settled" not in found
    close = {(1_000, None): ("h2e2", 0), (1_000, "b0c2"): ("b0c2", -170)}
    found, asked = _judged(close, settle=False)
    assert asked == [(1_000, None), (1_000, "b0c2")] and "settled" not in found


def test_a_position_where_the_game_is_over_is_not_searched() -> None:
    found = position_evaluation(
        variant="xiangqi", fen="3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1", moves=[]
    )
    assert found == {"cp": None, "mate": None, "winner": "red", "best": None}


# -- the API ---------------------------------------------------------------------------------


def finished_game(
    client: Client,
    new_game: Callable[..., dict[str, Any]],
    move: Callable[..., Any],
    variant: str = "xiangqi",
    moves: list[str] | None = None,
) -> int:
    game = new_game(client, mode="local", variant=variant)
    for text in moves if moves is not None else BLUNDER_GAME:
        answer = move(client, game["id"], text)
        assert answer.status_code == 200 and answer.json().get("legal", True), answer.content
    resigned = post(client, f"/api/games/{game['id']}/resign/")
    assert resigned.json()["status"] == "finished"
    return int(game["id"])


def url(game_id: int) -> str:
    return f"/api/games/{game_id}/analysis/"


@pytest.mark.django_db
def test_asking_twice_gives_the_same_analysis_and_it_is_run_once(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    gid = finished_game(client, new_game, move)
    assert client.get(url(gid)).status_code == 404  # never asked for
    first = post(client, url(gid))
    assert first.status_code == 202, first.content
    body = first.json()
    assert body["status"] == "pending" and body["plies"] == 5 and body["searched"] == 0
    again = post(client, url(gid))
    assert again.status_code == 200 and again.json()["url"] == body["url"]
    assert GameAnalysis.objects.count() == 1
    assert game_analysis_run(analysis_id=GameAnalysis.objects.get().pk, seconds=600) == "done"
    assert game_analysis_run(analysis_id=GameAnalysis.objects.get().pk) == "skipped"
    done = client.get(url(gid)).json()
    assert done["status"] == "done" and done["searched"] == 6
    plies = done["result"]["plies"]
    assert [p["ply"] for p in plies] == [1, 2, 3, 4, 5]
    assert plies[3]["verdict"] in ("mistake", "blunder") and plies[3]["better"]
    assert done["result"]["summary"]["black"][plies[3]["verdict"]] == 1
    assert post(client, url(gid)).json()["status"] == "done"  # asked again: the same


@pytest.mark.django_db
def test_a_run_cut_short_carries_on_where_it_stopped(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    gid = finished_game(client, new_game, move)
    post(client, url(gid))
    row = GameAnalysis.objects.get()
    start = Game.objects.get(pk=gid).start_fen
    kept = [
        position_evaluation(variant="xiangqi", fen=start, moves=BLUNDER_GAME[:i]) for i in (0, 1)
    ]
    GameAnalysis.objects.filter(pk=row.pk).update(evaluations=kept)  # as a killed run leaves it
    assert game_analysis_run(analysis_id=row.pk, seconds=600) == "done"
    row.refresh_from_db()
    assert len(row.evaluations) == 6 and row.evaluations[:2] == kept
    assert len(row.result["plies"]) == 5


LOOK_URL = "/api/games/analysis/"


def first_look(address: str, *, due: bool) -> int:
    """A first look at the analysis board waiting for its turn, asked from ``address``: due,
    or not (the address had another first look handed over a moment ago; stamped a minute
    ahead, so that it stays not due however slowly a loaded machine searches)."""
    if not due:
        lately = post(Client(REMOTE_ADDR=address), LOOK_URL, {"variant": "feidan"}).json()
        EngineAnalysis.objects.filter(pk=lately["id"]).update(
            dispatched_at=timezone.now() + timedelta(minutes=1)
        )
    look = post(Client(REMOTE_ADDR=address), LOOK_URL, {"variant": "xiangqi"})
    assert look.status_code == 202 and look.json()["status"] == "pending"
    return int(look.json()["id"])


@pytest.mark.django_db
def test_a_chunk_ends_after_one_position_when_a_first_look_waits(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    """A first look at the analysis board (not due: its address has just had one) waits
    behind one position of a game analysis, not a chunk of it; the analysis goes on at its
    next turn."""
    gid = finished_game(client, new_game, move)
    post(client, url(gid))
    row = GameAnalysis.objects.get()
    look = first_look("198.51.100.7", due=False)
    assert game_analysis_run(analysis_id=row.pk, seconds=600) == "more"
    row.refresh_from_db()
    assert len(row.evaluations) == 1 and row.dispatched_at is None
    EngineAnalysis.objects.filter(pk=look).update(status="done")  # looked
    assert game_analysis_run(analysis_id=row.pk, seconds=600) == "done"


@pytest.mark.django_db
def test_a_due_first_look_stops_a_search_of_a_game_analysis_which_is_searched_again_later(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    """A first look that is due stops a game analysis's search within a moment: the search
    is dropped (a budget of 50 million nodes would take minutes), the chunk ends, and the
    position is searched again at the analysis's next turn."""
    gid = finished_game(client, new_game, move)
    post(client, url(gid))
    row = GameAnalysis.objects.get()
    nodes = row.nodes
    GameAnalysis.objects.filter(pk=row.pk).update(nodes=50_000_000)
    look = first_look("198.51.100.7", due=True)
    assert game_analysis_run(analysis_id=row.pk, seconds=600) == "more"
    row.refresh_from_db()
    assert row.evaluations == [] and row.dispatched_at is None and row.status == "pending"
    EngineAnalysis.objects.filter(pk=look).update(dispatched_at=timezone.now())  # its turn
    GameAnalysis.objects.filter(pk=row.pk).update(nodes=nodes)
    assert game_analysis_run(analysis_id=row.pk, seconds=600) == "done"
    row.refresh_from_db()
    assert len(row.evaluations) == len(BLUNDER_GAME) + 1


@needs_fairy_stockfish
@pytest.mark.django_db
def test_the_analysis_names_its_judge_its_budget_and_how_deep_it_looked(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    gid = finished_game(client, new_game, move)
    asked = post(client, url(gid)).json()
    assert asked["engine"] == FAIRY_STOCKFISH
    assert asked["nodes"] == GAME_ANALYSIS_NODES[FAIRY_STOCKFISH]
    assert game_analysis_run(analysis_id=GameAnalysis.objects.get().pk, seconds=600) == "done"
    judge = client.get(url(gid)).json()["result"]["judge"]
    assert judge["engine"] == FAIRY_STOCKFISH and judge["label"].startswith("Fairy-Stockfish")
    assert judge["nodes"] == GAME_ANALYSIS_NODES[FAIRY_STOCKFISH] and judge["depth"] >= 8
    settled = [e for e in GameAnalysis.objects.get().evaluations if e.get("settled")]
    assert judge["settled"] == len(settled)
    assert judge["settle_nodes"] == GAME_ANALYSIS_NODES[FAIRY_STOCKFISH] * SETTLE_FACTOR
    assert all(e["settled"] == judge["settle_nodes"] for e in settled)
    (step,) = client.get(url(gid)).json()["result"]["learn"]  # the cannon thrown away
    assert step["ply"] == 4 and step["played"]["iccs"] == "h7h0" and step["answers"]


def stand_in_engine(tmp_path: Path, mode: str) -> str:
    """An executable that is a broken UCI engine (tests/judge/broken_engine.py) in ``mode``."""
    path = tmp_path / f"engine-{mode}"
    path.write_text(f"#!/bin/sh\nexec {sys.executable} {BROKEN_ENGINE} {mode}\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.django_db
def test_a_judge_that_stops_answering_fails_the_analysis_which_can_be_asked_again(
    client: Client,
    new_game: Callable[..., dict[str, Any]],
    move: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Its process dies at each search (and again once restarted): the analysis fails with the
    reason in both languages, nothing half-done is shown, and asking again starts afresh."""
    monkeypatch.setenv("FAIRY_STOCKFISH", stand_in_engine(tmp_path, "die"))
    gid = finished_game(client, new_game, move)
    assert post(client, url(gid)).json()["engine"] == FAIRY_STOCKFISH
    row = GameAnalysis.objects.get()
    assert game_analysis_run(analysis_id=row.pk, seconds=600) == "failed"
    body = client.get(url(gid)).json()
    assert body["status"] == "failed" and body["searched"] == 0
    error = body["result"]["error"]
    assert error["code"] == "game_analysis.judge_failed"
    assert "Fairy-Stockfish" in error["message"]["en"] and "请过一会儿" in error["message"]["zh"]
    monkeypatch.setenv("FAIRY_STOCKFISH", "")  # gone: the site's engine takes over
    again = post(client, url(gid))
    assert again.status_code == 202 and again.json()["status"] == "pending"
    assert again.json()["engine"] == OURS
    assert GameAnalysis.objects.get().pk != row.pk
    assert game_analysis_run(analysis_id=GameAnalysis.objects.get().pk, seconds=600) == "done"


@pytest.mark.django_db
def test_an_analysis_whose_judge_is_gone_says_so(
    client: Client,
    new_game: Callable[..., dict[str, Any]],
    move: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("FAIRY_STOCKFISH", stand_in_engine(tmp_path, "hang"))
    gid = finished_game(client, new_game, move)
    post(client, url(gid))
    monkeypatch.setenv("FAIRY_STOCKFISH", "")  # uninstalled while the analysis waited
    assert game_analysis_run(analysis_id=GameAnalysis.objects.get().pk) == "failed"
    error = client.get(url(gid)).json()["result"]["error"]
    assert error["code"] == "game_analysis.judge_failed"


@pytest.mark.django_db
def test_a_game_not_finished_is_refused(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    game = new_game(client, mode="local")
    move(client, game["id"], "h2e2")
    refused = post(client, url(game["id"]))
    assert refused.status_code == 409
    assert error_code(refused) == "not_finished"
    english = client.post(
        url(game["id"]), data="{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Only a finished game" in english.json()["error"]["message"]
    chinese = client.post(
        url(game["id"]), data="{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert "下完" in chinese.json()["error"]["message"]
    assert not GameAnalysis.objects.exists()


@pytest.mark.django_db
def test_one_analysis_pending_per_owner(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    first = finished_game(client, new_game, move)
    second = finished_game(client, new_game, move, moves=["h2e2", "h9g7"])
    assert post(client, url(first)).status_code == 202
    busy = post(client, url(second))
    assert busy.status_code == 409 and error_code(busy) == "busy"
    assert "电脑还在分析" in busy.json()["error"]["extra"]["explanation"]["zh"]
    game_analysis_run(analysis_id=GameAnalysis.objects.get().pk, seconds=600)
    assert post(client, url(second)).status_code == 202


@pytest.mark.django_db
def test_anothers_game_and_its_analysis_are_a_404(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    gid = finished_game(client, new_game, move)
    post(client, url(gid))
    other = Client()
    assert other.get(url(gid)).status_code == 404
    assert post(other, url(gid)).status_code == 404
    assert client.get(url(gid + 1000)).status_code == 404
    assert client.get("/api/games/abc/analysis/").status_code == 404
    assert GameAnalysis.objects.count() == 1


@pytest.mark.django_db
def test_a_lost_message_is_handed_over_again_when_polled(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    gid = finished_game(client, new_game, move)
    post(client, url(gid))
    old = timezone.now() - STALE_AFTER - timedelta(seconds=1)
    GameAnalysis.objects.update(dispatched_at=old)
    assert client.get(url(gid)).json()["status"] == "pending"
    assert GameAnalysis.objects.get().dispatched_at > old  # handed over again


# -- through a real worker -------------------------------------------------------------------


def test_the_task_goes_to_the_deep_playing_queue() -> None:
    route = settings.CELERY_TASK_ROUTES["games.game_analysis"]
    assert route["queue"] == settings.CELERY_PLAYING_DEEP_QUEUE


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("variant", "moves"),
    [
        ("xiangqi", BLUNDER_GAME),
        ("feidan", None),
        ("xinban", None),
    ],
)
def test_a_worker_analyses_a_short_real_game(
    celery_worker: Any,
    client: Client,
    new_game: Callable[..., dict[str, Any]],
    move: Callable[..., Any],
    variant: str,
    moves: list[str] | None,
) -> None:
    if moves is None:  # the first legal move of each side, twice over
        game = new_game(client, mode="local", variant=variant)
        moves = []
        for _ in range(4):
            state = client.get(f"/api/games/{game['id']}/").json()
            choice = sorted(state["legal_moves"])[0]
            assert move(client, game["id"], choice).status_code == 200
            moves.append(choice)
        post(client, f"/api/games/{game['id']}/resign/")
        gid = int(game["id"])
    else:
        gid = finished_game(client, new_game, move, variant=variant, moves=moves)
    assert post(client, url(gid)).status_code == 202
    deadline = time.monotonic() + 120
    body = client.get(url(gid)).json()
    while body["status"] == "pending" and time.monotonic() < deadline:
        time.sleep(0.3)
        body = client.get(url(gid)).json()
    assert body["status"] == "done", celery_worker.output()
    plies = body["result"]["plies"]
    assert [p["iccs"] for p in plies] == moves
    assert all(0 <= p["chance"] <= 1 for p in plies)
    if variant == "xiangqi":
        assert plies[3]["verdict"] in ("mistake", "blunder")


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_the_game_page_says_who_judges_and_what_was_measured_of_it(
    client: Client,
    new_game: Callable[..., dict[str, Any]],
    move: Callable[..., Any],
    variant: str,
) -> None:
    game = new_game(client, mode="local", variant=variant)
    client.cookies["django_language"] = "en"
    page = client.get(f"/play/{game['id']}/").content.decode()
    fairy = variant == "xiangqi" and fairy_stockfish_path() is not None
    assert ("a strong open-source engine" in page) is fairy
    assert ("The site's own engine searches every position" in page) is not fairy
    # the agreement measured for Fairy-Stockfish on the weak levels' games, in figures
    assert ("Checked on 60 games between the computer's two weakest levels (720 moves" in page) is (
        fairy
    )
    assert ("of the 23 moves it called mistakes or blunders, 20 were so" in page) is fairy
    client.cookies["django_language"] = "zh-hans"
    page = client.get(f"/play/{game['id']}/").content.decode()
    assert ("我们在本站电脑最弱两级之间的 60 盘对局（720 步棋" in page) is fairy
    assert ("本站自己的引擎搜索这盘棋的每一个局面" in page) is not fairy
    # and for our engine where it is the only judge, measured against itself 30 times as long
    ours = {"feidan": (11, 11, 16), "xinban": (19, 19, 24)}.get(variant)
    client.cookies["django_language"] = "en"
    page = client.get(f"/play/{game['id']}/").content.decode()
    if ours is not None:
        site, both, reference = ours
        assert "Checked on 30 games between the computer's two weakest levels (360 moves" in page
        assert "searching 30 times as long" in page
        assert f"of the {site} moves it called mistakes or blunders, {both} were so" in page
        assert f"which found {reference}" in page


@pytest.mark.django_db
def test_the_learning_page_is_the_owners_and_says_when_there_is_nothing_yet(
    client: Client, new_game: Callable[..., dict[str, Any]], move: Callable[..., Any]
) -> None:
    gid = finished_game(client, new_game, move)
    client.cookies["django_language"] = "en"
    page = client.get(f"/play/{gid}/learn/")
    assert page.status_code == 200
    assert "ask for it on the game's page first" in page.content.decode()  # not analysed yet
    assert client.get("/play/999999/learn/").status_code == 404
    stranger = Client()
    assert stranger.get(f"/play/{gid}/learn/").status_code == 404  # another's game
