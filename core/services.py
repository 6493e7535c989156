"""Position analysis for the analysis board and the API: the one place the site asks the engine
about a position. Views call ``position_analyse`` and serialise what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.exceptions import ApplicationError, IllegalTry
from core.selectors import variant_get
from engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Position,
)

# Longest move list the API plays through in one request.
MAX_MOVES = 1000


@dataclass(frozen=True)
class MoveText:
    """A move in both notations: ICCS (``h2e2``) and Chinese (``炮二平五``)."""

    iccs: str
    chinese: str


@dataclass(frozen=True)
class PlayedMove:
    iccs: str
    chinese: str
    fen: str  # the position after the move


@dataclass(frozen=True)
class PositionAnalysis:
    variant: str
    start_fen: str
    fen: str
    turn: str
    played: list[PlayedMove]
    legal_moves: list[MoveText]  # empty once the game is over
    check: bool
    check_square: str | None  # the point of the general in check, ICCS
    termination: str | None
    winner: str | None


def _start_position(*, variant: str, fen: str | None, setup: str | None) -> Position:
    table = variant_get(name=variant)
    if fen is not None and setup is not None:
        raise ApplicationError.coded("position.fen_and_setup", extra={"field": "setup"})
    if fen is not None:
        try:
            return Position.from_fen(table.name, fen.strip())
        except InvalidFenError as error:
            raise ApplicationError.from_engine(
                error, {"field": "fen", "fen": fen, "reason": error.reason, "rank": error.rank}
            ) from None
    known = [name for name, _ in table.starts]
    if setup is not None and setup not in known:
        raise ApplicationError.coded(
            "variant.unknown_start",
            {"setup": setup, "variant": table.name, "known": ", ".join(known)},
            {"field": "setup", "setup": setup, "known": known},
        )
    return Position.start(table.name, setup)


def _play(position: Position, moves: Sequence[str]) -> list[PlayedMove]:
    played: list[PlayedMove] = []
    for index, text in enumerate(moves):
        outcome = position.outcome()
        if outcome is not None:
            raise ApplicationError.coded(
                "position.after_end",
                {"index": index + 1, "input": text, "termination": outcome.termination},
                {
                    "field": "moves",
                    "index": index,
                    "move": text,
                    "fen": position.fen(),
                    "termination": outcome.termination,
                },
            )
        try:
            move = position.parse_move(text.strip())
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as error:
            # a move the rules refuse is an answer (IllegalTry); one that cannot be read, a fault
            refusal = IllegalTry if isinstance(error, IllegalMoveError) else ApplicationError
            raise refusal.from_engine(
                error,
                {
                    "field": "moves",
                    "index": index,
                    "move": text,
                    "fen": position.fen(),
                    "kind": type(error).__name__,
                },
                index=index + 1,
                input=text,
            ) from None
        chinese = position.chinese(move)
        position.push(move)
        played.append(PlayedMove(iccs=move.iccs(), chinese=chinese, fen=position.fen()))
    return played


def position_analyse(
    *,
    variant: str,
    fen: str | None = None,
    setup: str | None = None,
    moves: Sequence[str] = (),
) -> PositionAnalysis:
    """Play ``moves`` (ICCS or Chinese notation) from the start or ``fen`` and describe the result.

    Raises ``ApplicationError`` naming the problem for an unknown variant or start, a FEN that
    does not describe a legal position, or a move that cannot be read; ``IllegalTry`` for a
    move the rules do not allow.
    """
    if len(moves) > MAX_MOVES:
        raise ApplicationError.coded(
            "position.too_many_moves", {"count": len(moves), "limit": MAX_MOVES}, {"field": "moves"}
        )
    position = _start_position(variant=variant, fen=fen, setup=setup)
    start_fen = position.fen()
    played = _play(position, moves)
    outcome = position.outcome()
    legal = (
        []
        if outcome is not None
        else sorted(
            (MoveText(iccs=m.iccs(), chinese=position.chinese(m)) for m in position.legal_moves),
            key=lambda text: text.iccs,
        )
    )
    check_square = position.checked_general()
    return PositionAnalysis(
        variant=position.variant.name,
        start_fen=start_fen,
        fen=position.fen(),
        turn=position.turn,
        played=played,
        legal_moves=legal,
        check=check_square is not None,
        check_square=check_square,
        termination=outcome.termination if outcome else None,
        winner=outcome.winner if outcome else None,
    )
