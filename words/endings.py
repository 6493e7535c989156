"""The words for every way a game can end, in one table.

Each ending has three texts in both languages: its short ``name`` (said inside sentences: a
lesson's "the game ended (…)", an error's "the game is already over (…)", the list of games),
its ``headline`` (the analysis board's result line) and its ``sentence`` (what the play page
announces at the end of a game, with ``{winner}``, ``{loser}`` and ``{claimant}`` filled in).

The table covers the engine's terminations (``engine.vocab.TERMINATIONS``) and the three endings
only a game has (``GAME_ENDS``); ``tests/core/test_vocabularies.py`` fails when it misses one.
A new way for a game to end adds its row here and nowhere else on the site.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from words.texts import Text, side_name

#: Endings a game has that no position decides: the players' own.
GAME_ENDS: Final = ("agreement", "resignation", "timeout", "abandoned", "left", "left_draw")


@dataclass(frozen=True)
class Ending:
    name: Text
    headline: Text
    sentence: Text


ENDINGS: Final[dict[str, Ending]] = {
    "checkmate": Ending(
        Text("将死", "checkmate"),
        Text("将死", "Checkmate"),
        Text(
            "将死：{loser}被将军，无路可走。{winner}胜。",
            "Checkmate: {loser} is in check and has no legal move. {winner} wins.",
        ),
    ),
    "stalemate": Ending(
        Text("困毙", "stalemate"),
        Text("困毙：无着可走", "Stalemate: no legal move"),
        Text(
            "困毙：{loser}没有被将军，但已无棋可走；在象棋里困毙算输。{winner}胜。",
            "Stalemate: {loser} is not in check but has no legal move, and in xiangqi that "
            "loses. {winner} wins.",
        ),
    ),
    "dead_general": Ending(
        Text("死将", "dead general"),
        Text("死将", "Dead general"),
        Text(
            "死将：导弹在{loser}的九宫里将军，将（帅）无处可躲，哪个棋子也救不了。{winner}胜。",
            "Dead general: a missile gives check inside {loser}'s palace and the general has no "
            "point to step to; no other piece can save it. {winner} wins.",
        ),
    ),
    "perpetual_check": Ending(
        Text("长将", "perpetual check"),
        Text("长将", "Perpetual check"),
        Text(
            "长将判负：同一局面第三次出现，{loser}在循环中每步都将军。{winner}胜。",
            "Perpetual check loses: the same position came up a third time and {loser} gave "
            "check with every move of the cycle. {winner} wins.",
        ),
    ),
    "perpetual_chase": Ending(
        Text("长捉", "perpetual chase"),
        Text("长捉", "Perpetual chase"),
        Text(
            "长捉判负：同一局面第三次出现，{loser}在循环中每步都捉对方的子。{winner}胜。",
            "Perpetual chase loses: the same position came up a third time and {loser} chased "
            "a piece with every move of the cycle. {winner} wins.",
        ),
    ),
    "repetition": Ending(
        Text("重复局面", "repetition"),
        Text("重复局面，和棋", "Draw by repetition"),
        Text(
            "和棋：同一局面第三次出现，双方都没有长将或长捉。",
            "Draw by repetition: the same position came up a third time, with no one-sided "
            "perpetual check or chase.",
        ),
    ),
    "forced_variation": Ending(
        Text("强制变着", "forced variation"),
        Text("重复局面：不变着的一方负", "Repetition: the side that repeated loses"),
        Text(
            "强制变着：{loser}走出了第三次重复的局面，又不是唯一的着法；新版象棋里不变着判负。"
            "{winner}胜。",
            "Forced variation: {loser} repeated the position a third time although another "
            "move was possible, and in New-version Xiangqi the side that does not vary loses. "
            "{winner} wins.",
        ),
    ),
    "natural_limit": Ending(
        Text("自然限着", "natural limit"),
        Text("和棋：双方各 60 步无吃子", "Draw: 60 moves each without a capture"),
        Text(
            "和棋：自然限着，双方 60 回合（120 步）没有吃子或碰炸。",
            "Draw by the natural limit: 60 moves each (120 plies) without a capture or a "
            "collision.",
        ),
    ),
    "attack_power": Ending(
        Text("进攻能力和棋", "attack-power draw"),
        Text("进攻能力不足，和棋", "Draw by attack power"),
        Text(
            "和棋：{claimant}按进攻能力宣布和棋（双方进攻能力都不到 10，{claimant}不弱于对方）。",
            "Draw by attack power: {claimant} declared a draw, both sides' attack power being "
            "below 10 and {claimant}'s no lower than the other's.",
        ),
    ),
    "agreement": Ending(
        Text("协议和棋", "agreement"),
        Text("协议和棋", "Draw by agreement"),
        Text("和棋：双方同意和棋。", "Draw by agreement."),
    ),
    "resignation": Ending(
        Text("认输", "resignation"),
        Text("认输", "Resignation"),
        Text("{loser}认输。{winner}胜。", "{loser} resigned. {winner} wins."),
    ),
    "timeout": Ending(
        Text("超时", "time"),
        Text("超时", "Out of time"),
        Text("{loser}超时。{winner}胜。", "{loser} ran out of time. {winner} wins."),
    ),
    "abandoned": Ending(
        Text("弃局", "abandoned"),
        Text("弃局", "Abandoned"),
        Text(
            "{loser}长时间没有走棋，按弃局判负。{winner}胜。",
            "{loser} made no move for a long time: the game was abandoned. {winner} wins.",
        ),
    ),
    # a live game: a player left (no connection to the game for a while) and the opponent
    # claimed the win, or called it a draw
    "left": Ending(
        Text("离开对局", "left the game"),
        Text("离开对局", "Left the game"),
        Text("{loser}离开了对局。{winner}胜。", "{loser} left the game. {winner} wins."),
    ),
    "left_draw": Ending(
        Text("离开对局，和棋", "left the game, drawn"),
        Text("离开对局，和棋", "Left the game: draw"),
        Text(
            "和棋：{claimant}离开了对局，对方宣布和棋。",
            "Draw: {claimant} left the game and the opponent called it a draw.",
        ),
    ),
}


def ending_name(termination: str) -> Text:
    """The short name of an ending (the termination itself, for one the table does not know)."""
    ending = ENDINGS.get(termination)
    return ending.name if ending else Text(termination, termination)


def ending_sentence(termination: str, winner: str | None, claimant: str | None = None) -> Text:
    """The sentence that announces how a game ended and by which rule."""
    loser = None if winner is None else ("black" if winner == "red" else "red")
    return ENDINGS[termination].sentence.format(
        winner=side_name(winner) if winner else "",
        loser=side_name(loser) if loser else "",
        claimant=side_name(claimant) if claimant else "",
    )
