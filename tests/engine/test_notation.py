"""Chinese move notation: writing (``chinese``) and reading (``parse_chinese``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
)
from engine.notation import (
    BLACK_NAMES,
    RED_NAMES,
    STRAIGHT,
    chinese,
    number_text,
    order_word,
    parse_chinese,
)
from engine.variants import ADVISOR, BLACK, ELEPHANT

XIANGQI_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# Soldiers stacked on two files for each side.
SOLDIER_STACKS = "3k5/9/P1P6/P1P6/2P6/p1p1p4/p3p4/9/9/4K4 w - - 0 1"
# Four red chariots (all a game has), two on file 九 and two (one turncoat)
# on file 三.
FOUR_CHARIOTS = "3k5/7+n1/9/7+c1/9/9/9/R5+R2/R5R2/1N2K4 w - - 0 1"
# Two red fighters on file 十一, missiles in all four base corners.
FIGHTER_STACK = "m3k5m/11/10f/11/F10/10f/11/F10/11/M4K4M w - - 0 1"


def at(variant: str, fen: str) -> Position:
    return Position.from_fen(variant, fen)


def iccs(text: str) -> Move:
    return Move.from_iccs(text)


def played(variant: str, *moves: str, setup: str | None = None) -> Position:
    pos = Position.start(variant, setup)
    for m in moves:
        pos.push_iccs(m)
    return pos


# ----------------------------------------------------------------------
# files, numerals, directions


def test_red_files_count_from_red_right() -> None:
    pos = Position.start("xiangqi")
    assert chinese(pos, iccs("i3i4")) == "兵一进一"
    assert chinese(pos, iccs("a3a4")) == "兵九进一"
    assert chinese(pos, iccs("c3c4")) == "兵七进一"
    assert parse_chinese(pos, "兵七进一") == iccs("c3c4")
    assert parse_chinese(pos, "炮二平五") == iccs("h2e2")


def test_black_uses_arabic_digits() -> None:
    pos = played("xiangqi", "h2e2")
    assert chinese(pos, iccs("h9g7")) == "马8进7"
    assert chinese(pos, iccs("a6a5")) == "卒1进1"
    assert chinese(pos, iccs("i6i5")) == "卒9进1"
    assert parse_chinese(pos, "马8进7") == iccs("h9g7")


def test_either_numeral_style_is_read_for_either_side() -> None:
    assert parse_chinese(Position.start("xiangqi"), "炮2平5") == iccs("h2e2")
    black = played("xiangqi", "h2e2")
    assert parse_chinese(black, "马八进七") == iccs("h9g7")
    assert parse_chinese(black, "马８进７") == iccs("h9g7")


def test_alternative_piece_names_are_read() -> None:
    pos = Position.start("xiangqi")
    assert parse_chinese(pos, "砲二平五") == iccs("h2e2")
    assert parse_chinese(pos, "包二平五") == iccs("h2e2")
    assert parse_chinese(pos, "傌二進三") == iccs("h0g2")
    assert parse_chinese(pos, "馬二进三") == iccs("h0g2")
    assert parse_chinese(pos, "俥九進一") == iccs("a0a1")
    assert parse_chinese(pos, "車九进一") == iccs("a0a1")
    assert parse_chinese(pos, "帥五進一") == iccs("e0e1")
    assert parse_chinese(pos, "将五进一") == iccs("e0e1")
    assert parse_chinese(pos, "士四进五") == iccs("f0e1")
    assert parse_chinese(pos, "象三进五") == iccs("g0e2")
    assert parse_chinese(pos, "卒七进一") == iccs("c3c4")
    assert parse_chinese(pos, " 炮二 平五 ") == iccs("h2e2")


def test_black_names_are_written_for_black() -> None:
    pos = played("xiangqi", "h2e2")
    assert chinese(pos, iccs("e9e8")) == "将5进1"
    assert chinese(pos, iccs("d9e8")) == "士4进5"
    assert chinese(pos, iccs("c9e7")) == "象3进5"
    assert chinese(pos, iccs("c6c5")) == "卒3进1"


def test_horse_target_is_file() -> None:
    pos = Position.start("xiangqi")
    assert chinese(pos, iccs("h0g2")) == "马二进三"
    assert chinese(pos, iccs("h0i2")) == "马二进一"
    pos.push_iccs("h0g2")
    pos.push_iccs("a6a5")
    # back from g2 to h0: file 二, not a count of ranks
    assert chinese(pos, iccs("g2h0")) == "马三退二"
    assert parse_chinese(pos, "马三退二") == iccs("g2h0")
    # two files across, one rank back
    assert chinese(pos, iccs("g2e1")) == "马三退五"


def test_advisor_and_elephant_targets_are_files() -> None:
    pos = Position.start("xiangqi")
    assert chinese(pos, iccs("f0e1")) == "仕四进五"
    assert chinese(pos, iccs("g0e2")) == "相三进五"
    assert chinese(pos, iccs("g0i2")) == "相三进一"
    pos.push_iccs("g0e2")
    pos.push_iccs("a6a5")
    assert chinese(pos, iccs("e2g0")) == "相五退三"


def test_chariot_advance_counts_ranks() -> None:
    pos = Position.start("xiangqi")
    assert chinese(pos, iccs("a0a2")) == "车九进二"
    assert parse_chinese(pos, "车一进一") == iccs("i0i1")
    pos.push_iccs("i0i1")
    pos.push_iccs("a6a5")
    assert chinese(pos, iccs("i1i0")) == "车一退一"
    assert chinese(pos, iccs("i1d1")) == "车一平六"
    assert parse_chinese(pos, "车一平六") == iccs("i1d1")


def test_cannon_counts_ranks_and_moves_sideways_to_a_file() -> None:
    pos = Position.start("xiangqi")
    assert chinese(pos, iccs("h2h9")) == "炮二进七"
    assert chinese(pos, iccs("b2b1")) == "炮八退一"
    assert chinese(pos, iccs("b2e2")) == "炮八平五"


def test_general_moves_one_rank_or_sideways() -> None:
    pos = at("xiangqi", "3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1")
    assert chinese(pos, iccs("f0f1")) == "帅四进一"
    assert chinese(pos, iccs("f0e0")) == "帅四平五"
    pos.push_iccs("f0f1")
    assert chinese(pos, iccs("d9d8")) == "将4进1"
    assert chinese(pos, iccs("d9e9")) == "将4平5"


def test_soldier_after_the_river_moves_sideways() -> None:
    pos = at("xiangqi", "3k5/9/9/2P6/9/9/9/9/9/4K4 w - - 0 1")
    assert chinese(pos, iccs("c6b6")) == "兵七平八"
    assert chinese(pos, iccs("c6d6")) == "兵七平六"
    assert chinese(pos, iccs("c6c7")) == "兵七进一"


def test_classic_opening_reads_as_iccs() -> None:
    pos = Position.start("xiangqi")
    line = [
        ("炮二平五", "h2e2"),
        ("马8进7", "h9g7"),
        ("马二进三", "h0g2"),
        ("车9平8", "i9h9"),
        ("车一平二", "i0h0"),
    ]
    for text, move in line:
        assert parse_chinese(pos, text) == iccs(move)
        assert chinese(pos, iccs(move)) == text
        pos.push_iccs(move)


def test_position_methods_use_chinese_notation() -> None:
    pos = Position.start("xiangqi")
    assert pos.parse_move("炮二平五") == iccs("h2e2")
    assert pos.parse_move("h2e2") == iccs("h2e2")
    assert pos.chinese(iccs("h2e2")) == "炮二平五"


# ----------------------------------------------------------------------
# pieces on one file


def test_front_rear_same_file() -> None:
    pos = at("xiangqi", "3k5/9/9/9/9/9/9/2R6/2R6/4K4 w - - 0 1")
    assert chinese(pos, iccs("c2c5")) == "前车进三"
    assert chinese(pos, iccs("c1b1")) == "后车平八"
    assert chinese(pos, iccs("c1c0")) == "后车退一"
    assert parse_chinese(pos, "前车进三") == iccs("c2c5")
    assert parse_chinese(pos, "后车平八") == iccs("c1b1")


def test_front_is_nearer_the_enemy_for_black() -> None:
    pos = at("xiangqi", "3k5/9/2r6/2r6/9/9/9/9/9/4K4 b - - 0 1")
    # Black's front chariot is the one on the lower rank
    assert chinese(pos, iccs("c6c3")) == "前车进3"
    assert chinese(pos, iccs("c7b7")) == "后车平2"
    assert parse_chinese(pos, "后车退2") == iccs("c7c9")


def test_file_number_is_accepted_when_only_one_piece_can_go() -> None:
    pos = at("xiangqi", "3k5/9/9/9/9/9/9/2R6/2R6/4K4 w - - 0 1")
    # only the front chariot can advance three: the rear one is blocked
    assert parse_chinese(pos, "车七进三") == iccs("c2c5")
    assert parse_chinese(pos, "车七退一") == iccs("c1c0")


def test_ambiguous_raises_ambiguous() -> None:
    pos = at("xiangqi", "3k5/9/9/9/9/7N1/9/7N1/9/4K4 w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_chinese(pos, "马二进三")
    assert info.value.candidates == ["h2g4", "h4g6"]
    assert parse_chinese(pos, "前马进三") == iccs("h4g6")
    assert parse_chinese(pos, "后马进三") == iccs("h2g4")
    assert chinese(pos, iccs("h2g4")) == "后马进三"


def test_three_soldiers_front_middle_rear() -> None:
    pos = at("xiangqi", "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1")
    assert chinese(pos, iccs("e7e8")) == "前兵进一"
    assert chinese(pos, iccs("e6d6")) == "中兵平六"
    assert chinese(pos, iccs("e5f5")) == "后兵平四"
    assert parse_chinese(pos, "中兵平六") == iccs("e6d6")
    assert parse_chinese(pos, "后兵平四") == iccs("e5f5")


def test_five_soldiers_use_front_ordinals_rear() -> None:
    pos = at("xiangqi", "P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1")
    written = {m: chinese(pos, iccs(m)) for m in ("a9b9", "a8b8", "a7b7", "a6b6", "a5b5")}
    assert written == {
        "a9b9": "前兵平八",
        "a8b8": "二兵平八",
        "a7b7": "三兵平八",
        "a6b6": "四兵平八",
        "a5b5": "后兵平八",
    }
    for move, text in written.items():
        assert parse_chinese(pos, text) == iccs(move)
    # the first and fifth may also be called by number
    assert parse_chinese(pos, "一兵平八") == iccs("a9b9")
    assert parse_chinese(pos, "五兵平八") == iccs("a5b5")


def test_four_soldiers_front_two_three_rear() -> None:
    pos = at("xiangqi", "3k5/P8/P8/P8/P8/9/9/9/9/4K4 w - - 0 1")
    assert chinese(pos, iccs("a8b8")) == "前兵平八"
    assert chinese(pos, iccs("a7b7")) == "二兵平八"
    assert chinese(pos, iccs("a6b6")) == "三兵平八"
    assert chinese(pos, iccs("a5b5")) == "后兵平八"


def test_soldiers_on_two_files_keep_the_file_number() -> None:
    pos = at("xiangqi", SOLDIER_STACKS)
    assert chinese(pos, iccs("a7a8")) == "前兵九进一"
    assert chinese(pos, iccs("c6b6")) == "中兵七平八"
    assert chinese(pos, iccs("c5d5")) == "后兵七平六"
    assert parse_chinese(pos, "前兵九进一") == iccs("a7a8")
    # the name may be left out when the file is given
    assert parse_chinese(pos, "前九进一") == iccs("a7a8")
    with pytest.raises(AmbiguousMoveError):
        parse_chinese(pos, "前兵进一")
    pos.push_iccs("a7a8")
    assert chinese(pos, iccs("a3a2")) == "前卒1进1"
    assert chinese(pos, iccs("e4f4")) == "后卒5平6"


def test_one_crowded_file_drops_the_file_number() -> None:
    pos = at("xiangqi", "3k5/9/P8/P8/2P6/9/9/9/9/4K4 w - - 0 1")
    assert chinese(pos, iccs("a7a8")) == "前兵进一"
    assert chinese(pos, iccs("c5c6")) == "兵七进一"
    # both forms are read
    assert parse_chinese(pos, "前兵进一") == iccs("a7a8")
    assert parse_chinese(pos, "前兵九进一") == iccs("a7a8")


def test_advisors_on_one_file_are_written_with_the_file_number() -> None:
    pos = at("xiangqi", "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1")
    assert chinese(pos, iccs("d0e1")) == "仕六进五"
    assert chinese(pos, iccs("d2e1")) == "仕六退五"
    # the file form is never ambiguous: only one advisor can go each way
    assert parse_chinese(pos, "仕六进五") == iccs("d0e1")
    assert parse_chinese(pos, "仕六退五") == iccs("d2e1")
    # 前/后 is still read
    assert parse_chinese(pos, "后仕进五") == iccs("d0e1")
    assert parse_chinese(pos, "前仕退五") == iccs("d2e1")


def test_advisors_on_one_file_are_written_with_the_file_number_black_and_feidan() -> None:
    black = at("xiangqi", "3ak4/9/3a5/9/9/9/9/9/9/3K5 b - - 0 1")
    assert chinese(black, iccs("d9e8")) == "士4进5"
    assert chinese(black, iccs("d7e8")) == "士4退5"
    assert parse_chinese(black, "后士进5") == iccs("d9e8")
    assert parse_chinese(black, "前士退5") == iccs("d7e8")
    feidan = at("feidan", "4k6/11/11/11/11/11/11/4A6/11/4A1K4 w - - 0 1")
    assert chinese(feidan, iccs("e0f1")) == "仕七进六"
    assert chinese(feidan, iccs("e2f1")) == "仕七退六"


def test_elephants_on_one_file_are_written_with_the_file_number() -> None:
    pos = at("xiangqi", "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1")
    assert chinese(pos, iccs("c0e2")) == "相七进五"
    assert chinese(pos, iccs("c4e2")) == "相七退五"
    assert parse_chinese(pos, "相七进五") == iccs("c0e2")
    assert parse_chinese(pos, "相七退五") == iccs("c4e2")
    assert parse_chinese(pos, "后相进五") == iccs("c0e2")
    assert parse_chinese(pos, "前相退五") == iccs("c4e2")


def test_turncoat_is_named_like_its_plain_piece() -> None:
    pos = Position.start("xinban")
    assert chinese(pos, iccs("h2e2")) == "炮二平五"
    assert chinese(pos, iccs("h0g2")) == "马二进三"
    assert chinese(pos, iccs("a0a1")) == "车九进一"
    # a turncoat and a plain chariot on one file are told apart by 前/后
    crowded = at("xinban", FOUR_CHARIOTS)
    assert chinese(crowded, iccs("g2g5")) == "前车三进三"
    assert chinese(crowded, iccs("g1h1")) == "后车三平二"
    assert parse_chinese(crowded, "前车三进三") == iccs("g2g5")


# ----------------------------------------------------------------------
# feidan


def test_fighter_written_like_horse() -> None:
    pos = Position.start("feidan")
    assert chinese(pos, iccs("a2b5")) == "战机十一进十"
    assert chinese(pos, iccs("k2h1")) == "战机一退四"
    # three files across and one rank back; blocked only if b2 and c2 are both taken
    assert chinese(pos, iccs("a2d1")) == "战机十一退八"
    assert parse_chinese(pos, "战机十一进十") == iccs("a2b5")
    assert parse_chinese(pos, "机十一进十") == iccs("a2b5")
    assert parse_chinese(pos, "戰機一退四") == iccs("k2h1")
    stack = at("feidan", FIGHTER_STACK)
    assert chinese(stack, iccs("a5b8")) == "前战机进十"
    assert chinese(stack, iccs("a2d1")) == "后战机退八"


def test_fighter_never_moves_sideways() -> None:
    pos = Position.start("feidan")
    with pytest.raises(InvalidMoveError):
        parse_chinese(pos, "战机十一平十")


def test_missile_written_like_chariot() -> None:
    pos = Position.start("feidan")
    assert chinese(pos, iccs("a0a1")) == "导弹十一进一"
    assert parse_chinese(pos, "导弹一进一") == iccs("k0k1")
    assert parse_chinese(pos, "弹一进一") == iccs("k0k1")
    assert parse_chinese(pos, "導彈一进一") == iccs("k0k1")
    stack = at("feidan", FIGHTER_STACK)
    assert chinese(stack, iccs("a0a1")) == "导弹十一进一"
    assert chinese(stack, iccs("a0e0")) == "导弹十一平七"
    assert chinese(stack, iccs("k0k4")) == "导弹一进四"
    assert parse_chinese(stack, "导弹十一平七") == iccs("a0e0")


def test_eleven_file_board_numerals() -> None:
    pos = Position.start("feidan")
    assert chinese(pos, iccs("b3b4")) == "兵十进一"
    assert chinese(pos, iccs("a0a1")) == "导弹十一进一"
    assert chinese(pos, iccs("j3j4")) == "兵二进一"
    assert chinese(pos, iccs("i2j2")) == "炮三平二"
    assert chinese(pos, iccs("c2b2")) == "炮九平十"
    assert parse_chinese(pos, "兵十进一") == iccs("b3b4")
    pos.push_iccs("b3b4")
    assert chinese(pos, iccs("j6j5")) == "卒10进1"
    assert chinese(pos, iccs("k9k8")) == "导弹11进1"
    assert chinese(pos, iccs("a9a8")) == "导弹1进1"
    assert parse_chinese(pos, "卒10进1") == iccs("j6j5")
    assert parse_chinese(pos, "卒十进一") == iccs("j6j5")
    assert parse_chinese(pos, "导弹１１进１") == iccs("k9k8")


def test_file_ten_is_off_the_nine_file_board() -> None:
    with pytest.raises(InvalidMoveError, match="off the 9-file board"):
        parse_chinese(Position.start("xiangqi"), "车十进一")


# ----------------------------------------------------------------------
# xinban defection


DEFECTION_RED = "3k5/9/9/9/9/9/2+r6/9/1N7/4K4 w - - 0 1"
DEFECTION_BLACK = "4k4/9/5n3/3+R5/9/9/9/9/9/5K3 b - - 0 1"


def test_defection_suffix() -> None:
    red = at("xinban", DEFECTION_RED)
    assert red.move_effect(iccs("b1c3")).kind == "defection"
    assert chinese(red, iccs("b1c3")) == "马八进七车"
    assert parse_chinese(red, "马八进七车") == iccs("b1c3")
    assert parse_chinese(red, "马八进七") == iccs("b1c3")
    assert parse_chinese(red, "马八进七車") == iccs("b1c3")
    black = at("xinban", DEFECTION_BLACK)
    assert chinese(black, iccs("f7d6")) == "马6进4车"
    assert parse_chinese(black, "马6进4车") == iccs("f7d6")


def test_defection_suffix_must_agree_with_the_move() -> None:
    red = at("xinban", DEFECTION_RED)
    with pytest.raises(IllegalMoveError, match="defect"):
        parse_chinese(red, "马八进七马")
    plain = at("xinban", "3k5/9/9/9/9/9/2r6/9/1N7/4K4 w - - 0 1")
    assert chinese(plain, iccs("b1c3")) == "马八进七"
    with pytest.raises(IllegalMoveError, match="makes no piece defect"):
        parse_chinese(plain, "马八进七车")


def test_no_suffix_when_the_captor_cannot_make_it_defect() -> None:
    # a chariot that takes a turncoat chariot removes it
    pos = at("xinban", "3k5/9/9/9/9/9/2+r6/9/2R6/4K4 w - - 0 1")
    assert pos.move_effect(iccs("c1c3")).kind == "capture"
    assert chinese(pos, iccs("c1c3")) == "车七进二"


def test_suffix_outside_xinban_is_malformed() -> None:
    with pytest.raises(InvalidMoveError, match="no piece defects"):
        parse_chinese(Position.start("xiangqi"), "炮二进七马")


# ----------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    "text",
    [
        "",
        "炮",
        "炮二",
        "炮二平",
        "X二平五",
        "炮二上五",
        "炮炮二平五",
        "炮二平五五",
        "炮二平五x",
        "二进一",
        "前进一",
        "马二平三",
        "相三平五",
        "仕四平五",
        "兵七退一",
        "兵七进二",
        "帅五进二",
        "车一进十",
        "车一进0",
        "车一进01",
        "炮二平二",
        "象三进四",
        "马二进五",
        "车十平九",
        "车一平十",
        "车十二进一",
        "车二十进一",
        "炮进一",
        "战机二进三",
        "导弹一进一",
        "炮二平五兵",
        "炮二平五" * 5,
    ],
)
def test_malformed_raises_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_chinese(Position.start("xiangqi"), text)


def test_suffix_that_never_defects_is_malformed() -> None:
    with pytest.raises(InvalidMoveError, match="never defects"):
        parse_chinese(Position.start("xinban"), "炮二进七兵")


@pytest.mark.parametrize(
    "text",
    [
        "车一平二",  # the horse stands on h0
        "马三进四",  # no horse on file 三
        "前车进一",  # no file holds two chariots
        "中兵进一",
        "帅五平四",  # the advisor stands on f0
        "炮二进八",  # off the board
        "马二进四",  # the elephant on g0 blocks the horse's leg
        "车九退一",  # a chariot on its back rank cannot go back
    ],
)
def test_no_such_move_raises_illegal(text: str) -> None:
    with pytest.raises(IllegalMoveError):
        parse_chinese(Position.start("xiangqi"), text)


def test_illegal_reason_names_the_rule() -> None:
    # the cannon on e2 is pinned between the generals' file and Black's chariot
    pos = at("xiangqi", "3k5/9/9/9/4r4/9/9/4C4/9/4K4 w - - 0 1")
    with pytest.raises(IllegalMoveError, match="e2d2: it would leave the general in check"):
        parse_chinese(pos, "炮五平六")


def test_chinese_rejects_an_illegal_move() -> None:
    pos = Position.start("xiangqi")
    with pytest.raises(IllegalMoveError):
        chinese(pos, iccs("a0a5"))
    with pytest.raises(IllegalMoveError):
        chinese(pos, iccs("j0j1"))
    with pytest.raises(IllegalMoveError):
        chinese(pos, iccs("h9g7"))  # Black's move, Red to play


def test_chinese_checks_legality_in_the_position_it_is_given() -> None:
    # the writer keeps the legal moves of the last position it wrote for
    pos = Position.start("xiangqi")
    assert chinese(pos, iccs("h2e2")) == "炮二平五"
    pos.push_iccs("h2e2")
    with pytest.raises(IllegalMoveError):
        chinese(pos, iccs("h2e2"))  # now Black's turn, and the cannon has gone
    assert chinese(pos, iccs("h9g7")) == "马8进7"
    twin = pos.copy()
    pos.pop()
    assert chinese(pos, iccs("h2e2")) == "炮二平五"
    with pytest.raises(IllegalMoveError):
        chinese(twin, iccs("h2e2"))
    assert chinese(twin, iccs("h7h3")) == "炮8进4"
    other = Position.start("xiangqi")
    other.push_iccs("b2e2")
    with pytest.raises(IllegalMoveError):
        chinese(other, iccs("h2e2"))  # the same board, after another first move
    assert chinese(other, iccs("h9g7")) == "马8进7"


@pytest.mark.parametrize(
    ("variant", "move"),
    [
        ("xiangqi", Move(9, 0, 8, 0)),  # from file j, off the nine files
        ("xiangqi", Move(0, 0, 0, 10)),  # to rank 10, off the ten ranks
        ("xiangqi", Move(0, 0, -1, 0)),
        ("feidan", Move(10, 9, 10, 10)),  # to rank 10, off the ten ranks
    ],
)
def test_chinese_names_a_move_off_the_board(variant: str, move: Move) -> None:
    pos = Position.start(variant)
    with pytest.raises(IllegalMoveError) as info:
        chinese(pos, move)
    assert info.value.code == "move.off_board"
    assert info.value.fen == pos.fen()


def test_errors_carry_text_and_fen() -> None:
    pos = Position.start("xiangqi")
    with pytest.raises(IllegalMoveError) as info:
        parse_chinese(pos, "车一平二")
    assert info.value.text == "车一平二"
    assert info.value.fen == pos.fen()


# ----------------------------------------------------------------------
# every legal move, in random positions

STARTS = [
    ("xiangqi", XIANGQI_START),
    ("feidan", Position.start("feidan").fen()),
    *(
        ("xinban", Position.start("xinban", s).fen())
        for s in ("new", "traditional", "red-new", "black-new")
    ),
    ("xiangqi", SOLDIER_STACKS),
    ("xinban", FOUR_CHARIOTS),
    ("feidan", FIGHTER_STACK),
    ("xinban", DEFECTION_RED),
]


def random_position(variant: str, fen: str, seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    pos = at(variant, fen)
    for _ in range(plies):
        moves = sorted(pos.legal_moves)
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos


def assert_round_trip(pos: Position) -> None:
    written: dict[str, Move] = {}
    for move in pos.legal_moves:
        text = chinese(pos, move)
        assert text not in written, (pos.fen(), text, move, written.get(text))
        written[text] = move
        assert parse_chinese(pos, text) == move, (pos.fen(), text, move)


@pytest.mark.parametrize(("variant", "fen"), STARTS)
def test_every_move_of_a_start_reads_back(variant: str, fen: str) -> None:
    assert_round_trip(at(variant, fen))


@settings(max_examples=150, deadline=None)
@given(
    start=st.sampled_from(STARTS),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    plies=st.integers(min_value=0, max_value=120),
)
def test_every_legal_move_reads_back_and_is_unique(
    start: tuple[str, str], seed: int, plies: int
) -> None:
    variant, fen = start
    assert_round_trip(random_position(variant, fen, seed, plies))


# ----------------------------------------------------------------------
# the writer against the rules written out plainly


def plain_chinese(pos: Position, move: Move) -> str:
    """The notation of the legal ``move`` worked out step by step from the rules in the
    module's docstring, with none of the writer's tables or shortcuts."""
    w = pos.width
    fr = move.from_rank * w + move.from_file
    value = pos.board[fr]
    kind, own = value & 15, value & BLACK
    red = not own
    names = BLACK_NAMES if own else RED_NAMES

    def file_number(f: int) -> int:
        return w - f if red else f + 1

    columns: dict[int, list[int]] = {}
    for sq, v in enumerate(pos.board):
        if v and v & 15 == kind and v & BLACK == own:
            columns.setdefault(sq % w, []).append(sq)
    column = sorted(columns[fr % w], key=lambda sq: sq // w, reverse=red)
    file_text = number_text(file_number(fr % w), red)
    if len(column) == 1 or kind in (ADVISOR, ELEPHANT):
        head = names[kind] + file_text
    else:
        head = order_word(column.index(fr), len(column)) + names[kind]
        if sum(len(c) > 1 for c in columns.values()) > 1:
            head += file_text
    ahead = move.to_rank - move.from_rank if red else move.from_rank - move.to_rank
    if ahead == 0:
        tail = "平" + number_text(file_number(move.to_file), red)
    elif kind in STRAIGHT:
        tail = ("进" if ahead > 0 else "退") + number_text(abs(ahead), red)
    else:
        tail = ("进" if ahead > 0 else "退") + number_text(file_number(move.to_file), red)
    suffix = ""
    if pos.move_effect(move).kind == "defection":
        # the defected piece stands where the captor came from
        after = pos.copy()
        after.push(move)
        suffix = names[after.board[fr] & 15]
    return head + tail + suffix


@pytest.mark.parametrize(("variant", "fen"), STARTS)
def test_every_move_of_a_start_is_written_by_the_rules(variant: str, fen: str) -> None:
    pos = at(variant, fen)
    for move in pos.legal_moves:
        assert chinese(pos, move) == plain_chinese(pos, move), (pos.fen(), move)


@settings(max_examples=150, deadline=None)
@given(
    start=st.sampled_from(STARTS),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    plies=st.integers(min_value=0, max_value=120),
)
def test_every_legal_move_is_written_by_the_rules(
    start: tuple[str, str], seed: int, plies: int
) -> None:
    variant, fen = start
    pos = random_position(variant, fen, seed, plies)
    for move in pos.legal_moves:
        assert chinese(pos, move) == plain_chinese(pos, move), (pos.fen(), move)


@pytest.mark.parametrize(
    "text",
    [
        "h２e2",  # a full-width digit
        "h2e٢",  # an Arabic-Indic digit
        "h𝟐e2",  # a mathematical bold digit
        "\u212a0k1",  # the Kelvin sign, which lower-cases to "k"
        "ｈ2e2",  # a full-width letter
    ],
)
def test_iccs_reads_ascii_points_only(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_iccs(text)
    with pytest.raises(InvalidMoveError):
        Position.start("feidan").parse_move(text)
