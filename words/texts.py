"""Bilingual text: every sentence a learner reads exists in Chinese and in English."""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("zh", "en")


def language_key(language: str | None) -> str:
    """``zh`` for any Chinese language code (zh-hans, zh-cn ...), else ``en``."""
    return "zh" if (language or "").lower().startswith("zh") else "en"


@dataclass(frozen=True)
class Text:
    """One sentence in both languages."""

    zh: str
    en: str

    def get(self, language: str | None) -> str:
        return self.zh if language_key(language) == "zh" else self.en

    def as_dict(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}

    def format(self, **values: object) -> Text:
        """Fill ``{name}`` fields; a value may itself be a Text (filled per language)."""
        zh = {k: v.zh if isinstance(v, Text) else v for k, v in values.items()}
        en = {k: v.en if isinstance(v, Text) else v for k, v in values.items()}
        return Text(self.zh.format(**zh), self.en.format(**en))

    def __add__(self, other: Text) -> Text:
        return Text(self.zh + other.zh, self.en + " " + other.en)


# Piece names by FEN letter (upper case Red, lower case Black; "+" marks a turncoat).
_ZH_RED = {
    "K": "帅",
    "A": "仕",
    "B": "相",
    "N": "马",
    "R": "车",
    "C": "炮",
    "P": "兵",
    "F": "战机",
    "M": "导弹",
}
_ZH_BLACK = {
    "K": "将",
    "A": "士",
    "B": "象",
    "N": "马",
    "R": "车",
    "C": "炮",
    "P": "卒",
    "F": "战机",
    "M": "导弹",
}
_EN = {
    "K": "general",
    "A": "advisor",
    "B": "elephant",
    "N": "horse",
    "R": "chariot",
    "C": "cannon",
    "P": "soldier",
    "F": "fighter",
    "M": "missile",
}

# The kind (FEN letter, upper case) of each English piece name.
KIND_OF_ENGLISH_NAME = {name: kind for kind, name in _EN.items()}


def piece_kind(letter: str) -> str:
    """The kind of a piece, as its upper-case FEN letter: ``n`` and ``+n`` (a turncoat) are ``N``."""
    return letter[-1].upper()


def piece_name(letter: str, *, colour: bool = True) -> Text:
    """The name of a piece from its FEN letter(s): ``R`` 红车 / red chariot, ``+n`` 黑底马.

    Without ``colour`` the side is left out (车 / chariot).
    """
    turncoat = letter.startswith("+")
    red = letter[-1].isupper()
    kind = piece_kind(letter)
    zh = (_ZH_RED if red else _ZH_BLACK)[kind]
    en = _EN[kind]
    if turncoat:
        zh = ("红底" if red else "黑底") + zh
        en = "turncoat " + en
        if colour:
            en = ("red " if red else "black ") + en
        return Text(zh, en)
    if colour:
        return Text(("红" if red else "黑") + zh, ("red " if red else "black ") + en)
    return Text(zh, en)


def side_name(side: str) -> Text:
    return Text("红方", "Red") if side == "red" else Text("黑方", "Black")
