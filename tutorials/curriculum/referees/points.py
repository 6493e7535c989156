"""The referee of a question answered by clicking a point, and the boards computed when such a
question is shown (today's plum-blossom setup, the generals that may claim a draw)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from engine import Position, can_claim_draw, find_variant, plum_blossom
from engine.setups import plum_blossom_from_numbers
from tutorials.curriculum.referees.refusal import refuse
from tutorials.curriculum.schema import Step
from words.explain import Explanation
from words.texts import Text


@dataclass(frozen=True)
class PointState:
    correct: bool
    message: Explanation
    answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dynamic:
    """A board computed when the step is shown (today's plum-blossom position)."""

    fen: str
    caption: Text
    answers: tuple[str, ...]


def dynamic_board(step: Step, moment: datetime) -> Dynamic | None:
    """The board and answers of a step whose answer depends on the moment (or None)."""
    spec = step.goal.answer_from
    if not spec or "draw_claim" in spec:
        return None
    if "numbers" in spec:
        setup = plum_blossom_from_numbers(*[int(n) for n in spec["numbers"]])
    else:
        setup = plum_blossom(moment)
    piece = str(spec.get("piece", "F"))
    answers = tuple(sorted(p for p, v in setup.officers.items() if v == piece))
    upper, lower = setup.upper_trigram, setup.lower_trigram
    reading = setup.lunar_date or ""
    values = {
        "y": setup.year_branch,
        "m": setup.lunar_month,
        "d": setup.lunar_day,
        "h": setup.hour_branch,
        "u": upper,
        "un": setup.upper_number,
        "l": lower,
        "ln": setup.lower_number,
        "x": setup.moving_line,
        "name": setup.hexagram,
        "eng": setup.hexagram_english,
        "s": setup.number,
        "i": setup.arrangement_index,
    }
    caption = Text(
        (
            "{name}卦。"
            + (f"{reading}：" if reading else "")
            + "年支 {y}、月 {m}、日 {d}、时支 {h} → 上卦{u}（{un}）、下卦{l}（{ln}）、动爻 {x}，"
            "数 S = {s}，第 {i} 种排法。"
        ).format(**values),
        (
            "Hexagram {name} ({eng}). "
            + (f"{reading}: " if reading else "")
            + "year branch {y}, month {m}, day {d}, hour branch {h} → upper trigram {u} ({un}), "
            "lower trigram {l} ({ln}), moving line {x}; number S = {s}, arrangement {i}."
        ).format(**values),
    )
    return Dynamic(fen=setup.fen, caption=caption, answers=answers)


def draw_claimants(step: Step) -> tuple[str, ...]:
    """The points of the generals whose side may declare a draw by attack power (xinban)."""
    pos = Position.from_fen(step.variant, step.fen)
    return tuple(
        sorted(
            point
            for side in ("red", "black")
            if can_claim_draw(pos, side) and (point := pos.king(side)) is not None
        )
    )


def point_answers(step: Step, moment: datetime | None) -> tuple[str, ...]:
    spec = step.goal.answer_from
    if spec and "draw_claim" in spec:
        return draw_claimants(step)
    if spec:
        if moment is None and "numbers" not in spec:
            raise refuse(
                "moment_missing",
                "这道题需要出题的时刻。",
                "This question needs the moment its board was shown.",
            )
        board = dynamic_board(step, moment or datetime.now(UTC))
        assert board is not None
        return board.answers
    return step.goal.answers


def answer_point(step: Step, point: str, moment: datetime | None = None) -> PointState:
    if step.goal.kind != "point":
        raise refuse("wrong_kind", "这一步不是点选题。", "This step is not answered by a point.")
    point = point.strip().lower()
    files = find_variant(step.variant).files
    if len(point) != 2 or not point.isascii() or point[0] not in files or not point[1].isdigit():
        raise refuse(
            "bad_point", "{p}不是棋盘上的点。", "{p!r} is not a point of the board.", p=point
        )
    answers = point_answers(step, moment)
    if point in answers:
        return PointState(
            True, Explanation("complete", step.success or Text("对了！", "Right!")), answers
        )
    custom = step.wrong.get(point)
    if custom is not None:
        return PointState(False, Explanation("wrong_point", custom))
    return PointState(
        False,
        Explanation(
            "wrong_point",
            Text("不对，{p}不是答案。再想一想。", "No, {p} is not the answer. Think again.").format(
                p=point
            ),
        ),
    )
