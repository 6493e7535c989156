"""docs/patterns.md and its pictures are what ``manage.py pattern_diagrams`` writes now: the
engine's catalogue of kill patterns, word for word, and each pattern's example drawn by the
site's own renderer. After changing a pattern or its example, run the command again."""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command

from engine.patterns import PATTERNS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def test_the_committed_patterns_page_and_pictures_are_what_the_command_writes(
    tmp_path: Path,
) -> None:
    call_command("pattern_diagrams", docs=tmp_path, stdout=open("/dev/null", "w"))  # noqa: SIM115
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(written) == len(PATTERNS) + 1
    committed = sorted(
        p.relative_to(DOCS) for p in (DOCS / "img" / "patterns").rglob("*") if p.is_file()
    )
    assert committed == [p for p in written if p.suffix == ".svg"]
    stale = [
        str(path)
        for path in written
        if (DOCS / path).read_text("utf-8") != (tmp_path / path).read_text("utf-8")
    ]
    assert not stale, f"run manage.py pattern_diagrams: {stale} differ"


def test_every_pattern_has_its_section_with_both_names_and_the_exact_definition() -> None:
    text = (DOCS / "patterns.md").read_text("utf-8")
    for pattern in PATTERNS:
        section = text[text.index(f'<a id="{pattern.code}"></a>') :]
        section = section[: section.index("<a id=", 10)] if "<a id=" in section[10:] else section
        assert f"### {pattern.zh} · {pattern.en}" in section
        for words in (
            pattern.summary_en,
            pattern.summary_zh,
            pattern.definition_en,
            pattern.definition_zh,
            f"img/patterns/{pattern.code}.svg",
            f"`{pattern.code}`",
        ):
            assert words in section, (pattern.code, words)
    assert "(patterns.md)" in (DOCS / "puzzles.md").read_text("utf-8")
