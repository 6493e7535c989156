"""Endgame steps against the computer (``goal = "endgame"``): every one is won (or held) by the
engine playing the learner's side within the step's moves; the computer's replies are the same
for the same moves; a losing or wasteful play fails the step with what happened, in both
languages, on the server."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from engine import Position, solve
from tutorials.curriculum import Lesson, Step, play_moves, read_lessons, stars_for
from tutorials.curriculum.audit import engine_run, named_pieces_zh
from tutorials.curriculum.referees import computer
from tutorials.curriculum.schema import LessonFileError, lesson_from_data
from words.texts import piece_kind

ROOT = Path(__file__).resolve().parents[2]
LESSONS = read_lessons()
ENDGAMES = [
    (lesson, step) for lesson in LESSONS for step in lesson.steps if step.goal.kind == "endgame"
]
CJK = re.compile(r"[\u4e00-\u9fff]")


def endgame(slug: str, key: str) -> Step:
    return next(s for lesson, s in ENDGAMES if lesson.slug == slug and s.key == key)


def test_every_course_has_endgames_to_win_and_to_hold() -> None:
    by_course: dict[str, set[str]] = {}
    for lesson, step in ENDGAMES:
        by_course.setdefault(lesson.course, set()).add(step.goal.result or "")
        assert 900 <= lesson.order < 1000, "endgames come after the rules, before the course end"
        assert len(lesson.steps) >= 5
    assert by_course == {
        "xiangqi": {"win", "hold"},
        "feidan": {"win", "hold"},
        "xinban": {"win", "hold"},
    }
    assert sum(1 for lesson, _ in ENDGAMES if lesson.course == "xiangqi") >= 9


@pytest.mark.parametrize(
    ("lesson", "step"), ENDGAMES, ids=[f"{lesson.slug}-{step.key}" for lesson, step in ENDGAMES]
)
def test_the_engine_wins_or_holds_each_endgame_within_its_moves(lesson: Lesson, step: Step) -> None:
    """The learner's side played by the engine (level 8 at LEARNER_NODES a move) against the
    computer's replies, through the referee: done within ``within``, in exactly ``par`` moves
    (the par is the engine's own count). Every reply of the computer is timed."""
    computer._best.cache_clear()
    slowest = 0.0
    original = computer._best

    def timed(*args: Any) -> str:
        nonlocal slowest
        started = time.perf_counter()
        move = original(*args)
        if args[3] == computer.COMPUTER_NODES:
            slowest = max(slowest, time.perf_counter() - started)
        return move

    computer._best = timed  # type: ignore[assignment]
    try:
        run = engine_run(step)
    finally:
        computer._best = original
    assert run.status == "complete", run.message
    assert len(run.moves) <= step.goal.within
    assert len(run.moves) == step.par
    if step.goal.result == "hold":
        assert step.par == step.goal.within
        assert run.ended is None or run.ended[1] is None
    else:
        assert run.ended is not None and run.ended[1] == step.learner
    # A reply is a bounded search: on a quiet core it takes about 250 ms at most; a loaded
    # test machine gets a wide margin.
    assert slowest < 2.0


WINS = [(lesson, step) for lesson, step in ENDGAMES if step.goal.result == "win"]


@pytest.mark.parametrize(
    ("lesson", "step"), WINS, ids=[f"{lesson.slug}-{step.key}" for lesson, step in WINS]
)
def test_every_piece_the_ending_names_takes_part_in_the_win(lesson: Lesson, step: Step) -> None:
    """An ending is named by the learner's pieces (炮仕胜单将, 马兵胜单士): the instruction names
    each of them, and each one moves in the engine's winning line. A piece that never moves is
    one the position does not need, and the learner would be taught the wrong ending."""
    start = Position.from_fen(step.variant, step.fen)
    mine = {
        point: piece
        for point, piece in start.pieces().items()
        if piece.isupper() == (step.learner == "red") and piece_kind(piece) != "K"
    }
    assert {piece_kind(piece) for piece in mine.values()} <= named_pieces_zh(step.instruction.zh)
    where = {point: point for point in mine}  # start point -> where the piece stands now
    moved: set[str] = set()
    for ply in engine_run(step).plies:
        origin, target = ply.iccs[:2], ply.iccs[2:]
        for first, now in list(where.items()):
            if now == target:
                del where[first]  # taken (the step would have failed already)
            elif now == origin and ply.by == "learner":
                where[first] = target
                moved.add(first)
    idle = [f"{mine[point]}{point}" for point in mine if point not in moved]
    assert idle == [], f"{lesson.slug} {step.key}: never moves in the engine's win: {idle}"


def test_horse_and_soldier_against_an_advisor_is_taught_as_the_easier_win() -> None:
    """马胜单士 is a book win: a horse alone beats a lone advisor (and a bare general, 马胜单将), so
    the soldier of 马兵胜单士 makes the win easier, it is not needed. The steps of that ending
    say so, and no endgame text or the lessons' documentation says the soldier is needed
    against an advisor (or that against a bare general it would stand idle)."""
    taught = []
    for lesson, step in ENDGAMES:
        pieces = Position.from_fen(step.variant, step.fen).pieces().values()
        learner = sorted(piece_kind(p) for p in pieces if p.isupper() == (step.learner == "red"))
        defender = sorted(piece_kind(p) for p in pieces if p.isupper() != (step.learner == "red"))
        if learner == ["K", "N", "P"] and defender == ["A", "K"]:
            taught.append(f"{lesson.slug}-{step.key}")
            for words in (step.instruction.zh, step.instruction.en):
                assert "马胜单士" in words and "马胜单将" in words, words
    assert len(taught) >= 2  # the traditional course and New-version Xiangqi
    needed_en = re.compile(
        r"soldier (?:is|was|would be) needed|soldier would never move|soldier alone would do"
        r"|must both work",
        re.IGNORECASE,
    )
    docs = (ROOT / "docs" / "lessons.md").read_text(encoding="utf-8")
    assert "马胜单士" in docs and not needed_en.search(docs)
    for lesson, step in ENDGAMES:
        assert not needed_en.search(step.instruction.en), (lesson.slug, step.key)
        assert not re.search("兵用不上|单兵就够了|都要出力", step.instruction.zh), (
            lesson.slug,
            step.key,
        )


def test_the_computer_replies_the_same_to_the_same_moves() -> None:
    step = endgame("xiangqi-endgames-chariot", "3")
    moves = ["a4a9", "d0e0", "a9b9"]
    first = play_moves(step, moves)
    computer._best.cache_clear()
    again = play_moves(step, moves)
    assert [p.iccs for p in first.plies] == [p.iccs for p in again.plies]
    assert [p.by for p in first.plies] == ["learner", "opponent"] * 3


def test_stars_count_the_moves_against_the_engines_own() -> None:
    step = endgame("xiangqi-endgames-chariot", "2")
    run = engine_run(step)
    state = play_moves(step, run.moves)
    assert state.status == "complete"
    assert stars_for(state.moves_used, step.par) == 3


def both(state: Any, code: str) -> tuple[str, str]:
    assert state.status == "failed"
    assert state.message.code == code, state.message
    zh, en = state.message.text.zh, state.message.text.en
    assert CJK.search(zh) and en.strip() and not CJK.search(re.sub(r"\S*[0-9]\S*", "", en))
    return zh, en


def test_a_piece_left_to_be_taken_fails_and_says_which_piece_takes_it() -> None:
    zh, en = both(play_moves(endgame("xiangqi-endgames-chariot", "3"), ["a4a7"]), "piece_lost")
    assert "象" in zh and "车" in zh and "赢不下来" in zh
    assert "its elephant takes your chariot" in en and "win is gone" in en


def test_in_a_hold_a_lost_defender_fails_the_step() -> None:
    zh, en = both(play_moves(endgame("xiangqi-endgames-chariot", "5"), ["c0a2"]), "piece_lost")
    assert "车吃掉了你的相" in zh and "守不住" in zh
    assert "its chariot takes your elephant" in en and "cannot be held" in en


def test_a_hold_that_lets_the_chariot_mate_is_lost() -> None:
    state = play_moves(endgame("xiangqi-endgames-chariot", "5"), ["c0e2", "e2c0"])
    zh, en = both(state, "endgame_lost")
    assert "将死" in zh and "checkmate" in en


def test_going_back_and_forth_lets_the_defender_draw() -> None:
    moves = ["f0f1", "f1f0", "f0f1", "f1f0"]
    zh, en = both(play_moves(endgame("xiangqi-endgames-chariot", "1"), moves), "endgame_draw")
    assert "和棋" in zh and "draw" in en


def test_a_soldier_pushed_to_the_last_rank_only_draws() -> None:
    moves = ["b5b6", "b6b7", "b7b8", "b8b9"]
    state = play_moves(endgame("xiangqi-endgames-minor", "1"), moves)
    zh, en = both(state, "bottom_soldier")
    assert "底兵" in zh and "bottom soldier" in en
    assert len(state.plies) == 7  # no reply after the soldier reached the last rank


def wander(step: Step, moves: list[str]) -> Any:
    """Moves that neither win nor lose nor repeat, until the step's moves are used up (the
    first such line in move order, searched depth first)."""
    state = play_moves(step, moves)
    if state.status != "playing":
        return state if state.message and state.message.code == "out_of_moves" else None
    for move in state.legal:
        found = wander(step, [*moves, move])
        if found is not None:
            return found
    return None


def test_wasted_moves_run_out() -> None:
    step = endgame("xiangqi-endgames-chariot", "1")
    state = wander(step, [])
    assert state is not None and state.moves_used == step.goal.within == 8
    zh, en = both(state, "out_of_moves")
    assert "8步" in zh and "All 8 moves" in en


def test_a_soldier_that_takes_on_the_last_rank_in_a_hold_is_named_a_bottom_soldier() -> None:
    """低兵不胜单象: the step still fails when the elephant is lost, but the text does not say the
    position is lost: the soldier took it by stepping onto the last rank and can no longer win."""
    state = play_moves(endgame("xiangqi-endgames-soldier", "low-soldier-elephant"), ["e9e8"])
    assert state.status == "failed" and state.message.code == "piece_lost"
    zh, en = state.message.text.zh, state.message.text.en
    # Red's reply is written in Chinese notation in both languages (兵三进一), then its ICCS.
    assert en.startswith("The computer plays 兵三进一 (g8g9): ")
    assert not CJK.search(en.removeprefix("The computer plays 兵三进一"))
    assert "兵吃掉了你的象" in zh and "底兵" in zh and "守不住" not in zh
    assert "takes your elephant" in en and "bottom soldier" in en and "cannot be held" not in en


def test_a_missile_checking_inside_the_palace_beside_a_hemmed_in_general_wins_the_hold() -> None:
    """Missile against a full set: an elephant move leaves the missile its way into the palace,
    where its check is a dead general (the advisors beside the general block every escape); the
    lesson's own words say so. Lifting an advisor to the palace centre holds."""
    step = endgame("feidan-endgames-more", "6")
    state = play_moves(step, ["d9b7"])
    zh, en = both(state, "endgame_lost")
    assert state.plies[-1].iccs == "k8f8" and state.termination == "dead_general"
    assert "死将" in zh and "dead general" in en
    assert play_moves(step, ["e9f8"]).status == "playing"


PROVED = [
    ("xiangqi-endgames-chariot-cannon", "1"),
    ("xiangqi-endgames-chariot-cannon", "2"),
    ("xiangqi-endgames-chariot-cannon", "3"),
    ("xiangqi-endgames-chariot-cannon", "4"),
    ("xiangqi-endgames-soldier", "high-soldier-elephant"),
]


@pytest.mark.parametrize(("slug", "key"), PROVED, ids=[f"{s}-{k}" for s, k in PROVED])
def test_the_chariot_cannon_and_high_soldier_wins_are_forced_in_their_par(
    slug: str, key: str
) -> None:
    """These positions are wins whatever the defence, not only against the computer's replies:
    the prover finds a forced win in exactly the step's par."""
    step = endgame(slug, key)
    proof = solve(Position.from_fen(step.variant, step.fen), goal="win", max_moves=step.par)
    assert proof.status in ("sound_unique", "cooked"), proof.reason
    assert proof.moves_to_win == step.par


def test_a_missile_hit_by_an_advisor_is_a_collision() -> None:
    state = play_moves(endgame("feidan-endgames", "3"), ["k0k7", "k7e7"])
    zh, en = both(state, "piece_lost")
    assert "士和你的导弹相撞" in zh and "advisor collides with your missile" in en


def test_a_turncoat_taken_by_an_advisor_defects_and_by_the_general_is_removed() -> None:
    step = endgame("xinban-endgames", "1")
    zh, en = both(play_moves(step, ["h3e3", "e3e8"]), "piece_lost")
    assert "倒戈" in zh and "defects" in en
    zh, en = both(play_moves(step, ["h3d3", "d3d9"]), "piece_lost")
    assert "倒戈" not in zh and "defects" not in en
    assert "将吃掉了你的红底车" in zh and "its general takes your turncoat chariot" in en


def test_an_endgame_step_needs_a_result_and_its_moves() -> None:
    def lesson(**step: Any) -> Any:
        text = {"zh": "中文", "en": "English"}
        data = {"slug": "t", "course": "xiangqi", "order": 1, "title": text, "summary": text}
        base = {"instruction": text, "position": "Kd0 Ra4 ke9", "goal": "endgame"}
        return lesson_from_data({**data, "steps": [{**base, **step}]})

    assert lesson(result="win", within=8, par=2).steps[0].opponent == "computer"
    for bad in (
        {"within": 8},
        {"result": "draw", "within": 8},
        {"result": "win"},
        {"result": "win", "within": 2, "par": 3},
        {"result": "win", "within": 8, "line": ["a4a9", "e9e8"]},
    ):
        with pytest.raises(LessonFileError):
            lesson(**bad)
    with pytest.raises(LessonFileError):
        lesson(goal="reach", targets=["a9"], within=3)


# --- over HTTP: the server judges -----------------------------------------------------------------


@pytest.mark.parametrize(("language", "words"), [("zh-hans", "象"), ("en", "elephant")])
def test_the_server_fails_a_blunder_with_the_refutation(
    lessons: None, language: str, words: str
) -> None:
    client = Client()
    client.cookies["django_language"] = language
    url = "/api/learn/lessons/xiangqi-endgames-chariot/steps/3/moves/"
    response = client.post(url, {"moves": ["a4a7"]}, content_type="application/json")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "failed"
    assert data["message"]["code"] == "piece_lost" and words in data["message"]["text"]
    assert [p["by"] for p in data["plies"]] == ["learner", "opponent"]


def test_the_server_records_stars_for_a_won_endgame(lessons: None) -> None:
    client = Client()
    step = endgame("xiangqi-endgames-chariot", "2")
    moves = engine_run(step).moves
    url = "/api/learn/lessons/xiangqi-endgames-chariot/steps/2/moves/"
    response = client.post(url, {"moves": moves}, content_type="application/json")
    data = response.json()
    assert data["status"] == "complete" and data["winner"] == "red"
    assert data["progress"]["stars"] == 3


def test_the_computers_replies_are_kept_in_the_shared_cache(lessons: None) -> None:
    """A try's requests may reach different web workers: a reply found by one is read by the
    others from the site's cache, not searched again."""
    from django.core.cache import cache

    step = endgame("xiangqi-endgames-chariot", "3")
    moves = engine_run(step).moves[:4]
    computer._best.cache_clear()
    url = "/api/learn/lessons/xiangqi-endgames-chariot/steps/3/moves/"
    response = Client().post(url, {"moves": moves}, content_type="application/json")
    assert response.json()["status"] == "playing"
    computer._best.cache_clear()  # another worker: nothing searched in this process yet
    state = play_moves(step, moves, memory=cache)
    assert computer._best.cache_info().misses == 0
    assert [p.iccs for p in state.plies] == [p["iccs"] for p in response.json()["plies"]]
