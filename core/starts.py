"""The names of the starts a board or a game begins from, in both languages: the engine's named
starts (``Variant.starts``: standard; xinban new, traditional and the two mixed) and the play
setups of feidan (plum-blossom, the two secret setups). One table for the game model's choices,
the play pages and the analysis board; and what each of feidan's four ways to start means."""

from __future__ import annotations

from typing import Final

from django.utils.functional import lazy
from django.utils.translation import get_language

from words.texts import Text

START_NAMES: Final[dict[str, Text]] = {
    "standard": Text("标准开局", "Standard start"),
    "plum_blossom": Text("梅花易数", "Plum-blossom numbers (梅花易数)"),
    "five_soldiers": Text(
        "暗布明着：五兵守门", "Secret setup: five soldiers guard the gate (五兵守门)"
    ),
    "middle_soldier": Text(
        "暗布明着：中兵守门", "Secret setup: middle soldier guards the gate (中兵守门)"
    ),
    "new": Text("双方都用新规则", "New rules for both sides"),
    "traditional": Text("双方都用传统规则", "Traditional rules for both sides"),
    "red-new": Text("红方新规则，黑方传统规则", "New rules for Red, traditional for Black"),
    "black-new": Text("黑方新规则，红方传统规则", "New rules for Black, traditional for Red"),
}

# What a start means, said under the new-game form's choice of start (feidan's four ways).
START_DESCRIPTIONS: Final[dict[str, Text]] = {
    "standard": Text(
        "每个棋子都摆在原位，双方公开（明布明着）。", "Every piece on its usual point, in the open."
    ),
    "plum_blossom": Text(
        "按开局的时刻起卦：车、马、炮、战机摆在卦象指定的点上，双方公开，黑方与红方隔河对称。",
        "The moment the game starts gives a hexagram, and the hexagram places the chariots, "
        "horses, cannons and fighters; in the open, Black mirroring Red.",
    ),
    "five_soldiers": Text(
        "双方各自暗中摆好自己的一半，五个兵（卒）留在原位；摆好后一起揭开，然后照常对弈。",
        "Each side arranges its own half unseen, the five soldiers staying on their points; "
        "then both halves are revealed and play is open.",
    ),
    "middle_soldier": Text(
        "双方各自暗中摆好自己的一半，只有中兵（卒）留在原位，其余四个兵摆在己方兵线和它前面一线；"
        "摆好后一起揭开，然后照常对弈。",
        "Each side arranges its own half unseen, only the centre soldier staying on its point "
        "(the other four on the two front ranks of the half); then both halves are revealed "
        "and play is open.",
    ),
}


def start_name(key: str, language: str | None = None) -> str:
    """A start's name in the given (or the current) language; an unknown key as it is."""
    text = START_NAMES.get(key)
    return text.get(language or get_language()) if text else key


# The label of a model choice: read in the language of the moment it is shown.
start_label = lazy(start_name, str)
