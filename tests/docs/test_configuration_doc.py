"""docs/configuration.md names every variable the settings read from the environment, and the
tables there and in README name only variables the code reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIGURATION = ROOT / "docs" / "configuration.md"
README = ROOT / "README.md"

READ_BY_SETTINGS = re.compile(r"env_(?:str|bool|int|list|required)\(\s*\"([A-Z][A-Z0-9_]*)\"")
NAME = re.compile(r"`([A-Z][A-Z0-9_]*)`")
# Where the code reads its environment: the settings, the scripts, the engine's build switch.
READERS = [
    *sorted((ROOT / "config" / "settings").glob("*.py")),
    *sorted(path for path in (ROOT / "scripts").iterdir() if path.is_file()),
    ROOT / "engine" / "_native.py",
]


def table_variables(text: str) -> set[str]:
    """The variables named in the first column of the page's tables."""
    names: set[str] = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            names.update(NAME.findall(line.split("|")[1]))
    return names


def read_by_settings() -> set[str]:
    return {
        name
        for path in (ROOT / "config" / "settings").glob("*.py")
        for name in READ_BY_SETTINGS.findall(path.read_text("utf-8"))
    }


def test_every_variable_the_settings_read_is_documented() -> None:
    settings = read_by_settings()
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "THROTTLE_RATES"} <= settings
    missing = settings - table_variables(CONFIGURATION.read_text("utf-8"))
    assert not missing, (
        f"read by config/settings but not in docs/configuration.md: {sorted(missing)}"
    )


def test_every_documented_variable_is_read_by_the_code() -> None:
    code = "\n".join(path.read_text("utf-8") for path in READERS)
    documented = table_variables(CONFIGURATION.read_text("utf-8"))
    assert len(documented) > 40
    unread = sorted(name for name in documented if not re.search(rf"\b{name}\b", code))
    assert not unread, f"in docs/configuration.md but read nowhere: {unread}"


def test_readmes_table_is_a_part_of_the_full_one() -> None:
    readme = table_variables(README.read_text("utf-8"))
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY"} <= readme
    assert readme <= table_variables(CONFIGURATION.read_text("utf-8"))
