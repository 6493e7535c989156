"""Themes follow from the proof's main line, replayed on the engine."""

from __future__ import annotations

from puzzles import proving
from puzzles.themes import CATALOGUE, SLUGS, defender_defection_blocks, derive_themes
from tests.puzzles.positions import DEAD_GENERAL_IN_1, MATE_IN_1, MATE_IN_2


def themes_of(variant: str, fen: str, goal: str, n: int) -> list[str]:
    result = proving.prove(variant=variant, fen=fen, goal=goal, moves_to_win=n)
    assert result.sound
    return derive_themes(
        variant=variant, fen=fen, goal=goal, moves_to_win=n, main_line=result.main_line
    )


def test_catalogue_slugs_are_unique_and_named_in_both_languages() -> None:
    assert len(SLUGS) == len(CATALOGUE)
    for theme in CATALOGUE:
        assert theme.name_en and theme.name_zh and theme.description_en and theme.description_zh


def test_mate_in_one_by_a_chariot() -> None:
    themes = themes_of("xiangqi", MATE_IN_1, "mate", 1)
    assert "mate_in_1" in themes and "checks_only" in themes
    assert "dead_general" not in themes and "cannon_screen" not in themes


def test_mate_in_two_with_a_quiet_key() -> None:
    # The key g8g9 neither checks nor captures.
    themes = themes_of("xiangqi", MATE_IN_2, "mate", 2)
    assert "mate_in_2" in themes and "quiet_move" in themes and "checks_only" not in themes


def test_dead_general_by_a_missile() -> None:
    themes = themes_of("feidan", DEAD_GENERAL_IN_1, "dead_general", 1)
    assert {"dead_general", "missile"} <= set(themes)
    assert not any(t.startswith("mate_in") for t in themes)


def test_cannon_gives_the_final_check() -> None:
    # The cannon b3d3 mates Black's general d7 over the red horse on d5.
    fen = "5a3/9/1P1k5/9/3N5/9/1C7/9/9/5K3 w - - 0 1"
    themes = themes_of("xiangqi", fen, "mate", 1)
    assert "cannon_screen" in themes and "mate_in_1" in themes


def test_defection_in_xinban() -> None:
    # Red's horse takes Black's turncoat cannon on c7: the cannon defects to Red on b5.
    fen = "4k4/9/2+c6/9/1N7/9/9/9/9/3K5 w - - 0 1"
    themes = derive_themes(
        variant="xinban", fen=fen, goal="mate", moves_to_win=1, main_line=["b5c7"]
    )
    assert "defection" in themes


def test_missile_collision_in_feidan() -> None:
    # Red's missile runs into Black's horse on c7: both leave the board.
    fen = "5k5/11/2n8/11/11/11/11/11/11/2M3K4 w - - 0 1"
    themes = derive_themes(
        variant="feidan", fen=fen, goal="mate", moves_to_win=1, main_line=["c0c7"]
    )
    assert {"missile_collision", "missile"} <= set(themes)


def test_the_defenders_own_defection_that_walls_in_its_general() -> None:
    # xinban-896cd2866120c102: Black's turncoat chariot checks on d0 and Red's advisor takes it;
    # the chariot changes sides onto e1, the point the advisor left, and the cannon's mate on c0
    # needs it there: without it Red's general would step up to e1.
    fen = "3+rkab2/4a4/2+n1b4/p1c1p4/2+c4+R1/P8/4P4/3+r5/4A4/4KAB2 b - - 3 37"
    line = ["d2d0", "e1d0", "c5c0"]
    assert defender_defection_blocks(variant="xinban", fen=fen, main_line=line)
    themes = derive_themes(variant="xinban", fen=fen, goal="mate", moves_to_win=2, main_line=line)
    assert "defection" in themes
    # xinban-f3bf4e2fea07ba42: Red's horse takes the turncoat chariot and it defects onto d1,
    # but Black's cannon on d3 covers d1 over the advisor anyway: a defection, not the point.
    fen = "2baka1+r1/9/c3b4/p+R2p+rN1p/9/9/P1+n+c2c1P/3A4B/3+NA4/2BK5 b - - 0 25"
    line = ["h9h0", "i2g0", "h0g0", "e1f0", "g0f0", "d1f0", "f6f0"]
    assert not defender_defection_blocks(variant="xinban", fen=fen, main_line=line)
