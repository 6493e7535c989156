"""Celery tasks of the live games.

- ``live.sweep`` (Celery beat, every minute, ``live.schedule``): ends the games being played
  whose side to move has run out of time, and aborts those whose first move did not come in its
  window (``live.services.live_games_sweep``), so that a game both of whose players have left
  does not stay "playing" for want of a message; everyone still watching is sent the new state
  (``live.broadcast``, when the channel layer can be reached).
"""

from __future__ import annotations

from core.tasks import idempotent_task


# Running it twice is harmless: each game is judged under its row lock, and a game ended (or
# rated) is never ended (or rated) again.
@idempotent_task("live.sweep", limits=(50, 60))
def live_sweep_task() -> dict[str, int]:
    """End the live games whose clock says they are over, and the secret setups left too
    long; tell their pages."""
    from live.broadcast import live_game_announce
    from live.services import live_games_sweep

    ended = live_games_sweep()
    for game in ended:
        live_game_announce(game)
    return {
        "timeout": sum(game.termination == "timeout" for game in ended),
        "no_first_move": sum(game.termination == "no_first_move" for game in ended),
        "setup_abandoned": sum(game.termination == "setup_abandoned" for game in ended),
    }
