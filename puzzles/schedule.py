"""The puzzles app's periodic tasks, for Celery beat.

The site's Celery app adds these to its ``beat_schedule``::

    from puzzles.schedule import BEAT_SCHEDULE
    app.conf.beat_schedule = {**app.conf.beat_schedule, **BEAT_SCHEDULE}

Times are in ``CELERY_TIMEZONE`` (the site's time zone). Choosing the daily puzzles runs every
hour: the first run after midnight picks the day's puzzles, later runs find them chosen and do
nothing (the choice is idempotent), which also covers a beat that was down at midnight. Every
five minutes the tries still waiting to be scored ten minutes after they ended have their
scoring message sent again (it was lost: see ``puzzle_attempts_score_waiting``). Every 15
minutes the visitors' Streak and Storm runs in which nothing was played for an hour are
deleted (a program that drops its session leaves them; nobody can read them again).
"""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    "puzzles-choose-daily": {
        "task": "puzzles.choose_daily",
        "schedule": crontab(minute=1),
    },
    "puzzles-requeue-verifications": {
        "task": "puzzles.requeue_verifications",
        "schedule": crontab(minute="*/15"),
    },
    "puzzles-score-waiting": {
        "task": "puzzles.score_waiting",
        "schedule": crontab(minute="*/5"),
    },
    "puzzles-sweep-runs": {
        "task": "puzzles.sweep_runs",
        "schedule": crontab(minute="7-59/15"),
    },
}
