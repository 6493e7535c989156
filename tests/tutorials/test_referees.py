"""The referee of a step, on small lessons written inline: goals, scripted replies, the
opponent who never moves, stars, and the explanations of wrong moves in both languages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engine import Position, plum_blossom
from tutorials.curriculum import (
    StepRefused,
    answer_point,
    check_setup,
    dynamic_board,
    play_moves,
    stars_for,
    stars_for_mistakes,
    start_state,
)
from tutorials.curriculum.audit import wrong_answer_problems
from tutorials.curriculum.schema import LessonFileError, lesson_from_data
from words.explain import Explanation, explain_illegal
from words.texts import Text

TEXT = {"zh": "中文", "en": "English"}


def make_step(course: str = "xiangqi", **step: Any):
    data = {
        "slug": "test",
        "course": course,
        "order": 1,
        "title": TEXT,
        "summary": TEXT,
        "steps": [{"instruction": TEXT, **step}],
    }
    return lesson_from_data(data).steps[0]


def refusal(step, moves: list[str]) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        play_moves(step, moves)
    return caught.value


# --- goals --------------------------------------------------------------------------------------


def test_reach_collects_every_target_and_counts_moves() -> None:
    step = make_step(position="Ke0 kf9 Nb0", goal="reach", targets=["c2", "d4"], par=2)
    state = play_moves(step, ["b0c2"])
    assert (state.status, state.collected, state.remaining) == ("playing", ["c2"], ["d4"])
    # The opponent never moves: the learner is to move again.
    assert Position.from_fen("xiangqi", state.fen).turn == "red"
    state = play_moves(step, ["b0c2", "c2d4"])
    assert state.status == "complete" and state.moves_used == 2


def test_reach_with_a_named_piece_ignores_other_pieces() -> None:
    step = make_step(position="Ke0 kd9 Nb0 Rc1", goal="reach", targets=["c2"], piece="N", par=1)
    assert play_moves(step, ["c1c2"]).status == "playing"
    assert play_moves(step, ["b0c2"]).status == "complete"


def test_capture_needs_the_required_effect() -> None:
    step = make_step(
        course="xinban",
        position="Ke0 kd9 Nc2 Ra4 +rd4",
        goal="capture",
        targets=["d4"],
        effect="defection",
        par=1,
    )
    assert play_moves(step, ["c2d4"]).status == "complete"
    wrong = play_moves(step, ["a4d4"])  # a chariot does not turn a turncoat chariot
    assert wrong.status == "failed" and wrong.message.code == "wrong_effect"
    assert "defection" in wrong.message.text.en and "策反" in wrong.message.text.zh


def test_capture_with_a_named_piece_refuses_another_piece() -> None:
    # Take the missile with the chariot: the advisor could hit it too, but that is not the step.
    step = make_step(
        course="feidan",
        position="Ke0 kf9 ae9 rk8 Mf8",
        turn="black",
        goal="capture",
        targets=["f8"],
        effect="collision",
        piece="R",
        par=1,
    )
    assert play_moves(step, ["k8f8"]).status == "complete"
    state = play_moves(step, ["e9f8"])
    assert state.status == "failed" and state.message.code == "wrong_piece"
    assert "advisor" in state.message.text.en and "chariot" in state.message.text.en
    assert "士" in state.message.text.zh and "车" in state.message.text.zh


def test_authored_words_for_a_legal_wrong_move_are_an_explanation() -> None:
    """A lesson's own words for a move come back as an Explanation (code and both languages),
    whether the move is legal but not the one asked for, or illegal."""
    words = {"zh": "这是炮八平五。", "en": "That is 炮八平五."}
    blocked = {"zh": "马腿被挡住了。", "en": "The leg is blocked."}
    step = make_step(
        fen="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        goal="move",
        accept=["h2e2"],
        wrong={"b2e2": words, "b0d1": blocked},
    )
    state = play_moves(step, ["b2e2"])
    assert state.status == "failed"
    assert isinstance(state.message, Explanation)
    assert state.message.code == "not_this_move" and state.message.text == Text(**words)
    error = refusal(step, ["b0d1"])  # the horse's leg: the lesson's words, the rule's code
    assert error.explanation.code == "horse_leg" and error.explanation.text == Text(**blocked)


def test_authored_words_wait_for_their_piece_to_stand_on_its_point() -> None:
    """Words for a move the learner can make only later in the step (the advisor first steps
    to e1) do not answer that move tried before: there is no piece on e1 yet."""
    words = {"zh": "仕吃卒会被车白吃。", "en": "The chariot takes the advisor for free."}
    step = make_step(
        position="Ke0 kd9 Ad0 Af0 pd2 pf2 rf7",
        goal="capture",
        targets=["d2"],
        piece="A",
        par=2,
        safe=True,
        wrong={"e1f2": words},
    )
    error = refusal(step, ["e1f2"])
    assert error.explanation.code == "no_piece" and "e1" in error.explanation.text.en
    state = play_moves(step, ["d0e1", "e1f2"])
    assert state.status == "failed" and state.message.text == Text(**words)


def test_the_content_check_finds_words_for_a_move_that_is_illegal_or_never_shown() -> None:
    """An authored wrong move must be legal wherever the learner's piece stands on its point
    on the step's way, and its words shown by some play of that way."""
    blocked = {"zh": "h0 被马守着。", "en": "The horse guards h0."}
    quiet = {"zh": "这步没用。", "en": "That does nothing."}
    step = make_step(
        position="Ke0 kd9 Ra0 nb6 ng2",
        goal="reach",
        targets=["h8"],
        piece="R",
        par=3,
        safe=True,
        wrong={"a0h0": blocked, "a0a1": quiet, "a0a4": {"zh": "马吃车。", "en": "It is taken."}},
    )
    problems = wrong_answer_problems(step)
    assert any(p.startswith("step 1 wrong.a0h0 after no move: illegal") for p in problems)
    assert "step 1 wrong.a0h0: no play of the step's way shows its words" in problems
    assert "step 1 wrong.a0a1: no play of the step's way shows its words" in problems
    assert not [p for p in problems if "a0a4" in p]


def test_the_content_check_finds_a_wrong_answer_that_wins_the_game_on_the_spot() -> None:
    """The piece-values lesson's endgame step once called the horse's capture of the cannon
    the wrong trade, though the black horse that should take back was pinned against its
    general and Black, with no legal move left, lost at once."""
    words = {"zh": "马换炮不好。", "en": "Horse for cannon is the wrong trade."}
    step = make_step(
        position="ke9 ad9 af9 ne8 cc7 Nd5 Pe5 Ce3 Ad0 Ke0 Af0",
        goal="move",
        accept=["e3e8"],
        wrong={"d5c7": words},
    )
    problems = wrong_answer_problems(step)
    assert "step 1 wrong.d5c7 after no move: wins the game at once (stalemate)" in problems


def test_words_for_the_completing_move_replace_the_success_text() -> None:
    advisor = {"zh": "仕撞掉了导弹。", "en": "The advisor hit the missile."}
    general = {"zh": "帅躲开了。", "en": "The general stepped away."}
    step = make_step(
        course="feidan",
        position="Kf0 kg9 Ag0 mf1",
        goal="move",
        success=general,
        right={"g0f1": advisor},
    )
    assert play_moves(step, ["g0f1"]).message.text == Text(**advisor)
    assert play_moves(step, ["f0e0"]).message.text == Text(**general)


def test_a_check_in_a_step_without_an_opponent_is_refused_with_a_reason() -> None:
    step = make_step(position="Ke0 kd9 Ra0", goal="reach", targets=["h0"], par=2)
    error = refusal(step, ["a0a9"])
    assert error.explanation.code == "check_not_allowed"
    assert error.index == 0 and error.move == "a0a9"


def test_mate_in_one_wrong_move_fails_and_names_an_escape() -> None:
    step = make_step(position="Ke0 kf9 Rb6", goal="mate", par=1)
    assert play_moves(step, ["b6f6"]).status == "complete"
    missed = play_moves(step, ["b6b9"])
    assert missed.status == "failed" and missed.message.code == "not_mate"


def test_scripted_replies_and_leaving_the_script() -> None:
    step = make_step(position="Kd0 kf9 af7 Rg3 Nc9", goal="mate", par=2, line=["c9d7", "f7e8"])
    state = play_moves(step, ["c9d7"])
    assert state.status == "playing"
    assert [(p.iccs, p.by) for p in state.plies] == [("c9d7", "learner"), ("f7e8", "opponent")]
    assert play_moves(step, ["c9d7", "g3g9"]).status == "complete"
    off = play_moves(step, ["g3g8"])
    assert off.status == "failed" and off.message.code == "not_this_move"


def test_moves_after_the_end_are_refused() -> None:
    step = make_step(position="Ke0 kf9 Rb6", goal="mate", par=1)
    assert refusal(step, ["b6f6", "e0d0"]).explanation.code == "after_end"


def test_outcome_goal_by_the_opponents_reply() -> None:
    step = make_step(
        course="xinban",
        position="Kd0 kf9",
        goal="outcome",
        termination="forced_variation",
        winner="red",
        par=4,
        line=["d0d1", "f9f8", "d1d0", "f8f9", "d0d1", "f9f8", "d1d0", "f8f9"],
    )
    state = play_moves(step, ["d0d1", "d1d0", "d0d1", "d1d0"])
    assert state.status == "complete"
    assert (state.termination, state.winner) == ("forced_variation", "red")


def test_a_quiet_move_at_the_move_limit_ends_the_game_and_fails_the_step() -> None:
    step = make_step(
        position="Ke0 kd9 nd8 Rb2 ng2", halfmove=119, goal="capture", targets=["g2"], par=1
    )
    assert play_moves(step, ["b2g2"]).status == "complete"
    quiet = play_moves(step, ["b2b3"])
    assert quiet.status == "failed" and quiet.termination == "natural_limit"


def test_only_move_and_dead_general() -> None:
    step = make_step(position="Ke0 kd9 Af0 re5", goal="move", only_move=True)
    assert start_state(step).legal == ["f0e1"]
    dead = make_step(course="feidan", position="Ke0 kf9 ae9 ag9 Ma8 rk8", goal="dead_general")
    state = play_moves(dead, ["a8f8"])
    assert state.status == "complete" and state.termination == "dead_general"


def test_too_many_moves_are_refused_before_replaying() -> None:
    step = make_step(position="Ke0 kf9 Nb0", goal="reach", targets=["c2"], par=1)
    assert refusal(step, ["b0a2"] * 11).explanation.code == "too_many_moves"


def test_stars_by_moves_against_par_and_by_mistakes() -> None:
    assert [stars_for(n, 3) for n in (2, 3, 4, 6, 7)] == [3, 3, 2, 2, 1]
    assert [stars_for_mistakes(n) for n in (0, 1, 2, 5)] == [3, 2, 1, 1]


# --- explanations -------------------------------------------------------------------------------


def explain(variant: str, fen: str, move: str):
    pos = Position.from_fen(variant, fen)
    from engine import Move

    return explain_illegal(pos, Move.from_iccs(move))


def test_blocked_horse_names_the_leg() -> None:
    step = make_step(position="Ke0 kf9 Ne2 pe3", goal="reach", targets=["d4"], par=3)
    error = refusal(step, ["e2d4"])
    assert error.explanation.code == "horse_leg"
    assert "e3" in error.explanation.text.en and "蹩马脚" in error.explanation.text.zh


def test_elephant_eye_and_river() -> None:
    eye = "5k3/9/9/9/9/9/5p3/4B4/9/4K4 w - - 0 1"  # a black soldier on f3, the eye of e2-g4
    assert explain("xiangqi", eye, "e2g4").code == "elephant_eye"
    river = "5k3/9/9/9/9/6B2/9/9/9/4K4 w - - 0 1"
    assert explain("xiangqi", river, "g4e6").code == "elephant_river"
    corner = "5k3/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1"
    assert explain("xiangqi", corner, "c0d1").code == "elephant_step"


def test_cannon_screens_are_counted() -> None:
    fen = "5k3/r8/9/p8/9/9/P8/9/C8/4K4 w - - 0 1"  # two pieces between a1 and a8
    explanation = explain("xiangqi", fen, "a1a8")
    assert explanation.code == "cannon_screens" and "2" in explanation.text.en
    assert (
        explain("xiangqi", "5k3/r8/9/9/9/9/9/9/C8/4K4 w - - 0 1", "a1a8").code == "cannon_no_screen"
    )


def test_general_never_touches_a_missile_and_generals_never_face() -> None:
    fen = "6k4/11/11/11/11/11/11/11/5m5/5KA4 w - - 0 1"
    explanation = explain("feidan", fen, "f0f1")
    assert explanation.code == "general_missile"
    assert "导弹" in explanation.text.zh
    assert (
        explain("xiangqi", "3k5/9/9/9/9/9/9/9/9/4KA3 w - - 0 1", "e0d0").code == "generals_facing"
    )


def test_fighter_needs_both_points_occupied_to_be_grounded() -> None:
    one = make_step(course="feidan", position="Kf0 ke9 Fc2 Pc3", goal="reach", targets=["d5"])
    assert play_moves(one, ["c2d5"]).status == "complete"
    two = make_step(
        course="feidan", position="Kf0 ke9 Fc2 Pc3 pc4", goal="reach", targets=["d5"], par=2
    )
    error = refusal(two, ["c2d5"])
    assert error.explanation.code == "fighter_blocked"
    assert "c3" in error.explanation.text.en and "c4" in error.explanation.text.en


def test_pinned_piece_and_unanswered_check() -> None:
    # The chariot on e3 shields its general from the black chariot on e8.
    fen = "3k5/4r4/9/9/9/9/4R4/9/9/4K4 w - - 0 1"
    explanation = explain("xiangqi", fen, "e3a3")
    assert explanation.code == "exposes_general" and "e8" in explanation.text.en
    in_check = "3k5/9/9/9/4r4/9/9/9/9/4KA3 w - - 0 1"
    assert explain("xiangqi", in_check, "f0f1").code == "advisor_step"


def test_soldier_rules() -> None:
    fen = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1"
    assert explain("xiangqi", fen, "c3d3").code == "soldier_sideways"
    assert explain("xiangqi", fen, "c3c2").code == "soldier_back"


def test_tries_include_blocked_moves_so_they_can_be_explained() -> None:
    step = make_step(position="Ke0 kf9 Ne2 pe3", goal="reach", targets=["d4"], par=3)
    state = start_state(step)
    assert "e2d4" in state.tries and "e2d4" not in state.legal


# --- questions and setups -----------------------------------------------------------------------


def test_point_answers() -> None:
    step = make_step(
        position="Ke0 kd9",
        goal="point",
        answers=["e1"],
        wrong={"d0": {"zh": "不是角上。", "en": "Not the corner."}},
    )
    assert answer_point(step, "E1").correct
    wrong = answer_point(step, "d0")
    assert not wrong.correct and wrong.message.text == Text("不是角上。", "Not the corner.")
    with pytest.raises(StepRefused):
        answer_point(step, "z9")


def test_a_point_off_the_board_is_refused_by_the_variants_width() -> None:
    """The files of the board come from the variant: k is a point of the 11-file board only."""
    nine = make_step(position="Ke0 kd9", goal="point", answers=["e1"])
    with pytest.raises(StepRefused) as refused:
        answer_point(nine, "k0")
    assert refused.value.explanation.code == "bad_point"
    eleven = make_step(course="feidan", position="Kf0 ke9", goal="point", answers=["f1"])
    assert not answer_point(eleven, "k0").correct
    assert answer_point(eleven, "f1").correct


def test_plum_blossom_board_is_the_engines() -> None:
    step = make_step(course="feidan", goal="point", answer_from={"piece": "F"})
    moment = datetime(2025, 8, 1, 10, 30, tzinfo=UTC)
    board = dynamic_board(step, moment)
    expected = plum_blossom(moment)
    assert board.fen == expected.fen
    assert board.answers == tuple(sorted(p for p, v in expected.officers.items() if v == "F"))
    assert expected.hexagram in board.caption.zh and expected.hexagram_english in board.caption.en
    assert answer_point(step, board.answers[0], moment).correct


def test_draw_claim_answers_come_from_the_engine() -> None:
    step = make_step(
        course="xinban",
        position="Ke0 kd9 Rb2 nc7 pg4",
        goal="point",
        answer_from={"draw_claim": True},
    )
    assert answer_point(step, "e0").correct and not answer_point(step, "d9").correct


STANDARD = "Ma0 Rb0 Nc0 Bd0 Ae0 Kf0 Ag0 Bh0 Ni0 Rj0 Mk0 Fa2 Cc2 Ci2 Fk2 Pb3 Pd3 Pf3 Ph3 Pj3"


def halves(text: str) -> dict[str, str]:
    return {token[1:]: token[0] for token in text.split()}


def test_setup_violations_are_explained_in_both_languages() -> None:
    broken = STANDARD.replace("Ma0", "Ma1").replace("Ag0", "Af2")
    step = make_step(
        course="feidan", goal="setup", method="five_soldiers", placement=broken, example=STANDARD
    )
    state = check_setup(step, halves(broken))
    assert not state.valid
    assert {(v.code, v.point) for v in state.violations} == {
        ("missile_not_in_base", "a1"),
        ("advisor_point", "f2"),
    }
    assert all(v.text.zh != v.text.en and "：" in v.text.zh for v in state.violations)
    assert check_setup(step, halves(STANDARD)).valid


def test_a_missing_piece_is_named_in_both_languages() -> None:
    step = make_step(
        course="feidan", goal="setup", method="five_soldiers", placement=STANDARD, example=STANDARD
    )
    placement = {p: v for p, v in halves(STANDARD).items() if p != "a0"}  # one missile gone
    (violation,) = check_setup(step, placement).violations
    assert violation.code == "wrong_piece_count"
    assert "1 missile" in violation.text.en and "2 missiles" in violation.text.en
    assert violation.text.zh == "导弹的数目不对：现在摆了1个，每方正好2个。"


def test_setup_reveal_against_a_fixed_black_half() -> None:
    red = STANDARD.replace("Kf0", "Ke1")
    black = "ma9 rb9 nc9 bd9 ae9 ke8 ag9 bh9 ni9 rj9 mk9 fa7 cc7 ci7 fk7 pb6 pd6 pf6 ph6 pj6"
    step = make_step(
        course="feidan",
        goal="setup",
        method="five_soldiers",
        placement=red,
        black_half=black,
        example=STANDARD,
    )
    void = check_setup(step, halves(red))
    assert not void.valid and void.message.code == "reveal_void"
    assert check_setup(step, halves(STANDARD)).valid


def test_require_moved() -> None:
    step = make_step(
        course="feidan",
        goal="setup",
        method="middle_soldier",
        placement=STANDARD,
        require_moved=2,
        example=STANDARD,
    )
    assert check_setup(step, halves(STANDARD)).message.code == "setup_unchanged"
    moved = STANDARD.replace("Pb3", "Pb4").replace("Pd3", "Pd4")
    assert check_setup(step, halves(moved)).valid


# --- the file format ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"goal": "fly"}, "goal must be one of"),
        ({"position": "Ke0 kd9 pd7"}, "behind its starting rank"),
        ({"instruction": {"zh": "中文"}}, "exactly the keys zh and en"),
        ({"targets": ["z9"]}, "list of points"),
        ({"colour": "red"}, "unknown field"),
        ({"wrong": {"b0a2": "too far"}}, "exactly the keys zh and en"),
        ({"goal": "check", "piece": "N"}, "piece is for reach and capture goals only"),
        ({"piece": "Q"}, "piece must be one upper-case FEN letter"),
        ({"goal": "point", "answers": ["c2"], "right": {"c2": TEXT}}, "only steps answered with"),
        ({"right": {"b0": TEXT}}, "right"),
    ],
)
def test_broken_lesson_files_name_the_problem(change: dict[str, Any], message: str) -> None:
    step = {"instruction": TEXT, "position": "Ke0 kd9 Nb0", "goal": "reach", "targets": ["c2"]}
    step.update(change)
    data = {
        "slug": "broken",
        "course": "xiangqi",
        "order": 1,
        "title": TEXT,
        "summary": TEXT,
        "steps": [step],
    }
    with pytest.raises(LessonFileError, match=message):
        lesson_from_data(data, source="xiangqi/broken.toml")


def test_each_goal_is_answered_with_moves_a_point_or_a_setup() -> None:
    from tutorials.curriculum.schema import GOAL_KINDS, MOVE_GOALS, Goal

    answered = {kind: Goal(kind).answered_with for kind in GOAL_KINDS}
    assert answered == {
        **dict.fromkeys(MOVE_GOALS, "moves"),
        "point": "point",
        "setup": "setup",
        "write": "write",
    }
    point = make_step(goal="point", answers=["e0"], position="Ke0 kd9")
    with pytest.raises(ValueError, match="answered with a point"):
        play_moves(point, ["e0e1"])


# --- every answer says something ------------------------------------------------------------------


def test_a_legal_move_that_is_not_wanted_is_named_with_what_the_step_wants() -> None:
    step = make_step(position="Ke0 kf9 Nb0", goal="move", accept=["b0c2"])
    state = play_moves(step, ["b0a2"])
    assert state.status == "failed" and state.message is not None
    assert state.message.code == "not_this_move"
    assert "马八进九" in state.message.text.zh and "马八进九" in state.message.text.en
    assert "instruction" in state.message.text.en


def test_a_mate_where_the_step_wants_another_ending_is_called_a_win() -> None:
    step = make_step(position="Kd0 ke9 Ra8 Rb0", goal="stalemate")
    state = play_moves(step, ["b0b9"])
    assert state.status == "failed" and state.message is not None
    assert state.message.code == "won_otherwise"
    assert "wins the game too" in state.message.text.en and "stalemate" in state.message.text.en
    assert "赢棋" in state.message.text.zh and "困毙" in state.message.text.zh


def test_past_par_the_learner_is_told_and_offered_a_new_start() -> None:
    step = make_step(position="Ke0 kf9 Nb0", goal="reach", targets=["c2", "d4"], par=1)
    assert start_state(step).message is None
    state = play_moves(step, ["b0c2"])
    assert state.status == "playing" and state.message is not None
    assert state.message.code == "over_par"
    assert "Try again" in state.message.text.en and "再试一次" in state.message.text.zh
    assert play_moves(step, ["b0c2", "c2d4"]).status == "complete"


def test_the_general_off_its_lines_and_onto_its_own_advisor_is_explained() -> None:
    step = make_step(position="Ke0 Ae1 kf9 Nb0", goal="reach", targets=["c2"])
    assert refusal(step, ["e0d1"]).explanation.code == "general_step"
    assert refusal(step, ["e0e1"]).explanation.code == "own_piece"
    assert refusal(step, ["b0b2"]).explanation.code == "horse_step"


# --- a move written in Chinese notation ---------------------------------------------------------


def say(code: str, params: Any) -> Text:
    from core.messages import render

    return Text(render(code, params, "zh"), render(code, params, "en"))


def test_a_written_move_is_judged_by_the_move_it_names() -> None:
    from tutorials.curriculum import answer_written

    step = make_step(position="Ke0 kd9 Nb0 Bc0 Ch2", goal="write", accept=["h2e2"])
    for text in ("炮二平五", " 炮2平5 ", "砲二平五", "包二平五"):
        state = answer_written(step, text, say)
        assert state.correct and state.move == "h2e2" and state.chinese == "炮二平五", text
    assert "usually written 炮二平五" in answer_written(step, "炮2平5", say).message.text.en
    other = answer_written(step, "炮二平四", say)
    assert not other.correct and other.message.code == "other_move"
    assert "炮二平四" in other.message.text.zh and "h2f2" in other.message.text.en
    iccs = answer_written(step, "h2e2", say)
    assert not iccs.correct and iccs.message.code == "iccs_not_words"
    leg = answer_written(step, "马八进六", say)
    assert leg.message.code == "cannot_play" and "蹩马脚" in leg.message.text.zh
    assert answer_written(step, "车一进一", say).message.code == "no_such_move"
    unreadable = answer_written(step, "炮炮炮", say)
    assert unreadable.message.code == "unreadable" and unreadable.message.text.zh != ""
    with pytest.raises(StepRefused):
        answer_written(step, "   ", say)


def test_a_write_step_needs_a_legal_accepted_move() -> None:
    with pytest.raises(LessonFileError, match="needs the accepted moves"):
        make_step(position="Ke0 kd9 Ch2", goal="write")
    with pytest.raises(LessonFileError, match="not legal"):
        make_step(position="Ke0 kd9 Ch2", goal="write", accept=["h2g3"])


# --- safe: no piece left to be taken for free ----------------------------------------------------


def test_a_safe_step_fails_a_move_that_leaves_a_piece_hanging_and_names_the_attacker() -> None:
    # The horse on c7 guards d5 and b5; a chariot landing there is taken for free.
    step = make_step(position="Ke0 kf9 Ra1 nc7", goal="reach", targets=["a9"], safe=True, par=1)
    state = play_moves(step, ["a1a9"])
    assert state.status == "complete" and state.threat is None
    hanging = make_step(position="Ke0 kf9 Ra5 nc7", goal="reach", targets=["a9"], safe=True, par=3)
    state = play_moves(hanging, ["a5b5"])
    assert state.status == "failed" and state.message.code == "left_hanging"
    assert state.threat == "c7b5"
    assert "c7" in state.message.text.en and "black horse" in state.message.text.en
    assert "黑马" in state.message.text.zh and "b5" in state.message.text.zh


def test_a_safe_step_allows_a_piece_the_learner_can_take_back() -> None:
    # The chariot on b0 guards b5: the horse may take there, but not for free.
    step = make_step(position="Ke0 kf9 Ra5 Rb0 nc7", goal="reach", targets=["b5"], safe=True, par=1)
    state = play_moves(step, ["a5b5"])
    assert state.status == "complete" and state.threat is None
    # The same move without the guard fails; without `safe` it does not.
    bare = dict(position="Ke0 kf9 Ra5 nc7", goal="reach", targets=["b5"], par=1)
    assert play_moves(make_step(**bare, safe=True), ["a5b5"]).status == "failed"
    assert play_moves(make_step(**bare), ["a5b5"]).status == "complete"


def test_safe_is_for_move_steps_only() -> None:
    with pytest.raises(LessonFileError, match="safe"):
        make_step(goal="point", answers=["e0"], safe=True, position="Ke0 kf9")
    with pytest.raises(LessonFileError, match="safe"):
        make_step(goal="reach", targets=["e1"], safe="yes", position="Ke0 kf9")
