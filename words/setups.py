"""What a page says of a feidan setup, in both languages: every fault of a secret half (the
engine's ``validate_secret_half``, each said as a sentence), why a reveal does not count, and
the hexagram of a plum-blossom start. Shared by the games against the computer and at one board
(``games``) and the live games (``live``); the rules themselves are the engine's
(``engine.setups``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engine import Violation, plum_blossom, validate_secret_half
from engine.setups import SECRET_METHODS
from words.texts import Text, piece_name, side_name

__all__ = [
    "SECRET_METHODS",
    "plum_blossom_info",
    "secret_half_faults",
    "violation_text",
    "void_reveal_text",
]

_VOID_REASONS: dict[str, Text] = {
    "generals_facing": Text("两个将帅在同一直线上直接对面", "the generals face each other"),
    "red_in_check": Text("红帅被将军", "the red general is in check"),
    "black_in_check": Text("黑将被将军", "the black general is in check"),
}


def void_reveal_text(reasons: tuple[str, ...] | list[str], *, computer: bool = True) -> Text:
    """Why a reveal does not count; ``computer``: against the computer, which draws a new half
    (at one board both players simply set up again)."""
    parts = [_VOID_REASONS[r] for r in reasons if r in _VOID_REASONS]
    zh = "、".join(p.zh for p in parts)
    en = " and ".join(p.en for p in parts)
    if not computer:
        return Text(
            f"揭开后{zh}，这次布局无效，双方重新布局。",
            f"On the reveal {en}, so it does not count: both sides set up again.",
        )
    return Text(
        f"揭开后{zh}，这次布局无效，双方重新布局（电脑重新摆它的一半）。",
        f"On the reveal {en}, so it does not count: both sides set up again (the computer "
        "draws a new half of its own).",
    )


_COUNT = re.compile(r"has (\d+) (\w+); a side has exactly (\d+)")
_ZH_PIECES = {
    "general": "将（帅）",
    "advisor": "仕（士）",
    "elephant": "相（象）",
    "horse": "马",
    "chariot": "车",
    "cannon": "炮",
    "soldier": "兵（卒）",
    "fighter": "战机",
    "missile": "导弹",
}

_SIDE_HALF = {"red": Text("0–4 路", "ranks 0-4"), "black": Text("5–9 路", "ranks 5-9")}


# The faults told at one point ``{p}`` (of the side ``{side}``), by code.
_POINT_FAULTS: dict[str, Text] = {
    "general_outside_palace": Text(
        "{p}：将（帅）必须摆在九宫里。", "{p}: the general must stand in its palace."
    ),
    "advisor_point": Text(
        "{p}：仕（士）只能摆在仕位（九宫的四角和中心）。",
        "{p}: an advisor may only stand on an advisor point (the palace corners and centre).",
    ),
    "elephant_point": Text(
        "{p}：相（象）只能摆在它能走到的七个相位上。",
        "{p}: an elephant may only stand on one of the seven points an elephant can reach.",
    ),
    "missile_not_in_base": Text(
        "{p}：导弹必须摆在自己的导弹基地（底线两角）。",
        "{p}: a missile must stand in its base (the two corners of its back rank).",
    ),
    "soldier_not_on_start_point": Text(
        "{p}：五兵守门，五个兵（卒）都必须留在原位。",
        "{p}: with five soldiers guarding the gate every soldier stays on its start point.",
    ),
    "soldier_behind_start_rank": Text(
        "{p}：中兵守门，其余四个兵（卒）只能摆在己方的兵线和它前面一线，不能在兵线后面。",
        "{p}: with the middle soldier guarding the gate the other soldiers stand on the two "
        "front ranks of the side's half, never behind the soldiers' start rank.",
    ),
    "centre_soldier_missing": Text(
        "{p}：中兵守门，中路的兵（卒）必须留在原位。",
        "{p}: with the middle soldier guarding the gate the centre soldier stays on its "
        "start point.",
    ),
    "unknown_point": Text(
        "“{p}”不是棋盘上的点（a0 到 k9）。", "{p!r} is not a point of the board (a0 to k9)."
    ),
    "unknown_piece": Text("{p}：这不是飞弹象棋的棋子。", "{p}: that is not a feidan piece."),
    "wrong_color": Text(
        "{p}：这是对方的棋子，只能摆{side}的棋子。", "{p}: that piece is the other side's."
    ),
    "two_pieces_one_point": Text("{p}：一个点上摆了两个棋子。", "{p}: two pieces on one point."),
}


def violation_text(violation: Violation, color: str, placement: Mapping[str, str]) -> Text:
    """The engine's reason for one fault of a secret half, in both languages."""
    point = violation.point or ""
    letter = placement.get(point, "")
    piece = piece_name(letter, colour=False) if letter and letter.upper() in "KABNRCPFM" else None
    side = side_name(color)
    code = violation.code
    if code == "not_own_half" and piece is not None:
        return Text(
            "{p}：{q}必须摆在自己的一半（{h}）。", "{p}: the {q} must stand on its own half ({h})."
        ).format(p=point, q=piece, h=_SIDE_HALF[color])
    if code == "wrong_piece_count":
        match = _COUNT.search(violation.message)
        if match:
            have, name, needed = match.groups()
            zh_name = _ZH_PIECES.get(name.rstrip("s"), name)
            return Text(
                f"{side.zh}摆了 {have} 个{zh_name}，应该正好 {needed} 个。",
                violation.message,
            )
    fault = _POINT_FAULTS.get(code)
    if fault is not None:
        return fault.format(p=point, side=side)
    return Text(violation.message, violation.message)


def secret_half_faults(
    *, method: str, color: str, placement: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Every fault of ``placement`` as ``color``'s secret half under ``method`` (one of
    ``SECRET_METHODS``; the caller has checked it and the colour), each with the engine's code,
    its point and a sentence in both languages. Empty: the half is legal."""
    # As (point, letter) pairs, so that two spellings of one point ("F1" and "f1") are both
    # read and reported as two pieces on one point; the engine reads only ASCII points.
    pairs = [(str(point), str(letter)) for point, letter in placement.items()]
    violations = validate_secret_half(color, pairs, method)  # type: ignore[arg-type]
    return [
        {"point": v.point, "code": v.code, "text": violation_text(v, color, placement).as_dict()}
        for v in violations
    ]


def plum_blossom_info(moment: datetime) -> tuple[str, dict[str, Any]]:
    """The plum-blossom start drawn at ``moment`` (the engine's ``plum_blossom``): its FEN, and
    what the page shows of how it was drawn (the moment, the lunar date, the hexagram)."""
    setup = plum_blossom(moment)
    info = {
        "moment": moment.isoformat(),
        "lunar_date": setup.lunar_date,
        "hexagram": setup.hexagram,
        "hexagram_pinyin": setup.hexagram_pinyin,
        "hexagram_english": setup.hexagram_english,
        "hexagram_number": setup.hexagram_number,
        "upper_trigram": setup.upper_trigram,
        "upper_number": setup.upper_number,
        "lower_trigram": setup.lower_trigram,
        "lower_number": setup.lower_number,
        "moving_line": setup.moving_line,
        "year_branch": setup.year_branch,
        "lunar_month": setup.lunar_month,
        "lunar_day": setup.lunar_day,
        "hour_branch": setup.hour_branch,
        "number": setup.number,
        "arrangement_index": setup.arrangement_index,
        "officers": dict(setup.officers),
    }
    return setup.fen, info
