"""What the play page says about an ending, in both languages (``words.texts.Text``); refusals
are said by ``core.messages``, a secret setup's faults by ``words.setups``."""

from __future__ import annotations

from collections.abc import Mapping

from words.texts import Text, side_name

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


def _how_it_ended(
    termination: str, winner: str | None, player: str | None, against: str = "computer"
) -> Text:
    """How a game ended, in a few words, from ``player``'s side when there is one (a game
    against the computer, or against a person: ``against`` "opponent"): who resigned or ran
    out of time, else the rule's name."""
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
        if against == "opponent" and not mine:
            if termination == "resignation":
                return Text("对手认输", "your opponent resigned")
            return Text("对手的时间用完了", "your opponent's time ran out")
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
    *, termination: str, winner: str | None, player: str | None, against: str = "computer"
) -> tuple[str, Text]:
    """A finished game's result as the player reads it first, and its kind (won, lost, draw;
    at one board red_won or black_won): "You won — checkmate", "你赢了——将死". ``against``:
    "computer", or "opponent" for a live game against a person."""
    how = _how_it_ended(termination, winner, player, against)
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
