"""Games with a known missed material win (or a look-alike that is none), played through the
games services: a two-player game at one board from a set position, the given moves, then Red
resigns."""

from __future__ import annotations

from accounts.owners import Owner
from games.models import Game
from games.services import GameOptions, game_create, game_move_play, game_resign
from tests.puzzles.missed_games import SETUP

# name -> (variant, start FEN, the moves played, the winning key or None)
CASES: dict[str, tuple[str, str, list[str], str | None]] = {
    # Black's chariot on d5 hangs to Red's horse on c3 (nothing guards it); Red lifts its
    # chariot (i0i1) instead, and Black takes its chariot away.
    "xiangqi": (
        "xiangqi",
        "1nbakab2/9/7c1/p1p1p1p1p/3r5/9/P1N1P1P1P/7C1/9/2BAKAB1R w - - 0 1",
        ["i0i1", "d5d8"],
        "c3d5",
    ),
    # The same in New-version Xiangqi, with turncoats: the horse that takes the turncoat
    # chariot makes it defect (it joins Red as a plain chariot on c3).
    "xinban": (
        "xinban",
        "1+nbakab2/9/7+c1/p1p1p1p1p/3+r5/9/P1+N1P1P1P/7+C1/9/2BAKAB1+R w - - 0 1",
        ["i0i1", "d5d8"],
        "c3d5",
    ),
    # Red's horse could fork: c5d7 checks the general and attacks the chariot on b6, which it
    # takes once the general has moved (two moves); Red plays a0a1 instead, Black saves it.
    "fork": (
        "xiangqi",
        "2bakab1n/9/7c1/1r2p1p1p/2N6/9/P3P1P1P/7C1/9/R1BAKAB2 w - - 0 1",
        ["a0a1", "b6b8"],
        "c5d7",
    ),
    # Red's chariot on d2 (guarded by the horse on b1) can take Black's on d5 (guarded by the
    # horse on c7): an even trade, no win. Both sides push a soldier instead.
    "trade": (
        "xiangqi",
        "2bakab2/9/2n4c1/p3p1p1p/3r5/9/P3P1P1P/3R3C1/1N7/2BAKAB2 w - - 0 1",
        ["i3i4", "i6i5"],
        None,
    ),
    # Red mates in 1 (a0a9) and could also take Black's chariot on i8 (b8i8); it plays a0a1,
    # and Black takes the chariot on b8 (its own win, found).
    "mate": ("xiangqi", "4k4/1R6r/9/9/9/9/9/9/9/R2K5 w - - 0 1", ["a0a1", "i8b8"], "a0a9"),
}


def material_game(owner: Owner, name: str) -> Game:
    """The finished game of ``CASES[name]``, ``owner``'s."""
    variant, fen, moves, _key = CASES[name]
    options = GameOptions(variant=variant, setup=SETUP[variant], mode=Game.Mode.LOCAL)
    game = game_create(owner=owner, options=options)
    Game.objects.filter(pk=game.pk).update(start_fen=fen, moves=[])
    for move in moves:
        game_move_play(game_id=game.pk, owner=owner, move=move)
    return game_resign(game_id=game.pk, owner=owner, side="red")
