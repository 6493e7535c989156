"""docs/rules.md §1 and §4: the board, how every traditional piece moves, the flying
general, check and the ban on moving into check. One test per rule, on
hand-built positions (xiangqi unless the rule needs the 11-file board)."""

import pytest

from engine import IllegalMoveError, Move, Position


def targets(pos: Position, point: str) -> set[str]:
    """The points the piece on ``point`` may legally move to."""
    return {m.iccs()[2:] for m in pos.legal_moves if m.iccs()[:2] == point}


def xq(fen: str) -> Position:
    return Position.from_fen("xiangqi", fen)


# -- the board (§1) ----------------------------------------------------------


def test_board_coordinates_files_from_reds_left_ranks_from_reds_back_rank() -> None:
    pos = Position.start("xiangqi")
    assert pos.piece_at("a0") == "R"
    assert pos.piece_at("e0") == "K"
    assert pos.piece_at("h2") == "C"
    assert pos.piece_at("e9") == "k"
    assert pos.piece_at("i6") == "p"
    assert pos.turn == "red"
    wide = Position.start("feidan")
    assert (wide.variant.width, wide.variant.height) == (11, 10)
    assert wide.piece_at("f0") == "K"
    assert wide.piece_at("k9") == "m"
    assert Move.from_iccs("h2e2") == Move(7, 2, 4, 2)


@pytest.mark.parametrize(
    ("fen", "point", "expected"),
    [
        # centre of the palace: four steps
        ("4k4/4a4/9/9/9/9/9/9/4K4/9 w - - 0 1", "e1", {"e0", "e2", "d1", "f1"}),
        # a corner: two steps, never out of the palace
        ("4k4/4a4/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0", {"d1", "e0"}),
        ("4k4/4a4/9/9/9/9/9/5K3/9/9 w - - 0 1", "f2", {"e2", "f1"}),
        # Black's palace is ranks 7-9
        ("9/9/3k5/9/9/9/9/9/4A4/4K4 b - - 0 1", "d7", {"d8", "e7"}),
    ],
)
def test_palace_the_general_steps_orthogonally_inside_it(
    fen: str, point: str, expected: set[str]
) -> None:
    assert targets(xq(fen), point) == expected


def test_palace_on_the_eleven_file_board_is_files_e_to_g() -> None:
    pos = Position.from_fen("feidan", "5k5/5a5/11/11/11/11/11/11/6K4/11 w - - 0 1")
    assert targets(pos, "g1") == {"g0", "g2", "f1"}
    corner = Position.from_fen("feidan", "5k5/5a5/11/11/11/11/11/11/11/4K6 w - - 0 1")
    assert targets(corner, "e0") == {"e1", "f0"}


def test_river_soldiers_gain_the_sideways_step_once_across() -> None:
    red = xq("4k4/4a4/9/9/2P6/4P4/9/9/9/3K5 w - - 0 1")
    assert targets(red, "e4") == {"e5"}  # rank 4: own half
    assert targets(red, "c5") == {"c6", "b5", "d5"}  # rank 5: across the river
    black = xq("3k5/9/9/9/4p4/6p2/9/9/4A4/4K4 b - - 0 1")
    assert targets(black, "e5") == {"e4"}  # rank 5 is Black's own half
    assert targets(black, "g4") == {"g3", "f4", "h4"}


def test_river_elephants_stay_on_their_own_half() -> None:
    pos = xq("4k4/4a4/9/9/9/2B3B2/9/9/9/3K5 w - - 0 1")
    assert targets(pos, "c4") == {"a2", "e2"}
    assert targets(pos, "g4") == {"e2", "i2"}
    black = xq("4k4/9/9/9/2b6/9/9/9/4A4/3K5 b - - 0 1")
    assert targets(black, "c5") == {"a7", "e7"}


# -- pieces (§4) ---------------------------------------------------------------


def test_advisor_steps_diagonally_inside_the_palace() -> None:
    centre = xq("4k4/4a4/9/9/9/9/9/4K4/4A4/9 w - - 0 1")
    assert targets(centre, "e1") == {"d0", "f0", "d2", "f2"}
    corner = xq("4k4/4a4/9/9/9/9/9/3A5/9/4K4 w - - 0 1")
    assert targets(corner, "d2") == {"e1"}
    black = xq("4k4/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert targets(black, "e8") == {"d9", "f9", "d7", "f7"}
    wide = Position.from_fen("feidan", "5k5/5a5/11/11/11/11/11/11/5A5/4K6 w - - 0 1")
    assert targets(wide, "f1") == {"e2", "g0", "g2"}  # e0 holds the general


def test_elephant_moves_two_diagonally_and_is_blocked_by_its_eye() -> None:
    free = xq("4k4/4a4/9/9/9/9/9/4B4/9/3K5 w - - 0 1")
    assert targets(free, "e2") == {"c0", "g0", "c4", "g4"}
    # 塞象眼: a piece of either colour on the point between blocks that way
    blocked = xq("4k4/4a4/9/9/9/9/5n3/4B4/3N5/3K5 w - - 0 1")
    assert targets(blocked, "e2") == {"g0", "c4"}


def test_elephant_never_crosses_the_river_even_over_empty_points() -> None:
    pos = xq("3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1")
    for move in ("c0e2", "d9d8", "e2g4", "d8d9"):
        pos.push_iccs(move)
    assert targets(pos, "g4") == {"e2", "i2"}


def test_elephant_points_of_the_eleven_file_board() -> None:
    pos = Position.from_fen("feidan", "5k5/5a5/11/11/11/11/11/5B5/11/4K6 w - - 0 1")
    assert targets(pos, "f2") == {"d0", "h0", "d4", "h4"}
    edge = Position.from_fen("feidan", "5k5/5a5/11/11/11/11/11/1B9/11/4K6 w - - 0 1")
    assert targets(edge, "b2") == {"d0", "d4"}


def test_horse_moves_like_the_character_ri() -> None:
    pos = xq("4k4/4a4/9/9/9/4N4/9/9/9/3K5 w - - 0 1")
    assert targets(pos, "e4") == {"d6", "f6", "c5", "g5", "c3", "g3", "d2", "f2"}
    corner = xq("4k4/4a4/9/9/9/9/9/9/9/N2K5 w - - 0 1")
    assert targets(corner, "a0") == {"b2", "c1"}


def test_horse_is_blocked_by_a_piece_on_its_leg() -> None:
    # 蹩马脚: e5 (enemy) blocks d6/f6, d4 (own) blocks c5/c3; e3 and f4 are free
    pos = xq("4k4/4a4/9/9/4p4/3PN4/9/9/9/3K5 w - - 0 1")
    assert targets(pos, "e4") == {"g5", "g3", "d2", "f2"}


def test_chariot_slides_until_the_first_piece_and_may_take_it_if_enemy() -> None:
    pos = xq("4k4/4a4/9/9/p8/9/9/9/9/R2K5 w - - 0 1")
    assert targets(pos, "a0") == {"a1", "a2", "a3", "a4", "a5", "b0", "c0"}


def test_cannon_moves_like_a_chariot_without_capturing() -> None:
    pos = xq("4k4/4a4/9/9/9/9/9/1C7/9/3K5 w - - 0 1")
    expected = {f"b{r}" for r in (0, 1, 3, 4, 5, 6, 7, 8, 9)} | {f"{f}2" for f in "acdefghi"}
    assert targets(pos, "b2") == expected


@pytest.mark.parametrize(
    ("fen", "capture", "legal"),
    [
        pytest.param("4k4/4a4/9/9/9/9/9/C1N1r4/9/5K3 w - - 0 1", "a2e2", True, id="own-screen"),
        pytest.param("4k4/4a4/9/9/9/9/9/C1n1r4/9/5K3 w - - 0 1", "a2e2", True, id="enemy-screen"),
        pytest.param("4k4/4a4/9/9/9/9/9/C3r4/9/5K3 w - - 0 1", "a2e2", False, id="no-screen"),
        pytest.param("4k4/4a4/9/9/9/9/9/CNn1r4/9/5K3 w - - 0 1", "a2e2", False, id="two-screens"),
        pytest.param("3k5/9/3r5/9/9/3n5/9/3C5/9/4K4 w - - 0 1", "d2d7", True, id="along-a-file"),
        pytest.param(
            "3k5/3n5/3R5/9/9/3n5/9/3C5/9/4K4 w - - 0 1", "d2d7", False, id="not-own-piece"
        ),
    ],
)
def test_cannon_screen_rule(fen: str, capture: str, legal: bool) -> None:
    assert (Move.from_iccs(capture) in xq(fen).legal_moves) is legal


def test_cannon_cannot_move_to_an_empty_point_beyond_a_screen() -> None:
    pos = xq("4k4/4a4/9/9/9/9/9/C1N6/9/3K5 w - - 0 1")
    assert targets(pos, "a2") == {"b2", "a1", "a0"} | {f"a{r}" for r in range(3, 10)}


def test_soldier_before_the_river_only_steps_forward() -> None:
    pos = xq("4k4/4a4/9/9/9/9/P8/9/9/3K5 w - - 0 1")
    assert targets(pos, "a3") == {"a4"}


def test_soldier_after_the_river_steps_forward_or_sideways() -> None:
    pos = xq("4k4/4a4/9/9/4P4/9/9/9/9/3K5 w - - 0 1")
    assert targets(pos, "e5") == {"e6", "d5", "f5"}


def test_soldier_never_moves_backward_even_on_the_last_rank() -> None:
    pos = xq("P3k4/4a4/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert targets(pos, "a9") == {"b9"}
    black = xq("4k4/4a4/9/9/9/9/9/9/9/p2K5 b - - 0 1")
    assert targets(black, "a0") == {"b0"}


def test_soldier_captures_the_way_it_moves() -> None:
    pos = xq("4k4/4a4/9/9/3rn4/4P4/9/9/9/5K3 w - - 0 1")
    assert targets(pos, "e4") == {"e5"}  # forward capture; d4 is not reachable yet
    across = xq("4k4/4a4/9/3rPn3/9/9/9/9/9/5K3 w - - 0 1")
    assert targets(across, "e6") == {"e7", "d6", "f6"}


# -- flying general (将帅对面) --------------------------------------------------


def test_flying_general_a_piece_alone_between_the_generals_may_not_leave_the_file() -> None:
    pos = xq("4k4/9/9/9/9/9/4C4/9/9/4K4 w - - 0 1")
    assert targets(pos, "e3") == {"e1", "e2", "e4", "e5", "e6", "e7", "e8"}
    with pytest.raises(IllegalMoveError):
        pos.push_iccs("e3a3")


def test_flying_general_a_general_may_not_step_onto_the_open_file() -> None:
    pos = xq("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert targets(pos, "e0") == {"e1", "f0"}
    blocked = xq("3k5/9/3a5/9/9/9/9/9/9/4K4 w - - 0 1")
    assert targets(blocked, "e0") == {"e1", "d0", "f0"}


def test_flying_general_counts_as_check_when_reading_a_position() -> None:
    # Red to move with the generals facing: Black (not to move) is "in check"
    from engine import InvalidFenError

    with pytest.raises(InvalidFenError, match="faces"):
        xq("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")


# -- check -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "checkers"),
    [
        pytest.param("4k4/9/9/9/9/9/9/9/9/3KR4 b - - 0 1", ["e0"], id="chariot"),
        pytest.param("4k4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1", ["d7"], id="horse"),
        pytest.param(
            "4k4/4a4/9/9/9/9/9/9/4C4/3K5 b - - 0 1", ["e1"], id="cannon-over-defender-piece"
        ),
        pytest.param(
            "4k4/9/9/9/4P4/9/9/4C4/9/3K5 b - - 0 1", ["e2"], id="cannon-over-attacker-piece"
        ),
        pytest.param("4k4/4P4/9/9/9/9/9/9/9/3K5 b - - 0 1", ["e8"], id="soldier-ahead"),
        pytest.param("3Pk4/9/9/9/9/9/9/9/9/3K5 b - - 0 1", ["d9"], id="soldier-beside"),
        pytest.param("4k4/9/9/9/9/9/9/9/9/3r1K3 w - - 0 1", ["d0"], id="black-chariot"),
        pytest.param("4k4/9/9/9/9/9/9/9/3p5/3K5 w - - 0 1", ["d1"], id="black-soldier"),
        pytest.param("4k4/9/3N5/9/9/9/9/9/9/3KR4 b - - 0 1", ["d7", "e0"], id="double-check"),
    ],
)
def test_check_by_each_piece_type(fen: str, checkers: list[str]) -> None:
    pos = xq(fen)
    assert pos.is_check()
    assert sorted(pos.checkers()) == checkers


@pytest.mark.parametrize(
    "fen",
    [
        pytest.param("4k4/3P5/3N5/9/9/9/9/9/9/3K5 b - - 0 1", id="horse-leg-blocked"),
        pytest.param("4k4/9/9/9/9/9/9/9/4C4/3K5 b - - 0 1", id="cannon-without-screen"),
        pytest.param("4k4/4a4/9/9/4P4/9/9/9/4C4/3K5 b - - 0 1", id="cannon-two-screens"),
        pytest.param("4P4/4k4/9/9/9/9/9/9/9/3K5 b - - 0 1", id="soldier-behind"),
        pytest.param("4k4/4a4/9/9/9/9/9/9/9/3KR4 b - - 0 1", id="chariot-blocked"),
    ],
)
def test_no_check_when_the_capture_rule_does_not_reach(fen: str) -> None:
    assert not xq(fen).is_check()
    assert xq(fen).checkers() == []


def test_cannot_move_into_check() -> None:
    # horse c2 covers d0 and e1, chariot f5 covers f0: the general has no move
    pos = xq("4k4/4a4/9/9/5r3/9/P8/2n6/9/4K4 w - - 0 1")
    assert not pos.is_check()
    assert {m.iccs() for m in pos.legal_moves} == {"a3a4"}
    # cannon d7 over the screen d4 covers d1
    cannon = xq("4k4/4a4/3c5/9/9/3N5/9/9/4K4/9 w - - 0 1")
    assert targets(cannon, "e1") == {"e0", "e2", "f1"}


def test_cannot_move_into_check_stepping_back_along_the_checking_line() -> None:
    pos = xq("3k5/9/3a5/4r4/9/9/9/9/4K4/9 w - - 0 1")
    assert pos.is_check()
    assert targets(pos, "e1") == {"d1", "f1"}  # e0 and e2 stay on the rook's file


def test_a_check_must_be_answered() -> None:
    pos = xq("3k5/9/3a5/4r4/9/9/9/2N6/4K4/9 w - - 0 1")
    assert {m.iccs() for m in pos.legal_moves} == {"e1d1", "e1f1", "c2e3"}


def test_a_pinned_piece_may_not_expose_its_general() -> None:
    pinned = xq("3k5/4r4/9/9/9/9/9/9/4N4/4K4 w - - 0 1")
    assert targets(pinned, "e1") == set()
    free = xq("3k5/3r5/9/9/9/9/9/9/4N4/4K4 w - - 0 1")
    assert targets(free, "e1") == {"c0", "c2", "g0", "g2", "d3", "f3"}


def test_two_screens_pin_each_other_against_a_cannon() -> None:
    # cannon e7 over e2 and e3 sees nothing; either piece leaving gives check
    pos = xq("3k5/9/4c4/9/9/9/4N4/4R4/9/4K4 w - - 0 1")
    assert targets(pos, "e3") == set()
    assert targets(pos, "e2") == {"e1"}  # staying on the file keeps two screens
