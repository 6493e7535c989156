"""docs/rules.md is the rules reference the code cites: every section has a number and an
anchor, every "§N" written anywhere in the repository names one of its sections, and nothing
cites a rules document that is not in the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.docs.markdown import anchors, links

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
SELF = Path(__file__).resolve()

ANCHOR = re.compile(r'^<a id="s(\d+(?:-\d+)*)"></a>$')
HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)*)[. ]")
CITATION = re.compile(r"§\s*(\d+(?:\.\d+)*)")
# A rules document outside the repository: the old binding file, by name or by path.
OUTSIDE = re.compile(r"RULES\.md|shared/RULES|\bRULES\s*(?:§|section\b|\d|:)")

SKIP_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "test-artifacts",
    "var",
    "build",
}


def sections(text: str) -> list[str]:
    """The section numbers of the rules document, in order. Each heading of level 2 or 3
    carries a number and stands right under its anchor (``<a id="s5-4"></a>`` for 5.4)."""
    found: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        heading = HEADING.match(line)
        if not heading:
            assert not line.startswith(("## ", "### ")), f"a heading without a number: {line!r}"
            continue
        number = heading.group(2)
        level = len(heading.group(1))
        assert number.count(".") == level - 2, f"{line!r}: '##' is a section, '###' a subsection"
        anchor = ANCHOR.match(lines[i - 1]) if i else None
        assert anchor, f"{line!r} has no anchor on the line above"
        assert anchor.group(1) == number.replace(".", "-"), f"{line!r}: anchor s{anchor.group(1)}"
        found.append(number)
    return found


def citation_faults(where: str, text: str, known: set[str]) -> list[str]:
    """What is wrong with the rules citations of one file's ``text``."""
    faults = [
        f"{where}: §{number} is not a section of docs/rules.md"
        for number in CITATION.findall(text)
        if number not in known
    ]
    faults += [
        f"{where}: {found.group(0)!r} cites a rules document outside the repository"
        for found in OUTSIDE.finditer(text)
    ]
    return faults


def repository_files() -> list[Path]:
    """Every file of the working tree that git would commit (tracked or new, not ignored)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode()
        return [ROOT / name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the tree
        return [
            path
            for path in ROOT.rglob("*")
            if path.is_file() and not SKIP_DIRS.intersection(path.relative_to(ROOT).parts)
        ]


def known_sections() -> set[str]:
    return set(sections(RULES_DOC.read_text("utf-8")))


def test_every_section_has_a_number_and_an_anchor_in_order() -> None:
    numbers = sections(RULES_DOC.read_text("utf-8"))
    assert len(numbers) == len(set(numbers)), "a section number is used twice"
    top = [int(n) for n in numbers if "." not in n]
    assert top[0] == 1  # a section that goes away leaves a gap: numbers are never reused
    for n in numbers:
        if "." in n:
            assert n.split(".")[0] in numbers, f"§{n} outside its section"
    keys = [tuple(int(part) for part in n.split(".")) for n in numbers]
    assert keys == sorted(keys), "sections out of order"


def test_the_contents_links_reach_their_sections() -> None:
    text = RULES_DOC.read_text("utf-8")
    contents = {link.target[1:] for link in links(text) if link.target.startswith("#s")}
    assert len(contents) >= 10 and contents <= anchors(text), contents - anchors(text)


def test_every_cited_section_exists_and_nothing_cites_an_outside_document() -> None:
    known = known_sections()
    faults: list[str] = []
    cited = 0
    for path in repository_files():
        if path.resolve() == SELF or not path.is_file():
            continue
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue  # binary (compiled catalogues, images)
        cited += len(CITATION.findall(text))
        faults += citation_faults(str(path.relative_to(ROOT)), text, known)
    assert not faults, "\n".join(faults)
    assert cited > 20  # the engine, the tests and the document itself cite sections


def test_the_check_catches_a_missing_section_and_an_outside_document() -> None:
    known = known_sections()
    assert "5.4" in known and "8.3" in known
    assert citation_faults("x", "the base rule (docs/rules.md §5.4)", known) == []
    assert citation_faults("x", "see docs/rules.md §5.9 and §12", known) == [
        "x: §5.9 is not a section of docs/rules.md",
        "x: §12 is not a section of docs/rules.md",
    ]
    for old in (
        "(RULES §8)",
        "(RULES: chariot 9",
        "RULES.md's Rulings",
        "shared/RULES.md",
        "RULES 6.3",
    ):
        assert citation_faults("x", old, known), old
    assert citation_faults("x", "RULES = [", known) == []
