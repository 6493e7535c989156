"""What the play page says about an ending or a secret setup, in both languages
(``words.texts.Text``); refusals are said by ``core.messages``."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine import Violation
from words.texts import Text, piece_name, side_name

# -- endings -------------------------------------------------------------------------------
# The sentence for each way a game ends is in words.endings.


def computer_resignation_text(winner: str | None, reason: Mapping[str, object]) -> Text:
    """The computer resigned, and why: a forced mate against it proved, or far behind for
    several moves in a row (``engine.play.decisions.Resignation``)."""
    loser = None if winner is None else ("black" if winner == "red" else "red")
    names = {
        "winner": side_name(winner) if winner else Text("", ""),
        "loser": side_name(loser) if loser else Text("", ""),
    }
    if reason.get("reason") == "mate":
        return Text(
            "{loser}（电脑）认输：它算出自己 {n} 步内必被将死。{winner}胜。",
            "{loser} (the computer) resigned: it worked out a forced mate against it in {n}. "
            "{winner} wins.",
        ).format(n=str(reason.get("mate") or ""), **names)
    score = reason.get("score")
    behind = abs(score) / 100 if isinstance(score, int) else 0
    return Text(
        "{loser}（电脑）认输：连续 {k} 步它都落后约 {p} 个兵的子力，看不到挽回的机会。{winner}胜。",
        "{loser} (the computer) resigned: for {k} moves in a row it stood about {p} soldiers' "
        "worth behind and saw no way back. {winner} wins.",
    ).format(k=str(reason.get("moves") or ""), p=f"{behind:.0f}", **names)


def _how_it_ended(termination: str, winner: str | None, player: str | None) -> Text:
    """How a game ended, in a few words, from ``player``'s side when there is one (a game
    against the computer): who resigned or ran out of time, else the rule's name."""
    from words.endings import ENDINGS

    loser = None if winner is None else ("black" if winner == "red" else "red")
    if termination in ("resignation", "timeout") and loser is not None:
        if player is None:
            who = side_name(loser)
            said = {
                "resignation": Text("{who}认输", "{who} resigned"),
                "timeout": Text("{who}超时", "{who} ran out of time"),
            }
            return said[termination].format(who=who)
        mine = loser == player
        if termination == "resignation":
            return (
                Text("你认输了", "you resigned")
                if mine
                else Text("电脑认输", "the computer resigned")
            )
        return (
            Text("你的时间用完了", "your time ran out")
            if mine
            else Text("电脑的时间用完了", "the computer's time ran out")
        )
    ending = ENDINGS.get(termination)
    return ending.name if ending is not None else Text(termination, termination)


def result_headline(
    *, termination: str, winner: str | None, player: str | None
) -> tuple[str, Text]:
    """A finished game's result as the player reads it first, and its kind (won, lost, draw;
    at one board red_won or black_won): "You won — checkmate", "你赢了——将死"."""
    how = _how_it_ended(termination, winner, player)
    if winner is None:
        kind, said = "draw", Text("和棋", "Draw")
    elif player is None:
        kind = f"{winner}_won"
        said = Text("{side}胜", "{side} won").format(side=side_name(winner))
    elif winner == player:
        kind, said = "won", Text("你赢了", "You won")
    else:
        kind, said = "lost", Text("你输了", "You lost")
    return kind, Text(f"{said.zh}——{how.zh}", f"{said.en} — {how.en}")


def players_text(
    *, owner: str | None, mode: str, human_side: str | None, level: int | None
) -> Text:
    """Who played a game, for someone its owner shared it with: the owner by name (an
    anonymous visitor as "A visitor") and, against the computer, each side and its level."""
    name = Text(owner, owner) if owner else Text("访客", "A visitor")
    if mode != "computer" or human_side is None:
        return Text(f"{name.zh}：双人同盘对弈", f"{name.en}: two players at one board")
    mine = side_name(human_side)
    theirs = side_name("black" if human_side == "red" else "red")
    return Text(
        f"{name.zh}（{mine.zh}）对电脑 {level} 级（{theirs.zh}）",
        f"{name.en} ({mine.en}) against the computer, level {level} ({theirs.en})",
    )


# -- secret setups -------------------------------------------------------------------------

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
