"""What every referee shares: the refusal of an answer that cannot be played or read."""

from __future__ import annotations

from words.explain import Explanation
from words.texts import Text


class StepRefused(ValueError):
    """Input that cannot be played: an unreadable or illegal move, a move after the end, a wrong
    kind of answer. ``index`` is the position of the bad move in the list (if any);
    ``illegal`` marks a move the rules (or the exercise's rules) do not allow, which the
    learner may simply have tried, as opposed to input that cannot be read or played."""

    def __init__(
        self,
        explanation: Explanation,
        *,
        index: int | None = None,
        move: str | None = None,
        illegal: bool = False,
    ) -> None:
        super().__init__(explanation.text.en)
        self.explanation = explanation
        self.index = index
        self.move = move
        self.illegal = illegal


def refuse(
    code: str,
    zh: str,
    en: str,
    *,
    index: int | None = None,
    move: str | None = None,
    illegal: bool = False,
    **values: object,
) -> StepRefused:
    """A StepRefused under ``code``; ``values`` fill the fields of both languages."""
    explanation = Explanation(code, Text(zh, en).format(**values))
    return StepRefused(explanation, index=index, move=move, illegal=illegal)
