"""The live games' periodic task, for Celery beat (added to the site's ``beat_schedule`` by
config/celery.py).

Every minute ``live.sweep`` ends the games whose side to move has run out of time and aborts
those whose first move did not come in its window (``live.services.live_games_sweep``): a game
both of whose players have left would otherwise wait for a message that never comes.
"""

BEAT_SCHEDULE = {
    "live-sweep": {"task": "live.sweep", "schedule": 60.0},
}
