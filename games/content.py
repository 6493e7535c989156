"""The games app's content loader (run by ``manage.py load_content``, see core.content_loaders):
the master games library (games.library)."""

from __future__ import annotations

from games.library import master_games_load


def load_content() -> str:
    counts = master_games_load()
    return (
        f"{counts['total']} master games ({counts['added']} added, {counts['updated']} updated, "
        f"{counts['removed']} removed)"
    )
