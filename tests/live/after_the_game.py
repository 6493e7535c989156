"""A live game with a known missed mate, played through the live services: from a position
where Red has a mate in 1 (a0a9), Red plays a0a1 instead, Black answers e9f9, and Red resigns.
Red's own review finds the mate Red missed; Black's finds nothing (Red's miss is not Black's)."""

from __future__ import annotations

import itertools

from accounts.models import User
from accounts.owners import Owner
from live.models import LiveGame
from live.services import (
    ChallengeOptions,
    live_challenge_accept,
    live_challenge_create,
    live_move_play,
    live_resign,
)

_names = itertools.count(1)


def make_user() -> User:
    return User.objects.create_user(
        username=f"live-player-{next(_names)}", password="a-long-test-password"
    )


# From the start, Black throws a cannon away (3... 炮8进7, h7h0) and Red takes it.
BLUNDER_GAME = ["h2e2", "h9g7", "h0g2", "h7h0", "g2h0"]
MISSED_FEN = "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1"
MISSED_PLAYED = ["a0a1", "e9f9"]
MISSED_KEY = "a0a9"


def live_game_with_a_missed_mate(red: Owner, black: Owner) -> LiveGame:
    """A finished casual live game between ``red`` and ``black`` (3 + 2) in which Red missed a
    mate in 1 at its first move and then resigned."""
    options = ChallengeOptions("xiangqi", "standard", "red", 3, 2)
    game = live_challenge_create(owner=red, options=options)
    # the start is the position of the test (a challenge always starts from a variant's start)
    LiveGame.objects.filter(pk=game.pk).update(start_fen=MISSED_FEN)
    live_challenge_accept(slug=game.slug, owner=black)
    for ply, (move, owner) in enumerate(zip(MISSED_PLAYED, (red, black), strict=True)):
        live_move_play(slug=game.slug, owner=owner, ply=ply, move=move)
    return live_resign(slug=game.slug, owner=red)


def live_game_with_a_blunder(red: Owner, black: Owner) -> LiveGame:
    """A finished casual live game from the start in which Black threw a cannon away
    (``BLUNDER_GAME``) and then resigned."""
    options = ChallengeOptions("xiangqi", "standard", "red", 3, 2)
    game = live_challenge_create(owner=red, options=options)
    live_challenge_accept(slug=game.slug, owner=black)
    for ply, move in enumerate(BLUNDER_GAME):
        live_move_play(slug=game.slug, owner=(red, black)[ply % 2], ply=ply, move=move)
    return live_resign(slug=game.slug, owner=black)
