"""The names of the starts a board or a game begins from, in both languages: the engine's named
starts (``Variant.starts``: standard; xinban new, traditional and the two mixed) and the play
setups of feidan (plum-blossom, the two secret setups). One table for the game model's choices,
the play pages and the analysis board."""

from __future__ import annotations

from typing import Final

from django.utils.functional import lazy
from django.utils.translation import get_language

from tutorials.curriculum.texts import Text, language_key

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

# What the new-game form adds to a start's name, where the name alone does not say it.
START_HINTS: Final[dict[str, Text]] = {
    "plum_blossom": Text("按开局的时刻起卦布子", "drawn from the moment the game starts"),
}


def start_name(key: str, language: str | None = None) -> str:
    """A start's name in the given (or the current) language; an unknown key as it is."""
    text = START_NAMES.get(key)
    return text.get(language or get_language()) if text else key


def start_choice(key: str, language: str | None = None) -> str:
    """A start's name with its hint, as the new-game form offers it."""
    language = language or get_language()
    name = start_name(key, language)
    hint = START_HINTS.get(key)
    if hint is None:
        return name
    return f"{name}（{hint.zh}）" if language_key(language) == "zh" else f"{name}: {hint.en}"


# The label of a model choice: read in the language of the moment it is shown.
start_label = lazy(start_name, str)
