"""The rule that a success text describes what happened, on small steps written inline."""

from __future__ import annotations

from typing import Any

from tutorials.curriculum.audit import (
    description_problems,
    instruction_problems,
    named_chinese_moves,
    named_pieces_en,
    named_pieces_zh,
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
