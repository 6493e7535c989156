"""The rule that a success text describes what happened, on small steps written inline."""

from __future__ import annotations

from typing import Any

from tutorials.curriculum.audit import (
    answer_in_prompt_problems,
    description_problems,
    instruction_problems,
    named_chinese_moves,
    named_pieces_en,
    named_pieces_zh,
    route_problems,
    success_problems,
    what_happened,
)
from tutorials.curriculum.schema import board_fen, lesson_from_data
from words.texts import Text

TEXT = {"zh": "中文", "en": "English"}


def make_step(course: str = "xiangqi", **step: Any):
    data = {
        "slug": "test",
        "course": course,
        "order": 1,
        "title": TEXT,
        "summary": TEXT,
        "steps": [{"instruction": TEXT} | step],
    }
    return lesson_from_data(data).steps[0]


def test_piece_names_are_read_in_both_languages() -> None:
    assert named_pieces_en("Chariot and missile are gone together.") == {"R", "M"}
    assert named_pieces_zh("车和导弹同归于尽，将军解除。") == {"R", "M", "K"}
    # words made of a piece's character that name no piece
    assert named_pieces_zh("两个将帅相对，象棋里马上判负。") == {"K"}
    assert named_pieces_en("In this exercise the opponent does not move.") == set()
    assert named_chinese_moves("对！h0g2 就是马二进三。") == {"马二进三"}


def test_a_success_text_that_names_a_piece_that_did_not_move_is_caught() -> None:
    """The advisor collides with the missile; the text says the chariot did."""
    start = board_fen("feidan", "Ke0 kf9 ae9 rk8 Mf8", "black")
    after = board_fen("feidan", "Ke0 kf9 rk8", "red")
    happened = what_happened("feidan", start, [("e9f8", "士4进5", after)])
    text = Text("车和导弹同归于尽。", "Chariot and missile are gone together.")
    problems = description_problems(text, happened)
    assert len(problems) == 2 and all("(R)" in p for p in problems)
    right = Text("士和导弹同归于尽。", "Advisor and missile are gone together.")
    assert description_problems(right, happened) == []


def test_points_and_moves_named_must_have_been_played() -> None:
    start = board_fen("xiangqi", "Ke0 kd9 Nb0", "red")
    after = board_fen("xiangqi", "Ke0 kd9 Nc2", "black")
    happened = what_happened("xiangqi", start, [("b0c2", "马八进七", after)])
    assert (
        description_problems(Text("马从 b0 跳到 c2。", "The horse went from b0 to c2."), happened)
        == []
    )
    problems = description_problems(
        Text("马到了 a2（b0a2）。", "The horse is on a2 (b0a2)."), happened
    )
    assert any("a2" in p for p in problems) and any("b0a2" in p for p in problems)


def test_success_problems_try_every_completing_line() -> None:
    step = make_step(
        course="feidan",
        position="Ke0 kf9 ae9 rk8 Mf8",
        turn="black",
        goal="capture",
        targets=["f8"],
        effect="collision",
        par=1,
        success={"zh": "车和导弹同归于尽。", "en": "Chariot and missile are gone."},
    )
    problems = success_problems(step)
    assert problems and all("e9f8" in p for p in problems)
    fixed = make_step(
        course="feidan",
        position="Ke0 kf9 ae9 rk8 Mf8",
        turn="black",
        goal="capture",
        targets=["f8"],
        effect="collision",
        piece="R",
        par=1,
        success={"zh": "车和导弹同归于尽。", "en": "Chariot and missile are gone."},
    )
    assert success_problems(fixed) == []
    said = make_step(
        course="feidan",
        position="Ke0 kf9 ae9 rk8 Mf8",
        turn="black",
        goal="capture",
        targets=["f8"],
        effect="collision",
        par=1,
        success={"zh": "车和导弹同归于尽。", "en": "Chariot and missile are gone."},
        right={"e9f8": {"zh": "士和导弹同归于尽。", "en": "Advisor and missile are gone."}},
    )
    assert success_problems(said) == []


def test_words_for_a_move_that_never_completes_are_caught() -> None:
    step = make_step(
        position="Ke0 kd9 Nb0",
        goal="reach",
        targets=["c2"],
        par=1,
        success={"zh": "到了。", "en": "There."},
        right={"b0a2": {"zh": "马到了。", "en": "The horse is there."}},
    )
    assert any("never shown" in p for p in success_problems(step))


def test_an_instructed_piece_must_be_the_one_that_completes_the_step() -> None:
    asks = {"zh": "用车撞掉导弹。", "en": "Hit the missile with your chariot."}
    loose = make_step(
        course="feidan",
        position="Ke0 kf9 ae9 rk8 Mf8",
        turn="black",
        goal="capture",
        targets=["f8"],
        effect="collision",
        par=1,
        instruction=asks,
    )
    problems = instruction_problems(loose)
    assert len(problems) == 1 and "e9f8" in problems[0] and "with A" in problems[0]
    strict = make_step(
        course="feidan",
        position="Ke0 kf9 ae9 rk8 Mf8",
        turn="black",
        goal="capture",
        targets=["f8"],
        effect="collision",
        piece="R",
        par=1,
        instruction=asks,
    )
    assert instruction_problems(strict) == []
    # an aside in brackets is not the task
    aside = {"zh": "应将！（试试用帅吃。）", "en": "Answer the check! (Try it with the general.)"}
    either = make_step(course="feidan", position="Kf0 kg9 Ag0 mf1", goal="move", instruction=aside)
    assert instruction_problems(either) == []


GROUNDED = {
    "zh": "c3 和 c4 都有子，向上飞被挡住了。绕路飞到绿圈标出的点上。",
    "en": "c3 and c4 are both occupied, so the way up is shut. Find another way to the point.",
}


def test_a_promised_detour_that_a_line_within_par_does_not_take_is_caught() -> None:
    """The fighter lesson once said "find another way round" with a par of 2, which only clearing
    the blocker (the soldier takes, then the fighter flies straight) could meet; flying round
    takes three moves."""
    shortcut = make_step(
        "feidan",
        position="Kf0 ke9 Fc2 Pc3 pc4",
        instruction=GROUNDED,
        goal="reach",
        targets=["d5"],
        piece="F",
        par=2,
    )
    assert any("takes a piece" in p for p in route_problems(shortcut))
    shut = make_step(
        "feidan",
        position="Kf0 ke9 Fc2 pc3 pc4",
        instruction=GROUNDED,
        goal="reach",
        targets=["d5"],
        piece="F",
        par=3,
    )
    assert route_problems(shut) == []


def test_a_promised_number_of_moves_is_the_par() -> None:
    words = {"zh": "两步杀：先走一步好棋。", "en": "Mate in two: first a quiet move."}
    step = make_step(position="Kd0 kf9 af7 Rg3 Nc9", instruction=words, goal="mate", par=1)
    assert route_problems(step) == [
        "step 1: the instruction promises 2 moves, the par is 1",
    ]
    # "in three places" is no number of moves
    places = {"zh": "有三处违规。", "en": "This breaks the rules in three places."}
    assert route_problems(make_step(position="Ke0 kd9 Rb0", instruction=places, goal="move")) == []


def test_a_question_that_names_its_own_answer_is_caught() -> None:
    """The fallback lesson's Chinese question once said where the piece would appear (e3) before
    asking for it."""
    told = {
        "zh": "红车吃 d3 上的黑底炮，按规则炮要变子出现在 e3……请点击：红炮会出现在哪个点？",
        "en": "Your chariot takes the turncoat cannon on d3. Click where the cannon would appear.",
    }
    step = make_step(
        "xinban",
        position="Ke0 ke9 ce7 Re3 +cd3 ng4",
        instruction=told,
        goal="point",
        answers=["e3"],
    )
    assert answer_in_prompt_problems(step) == ["step 1 (zh): the question names its answer e3"]
    # asking to click a named point is reading coordinates, not giving the answer away
    click = {"zh": "请点击 c3。", "en": "Click the point c3."}
    step = make_step(position="Ke0 kd9", instruction=click, goal="point", answers=["c3"])
    assert answer_in_prompt_problems(step) == []
    # a move given in one notation is the exercise; in both, the answer is given away
    both = {"zh": "走炮二平五（h2e2）。", "en": "Play 炮二平五 (h2e2)."}
    step = make_step(position="Ke0 kd9 Ch2", instruction=both, goal="move", accept=["h2e2"])
    assert len(answer_in_prompt_problems(step)) == 2
