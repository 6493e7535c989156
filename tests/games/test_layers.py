"""The games app's layers depend one way: selectors read without calling services, and only
games.computer reaches the playing engine."""

from __future__ import annotations

from pathlib import Path

import games
from tests.puzzles.test_layers import imported

APP = Path(games.__file__).parent


def test_selectors_do_not_import_services() -> None:
    assert not {n for n in imported(APP / "selectors.py") if n.startswith("games.services")}


def test_only_the_computer_module_imports_the_playing_engine() -> None:
    for path in APP.glob("*.py"):
        if path.name != "computer.py":
            assert not {n for n in imported(path) if n.startswith("engine.play")}, path.name
