"""RULES §4 (fighter, missile) and §5 (collision, cannon exception, the general
and the missile, the base rule, the dead general) on the 11-file board.

Files run a-k, the palace is files e-g, the centre file is f."""

import pytest

from engine import IllegalMoveError, Move, Outcome, Position


def fd(fen: str) -> Position:
    return Position.from_fen("feidan", fen)


def targets(pos: Position, point: str) -> set[str]:
    return {m.iccs()[2:] for m in pos.legal_moves if m.iccs()[:2] == point}


def after(fen: str, move: str) -> Position:
    pos = fd(fen)
    pos.push_iccs(move)
    return pos


# -- fighter (战机) ---------------------------------------------------------------


def test_fighter_moves_to_the_far_corner_of_a_one_by_three_rectangle() -> None:
    pos = fd("5k5/5a5/11/11/11/2F8/11/11/11/4K6 w - - 0 1")
    assert targets(pos, "c4") == {"b7", "d7", "b1", "d1", "f5", "f3"}


def test_fighter_goes_anywhere_across_the_river_and_into_a_palace() -> None:
    pos = fd("5k5/5a5/11/7F3/11/11/11/11/11/4K6 w - - 0 1")
    assert targets(pos, "h6") == {"g9", "i9", "g3", "i3", "e7", "e5", "k7", "k5"}


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        # both points of the long side on the fighter's file occupied, one of
        # each colour: b7 and d7 are blocked (阻航)
        pytest.param(
            "5k5/5a5/11/2n8/2P8/2F8/11/11/11/4K6 w - - 0 1",
            {"b1", "d1", "f5", "f3"},
            id="both-file-points",
        ),
        # one piece, at distance 1 or at distance 2, does not block
        pytest.param(
            "5k5/5a5/11/11/2P8/2F8/11/11/11/4K6 w - - 0 1",
            {"b7", "d7", "b1", "d1", "f5", "f3"},
            id="only-distance-1",
        ),
        pytest.param(
            "5k5/5a5/11/2n8/11/2F8/11/11/11/4K6 w - - 0 1",
            {"b7", "d7", "b1", "d1", "f5", "f3"},
            id="only-distance-2",
        ),
        # both points on the fighter's rank: f5 and f3 are blocked
        pytest.param(
            "5k5/5a5/11/11/11/2FNp6/11/11/11/4K6 w - - 0 1",
            {"b7", "d7", "b1", "d1"},
            id="both-rank-points",
        ),
        # pieces beside the long side (not on the fighter's own file) do not block
        pytest.param(
            "5k5/5a5/11/3n7/3P7/2F8/11/11/11/4K6 w - - 0 1",
            {"b7", "d7", "b1", "d1", "f5", "f3"},
            id="off-the-line",
        ),
    ],
)
def test_fighter_is_blocked_only_when_both_points_of_its_long_side_are_occupied(
    fen: str, expected: set[str]
) -> None:
    assert targets(fd(fen), "c4") == expected


def test_fighter_gives_check_unless_both_points_are_occupied() -> None:
    checking = fd("5k5/11/11/4F6/11/11/11/11/11/4K6 b - - 0 1")
    assert checking.checkers() == ["e6"]
    one = fd("5k5/11/4n6/4F6/11/11/11/11/11/4K6 b - - 0 1")
    assert one.checkers() == ["e6"]
    both = fd("5k5/4n6/4n6/4F6/11/11/11/11/11/4K6 b - - 0 1")
    assert not both.is_check()


# -- missile (导弹) -----------------------------------------------------------------


def test_missile_moves_like_a_chariot() -> None:
    pos = fd("5k5/5a5/11/11/11/2M2n5/11/11/11/4K6 w - - 0 1")
    assert targets(pos, "c4") == (
        {f"c{r}" for r in range(10) if r != 4} | {"a4", "b4", "d4", "e4", "f4"}
    )


def test_missile_gives_check_like_a_chariot() -> None:
    pos = fd("5k5/11/11/11/11/11/11/11/11/4K1m4 w - - 0 1")
    assert pos.checkers() == ["g0"]


# -- collision (碰炸) --------------------------------------------------------------


def test_collision_missile_onto_an_enemy_piece_removes_both() -> None:
    pos = fd("5k5/11/11/11/11/M3n6/11/11/11/4K6 w - - 0 1")
    assert pos.move_effect(Move.from_iccs("a4e4")).kind == "collision"
    pos.push_iccs("a4e4")
    assert pos.piece_at("a4") is None
    assert pos.piece_at("e4") is None
    assert pos.board_fen() == "5k5/11/11/11/11/11/11/11/11/4K6"


@pytest.mark.parametrize(
    ("fen", "move"),
    [
        pytest.param("5k5/11/11/11/11/R2m7/11/11/11/4K6 w - - 0 1", "a4d4", id="chariot"),
        pytest.param("5k5/11/11/11/11/3m7/11/2N8/11/4K6 w - - 0 1", "c2d4", id="horse"),
        pytest.param("5k5/11/11/11/3m7/3P7/11/11/11/4K6 w - - 0 1", "d4d5", id="soldier"),
        pytest.param("5k5/11/11/11/11/11/11/4A6/5m5/4K6 w - - 0 1", "e2f1", id="advisor"),
        pytest.param("5k5/11/11/11/11/11/11/5m5/11/3BK6 w - - 0 1", "d0f2", id="elephant"),
        pytest.param("5k5/11/3m7/11/11/2F8/11/11/11/4K6 w - - 0 1", "c4d7", id="fighter"),
        pytest.param("5k5/11/1m9/11/1M9/11/11/11/11/4K6 w - - 0 1", "b5b7", id="missile"),
    ],
)
def test_collision_a_piece_other_than_cannon_or_general_onto_a_missile_removes_both(
    fen: str, move: str
) -> None:
    pos = fd(fen)
    assert pos.move_effect(Move.from_iccs(move)).kind == "collision"
    pos.push_iccs(move)
    assert pos.piece_at(move[:2]) is None
    assert pos.piece_at(move[2:]) is None
    assert sorted(pos.pieces().values()) == ["K", "k"]


def test_collision_counts_as_a_capture_for_the_natural_limit() -> None:
    pos = fd("5k5/11/11/11/11/R2m7/11/11/11/4K6 w - - 57 30")
    pos.push_iccs("a4d4")
    assert pos.halfmove == 0


def test_cannon_takes_a_missile_and_survives() -> None:
    pos = fd("5k5/11/1m9/11/1P9/11/11/1C9/11/4K6 w - - 0 1")
    assert pos.move_effect(Move.from_iccs("b2b7")).kind == "cannon_takes_missile"
    pos.push_iccs("b2b7")
    assert pos.piece_at("b7") == "C"
    assert pos.piece_at("b2") is None
    assert pos.piece_at("b5") == "P"


def test_missile_onto_a_cannon_removes_both() -> None:
    pos = fd("5k5/11/1c9/11/1M9/11/11/11/11/4K6 w - - 0 1")
    assert pos.move_effect(Move.from_iccs("b5b7")).kind == "collision"
    pos.push_iccs("b5b7")
    assert pos.piece_at("b7") is None
    assert pos.piece_at("b5") is None


def test_the_general_never_moves_onto_a_missile() -> None:
    # the missile on e1 checks; the general may step aside but never take it
    pos = fd("6k4/11/11/11/11/11/11/11/4m6/4K6 w - - 0 1")
    assert pos.is_check()
    assert targets(pos, "e0") == {"f0"}
    with pytest.raises(IllegalMoveError, match="missile"):
        pos.push_iccs("e0e1")


def test_the_general_may_not_step_where_a_missile_attacks() -> None:
    # the missile on b1 sweeps rank 1
    pos = fd("6k4/11/11/11/11/11/11/11/1m9/4K6 w - - 0 1")
    assert not pos.is_check()
    assert targets(pos, "e0") == {"f0"}


# -- the missile base (导弹基地) -----------------------------------------------------


def test_base_rule_missile_from_its_base_onto_a_missile_in_its_base_self_destructs() -> None:
    fen = "m4k5/11/11/11/11/11/11/11/11/M3K6 w - - 0 1"
    pos = fd(fen)
    assert pos.move_effect(Move.from_iccs("a0a9")).kind == "self_destruct"
    pos.push_iccs("a0a9")
    assert pos.piece_at("a0") is None
    assert pos.piece_at("a9") == "m"
    assert pos.turn == "black"


def test_base_rule_works_for_black_too() -> None:
    pos = fd("5k4m/11/11/11/11/11/11/11/11/4K5M b - - 0 1")
    assert pos.move_effect(Move.from_iccs("k9k0")).kind == "self_destruct"
    pos.push_iccs("k9k0")
    assert pos.piece_at("k9") is None
    assert pos.piece_at("k0") == "M"


@pytest.mark.parametrize(
    ("fen", "move"),
    [
        # the attacker is in its base, the target is not in its own base
        pytest.param("5k5/11/11/11/m10/11/11/11/11/M3K6 w - - 0 1", "a0a5", id="target-out"),
        # the target is in its base, the attacker is not
        pytest.param("m4k5/11/11/11/11/11/M10/11/11/4K6 w - - 0 1", "a3a9", id="attacker-out"),
        # a red missile on Black's base point is not in its own base
        pytest.param("M9m/5k5/11/11/11/11/11/11/11/4K6 w - - 0 1", "a9k9", id="enemy-base"),
    ],
)
def test_base_rule_outside_the_own_bases_a_hit_is_an_ordinary_collision(
    fen: str, move: str
) -> None:
    pos = fd(fen)
    assert pos.move_effect(Move.from_iccs(move)).kind == "collision"
    pos.push_iccs(move)
    assert pos.piece_at(move[:2]) is None
    assert pos.piece_at(move[2:]) is None


# -- dead general (死将) -------------------------------------------------------------

DEAD = "4k6/11/11/11/11/11/11/5m4R/11/4AKA4 w - - 0 1"


def test_dead_general_palace_missile_check_without_escape_loses_at_once() -> None:
    # the missile f2 is inside the red palace; e0 and g0 hold advisors, f1 is
    # on the missile's line: the general cannot move. The advisor could block
    # on f1 and the rook could collide with the missile, but the game is over.
    pos = fd(DEAD)
    assert pos.is_check()
    assert list(pos.legal_moves) == []
    assert pos.is_dead_general()
    assert pos.status() == "dead_general"
    assert pos.outcome() == Outcome("dead_general", "black")
    with pytest.raises(IllegalMoveError):
        pos.push_iccs("k2f2")
    with pytest.raises(IllegalMoveError):
        pos.push_iccs("e0f1")


def test_dead_general_when_the_general_can_escape_blocks_and_collisions_answer_too() -> None:
    pos = fd("4k6/11/11/11/11/11/11/5m4R/11/4AK5 w - - 0 1")
    assert pos.status() == "ongoing"
    assert not pos.is_dead_general()
    assert {m.iccs() for m in pos.legal_moves} == {"f0g0", "e0f1", "k2f2"}


def test_dead_general_a_missile_check_from_outside_the_palace_is_ordinary() -> None:
    # the same shape with the missile on f4: block or collide as usual
    pos = fd("4k6/11/11/11/11/5m4R/11/11/11/4AKA4 w - - 0 1")
    assert pos.status() == "ongoing"
    assert {m.iccs() for m in pos.legal_moves} == {"e0f1", "g0f1", "k4f4"}


def test_dead_general_with_no_help_a_missile_outside_the_palace_mates() -> None:
    pos = fd("5k5/11/11/11/4rmr4/11/11/11/11/5K5 w - - 0 1")
    assert pos.status() == "checkmate"
    assert pos.outcome() == Outcome("checkmate", "black")


def test_dead_general_double_check_with_a_palace_missile() -> None:
    # missile f2 and horse h1 both check f0; e0 is covered by the chariot e5
    escape = fd("5k5/11/11/11/4r6/11/11/5m4R/7n3/5K5 w - - 0 1")
    assert sorted(escape.checkers()) == ["f2", "h1"]
    assert {m.iccs() for m in escape.legal_moves} == {"f0g0"}
    # with g0 filled by an advisor the general cannot escape: dead general
    dead = fd("5k5/11/11/11/4r6/11/11/5m4R/7n3/5KA4 w - - 0 1")
    assert dead.status() == "dead_general"


def test_dead_general_stepping_back_along_the_missiles_line_is_no_escape() -> None:
    # general f1, missile f2; e1 and g1 hold own horses; f0 is still on the line
    pos = fd("5k5/5a5/11/11/11/11/11/R4m5/4NKN4/11 w - - 0 1")
    assert pos.status() == "dead_general"
    # without the horse on g1 the general escapes there: an ordinary check
    pos = fd("5k5/5a5/11/11/11/11/11/R4m5/4NK5/11 w - - 0 1")
    assert pos.status() == "ongoing"
    assert "f1g1" in {m.iccs() for m in pos.legal_moves}
    assert "a2f2" in {m.iccs() for m in pos.legal_moves}


def test_dead_general_facing_the_other_general_is_no_escape() -> None:
    # e1 would face the black general on the open e-file
    pos = fd("4k6/11/11/11/11/11/11/R4m5/5KN4/11 w - - 0 1")
    assert pos.status() == "dead_general"
    assert pos.outcome() == Outcome("dead_general", "black")


def test_dead_general_for_black() -> None:
    pos = fd("4aka4/5M5/11/11/11/11/11/11/11/4K6 b - - 0 1")
    assert pos.status() == "dead_general"
    assert pos.outcome() == Outcome("dead_general", "red")


def test_dead_general_missile_reaching_the_palace_ends_the_game() -> None:
    pos = fd("4aka4/M10/11/11/11/11/11/11/11/4K6 w - - 0 1")
    pos.push_iccs("a8f8")
    assert pos.outcome() == Outcome("dead_general", "red")


# -- removals that open lines (§5.6) ---------------------------------------------------


def test_a_collision_that_exposes_the_own_general_is_illegal() -> None:
    # the missile e5 is one of two screens between cannon e8 and the general:
    # colliding with it leaves the chariot e2 as the only screen
    pos = fd("5k5/11/4c6/11/4m6/11/3N7/4R6/11/4K6 w - - 0 1")
    assert not pos.is_check()
    assert Move.from_iccs("d3e5") not in pos.legal_moves
    with pytest.raises(IllegalMoveError):
        pos.push_iccs("d3e5")
    # the chariot itself may collide: afterwards the cannon has no screen left
    assert Move.from_iccs("e2e5") in pos.legal_moves


def test_a_collision_that_leaves_the_generals_facing_is_illegal() -> None:
    # horse f5 is the only piece between the generals
    pos = fd("5k5/11/6m4/11/5N5/11/11/11/11/5K5 w - - 0 1")
    assert Move.from_iccs("f5g7") not in pos.legal_moves
    assert targets(pos, "f5") == set()
