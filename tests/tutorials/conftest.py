"""Lessons in the test database: the real lesson files, loaded once per test."""

from __future__ import annotations

import pytest


@pytest.fixture
def lessons(db: None) -> None:
    from tutorials.services import lessons_load

    lessons_load()
