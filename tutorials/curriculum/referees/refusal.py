"""What every referee shares: the refusal of an answer that cannot be played or read."""

from __future__ import annotations

from words.explain import Explanation
from words.texts import Text


class StepRefused(ValueError):
    """Input that cannot be played: an unreadable or illegal move, a move after the end, a wrong
    kind of answer. ``index`` is the position of the bad move in the list (if any)."""

    def __init__(
        self, explanation: Explanation, *, index: int | None = None, move: str | None = None
    ) -> None:
        super().__init__(explanation.text.en)
        self.explanation = explanation
        self.index = index
        self.move = move


def refuse(
    code: str,
    zh: str,
    en: str,
    *,
    index: int | None = None,
    move: str | None = None,
    **values: object,
) -> StepRefused:
    """A StepRefused under ``code``; ``values`` fill the fields of both languages."""
    return StepRefused(Explanation(code, Text(zh, en).format(**values)), index=index, move=move)
