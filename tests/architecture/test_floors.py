"""Every import points down: a module imports from its own package or from a package on a lower
floor, never from one on its own floor or above (docs/architecture.md, "Layers").

The imports are read from the source (``ast``): ``import`` and ``from … import`` anywhere in a
module, at the top, inside a function or under ``if TYPE_CHECKING:`` (a type is a dependency
too), with relative imports resolved. Only the site's own packages are checked; Django and other
libraries may be imported from any floor but the two pure-Python ones, whose own test says so.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The floors, lowest first. Packages on one floor do not import each other.
FLOORS: dict[str, int] = {
    "engine": 0,
    "words": 1,
    "judge": 1,
    "core": 2,
    "accounts": 3,
    "tutorials": 4,
    "puzzles": 4,
    "games": 4,
    "live": 4,
    "pages": 5,
    "config": 6,
}


@dataclass(frozen=True, order=True)
class Upward:
    """One import of a package that is not below the importer's."""

    path: str
    line: int
    imported: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} imports {self.imported}"


def _module_name(root: Path, path: Path) -> tuple[str, bool]:
    """The dotted name of the module at ``path`` and whether it is a package's ``__init__``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    package = parts[-1] == "__init__"
    if package:
        parts.pop()
    return ".".join(parts), package


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, wherever it is made."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                name = f"{base}.{name}" if name else base
            found.append((node.lineno, name))
    return found


def upward_imports(root: Path, floors: dict[str, int]) -> list[Upward]:
    """Every import, in the packages of ``floors`` under ``root``, of a package of the
    importer's floor or a higher one (its own package excepted)."""
    found = []
    for owner, floor in floors.items():
        for path in sorted((root / owner).rglob("*.py")):
            module, is_package = _module_name(root, path)
            source = path.read_text(encoding="utf-8")
            for line, name in imported_modules(source, module, is_package):
                top = name.split(".")[0]
                if top != owner and top in floors and floors[top] >= floor:
                    found.append(Upward(str(path.relative_to(root)), line, name))
    return sorted(found)


def test_the_checker_reports_imports_that_go_up_or_sideways(tmp_path: Path) -> None:
    files = {
        "low/__init__.py": "from low.a import f\n",
        "low/a.py": "import os\nimport high.b\n\ndef f():\n    from high import b\n",
        "low/inner/__init__.py": "from .. import a\nfrom ..a import f\nfrom . import x\n",
        "low/inner/x.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mid2 import y\n",
        "mid1/__init__.py": "import low.inner.x as x\nfrom mid2.y import z\n",
        "mid2/__init__.py": "",
        "mid2/y.py": "from django.db import models\nfrom low import a\nz = 1\n",
        "high/__init__.py": "",
        "high/b.py": "import mid1, mid2.y\nfrom low.inner import x\nfrom . import c\n",
        "high/c.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    floors = {"low": 0, "mid1": 1, "mid2": 1, "high": 2}
    assert [str(up) for up in upward_imports(tmp_path, floors)] == [
        "low/a.py:2 imports high.b",  # at the top
        "low/a.py:5 imports high",  # inside a function
        "low/inner/x.py:3 imports mid2",  # for types only
        "mid1/__init__.py:2 imports mid2.y",  # a neighbour on the same floor
    ]


def test_relative_imports_are_read_as_the_modules_they_name() -> None:
    source = "from . import a\nfrom .. import b\nfrom ..c import d\nimport e.f\n"
    assert imported_modules(source, "p.q.r", is_package=False) == [
        (1, "p.q"),
        (2, "p"),
        (3, "p.c"),
        (4, "e.f"),
    ]
    assert imported_modules(source, "p.q", is_package=True)[:2] == [(1, "p.q"), (2, "p")]


def test_every_package_the_site_ships_has_a_floor() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    assert sorted(name.rstrip("*") for name in shipped) == sorted(FLOORS)


def test_no_module_imports_from_its_own_floor_or_above() -> None:
    upward = upward_imports(ROOT, FLOORS)
    assert not upward, "imports that do not point down (docs/architecture.md):\n" + "\n".join(
        str(up) for up in upward
    )


PROBE = """
import json, sys
import words.endings, words.explain, words.texts
from engine import Move, Position
pos = Position.start("xiangqi")
words.explain.explain_illegal(pos, Move.from_iccs("b0b5"))
words.endings.ending_sentence("checkmate", "red").get("zh")
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_the_words_loads_no_django() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    modules = json.loads(result.stdout)
    assert "words.explain" in modules
    assert [m for m in modules if m == "django" or m.startswith("django.")] == []
    assert [m for m in modules if m.split(".")[0] in set(FLOORS) - {"engine", "words"}] == []
