"""The puzzles app's layers depend one way: selectors read without calling services, and the
API's serializers only shape data (the engine is called by selectors and services)."""

from __future__ import annotations

import ast
from pathlib import Path

import puzzles

APP = Path(puzzles.__file__).parent


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside functions."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_selectors_do_not_import_services() -> None:
    assert not {n for n in imported(APP / "selectors.py") if n.startswith("puzzles.services")}


def test_api_serializers_do_not_call_the_engine_or_services() -> None:
    names = imported(APP / "api" / "serializers.py")
    assert not {n for n in names if n.split(".")[0] == "engine" or ".services" in n}
    assert "puzzles.services" not in names


def test_the_home_page_does_not_import_puzzle_views() -> None:
    pages_views = APP.parent / "pages" / "views.py"
    assert not {n for n in imported(pages_views) if n.startswith("puzzles.views")}
