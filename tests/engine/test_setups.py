"""Feidan setups: plum-blossom numbers and secret setups (five / middle soldier guards the gate)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from itertools import permutations
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import InvalidFenError, Position
from engine.setups import (
    ARRANGEMENT_COUNT,
    OFFICER_POINTS,
    PlumBlossomSetup,
    SetupError,
    Violation,
    arrangement,
    arrangement_fen,
    arrangement_rank,
    combine_secret_setups,
    hexagram,
    plum_blossom,
    plum_blossom_from_numbers,
    random_secret_half,
    redraw_until_valid,
    validate_secret_half,
)

CHINA = ZoneInfo("Asia/Shanghai")
FEIDAN_START = (
    "mrnbakabnrm/11/f1c5c1f/1p1p1p1p1p1/11/11/1P1P1P1P1P1/F1C5C1F/11/MRNBAKABNRM w - - 0 1"
)


def china(*args: int) -> datetime:
    return datetime(*args, tzinfo=CHINA)  # type: ignore[misc]


def officers_of(fen: str) -> tuple[str, ...]:
    position = Position.from_fen("feidan", fen)
    return tuple(position.piece_at(p) or "" for p in OFFICER_POINTS)


def start_half(color: str) -> dict[str, str]:
    """The pieces of one side in the ordinary feidan start, as point -> letter."""
    pieces = Position.start("feidan").pieces()
    return {p: v for p, v in pieces.items() if v.isupper() == (color == "red")}


def codes(violations: list[Violation]) -> list[str]:
    return sorted(v.code for v in violations)


# --- arrangements ---------------------------------------------------------------------


def test_arrangement_unranking_matches_lexicographic_listing() -> None:
    listing = sorted(set(permutations("CCFFNNRR")))
    assert len(listing) == ARRANGEMENT_COUNT == 2520
    assert [arrangement(i) for i in range(ARRANGEMENT_COUNT)] == listing


def test_arrangement_rank_is_the_inverse_of_unranking() -> None:
    for index in range(0, ARRANGEMENT_COUNT, 7):
        assert arrangement_rank(arrangement(index)) == index


def test_arrangement_index_out_of_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="0 to 2519"):
        arrangement(2520)
    with pytest.raises(ValueError):
        arrangement_rank("RRRNNCCF")


def test_standard_start_is_arrangement_2394_and_no_plum_blossom_draws_it() -> None:
    # b0 c0 i0 j0 c2 i2 a2 k2 of the start: chariot, horse, horse, chariot, cannons, fighters.
    assert arrangement_rank("RNNRCCFF") == 2394
    assert arrangement_fen(2394) == FEIDAN_START
    reachable = {s * 2520 // 384 for s in range(384)}
    assert 2394 not in reachable
    assert len(reachable) == 384  # every number S gives its own arrangement


def test_black_arrangement_is_red_reflected() -> None:
    for index in (0, 1, 777, 1555, 2519):
        position = Position.from_fen("feidan", arrangement_fen(index))
        for point, letter in zip(OFFICER_POINTS, arrangement(index), strict=True):
            mirrored = f"{point[0]}{9 - int(point[1])}"
            assert position.piece_at(point) == letter
            assert position.piece_at(mirrored) == letter.lower()


def test_arrangement_keeps_every_other_piece_on_its_start_point() -> None:
    start = Position.from_fen("feidan", FEIDAN_START).pieces()
    officer_points = set(OFFICER_POINTS) | {f"{p[0]}{9 - int(p[1])}" for p in OFFICER_POINTS}
    for index in (0, 1234, 2519):
        pieces = Position.from_fen("feidan", arrangement_fen(index)).pieces()
        assert set(pieces) == set(start)
        assert {p: v for p, v in pieces.items() if p not in officer_points} == {
            p: v for p, v in start.items() if p not in officer_points
        }


# --- hexagrams ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upper", "lower", "name", "number"),
    [
        (1, 1, "乾为天", 1),
        (8, 8, "坤为地", 2),
        (6, 3, "水火既济", 63),
        (3, 6, "火水未济", 64),
        (1, 8, "天地否", 12),
        (8, 1, "地天泰", 11),
        (1, 5, "天风姤", 44),
        (1, 2, "天泽履", 10),
        (6, 6, "坎为水", 29),
        (4, 2, "雷泽归妹", 54),
    ],
)
def test_hexagram_names_by_upper_and_lower_trigram(
    upper: int, lower: int, name: str, number: int
) -> None:
    assert hexagram(upper, lower).name == name
    assert hexagram(upper, lower).number == number


def test_hexagram_table_has_64_distinct_hexagrams() -> None:
    table = [hexagram(u, lo) for u in range(1, 9) for lo in range(1, 9)]
    assert sorted(h.number for h in table) == list(range(1, 65))
    assert len({h.name for h in table}) == 64
    assert hexagram(1, 5).pinyin == "Gòu"


def test_hexagram_king_wen_pairs_are_turned_over_or_inverted() -> None:
    # In the King Wen order, hexagram 2k is hexagram 2k-1 turned upside down, or its
    # line-by-line opposite when turning changes nothing: an independent check of the table.
    lines = {
        1: (1, 1, 1),
        2: (1, 1, 0),
        3: (1, 0, 1),
        4: (1, 0, 0),
        5: (0, 1, 1),
        6: (0, 1, 0),
        7: (0, 0, 1),
        8: (0, 0, 0),
    }  # bottom line first
    by_number = {}
    for u in range(1, 9):
        for lo in range(1, 9):
            by_number[hexagram(u, lo).number] = lines[lo] + lines[u]
    for odd in range(1, 65, 2):
        first, second = by_number[odd], by_number[odd + 1]
        turned = first[::-1]
        expected = tuple(1 - x for x in first) if turned == first else turned
        assert second == expected, odd


def test_hexagram_rejects_bad_trigram_numbers() -> None:
    with pytest.raises(ValueError):
        hexagram(0, 9)


# --- plum-blossom numbers -------------------------------------------------------------


def test_plum_blossom_upper_trigram_formula() -> None:
    # U = (Y+M+D) mod 8, 0 counting as 8.
    assert plum_blossom_from_numbers(1, 1, 1, 1).upper_number == 3
    assert plum_blossom_from_numbers(5, 3, 8, 1).upper_number == 8
    assert plum_blossom_from_numbers(12, 12, 30, 1).upper_number == 6


def test_plum_blossom_lower_trigram_and_moving_line_formula() -> None:
    setup = plum_blossom_from_numbers(1, 1, 1, 9)  # Y+M+D+H = 12
    assert setup.lower_number == 4  # 12 mod 8
    assert setup.moving_line == 6  # 12 mod 6 = 0 counts as 6
    setup = plum_blossom_from_numbers(2, 3, 4, 7)  # 16
    assert setup.lower_number == 8  # 16 mod 8 = 0 counts as 8
    assert setup.moving_line == 4


def test_plum_blossom_number_and_arrangement_index() -> None:
    setup = plum_blossom_from_numbers(1, 1, 6, 1)  # U = 8, L = 1, X = 3
    assert (setup.upper_number, setup.lower_number, setup.moving_line) == (8, 1, 3)
    assert setup.number == ((8 - 1) * 8 + 0) * 6 + 2 == 338
    assert setup.arrangement_index == 338 * 2520 // 384 == 2218
    assert setup.hexagram == "地天泰"
    assert officers_of(setup.fen) == arrangement(2218)


def test_plum_blossom_number_runs_from_0_to_383() -> None:
    # Y+M+D = 17 and H = 8: U = 1, L = 1, X = 1, the first number.
    first = plum_blossom_from_numbers(1, 1, 15, 8)
    assert (first.number, first.arrangement_index, first.hexagram) == (0, 0, "乾为天")
    # Y+M+D = 40 and H = 8: U = 8, L = 8, X = 6, the last number.
    last = plum_blossom_from_numbers(12, 12, 16, 8)
    assert (last.number, last.arrangement_index, last.hexagram) == (383, 2513, "坤为地")


def test_plum_blossom_rejects_numbers_out_of_range() -> None:
    with pytest.raises(ValueError, match="lunar day"):
        plum_blossom_from_numbers(1, 1, 31, 1)
    with pytest.raises(ValueError, match="hour branch"):
        plum_blossom_from_numbers(1, 1, 1, 0)


def test_plum_blossom_hand_checked_mid_autumn_2025() -> None:
    # 6 October 2025, 20:30 in China: Mid-Autumn festival, the 15th of the 8th lunar month
    # of the 乙巳 year (巳 = 6); 19:00-20:59 is the 戌 hour (11).
    setup = plum_blossom(china(2025, 10, 6, 20, 30))
    assert (setup.year_branch, setup.lunar_month, setup.lunar_day, setup.hour_branch) == (
        6,
        8,
        15,
        11,
    )
    # Y+M+D = 29 -> U = 5 (巽); +H = 40 -> L = 0 -> 8 (坤), X = 40 mod 6 = 4.
    assert (setup.upper_trigram, setup.upper_number) == ("巽", 5)
    assert (setup.lower_trigram, setup.lower_number) == ("坤", 8)
    assert setup.moving_line == 4
    assert setup.hexagram == "风地观"
    assert setup.hexagram_number == 20
    assert setup.number == (4 * 8 + 7) * 6 + 3 == 237
    assert setup.arrangement_index == 1555
    assert setup.lunar_date == "乙巳年八月十五戌时"
    # Arrangement 1555 along b0 c0 i0 j0 c2 i2 a2 k2.
    assert arrangement(1555) == ("N", "F", "N", "R", "F", "C", "R", "C")
    assert setup.fen == (
        "mnfbakabnrm/11/r1f5c1c/1p1p1p1p1p1/11/11/1P1P1P1P1P1/R1F5C1C/11/MNFBAKABNRM w - - 0 1"
    )
    assert setup.officers["a2"] == "R" and setup.officers["a7"] == "r"
    assert len(setup.officers) == 16


def test_plum_blossom_fen_is_a_legal_feidan_position() -> None:
    setup = plum_blossom(china(2025, 10, 6, 20, 30))
    position = Position.from_fen("feidan", setup.fen)
    assert position.turn == "red"
    assert not position.is_check()
    assert len(position.legal_moves) > 0


def test_plum_blossom_year_changes_at_lunar_new_year() -> None:
    # The eve of the 乙巳 new year: 29 January 2025 is 正月初一; 28 January is 腊月廿九 of 甲辰 (辰 = 5).
    eve = plum_blossom(china(2025, 1, 28, 23, 30))
    assert (eve.year_branch, eve.lunar_month, eve.lunar_day, eve.hour_branch) == (5, 12, 29, 1)
    assert eve.hexagram == "水山蹇"  # 46 -> 坎, 47 -> 艮
    new_year = plum_blossom(china(2025, 1, 29, 0, 30))
    assert (new_year.year_branch, new_year.lunar_month, new_year.lunar_day) == (6, 1, 1)
    assert new_year.hour_branch == 1
    assert new_year.hexagram == "地天泰"  # 8 -> 坤, 9 -> 乾
    # The year turns at the new year, not at 立春 (3 February 2025): 1 February is already 巳.
    assert plum_blossom(china(2025, 1, 2, 12, 0)).year_branch == 5
    assert plum_blossom(china(2025, 2, 1, 12, 0)).year_branch == 6


def test_plum_blossom_leap_month_counts_as_its_number() -> None:
    # 2025 has a leap 6th month from 25 July to 22 August; the ordinary 6th month began
    # on 25 June, so 2 July and 1 August are both the 8th day of a "6th" month.
    leap = plum_blossom(china(2025, 8, 1, 12, 0))
    plain = plum_blossom(china(2025, 7, 2, 12, 0))
    assert (leap.year_branch, leap.lunar_month, leap.lunar_day, leap.hour_branch) == (6, 6, 8, 7)
    assert (plain.lunar_month, plain.lunar_day) == (6, 8)
    assert leap.fen == plain.fen
    assert leap.hexagram == "雷火丰"  # 20 -> 震, 27 -> 离, line 3
    assert leap.moving_line == 3
    assert leap.lunar_date == "乙巳年闰六月初八午时"
    # 2023: the leap 2nd month began on 22 March.
    assert plum_blossom(china(2023, 3, 22, 12, 0)).lunar_month == 2
    assert plum_blossom(china(2023, 3, 22, 12, 0)).lunar_day == 1


@pytest.mark.parametrize(
    ("hour", "branch"),
    [(23, 1), (0, 1), (1, 2), (2, 2), (3, 3), (11, 7), (12, 7), (13, 8), (21, 12), (22, 12)],
)
def test_plum_blossom_hour_branch_from_clock_hour(hour: int, branch: int) -> None:
    assert plum_blossom(china(2025, 10, 6, hour, 59)).hour_branch == branch


def test_plum_blossom_hour_branch_23h_is_zi_but_day_is_the_civil_date() -> None:
    late = plum_blossom(china(2025, 10, 6, 23, 10))
    assert (late.lunar_day, late.hour_branch) == (15, 1)
    after_midnight = plum_blossom(china(2025, 10, 7, 0, 10))
    assert (after_midnight.lunar_day, after_midnight.hour_branch) == (16, 1)


def test_plum_blossom_reads_china_time_zone() -> None:
    # 16:30 UTC on 28 January 2025 is 00:30 on 29 January in China: the new year.
    utc = plum_blossom(datetime(2025, 1, 28, 16, 30, tzinfo=UTC))
    assert utc == plum_blossom(china(2025, 1, 29, 0, 30))
    assert (utc.year_branch, utc.lunar_month, utc.lunar_day) == (6, 1, 1)
    new_york = datetime(2025, 1, 28, 11, 30, tzinfo=ZoneInfo("America/New_York"))
    assert plum_blossom(new_york) == utc
    fixed = datetime(2025, 1, 29, 1, 30, tzinfo=timezone(timedelta(hours=9)))
    assert plum_blossom(fixed) == utc


def test_plum_blossom_rejects_naive_datetime() -> None:
    with pytest.raises(ValueError, match="time-zone-aware"):
        plum_blossom(datetime(2025, 1, 29, 0, 30))


def test_plum_blossom_setup_is_a_frozen_value() -> None:
    setup = plum_blossom(china(2025, 10, 6, 20, 30))
    assert isinstance(setup, PlumBlossomSetup)
    with pytest.raises(AttributeError):
        setup.fen = ""  # type: ignore[misc]
    assert isinstance(hash(setup), int)


# --- secret setups: validation --------------------------------------------------------


def test_standard_halves_are_legal_under_both_methods() -> None:
    for color in ("red", "black"):
        for method in ("five_soldiers", "middle_soldier"):
            assert validate_secret_half(color, start_half(color), method) == []  # type: ignore[arg-type]


def test_secret_half_piece_counts_are_exact() -> None:
    half = start_half("red")
    del half["b0"]  # a chariot short
    half["d1"] = "P"  # a sixth soldier
    violations = validate_secret_half("red", half, "middle_soldier")
    counts = [v for v in violations if v.code == "wrong_piece_count"]
    assert len(counts) == 2
    assert all(v.point is None for v in counts)
    messages = " ".join(v.message for v in counts)
    assert "1 chariot;" in messages and "exactly 2 chariots" in messages
    assert "6 soldiers" in messages and "exactly 5 soldiers" in messages


def test_secret_half_reads_ascii_points_only() -> None:
    """A full-width digit ("f１") once named f1 a second time: both advisors stood on f1,
    no fault was found, and the reveal kept one piece of the two."""
    half = start_half("red")
    del half["e0"], half["g0"]
    half["f1"] = "A"
    half["f\uff11"] = "A"
    violations = validate_secret_half("red", half, "five_soldiers")
    assert ("f\uff11", "unknown_point") in [(v.point, v.code) for v in violations]
    with pytest.raises(SetupError):
        combine_secret_setups(half, start_half("black"), "five_soldiers")
    kelvin = start_half("red")
    kelvin["\u212a0"] = kelvin.pop("k0")  # the Kelvin sign lower-cases to "k"
    assert "unknown_point" in codes(validate_secret_half("red", kelvin, "five_soldiers"))


def test_secret_half_names_one_point_once_in_any_spelling() -> None:
    half = list(start_half("red").items())
    half.remove(("e0", "A"))
    half.append(("F0", "A"))  # the general's point, in upper case
    violations = validate_secret_half("red", half, "five_soldiers")  # type: ignore[arg-type]
    assert ("f0", "two_pieces_one_point") in [(v.point, v.code) for v in violations]


def test_secret_half_must_stay_on_own_half() -> None:
    half = start_half("red")
    half["d5"] = half.pop("c0")  # a horse across the river
    violations = validate_secret_half("red", half, "five_soldiers")
    assert [(v.point, v.code) for v in violations] == [("d5", "not_own_half")]
    assert "d5" in violations[0].message and "own half" in violations[0].message
    black = start_half("black")
    black["d4"] = black.pop("c9")
    assert codes(validate_secret_half("black", black, "five_soldiers")) == ["not_own_half"]


def test_secret_general_must_be_in_palace() -> None:
    half = start_half("red")
    half["d1"] = half.pop("f0")
    violations = validate_secret_half("red", half, "five_soldiers")
    assert [(v.point, v.code) for v in violations] == [("d1", "general_outside_palace")]
    half = start_half("red")
    half["f2"] = half.pop("f0")  # any palace point will do
    assert validate_secret_half("red", half, "five_soldiers") == []


def test_secret_advisors_only_on_advisor_points() -> None:
    half = start_half("red")
    half["f2"] = half.pop("e0")  # in the palace but not an advisor point
    violations = validate_secret_half("red", half, "five_soldiers")
    assert [(v.point, v.code) for v in violations] == [("f2", "advisor_point")]
    assert "e0 g0 f1 e2 g2" in violations[0].message
    half = start_half("red")
    half["f1"] = half.pop("e0")
    assert validate_secret_half("red", half, "five_soldiers") == []


def test_secret_elephants_only_on_elephant_points() -> None:
    half = start_half("black")
    half["e7"] = half.pop("d9")
    violations = validate_secret_half("black", half, "five_soldiers")
    assert [(v.point, v.code) for v in violations] == [("e7", "elephant_point")]
    assert "d9 h9 b7 f7 j7 d5 h5" in violations[0].message
    half = start_half("black")
    half["d5"] = half.pop("d9")  # the elephant point by the river
    assert validate_secret_half("black", half, "five_soldiers") == []


def test_secret_missiles_stay_in_their_base() -> None:
    half = start_half("red")
    half["a1"] = half.pop("a0")
    violations = validate_secret_half("red", half, "five_soldiers")
    assert [(v.point, v.code) for v in violations] == [("a1", "missile_not_in_base")]
    assert "a0 and k0" in violations[0].message


def test_secret_other_pieces_anywhere_on_own_half() -> None:
    half = start_half("red")
    for src, dst in (("b0", "f4"), ("c0", "e3"), ("c2", "k4"), ("a2", "a1"), ("i0", "c0")):
        half[dst] = half.pop(src)
    assert validate_secret_half("red", half, "five_soldiers") == []


def test_five_soldiers_guard_gate_violations() -> None:
    half = start_half("red")
    half["b4"] = half.pop("b3")  # a soldier steps forward
    violations = validate_secret_half("red", half, "five_soldiers")
    assert [(v.point, v.code) for v in violations] == [("b4", "soldier_not_on_start_point")]
    assert "b3 d3 f3 h3 j3" in violations[0].message
    # The same half is fine when the middle soldier alone guards the gate.
    assert validate_secret_half("red", half, "middle_soldier") == []


def test_middle_soldier_guards_gate_ranks_3_4() -> None:
    half = start_half("red")
    for src, dst in (("b3", "a4"), ("d3", "c3"), ("h3", "h4"), ("j3", "k4")):
        half[dst] = half.pop(src)
    assert validate_secret_half("red", half, "middle_soldier") == []
    assert (
        codes(validate_secret_half("red", half, "five_soldiers"))
        == ["soldier_not_on_start_point"] * 4
    )
    # A soldier on rank 2 is behind its start rank.
    half["a2"], half["a4"] = half["a4"], half["a2"]  # soldier and fighter swap
    violations = validate_secret_half("red", half, "middle_soldier")
    assert [(v.point, v.code) for v in violations] == [("a2", "soldier_behind_start_rank")]


def test_middle_soldier_must_stay_on_centre_point() -> None:
    half = start_half("black")
    half["e5"] = half.pop("f6")
    violations = validate_secret_half("black", half, "middle_soldier")
    assert [(v.point, v.code) for v in violations] == [("f6", "centre_soldier_missing")]
    half = start_half("black")
    half["g6"] = half.pop("h6")  # black's front ranks are 5 and 6
    half["b5"] = half.pop("b6")
    assert validate_secret_half("black", half, "middle_soldier") == []
    half["b7"] = half.pop("b5")
    assert codes(validate_secret_half("black", half, "middle_soldier")) == [
        "soldier_behind_start_rank"
    ]


def test_secret_half_wrong_color_and_unknown_letters() -> None:
    half = start_half("red")
    half["b0"] = "r"
    half["c0"] = "X"
    violations = validate_secret_half("red", half, "five_soldiers")
    assert ("b0", "wrong_color") in [(v.point, v.code) for v in violations]
    assert ("c0", "unknown_piece") in [(v.point, v.code) for v in violations]
    assert codes(violations).count("wrong_piece_count") == 2  # a chariot and a horse short
    half = start_half("black")
    half["zz"] = "r"
    assert "unknown_point" in codes(validate_secret_half("black", half, "five_soldiers"))


def test_secret_half_as_list_reports_two_pieces_on_one_point() -> None:
    pairs = list(start_half("red").items()) + [("b0", "N")]
    violations = validate_secret_half("red", pairs, "five_soldiers")
    assert ("b0", "two_pieces_one_point") in [(v.point, v.code) for v in violations]


def test_secret_half_rejects_unknown_color_or_method() -> None:
    with pytest.raises(ValueError, match="color"):
        validate_secret_half("blue", {}, "five_soldiers")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="method"):
        validate_secret_half("red", {}, "all_soldiers")  # type: ignore[arg-type]


# --- secret setups: reveal ------------------------------------------------------------


def test_secret_reveal_of_legal_halves_builds_fen_red_to_move() -> None:
    reveal = combine_secret_setups(start_half("red"), start_half("black"), "five_soldiers")
    assert reveal.fen == FEIDAN_START
    assert not reveal.void
    assert reveal.reasons == ()


def test_secret_reveal_raises_with_all_violations() -> None:
    red = start_half("red")
    red["d1"] = red.pop("f0")
    black = start_half("black")
    black["a8"] = black.pop("a9")
    with pytest.raises(SetupError) as caught:
        combine_secret_setups(red, black, "five_soldiers")
    assert isinstance(caught.value, ValueError)
    assert [(v.point, v.code) for v in caught.value.violations] == [
        ("d1", "general_outside_palace"),
        ("a8", "missile_not_in_base"),
    ]


def _facing_halves() -> tuple[dict[str, str], dict[str, str]]:
    """Both generals on the e-file with nothing between them."""
    red = start_half("red")
    red["e1"] = red.pop("f0")
    red["f1"] = red.pop("e0")  # advisor off the e-file
    black = start_half("black")
    black["e8"] = black.pop("f9")
    black["f8"] = black.pop("e9")
    return red, black


def test_secret_reveal_void_when_generals_face() -> None:
    red, black = _facing_halves()
    reveal = combine_secret_setups(red, black, "five_soldiers")
    assert reveal.void
    assert reveal.reasons == ("generals_facing",)
    # A piece between them that attacks nothing makes the reveal count.
    red["e4"] = red.pop("c0")
    assert not combine_secret_setups(red, black, "five_soldiers").void


def test_secret_reveal_void_when_in_check() -> None:
    # Red's chariot on e4 looks up the open e-file at Black's general on e8.
    red = start_half("red")
    red["e4"] = red.pop("b0")
    black = start_half("black")
    black["e8"] = black.pop("f9")
    black["f8"] = black.pop("e9")
    reveal = combine_secret_setups(red, black, "five_soldiers")
    assert reveal.void
    assert reveal.reasons == ("black_in_check",)
    # Black's chariot on e5 against Red's general on e1: Red is in check.
    red = start_half("red")
    red["e1"] = red.pop("f0")
    red["f1"] = red.pop("e0")
    black = start_half("black")
    black["e5"] = black.pop("b9")
    reveal = combine_secret_setups(red, black, "middle_soldier")
    assert reveal.void
    assert reveal.reasons == ("red_in_check",)


def test_secret_reveal_void_when_both_generals_in_check() -> None:
    red = start_half("red")
    red["e1"] = red.pop("f0")
    red["f1"] = red.pop("e0")
    red["g4"] = red.pop("b0")
    black = start_half("black")
    black["g8"] = black.pop("f9")
    black["f8"] = black.pop("g9")
    black["e5"] = black.pop("b9")
    reveal = combine_secret_setups(red, black, "five_soldiers")
    assert reveal.reasons == ("red_in_check", "black_in_check")


def test_secret_reveal_void_when_fighter_gives_check() -> None:
    # From e4 Red's fighter reaches f7 (one file across, three ranks up); e5 and e6
    # are empty, so nothing blocks it, and Black's general stands on f7.
    red = start_half("red")
    red["e4"] = red.pop("a2")
    black = start_half("black")
    black["f7"] = black.pop("f9")
    reveal = combine_secret_setups(red, black, "five_soldiers")
    assert reveal.reasons == ("black_in_check",)


def _engine_sees_check(fen: str, mover: str) -> bool:
    """Is ``mover`` (w or b) in check on the board of ``fen``, as the FEN reader judges it: in
    check when it is to move, or refused as the side not to move in check."""
    board = fen.split()[0]
    try:
        return Position.from_fen("feidan", f"{board} {mover} - - 0 1").is_check()
    except InvalidFenError as error:
        assert error.code == "fen.other_side_in_check"
    other = "b" if mover == "w" else "w"
    try:
        Position.from_fen("feidan", f"{board} {other} - - 0 1")
    except InvalidFenError as error:
        assert error.code == "fen.other_side_in_check"
        return True
    return False


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_reveal_is_void_for_check_exactly_when_the_fen_reader_sees_one(seed: int) -> None:
    rng = random.Random(seed)
    for method in ("five_soldiers", "middle_soldier"):
        red = random_secret_half("red", method, rng)  # type: ignore[arg-type]
        black = random_secret_half("black", method, rng)  # type: ignore[arg-type]
        reveal = combine_secret_setups(red, black, method)  # type: ignore[arg-type]
        if reveal.reasons == ("generals_facing",):
            continue
        expected = tuple(
            code
            for code, mover in (("red_in_check", "w"), ("black_in_check", "b"))
            if _engine_sees_check(reveal.fen, mover)
        )
        assert reveal.reasons == expected


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_secret_half_is_always_legal(seed: int) -> None:
    rng = random.Random(seed)
    for color in ("red", "black"):
        for method in ("five_soldiers", "middle_soldier"):
            half = random_secret_half(color, method, rng)  # type: ignore[arg-type]
            assert validate_secret_half(color, half, method) == []  # type: ignore[arg-type]


def test_random_secret_half_varies_with_the_seed() -> None:
    halves = {
        tuple(sorted(random_secret_half("red", "middle_soldier", random.Random(seed)).items()))
        for seed in range(20)
    }
    assert len(halves) == 20


def test_redraw_until_valid_finds_a_counting_reveal() -> None:
    red, _ = _facing_halves()
    rng = random.Random(7)
    black, reveal = redraw_until_valid("red", red, "five_soldiers", rng)
    assert validate_secret_half("black", black, "five_soldiers") == []
    assert not reveal.void
    assert reveal == combine_secret_setups(red, black, "five_soldiers")
