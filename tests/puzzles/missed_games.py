"""Games with a known missed mate, in each variant, played through the games services: a
two-player game at one board from a position where Red has a forced win in 1, Red plays
another move, Black answers, and Red resigns."""

from __future__ import annotations

from typing import Any

from accounts.owners import Owner
from engine import Position
from games.models import Game
from games.services import (
    GameOptions,
    game_create,
    game_move_play,
    game_resign,
    missed_mates_message,
)
from puzzles.services.missed import FinishedGame

# variant -> (start FEN, Red's move instead of the win, the winning key, the goal)
MISSED = {
    "xiangqi": ("4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a1", "a0a9", "mate"),
    "xinban": ("4k4/1+R7/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a1", "a0a9", "mate"),
    "feidan": ("4a1F4/4k6/7M3/7F3/11/11/11/1r9/5K5/11 w - - 0 1", "f1f0", "h7e7", "dead_general"),
}
# Red mates in 1 with either of two moves of the chariot on a0 (a0a9 along the file, a0d0
# along the rank: Black's general has no square, d8 held by the chariot on h8 and e9 by the
# generals' facing) and plays h8h7 instead; any other move of the a0 chariot stalemates Black.
TWO_WINS = ("3k5/7R1/9/9/9/9/9/9/9/R3K4 w - - 0 1", "h8h7", "a0a9", "mate")
TWO_KEYS = ["a0a9", "a0d0"]
SETUP = {"xiangqi": "standard", "xinban": "new", "feidan": "standard"}


def played_game(
    owner: Owner,
    variant: str,
    *,
    play_the_win: bool = False,
    case: tuple[str, str, str, str] | None = None,
) -> Game:
    """A finished game of ``owner`` in ``variant`` (see the module's docstring; ``case`` gives
    another start, move played, key and goal than ``MISSED``'s); with ``play_the_win`` Red
    plays the winning move instead, and the game ends there."""
    fen, missed, key, _goal = case or MISSED[variant]
    options = GameOptions(variant=variant, setup=SETUP[variant], mode=Game.Mode.LOCAL)
    game = game_create(owner=owner, options=options)
    Game.objects.filter(pk=game.pk).update(start_fen=fen, moves=[])
    if play_the_win:
        game = game_move_play(game_id=game.pk, owner=owner, move=key)
        assert game.status == Game.Status.FINISHED, game.termination
        return game
    game_move_play(game_id=game.pk, owner=owner, move=missed)
    position = Position.from_fen(variant, fen)
    position.push(position.parse_move(missed))
    answer = sorted(m.iccs() for m in position.legal_moves)[0]
    game_move_play(game_id=game.pk, owner=owner, move=answer)
    return game_resign(game_id=game.pk, owner=owner, side="red")


def finished(game: Game) -> FinishedGame:
    """The game as the games app sends it to the search."""
    return FinishedGame.from_data(message(game))


def message(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return missed_mates_message(game)
