"""RULES §7 and §8: how a game ends. Board outcomes (checkmate, stalemate,
dead general) and the outcomes that need the moves played (repetition,
perpetual check, perpetual chase, xinban's forced variation, the natural
limit) and xinban's attack-power draw claims."""

import pytest

from engine import Outcome, Position, attack_power, can_claim_draw


def play(variant: str, fen: str, moves: str) -> list[Outcome | None]:
    """Push the moves and return the outcome after each one."""
    pos = Position.from_fen(variant, fen)
    outcomes = []
    for move in moves.split():
        pos.push_iccs(move)
        outcomes.append(pos.outcome())
    return outcomes


# -- on the board ---------------------------------------------------------------


def test_checkmate_the_side_to_move_loses() -> None:
    # chariot a9 checks along rank 9, chariot a8 covers d8, e9 faces the red general
    pos = Position.from_fen("xiangqi", "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert pos.is_check()
    assert pos.status() == "checkmate"
    assert pos.outcome() == Outcome("checkmate", "red")
    assert pos.outcome().result() == "1-0"


def test_checkmate_of_red() -> None:
    pos = Position.from_fen("xiangqi", "4k4/9/9/9/9/9/9/9/r8/3K1r3 w - - 0 1")
    assert pos.status() == "checkmate"
    assert pos.outcome() == Outcome("checkmate", "black")
    assert pos.outcome().result() == "0-1"


def test_stalemate_is_a_loss_for_the_side_that_cannot_move() -> None:
    # 困毙: Black is not in check but has no legal move
    pos = Position.from_fen("xiangqi", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert not pos.is_check()
    assert pos.status() == "stalemate"
    assert pos.outcome() == Outcome("stalemate", "red")


def test_stalemate_in_every_variant() -> None:
    assert Position.from_fen("xinban", "3k5/+R8/9/9/9/9/9/9/9/4K4 b - - 0 1").outcome() == Outcome(
        "stalemate", "red"
    )
    assert Position.from_fen(
        "feidan", "4k6/M10/11/11/11/11/11/11/11/5K5 b - - 0 1"
    ).outcome() == Outcome("stalemate", "red")


def test_dead_general_outcome() -> None:
    pos = Position.from_fen("feidan", "4k6/11/11/11/11/11/11/5m4R/11/4AKA4 w - - 0 1")
    assert pos.outcome() == Outcome("dead_general", "black")


def test_an_ongoing_game_has_no_outcome() -> None:
    for variant in ("xiangqi", "feidan", "xinban"):
        assert Position.start(variant).outcome() is None


# -- repetition (§8) ---------------------------------------------------------------

# advisors step out and back: no check, no chase
QUIET = "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1"
QUIET_CYCLE = "d0e1 d9e8 e1d0 e8d9"


@pytest.mark.parametrize("variant", ["xiangqi", "feidan"])
def test_repetition_the_third_occurrence_is_a_draw(variant: str) -> None:
    fen, cycle = QUIET, QUIET_CYCLE
    if variant == "feidan":
        fen, cycle = "4a1k4/11/11/11/11/11/11/11/11/4AK5 w - - 0 1", "e0f1 e9f8 f1e0 f8e9"
    outcomes = play(variant, fen, f"{cycle} {cycle}")
    # the start position occurs for the second time after 4 plies: no outcome yet
    assert outcomes[:7] == [None] * 7
    assert outcomes[7] == Outcome("repetition", None)
    assert outcomes[7].result() == "1/2-1/2"


def test_repetition_counts_positions_with_the_same_side_to_move() -> None:
    pos = Position.from_fen("xiangqi", QUIET)
    for move in f"{QUIET_CYCLE} {QUIET_CYCLE}".split()[:7]:
        pos.push_iccs(move)
    assert pos.outcome() is None
    pos.push_iccs("e8d9")
    assert pos.fen().split()[:2] == QUIET.split()[:2]
    assert pos.outcome() is not None


# Red's chariot checks on rank 9, then on rank 8, and back: every red move checks
PERPETUAL = "4k4/9/9/9/9/9/9/9/9/3K3R1 w - - 0 1"


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_perpetual_check_loses(variant: str) -> None:
    fen = PERPETUAL
    moves = "h0h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9 h8h9"
    if variant == "feidan":
        fen = "5k5/11/11/11/11/11/11/11/11/4K4R1 w - - 0 1"
        moves = "j0j9 f9f8 j9j8 f8f9 j8j9 f9f8 j9j8 f8f9 j8j9"
    outcomes = play(variant, fen, moves)
    assert outcomes[:-1] == [None] * 8
    assert outcomes[-1] == Outcome("perpetual_check", "black")


def test_perpetual_check_both_sides_checking_is_a_draw() -> None:
    # Red's soldier and Black's cannon take turns blocking and uncovering
    # checks on the e- and f-files: every move of both sides gives check
    fen = "4rk3/9/9/5c3/5P3/9/9/5C3/9/4K4 w - - 0 1"
    cycle = "f5e5 f6e6 e5f5 e6f6"
    pos = Position.from_fen("xiangqi", fen)
    for move in f"{cycle} {cycle}".split():
        pos.push_iccs(move)
        assert pos.is_check()
    assert pos.outcome() == Outcome("repetition", None)


# Red's chariot follows Black's cannon from file to file
CHASE = "5k3/9/c8/9/9/9/9/9/1R7/4K4 w - - 0 1"
CHASE_CYCLE = "b1a1 a7b7 a1b1 b7a7"


def test_perpetual_chase_loses() -> None:
    # the cannon is unprotected: every red move newly attacks it
    outcomes = play("xiangqi", CHASE, f"{CHASE_CYCLE} {CHASE_CYCLE}")
    assert outcomes[:7] == [None] * 7
    assert outcomes[7] == Outcome("perpetual_chase", "black")


def test_perpetual_chase_of_a_protected_lesser_piece_is_no_chase() -> None:
    # the chariot d7 protects the cannon on a7 and on b7 (cannon 4.5 < chariot 9)
    fen = "3k5/9/c2r5/9/9/9/9/9/1R7/4K4 w - - 0 1"
    outcomes = play("xiangqi", fen, f"{CHASE_CYCLE} {CHASE_CYCLE}")
    assert outcomes[7] == Outcome("repetition", None)


def test_perpetual_chase_of_a_more_valuable_piece_counts_even_if_protected() -> None:
    # Black's chariot (9) shuttles a7/b7, protected by the chariot e7; Red's
    # horse (4) attacks it after every move (from c6, then from d8)
    fen = "3k5/3N5/r3r4/9/9/9/9/9/9/5K3 w - - 0 1"
    cycle = "d8c6 a7b7 c6d8 b7a7"
    pos = Position.from_fen("xiangqi", fen)
    outcomes = []
    for move in f"{cycle} {cycle}".split():
        pos.push_iccs(move)
        outcomes.append(pos.outcome())
    assert outcomes[7] == Outcome("perpetual_chase", "black")


def test_perpetual_chase_soldiers_may_chase_freely() -> None:
    # the red soldier steps beside one black horse, then the other, and back
    fen = "3k5/9/9/3nP1n2/9/9/9/9/9/4K4 w - - 0 1"
    cycle = "e6f6 d9d8 f6e6 d8d9"
    outcomes = play("xiangqi", fen, f"{cycle} {cycle}")
    assert outcomes[7] == Outcome("repetition", None)


def test_perpetual_chase_a_standing_attack_is_not_new_after_a_check_evasion() -> None:
    # Red's chariot checks from e2 every other move (a2e2) and steps back (e2a2).
    # Black's general answers e8d8 and returns d8e8. The chariot i5 attacks the
    # unprotected cannon i1 all along: e8d8 makes no new attack, so it is no
    # chase; only d8e8 chases (it uncovers d9's attack on the horse d3). Not
    # every black move chases and not every red move checks: a draw.
    fen = "3r5/4k4/9/9/8r/9/3N5/R8/8C/5K3 w - - 0 1"
    cycle = "a2e2 e8d8 e2a2 d8e8"
    outcomes = play("xiangqi", fen, f"{cycle} {cycle}")
    assert outcomes[:7] == [None] * 7
    assert outcomes[7] == Outcome("repetition", None)


# -- xinban: forced variation (强制变着) ----------------------------------------------


def test_xinban_forced_variation_the_side_completing_the_repetition_loses() -> None:
    outcomes = play("xinban", QUIET, f"{QUIET_CYCLE} {QUIET_CYCLE}")
    assert outcomes[:7] == [None] * 7
    # Black's e8d9 made the third occurrence: Black loses
    assert outcomes[7] == Outcome("forced_variation", "red")


def test_xinban_forced_variation_unless_the_move_was_the_only_legal_one() -> None:
    # the black general shuttles d9/d8: d7 is covered by the soldier c7 and
    # the e-file faces the red general, so every black move is forced
    fen = "3k5/9/2P6/9/9/9/9/9/9/N3K4 w - - 0 1"
    cycle = "a0b2 d9d8 b2a0 d8d9"
    pos = Position.from_fen("xinban", fen)
    for move in f"{cycle} {cycle}".split():
        if pos.turn == "black":
            assert len(pos.legal_moves) == 1
        pos.push_iccs(move)
    assert pos.outcome() == Outcome("repetition", None)


def test_xinban_perpetual_check_is_judged_before_forced_variation() -> None:
    # in the both-checking cycle Black's completing move is forced (the only
    # block): a draw, not a loss
    fen = "4rk3/9/9/5c3/5P3/9/9/5C3/9/4K4 w - - 0 1"
    cycle = "f5e5 f6e6 e5f5 e6f6"
    outcomes = play("xinban", fen, f"{cycle} {cycle}")
    assert outcomes[7] == Outcome("repetition", None)


# -- natural limit (自然限着) -------------------------------------------------------


def test_natural_limit_120_plies_without_capture_is_a_draw() -> None:
    pos = Position.from_fen("xiangqi", "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 118 60")
    pos.push_iccs("d0e1")
    assert pos.halfmove == 119
    assert pos.outcome() is None
    pos.push_iccs("d9e8")
    assert pos.halfmove == 120
    assert pos.outcome() == Outcome("natural_limit", None)


def test_natural_limit_a_capture_resets_the_count() -> None:
    pos = Position.from_fen("xiangqi", "3a1k3/9/9/9/9/9/9/p8/9/R2AK4 w - - 119 60")
    pos.push_iccs("a0a2")
    assert pos.halfmove == 0
    assert pos.outcome() is None


def test_natural_limit_mate_comes_first() -> None:
    pos = Position.from_fen("xiangqi", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 130 90")
    assert pos.outcome() == Outcome("stalemate", "red")


# -- xinban attack power (进攻能力) ----------------------------------------------------


def test_attack_power_values_turncoat_and_plain_alike() -> None:
    start = Position.start("xinban")
    # 2 chariots 14 + 2 horses 8 + 2 cannons 6 + 5 soldiers 10
    assert attack_power(start, "red") == 38
    assert attack_power(start, "black") == 38
    pos = Position.from_fen("xinban", "5k3/9/2+n6/9/p8/9/9/9/4A4/3K+R4 w - - 0 1")
    assert attack_power(pos, "red") == 7
    assert attack_power(pos, "black") == 4 + 2


@pytest.mark.parametrize(
    ("fen", "red", "black"),
    [
        # red 7 (chariot) vs black 6 (horse, soldier): only the stronger may claim
        pytest.param("5k3/9/2+n6/9/p8/9/9/9/4A4/3K+R4 w - - 0 1", True, False, id="red-higher"),
        # 4 vs 4: either side
        pytest.param("5k3/9/2n6/9/9/9/9/9/4A4/3KN4 w - - 0 1", True, True, id="equal"),
        # red 11 (chariot, horse) vs black 3: red is not below 10, nobody claims
        pytest.param("5k3/9/2c6/9/9/9/9/9/4A4/3KRN3 w - - 0 1", False, False, id="red-too-strong"),
        # advisors and elephants carry no attack power: 0 vs 0
        pytest.param("2bakab2/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1", True, True, id="no-attackers"),
    ],
)
def test_attack_power_draw_claims(fen: str, red: bool, black: bool) -> None:
    pos = Position.from_fen("xinban", fen)
    assert can_claim_draw(pos, "red") is red
    assert can_claim_draw(pos, "black") is black


def test_attack_power_claims_exist_only_in_xinban() -> None:
    fen = "5k3/9/2n6/9/9/9/9/9/4A4/3KN4 w - - 0 1"
    assert not can_claim_draw(Position.from_fen("xiangqi", fen), "red")
    assert attack_power(Position.from_fen("xiangqi", fen), "red") == 0


# -- RULES §8, Ruling: chase with missiles (feidan) ---------------------------------


def test_chase_with_missiles_a_base_to_base_attack_attacks_nothing() -> None:
    # Red's missile shuttles between its base corners a0 and k0; from each it
    # faces a black missile in Black's base (a9, k9), but hitting it would
    # only destroy the red missile itself (§5.4): no chase, a draw
    fen = "m4k4m/11/11/11/11/11/11/11/4K6/M10 w - - 0 1"
    outcomes = play("feidan", fen, "a0k0 f9f8 k0a0 f8f9 a0k0 f9f8 k0a0 f8f9")
    assert outcomes[:7] == [None] * 7
    assert outcomes[7] == Outcome("repetition", None)


def test_chase_with_missiles_a_collision_is_a_trade() -> None:
    # Red's chariot follows Black's lone missile from file to file: a chariot
    # hitting a missile dies with it, a trade of a 9 for a 6: no chase
    fen = "4k6/11/m10/11/11/11/11/11/1R9/5K5 w - - 0 1"
    cycle = "b1a1 a7b7 a1b1 b7a7"
    outcomes = play("feidan", fen, f"{cycle} {cycle}")
    assert outcomes[7] == Outcome("repetition", None)


def test_chase_with_missiles_a_collision_with_a_more_valuable_target_chases() -> None:
    # Red's missile follows Black's lone chariot: the trade wins a 9 for a 6
    fen = "4k6/11/r10/11/11/11/11/11/1M9/5K5 w - - 0 1"
    cycle = "b1a1 a7b7 a1b1 b7a7"
    outcomes = play("feidan", fen, f"{cycle} {cycle}")
    assert outcomes[7] == Outcome("perpetual_chase", "black")


def test_chase_with_missiles_a_cannon_on_a_missile_is_an_ordinary_threat() -> None:
    # Red's cannon follows Black's missile, the soldiers a5 and b5 its
    # screens; a cannon survives taking a missile, and the missile is
    # unprotected: a chase (the missile's own attacks on the soldiers are
    # trades of a 6 for a 1, no chase)
    fen = "4k6/11/m10/11/PP9/11/11/11/1C9/5K5 w - - 0 1"
    cycle = "b1a1 a7b7 a1b1 b7a7"
    pos = Position.from_fen("feidan", "4k6/11/m10/11/PP9/11/11/11/C10/5K5 w - - 0 1")
    assert pos.move_effect(pos.parse_move("a1a7")).kind == "cannon_takes_missile"
    outcomes = play("feidan", fen, f"{cycle} {cycle}")
    assert outcomes[7] == Outcome("perpetual_chase", "black")


# -- RULES §8, Ruling (order): xinban's forced variation after check and chase -----


def test_xinban_forced_variation_covers_mutual_perpetual_check() -> None:
    # both sides check with every move (as above); Black's horse h8 could
    # block on f7, so Black's completing e6f6 was not forced: Black loses
    fen = "4rk3/7n1/9/5c3/5P3/9/9/5C3/9/4K4 w - - 0 1"
    cycle = "f5e5 f6e6 e5f5 e6f6"
    pos = Position.from_fen("xinban", fen)
    outcomes = []
    for move in f"{cycle} {cycle}".split():
        pos.push_iccs(move)
        assert pos.is_check()
        outcomes.append(pos.outcome())
    assert outcomes[:7] == [None] * 7
    assert outcomes[7] == Outcome("forced_variation", "red")
    # the same cycle in xiangqi is a plain draw
    assert play("xiangqi", fen, f"{cycle} {cycle}")[7] == Outcome("repetition", None)


def test_xinban_forced_variation_after_one_sided_perpetual_chase() -> None:
    # one-sided chase is judged first: the chaser (Red) loses, though Black
    # completed the repetition
    assert play("xinban", CHASE, f"{CHASE_CYCLE} {CHASE_CYCLE}")[7] == Outcome(
        "perpetual_chase", "black"
    )


def test_xinban_forced_variation_covers_a_protected_lesser_target() -> None:
    # Red's attack on a protected cannon is no chase, so no one-sided chase:
    # forced variation decides, and Black completed the repetition
    fen = "3k5/9/c2r5/9/9/9/9/9/1R7/4K4 w - - 0 1"
    assert play("xinban", fen, f"{CHASE_CYCLE} {CHASE_CYCLE}")[7] == Outcome(
        "forced_variation", "red"
    )
