"""The games app's periodic tasks, for Celery beat (added to the site's ``beat_schedule`` by
config/celery.py).

Every minute ``games.sweep`` finishes the games nobody has moved in for ``GAME_IDLE_MINUTES``
and the timed games whose clock has run out, and hands the workers the computer moves whose
turn in the fair queue has come (``games.queueing``). Every hour
``games.engine_analysis_sweep`` deletes the analysis board's old searches (a cache:
``games.analysis.engine_analysis_sweep``).
"""

BEAT_SCHEDULE = {
    "games-sweep": {"task": "games.sweep", "schedule": 60.0},
    "games-engine-analysis-sweep": {"task": "games.engine_analysis_sweep", "schedule": 3600.0},
}
