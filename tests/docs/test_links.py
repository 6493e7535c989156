"""README, the pages of docs/ and the other Markdown pages point only at what exists: every relative link and image names a
file of the repository, and every #anchor a heading (or an ``<a id>``) of the page it names, by
GitHub's rules for anchors. README maps every page of docs/."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from tests.docs.markdown import anchors, links, slug
from tests.docs.test_rules_doc import repository_files

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def pages() -> list[Path]:
    """README, docs/ and every other Markdown page of the repository (the apps' own READMEs)."""
    found = {path for path in repository_files() if path.suffix == ".md" and path.is_file()}
    assert README in found and ROOT / "docs" / "architecture.md" in found
    return sorted(found)


def link_faults(page: Path, text: str) -> list[str]:
    """What is wrong with the relative links of ``text``, the contents of ``page``."""
    faults: list[str] = []
    where = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
    for link in links(text):
        if link.external:
            continue
        path_part, _, anchor = link.target.partition("#")
        target = (page.parent / unquote(path_part)).resolve() if path_part else page
        if path_part and not target.exists():
            faults.append(f"{where}:{link.line}: {link.target} names no file")
            continue
        if not anchor:
            continue
        if target.suffix != ".md" or target.is_dir():
            faults.append(f"{where}:{link.line}: {link.target}: an anchor into a non-Markdown file")
            continue
        body = text if target == page else target.read_text("utf-8")
        if unquote(anchor) not in anchors(body):
            faults.append(f"{where}:{link.line}: {link.target}: no heading #{unquote(anchor)}")
    return faults


def test_every_relative_link_and_anchor_resolves() -> None:
    faults: list[str] = []
    checked = 0
    for page in pages():
        text = page.read_text("utf-8")
        checked += sum(not link.external for link in links(text))
        faults += link_faults(page, text)
    assert not faults, "\n".join(faults)
    assert checked > 50  # README's map and each page's links to its neighbours


def test_readme_maps_every_page_of_docs_and_shows_its_screenshots() -> None:
    targets = {link.target.partition("#")[0] for link in links(README.read_text("utf-8"))}
    unmapped = [
        f"docs/{page.name}"
        for page in (ROOT / "docs").glob("*.md")
        if f"docs/{page.name}" not in targets
    ]
    assert not unmapped, unmapped
    images = [target for target in targets if target.startswith("docs/img/")]
    assert len(images) >= 2
    for image in images:
        assert (ROOT / image).stat().st_size < 250 * 1024, image


def test_slugs_follow_githubs_rules() -> None:
    assert slug("Two commands") == "two-commands"
    assert slug("The bank's re-proof, each algorithm") == "the-banks-re-proof-each-algorithm"
    assert slug("Why 第427局 踊跃用兵 is not proved") == "why-第427局-踊跃用兵-is-not-proved"
    assert slug("`engine/` and [the prover](prover.md)") == "engine-and-the-prover"
    assert slug("snake_case & co.") == "snake_case--co"
    text = "# Notes\n\n## Setup\n\n```\n## Not a heading\n```\n\n## Setup\n\n### Setup\n"
    assert anchors(text) == {"notes", "setup", "setup-1", "setup-2"}
    assert "s5-4" in anchors('<a id="s5-4"></a>\n### 5.4 Missile bases\n')


def test_the_check_catches_a_missing_file_a_missing_anchor_and_a_missing_image(
    tmp_path: Path,
) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## Known part\n", "utf-8")
    (tmp_path / "picture.png").write_bytes(b"\x89PNG")
    page = tmp_path / "page.md"
    text = (
        "# Page\n\n## Here\n\n"
        "[fine](other.md#known-part) [fine](#here) ![fine](picture.png) [web](https://x.org/a)\n"
        "`[in code](nowhere.md)`\n\n```\n[in a fence](nowhere.md)\n```\n"
        "[gone](nowhere.md) [wrong](other.md#unknown-part) [wrong](#there)\n"
        "![gone](missing.png) [not markdown](picture.png#part)\n"
    )
    faults = link_faults(page, text)
    assert [fault.split(": ", 1)[1] for fault in faults] == [
        "nowhere.md names no file",
        "other.md#unknown-part: no heading #unknown-part",
        "#there: no heading #there",
        "missing.png names no file",
        "picture.png#part: an anchor into a non-Markdown file",
    ]
    lines = [fault.removeprefix(f"{page}:").split(":")[0] for fault in faults]
    assert lines == ["11", "11", "11", "12", "12"]
