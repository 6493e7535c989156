"""Every bank puzzle carries its named kill patterns as themes: recomputed from its proof's
main line, agreeing with the file, and put into the database whenever the bank loads."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from engine.patterns import PATTERNS
from puzzles import proving
from puzzles.bankfile import entry_themes, read_bank, retag_bank, write_bank
from puzzles.models import Puzzle, PuzzleTheme
from puzzles.services import bank_load
from puzzles.themes import (
    CATALOGUE,
    IMPORTANCE,
    LABELS,
    MAX_TEACHING,
    PATTERN_SLUGS,
    cap_themes,
    derive_themes,
)

MATES = ("mate", "dead_general")
# A long line run through a cannon check over its own horse: 马后炮 on the last move.
HORSE_CANNON = {
    "key": "xiangqi-test-horse-cannon",
    "variant": "xiangqi",
    "fen": "4k4/9/4N4/9/9/9/9/7C1/9/3K5 w - - 0 1",
    "goal": "mate",
    "moves_to_win": 1,
}


def test_every_pattern_is_a_theme_named_from_the_engine_catalogue() -> None:
    by_slug = {theme.slug: theme for theme in CATALOGUE}
    for pattern in PATTERNS:
        theme = by_slug[pattern.code]
        assert (theme.name_en, theme.name_zh) == (pattern.en, pattern.zh)
        assert (theme.description_en, theme.description_zh) == (
            pattern.summary_en,
            pattern.summary_zh,
        )


def test_every_bank_mate_has_the_patterns_its_main_line_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    entries = [e for e in read_bank() if e["goal"] in MATES]
    # 322 since the 92 puzzles of random-move games left the bank (manage.py tidy_bank)
    assert len(entries) >= 300
    without: Counter[str] = Counter()
    total: Counter[str] = Counter()
    started = time.perf_counter()
    for e in entries:
        assert e["main_line"] == proving.main_line(e["proof"]), e["key"]
        found = entry_themes(e)
        assert found == e["themes"], e["key"]
        total[e["variant"]] += 1
        if not PATTERN_SLUGS & set(found):
            without[e["variant"]] += 1
    seconds = time.perf_counter() - started
    with capsys.disabled():
        print(
            f"\nbank mates without a named pattern ({seconds:.2f}s for {len(entries)}): "
            + ", ".join(f"{v} {without[v]} of {total[v]}" for v in sorted(total))
        )
    # most mates are one of the named patterns
    for variant in total:
        assert without[variant] <= total[variant] // 4, variant


def test_a_stalemate_puzzle_has_no_pattern() -> None:
    for e in read_bank():
        if e["goal"] not in MATES:
            assert not PATTERN_SLUGS & set(e["themes"])


def test_derive_themes_adds_the_patterns_of_a_mate() -> None:
    line = ["h2e2"]
    themes = derive_themes(
        variant="xiangqi",
        fen=str(HORSE_CANNON["fen"]),
        goal="mate",
        moves_to_win=1,
        main_line=line,
    )
    assert "horse_cannon" in themes and "mate_in_1" in themes and "cannon_screen" in themes


def test_retagging_the_file_restores_the_patterns(tmp_path: Path) -> None:
    path = tmp_path / "bank.json"
    entries = [e for e in read_bank() if e["goal"] in MATES][:20]
    stripped = [
        {**e, "themes": [t for t in e["themes"] if t not in PATTERN_SLUGS]} for e in entries
    ]
    write_bank(stripped, path)
    changed = retag_bank(path)
    assert changed == sum(1 for e in entries if PATTERN_SLUGS & set(e["themes"]))
    assert {e["key"]: e["themes"] for e in read_bank(path)} == {
        e["key"]: e["themes"] for e in entries
    }
    assert retag_bank(path) == 0


@pytest.mark.django_db
def test_loading_the_bank_recomputes_the_patterns(tmp_path: Path) -> None:
    # The file says 重炮 (wrongly) and not 马后炮: the load tags what the main line shows.
    result = proving.prove(
        variant="xiangqi", fen=str(HORSE_CANNON["fen"]), goal="mate", moves_to_win=1
    )
    assert result.sound and result.main_line == ["h2e2"]
    entry = {
        **HORSE_CANNON,
        "mode": result.mode,
        "themes": ["mate_in_1", "double_cannon"],
        "main_line": result.main_line,
        "proof": result.proof,
        "source": "mined",
    }
    path = tmp_path / "bank.json"
    write_bank([entry], path)
    bank_load(path)
    puzzle = Puzzle.objects.get(source_key=entry["key"])
    slugs = {t.slug for t in puzzle.themes.all()}
    assert "horse_cannon" in slugs and "double_cannon" not in slugs and "mate_in_1" in slugs
    assert PuzzleTheme.objects.get(slug="horse_cannon").name_zh == "马后炮"


def test_every_theme_is_a_label_or_has_a_place_in_the_order_of_importance() -> None:
    slugs = [theme.slug for theme in CATALOGUE]
    assert sorted([*LABELS, *IMPORTANCE]) == sorted(slugs)


def test_a_bank_puzzle_names_its_labels_and_its_three_most_important_themes() -> None:
    rank = {slug: index for index, slug in enumerate(IMPORTANCE)}
    capped = 0
    for e in read_bank():
        found = entry_themes(e)
        shown = cap_themes(found)
        teaching = [t for t in shown if t not in LABELS]
        dropped = [t for t in found if t not in shown]
        assert set(shown) <= set(found) and set(LABELS) & set(found) <= set(shown), e["key"]
        assert len(teaching) == min(MAX_TEACHING, len(set(found) - LABELS)), e["key"]
        # nothing dropped is more important than what is kept
        assert all(rank[d] > rank[t] for d in dropped for t in teaching), e["key"]
        capped += bool(dropped)
    assert capped > 0
    # the 7-piece study that carries nine themes in the file names four: its length and three
    study = next(e for e in read_bank() if e["key"] == "xinban-ff6447ecfb5652ff")
    assert len(study["themes"]) == 9
    assert cap_themes(entry_themes(study)) == [
        "mate_in_3",
        "defection",
        "chariot_cannon",
        "defection_check",
    ]


@pytest.mark.django_db
def test_loading_the_bank_stores_at_most_three_teaching_themes(tmp_path: Path) -> None:
    study = next(e for e in read_bank() if e["key"] == "xinban-ff6447ecfb5652ff")
    path = tmp_path / "bank.json"
    write_bank([study], path)
    bank_load(path)
    puzzle = Puzzle.objects.get(source_key=study["key"])
    assert {t.slug for t in puzzle.themes.all()} == {
        "mate_in_3",
        "defection",
        "chariot_cannon",
        "defection_check",
    }
