"""The play pages' scripts call the API through the site's one helper
(core/static/core/api.js), shared with the puzzle pages, and keep no copy of it."""

from __future__ import annotations

import re
from pathlib import Path

import core
import games
import puzzles

HELPER = Path(core.__file__).parent / "static" / "core" / "api.js"
PAGES = [
    *sorted((Path(games.__file__).parent / "static" / "games").glob("*.js")),
    *sorted((Path(puzzles.__file__).parent / "static" / "puzzles").glob("*.js")),
]


def test_the_helper_is_the_only_script_of_these_pages_that_calls_fetch() -> None:
    assert "fetch(" in HELPER.read_text(encoding="utf-8")
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        assert "fetch(" not in text, path.name
        assert not re.search(r"function cookie\(", text), path.name


def test_the_play_pages_import_the_shared_helper() -> None:
    for name in ("game.js", "new.js"):
        text = (Path(games.__file__).parent / "static" / "games" / name).read_text("utf-8")
        assert re.search(r'^import \{[^}]*\bapi\b[^}]*\} from "\.\./core/api\.js";', text, re.M)
    common = (Path(puzzles.__file__).parent / "static" / "puzzles" / "common.js").read_text("utf-8")
    assert 'from "../core/api.js"' in common
