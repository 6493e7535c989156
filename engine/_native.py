"""Where the compiled engine lives and whether to use it.

``scripts/setup`` compiles the hot modules listed in ``MODULES`` with mypyc
(``scripts/build_engine.py``) into ``build/native/`` at the repository root,
outside the source tree, so a ``.py`` file is never shadowed by a stale
``.so`` next to it. ``engine/__init__.py`` calls ``activate()`` before it
imports any of them: when the build exists, was made from exactly the
current sources by this Python, and ``ENGINE_PURE`` is not set to ``1``,
the build directory is put in front of the package's search path and the
compiled modules are imported instead of the sources. Otherwise the engine
runs as plain Python, with the same results.

This module is never compiled and imports nothing from the engine.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
BUILD_DIR = Path(os.environ.get("ENGINE_BUILD_DIR", ROOT / "build" / "native"))
STAMP_NAME = "engine-sources.sha256"
# The type-checker settings the modules are compiled with (never the project's mypy settings,
# whose Django plugins the site's own install does not have).
CONFIG_FILE = PACKAGE_DIR / "mypyc.ini"

# The modules compiled ahead of time, as paths relative to the repository root.
MODULES = (
    "engine/geometry.py",
    "engine/position.py",
    "engine/fen.py",
    "engine/notation.py",
    "engine/perft.py",
    "engine/solver/movegen.py",
    "engine/solver/search.py",
    "engine/solver/dfpn.py",
    "engine/play/_board.py",
    "engine/play/evaluation.py",
    "engine/play/search.py",
)

compiled = False  # set by activate(): True once the compiled modules are in use


def wants_pure() -> bool:
    return os.environ.get("ENGINE_PURE", "") not in ("", "0")


def source_stamp(root: Path = ROOT) -> str:
    """A digest of everything the build depends on: the compiled modules'
    sources, the modules they are type-checked against, and this Python."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    h.update(sys.implementation.cache_tag.encode())
    sources = sorted(
        {
            *MODULES,
            CONFIG_FILE.relative_to(ROOT).as_posix(),
            *(p.relative_to(root).as_posix() for p in (root / "engine").rglob("*.py")),
        }
    )
    for rel in sources:
        h.update(rel.encode())
        h.update(b"\0")
        h.update((root / rel).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def build_is_current() -> bool:
    stamp = BUILD_DIR / STAMP_NAME
    try:
        recorded = stamp.read_text().strip()
    except OSError:
        return False
    return recorded == source_stamp()


def activate(package_path: list[str]) -> bool:
    """Put the compiled modules in front of the ``engine`` package's path
    when they may be used; return whether they are."""
    global compiled
    if compiled:
        return True
    if wants_pure() or not build_is_current():
        return False
    build = str(BUILD_DIR)
    if build not in sys.path:
        # mypyc's shared library is a top-level module of the build directory
        sys.path.append(build)
    package_path.insert(0, str(BUILD_DIR / "engine"))
    compiled = True
    return True


def activate_subpackage(name: str, package_path: list[str]) -> None:
    """The same for a subpackage (``solver``, ``play``): called from its ``__init__``."""
    if compiled:
        package_path.insert(0, str(BUILD_DIR / "engine" / name))
