"""The referee of a secret setup (Missile Xiangqi): every broken placement rule explained in
both languages, and the reveal against a scripted black half."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine import combine_secret_setups, validate_secret_half
from tutorials.curriculum.referees.refusal import refuse
from tutorials.curriculum.schema import Step
from words.explain import Explanation
from words.texts import KIND_OF_ENGLISH_NAME, Text, piece_kind, piece_name

_VIOLATION_ZH = {
    "unknown_point": "{p}不是棋盘上的点。",
    "two_pieces_one_point": "{p}上放了两个棋子。",
    "unknown_piece": "{p}上的棋子不是飞弹象棋的棋子。",
    "wrong_color": "{p}上放的是对方的棋子。",
    "not_own_half": "{p}：{q}必须摆在本方半边（红方 0–4 路横线）。",
    "general_outside_palace": "{p}：帅必须摆在九宫里。",
    "advisor_point": "{p}：仕只能摆在仕的点上（e0 g0 f1 e2 g2）。",
    "elephant_point": "{p}：相只能摆在相能走到的七个点上（d0 h0 b2 f2 j2 d4 h4）。",
    "missile_not_in_base": "{p}：导弹必须摆在导弹基地里（a0 和 k0）。",
    "soldier_not_on_start_point": "{p}：五兵守门时，五个兵都留在原位（b3 d3 f3 h3 j3）。",
    "soldier_behind_start_rank": "{p}：兵只能摆在兵线和它前面的一条横线上（3–4 路），不能在兵线后面。",
    "centre_soldier_missing": "{p}：中兵守门时，中兵必须留在中路原位 f3。",
    "wrong_piece_count": "棋子数目不对：每方正好二十个棋子（帅1、仕2、相2、马2、车2、炮2、兵5、战机2、导弹2）。",
}


_COUNT = re.compile(r"has (\d+) (\w+); a side has exactly (\d+)")
# "missile" and "missiles" (every piece's plural adds an s)
_KIND_OF_NOUN = {
    noun: kind for name, kind in KIND_OF_ENGLISH_NAME.items() for noun in (name, name + "s")
}


def _count_zh(message: str) -> str | None:
    """The engine's count of one kind of piece ("Red has 1 missile; a side has exactly 2
    missiles.") in Chinese, naming the piece and both numbers; None if it reads otherwise."""
    match = _COUNT.search(message)
    if match is None or match.group(2) not in _KIND_OF_NOUN:
        return None
    have, noun, needed = match.groups()
    name = piece_name(_KIND_OF_NOUN[noun], colour=False).zh
    return f"{name}的数目不对：现在摆了{have}个，每方正好{needed}个。"


@dataclass(frozen=True)
class SetupViolation:
    point: str | None
    code: str
    text: Text


@dataclass(frozen=True)
class SetupState:
    valid: bool
    violations: list[SetupViolation]
    message: Explanation
    fen: str


def check_setup(step: Step, placement: Mapping[str, str]) -> SetupState:
    goal = step.goal
    if goal.kind != "setup":
        raise refuse("wrong_kind", "这一步不是布局题。", "This step is not a setup.")
    if len(placement) > 40:
        raise refuse("too_many_pieces", "棋子太多。", "Too many pieces.")
    violations = validate_secret_half("red", dict(placement), goal.method)  # type: ignore[arg-type]
    explained = []
    for v in violations:
        letter = dict(placement).get(v.point or "", "")
        values: dict[str, object] = {"p": v.point or ""}
        if letter and piece_kind(letter) in "KABNRCPFM":
            values["q"] = piece_name(letter, colour=False).zh
        else:
            values["q"] = "棋子"
        zh = _count_zh(v.message) if v.code == "wrong_piece_count" else None
        zh = zh or _VIOLATION_ZH.get(v.code, v.message).format(**values)
        explained.append(SetupViolation(v.point, v.code, Text(zh, v.message)))
    if explained:
        return SetupState(
            False,
            explained,
            Explanation(
                "setup_invalid",
                Text(
                    "布局不合规则，请按提示改正。",
                    "The setup breaks the rules; fix what is marked.",
                ),
            ),
            fen="",
        )
    start = goal.placement or {}
    moved = sum(1 for p, v in placement.items() if start.get(p) != v)
    if moved < goal.require_moved:
        return SetupState(
            False,
            [],
            Explanation(
                "setup_unchanged",
                Text(
                    "布局合规，但请至少改动{n}个棋子的位置。",
                    "The setup is legal, but move at least {n} pieces from where they started.",
                ).format(n=goal.require_moved),
            ),
            fen="",
        )
    if goal.black_half is not None:
        reveal = combine_secret_setups(dict(placement), dict(goal.black_half), goal.method)  # type: ignore[arg-type]
        if reveal.void:
            reasons = {
                "generals_facing": Text("将帅对面", "the generals face each other"),
                "red_in_check": Text("红帅被将军", "Red's general is in check"),
                "black_in_check": Text("黑将被将军", "Black's general is in check"),
            }
            why = reasons[reveal.reasons[0]]
            return SetupState(
                False,
                [],
                Explanation(
                    "reveal_void",
                    Text(
                        "两边亮出来后{w}：这样的亮子无效，双方要重新布局。改一改你的布局。",
                        "When both halves are revealed, {w}: such a reveal is void and both sides set "
                        "up again. Change your setup.",
                    ).format(w=why),
                ),
                fen=reveal.fen,
            )
        fen = reveal.fen
    else:
        fen = ""
    return SetupState(
        True,
        [],
        Explanation("complete", step.success or Text("布局合规！", "A legal setup!")),
        fen=fen,
    )
