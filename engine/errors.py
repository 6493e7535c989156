"""The engine's errors: narrow ``ValueError`` subclasses that name the bad input."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class UnknownVariantError(EngineError):
    """The variant name is not one the engine knows."""

    def __init__(self, name: object) -> None:
        from engine.variants import VARIANTS

        known = ", ".join(sorted(VARIANTS))
        super().__init__(f"unknown variant {name!r} (known: {known})")
        self.name = name


class InvalidFenError(EngineError):
    """A FEN string that cannot describe a legal position of the variant."""

    def __init__(self, fen: str, reason: str, rank: int | None = None) -> None:
        where = f"rank {rank}: " if rank is not None else ""
        super().__init__(f"invalid FEN {fen!r}: {where}{reason}")
        self.fen = fen
        self.reason = reason
        self.rank = rank


class InvalidMoveError(EngineError):
    """A move written in a way the engine cannot read."""

    def __init__(self, text: object, reason: str, fen: str | None = None) -> None:
        at = f" in {fen}" if fen else ""
        super().__init__(f"invalid move {text!r}{at}: {reason}")
        self.text = text
        self.reason = reason
        self.fen = fen


class IllegalMoveError(EngineError):
    """A well-formed move that is not legal in the position."""

    def __init__(self, text: object, fen: str, reason: str = "not a legal move here") -> None:
        super().__init__(f"illegal move {text!r} in {fen}: {reason}")
        self.text = text
        self.reason = reason
        self.fen = fen


class AmbiguousMoveError(EngineError):
    """A move in Chinese notation that fits more than one legal move."""

    def __init__(self, text: object, fen: str, candidates: list[str]) -> None:
        super().__init__(
            f"ambiguous move {text!r} in {fen}: could be {', '.join(candidates)}"
        )
        self.text = text
        self.fen = fen
        self.candidates = candidates
