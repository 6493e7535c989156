"""Why an authored puzzle was not published, said in the reader's language.

Verification stores the reason as data (``Puzzle.rejection``: ``kind`` and the values of its
sentence); ``rejection_text`` says it once, in Chinese or English, through
``core.messages.render``. ``Puzzle.rejection_reason`` keeps the English sentence for logs.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.messages import APP_EN, render


def rejection_code(rejection: Mapping[str, object]) -> str | None:
    """The message code of a stored rejection, or ``None`` when it has none."""
    kind = rejection.get("kind")
    if kind == "no_win" and rejection.get("attempt"):
        return "rejection.no_win_escape"
    if kind == "budget_exhausted" and "nodes" not in rejection:
        return "rejection.budget_timeout"
    code = f"rejection.{kind}"
    return code if code in APP_EN else None


def rejection_text(
    rejection: Mapping[str, object], fallback: str = "", language: str | None = None
) -> str:
    """The rejection in ``language`` (default: the active one); ``fallback`` for a rejection
    stored before reasons were kept as data."""
    code = rejection_code(rejection)
    if code is None:
        return fallback
    params = dict(rejection)
    if "keys_text" in params:
        params["keys"] = params["keys_text"]  # the keys in both notations, not the ICCS list
    if code == "rejection.invalid":
        error = rejection.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("code"), str):
            inner = error.get("params")
            params["reason"] = render(
                str(error["code"]), inner if isinstance(inner, Mapping) else {}, language
            )
        else:
            params.setdefault("reason", fallback)
    text = render(code, params, language)
    if rejection.get("mode") == "checks_only" and rejection.get("kind") in CHECKS_ONLY_KINDS:
        text = f"{text} {render('rejection.checks_only', {}, language)}"
    return text


# The answers whose meaning depends on the moves counted: a checks-only puzzle says so.
CHECKS_ONLY_KINDS = frozenset({"cooked", "shorter", "no_win"})
