"""The app's content loader (see core/content_loaders.py): the lesson files into the database."""

from __future__ import annotations


def load_content() -> str:
    from tutorials.services import lessons_load

    return lessons_load().summary()
