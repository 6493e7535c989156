"""The move value object."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidMoveError

FILES = "abcdefghijk"


@dataclass(frozen=True, order=True)
class Move:
    """A move from one point to another, in board coordinates.

    Files count from 0 (``a``) at Red's left, ranks from 0 at Red's back rank,
    as in ICCS. A move carries no capture or effect: what happens is fixed by
    the position it is played in.
    """

    from_file: int
    from_rank: int
    to_file: int
    to_rank: int

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        """Read ``h2e2`` (case-insensitive; ``h2-e2`` is accepted too)."""
        if not isinstance(text, str):
            raise InvalidMoveError(text, "move.not_string")
        if not text.isascii():  # "h２e2", or the Kelvin sign that lower-cases to "k"
            raise InvalidMoveError(text, "move.iccs_shape")
        s = text.strip().lower().replace("-", "")
        if (
            len(s) != 4
            or s[0] not in FILES
            or s[2] not in FILES
            or not s[1].isdigit()
            or not s[3].isdigit()
        ):
            raise InvalidMoveError(text, "move.iccs_shape")
        move = cls(FILES.index(s[0]), int(s[1]), FILES.index(s[2]), int(s[3]))
        if move.from_file == move.to_file and move.from_rank == move.to_rank:
            raise InvalidMoveError(text, "move.same_point")
        return move

    def iccs(self) -> str:
        return f"{FILES[self.from_file]}{self.from_rank}{FILES[self.to_file]}{self.to_rank}"

    def __str__(self) -> str:
        return self.iccs()

    def __repr__(self) -> str:
        return f"Move.from_iccs({self.iccs()!r})"
