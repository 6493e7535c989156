"""The judge's errors: what can go wrong when a position is put to an engine.

Each carries a stable ``code`` (a key of ``MESSAGES``) and its ``params`` besides its English
message, as the engine's errors do, so that the site can say it in the reader's language
(``core.messages``) without parsing the English sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

Params = Mapping[str, str | int]

MESSAGES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "judge.unavailable": "the engine {engine} cannot be used: {reason}",
        "judge.died": "the engine {engine} stopped in the middle of a search twice",
        "judge.timeout": "the engine {engine} did not answer within {seconds} s, twice",
        "judge.garbage": "the engine {engine} answered something that is not UCI: {line!r}",
        "judge.position_refused": "the engine {engine} cannot judge this position: {reason}",
    }
)


class JudgeError(Exception):
    """Base class: an engine could not give its judgement."""

    def __init__(self, code: str, params: Params | None = None) -> None:
        self.code = code
        self.params: Params = MappingProxyType(dict(params or {}))
        super().__init__(MESSAGES[code].format_map(dict(self.params)))


class JudgeUnavailable(JudgeError):
    """The engine is not installed, does not start, or is not a UCI engine that plays the
    variant asked for."""

    def __init__(self, engine: str, reason: str) -> None:
        super().__init__("judge.unavailable", {"engine": engine, "reason": reason})


class JudgeDied(JudgeError):
    """The engine's process ended during a search, and again when it was started afresh and
    given the same search."""

    def __init__(self, engine: str) -> None:
        super().__init__("judge.died", {"engine": engine})


class JudgeTimeout(JudgeError):
    """The engine gave no answer in time, and again when it was started afresh."""

    def __init__(self, engine: str, seconds: float) -> None:
        super().__init__("judge.timeout", {"engine": engine, "seconds": f"{seconds:g}"})


class JudgeProtocolError(JudgeError):
    """The engine answered a line that cannot be read as UCI (or named a move that is not
    legal in the position): nothing it says can be trusted, so it is not asked again."""

    def __init__(self, engine: str, line: str) -> None:
        super().__init__("judge.garbage", {"engine": engine, "line": line[:200]})


class PositionRefused(JudgeError, ValueError):
    """The position cannot be put to this engine: not a legal position, a game already over,
    a variant the engine does not play, or the engine found no move where the rules give
    some. Checked before the engine sees the position, as far as that can be."""

    def __init__(self, engine: str, reason: str) -> None:
        super().__init__("judge.position_refused", {"engine": engine, "reason": reason})
