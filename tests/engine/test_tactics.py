"""Tactics of a line that wins material (engine.tactics): each tactic's definition on a
position that shows it and one that comes close without showing it, the catalogue, and the
material a side has."""

from __future__ import annotations

import pytest

from engine import EngineError, Move, Position
from engine.tactics import CODES, TACTICS, detect, material, material_balance

CCPD_51 = "C3k4/1Rr1aR3/4b1c1b/N2Cp4/6p1p/P8/9/4r2c1/4A4/4KAB2 w - - 1 33"

# (tactic, FEN, line): the line shows the tactic (traditional xiangqi; the variants' own
# tactics below).
POSITIVE = [
    # The horse from d2 to e4 attacks the chariot and the cannon; the cannon falls.
    ("fork", "4k4/9/9/3r1c3/9/9/9/3N5/9/5K3 w - - 0 1", ["d2e4", "d6d9", "e4f6"]),
    # The chariot pins the horse to its general on the e-file, and takes it.
    ("pin", "4k4/9/4n4/p8/9/9/R8/9/9/5K3 w - - 0 1", ["a3e3", "a6a5", "e3e7"]),
    # The horse takes the chariot and uncovers the chariot's check on the e-file.
    ("discovered_check", "4k4/9/9/2r6/4N4/9/9/4R4/9/5K3 w - - 0 1", ["e5c6"]),
    # The horse checks from d7 and uncovers the chariot: two checks at once.
    ("double_check", "4k4/9/9/9/4N4/9/9/4R4/9/5K3 w - - 0 1", ["e5d7"]),
    # The horse on a4 has no defender.
    ("hanging_piece", "4k4/9/9/9/9/n8/9/9/9/R4K3 w - - 0 1", ["a0a4"]),
    # The chariot goes where the black chariot takes it.
    ("sacrifice", "1r2k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9", "b9a9"]),
    # The same master game: the chariot is given for the advisor to win the other chariot.
    ("sacrifice", CCPD_51, ["f8e8", "e9e8", "b8c8"]),
    # The chariot on h7 covers b7, the cornered horse's only way out; the soldier takes it.
    ("trapped_piece", "nP2k4/9/9/8p/9/9/9/9/9/5K1R1 w - - 0 1", ["h0h7", "i6i5", "b9a9"]),
]

# (tactic, FEN, line): close, but the line does not show the tactic.
NEGATIVE = [
    # The horse attacks the chariot alone, and wins nothing.
    ("fork", "4k4/9/9/3r5/9/9/9/3N5/9/5K3 w - - 0 1", ["d2e4", "d6d7"]),
    # Nothing stands behind the horse: the chariot takes it, but pins nothing.
    ("pin", "3k5/9/4n4/p8/9/9/R8/9/9/5K3 w - - 0 1", ["a3e3", "a6a5", "e3e7"]),
    # The check is the moving chariot's own.
    ("discovered_check", "4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9"]),
    # One check only.
    ("double_check", "4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0a9"]),
    # The chariot on a9 guards the horse.
    ("hanging_piece", "r3k4/9/9/9/9/n8/9/9/9/R4K3 w - - 0 1", ["a0a4"]),
    # A trade, chariot for chariot: no sacrifice.
    ("sacrifice", "4k4/9/c8/p8/r8/9/9/9/9/R4K3 w - - 0 1", ["a0a5", "a7a5"]),
    # The horse could have left by b7: it was not trapped.
    ("trapped_piece", "nP2k4/9/9/8p/9/9/9/9/9/5K1R1 w - - 0 1", ["h0h1", "i6i5", "b9a9"]),
    # Master game ccpd:51, ply 64: the chariot that takes the advisor with check attacks the
    # chariot on c8 too, but the general takes it at once (a sacrifice, not a fork), and with
    # Black in check the c8 chariot is bound by the check, not trapped.
    ("fork", CCPD_51, ["f8e8", "e9e8", "b8c8"]),
    ("trapped_piece", CCPD_51, ["f8e8", "e9e8", "b8c8"]),
    # The pinned horse has no move at all: a pin, not a trapped piece.
    ("trapped_piece", "4k4/9/4n4/p8/9/9/R8/9/9/5K3 w - - 0 1", ["a3e3", "a6a5", "e3e7"]),
]


# (tactic, variant, FEN, line): the tactics of the variants' own rules.
VARIANT_POSITIVE = [
    # New-version Xiangqi: the horse forks the turncoat chariot and cannon; the chariot runs
    # and the cannon, taken by the horse, defects (lesson xinban-fork, step 1).
    ("defection", "xinban", "3k5/2+r1+c4/9/9/9/2N6/9/9/9/4K4 w - - 0 1",
     ["c4d6", "c8c2", "d6e8"]),
    # Missile Xiangqi: the missile strikes the chariot, and both leave the board.
    ("missile_collision", "feidan", "5k5/11/1r9/11/11/11/1M9/11/11/4K6 w - - 0 1", ["b3b7"]),
    # A soldier walks onto the enemy missile: both go, a soldier for a missile.
    ("missile_collision", "feidan", "5k5/11/1m9/1P9/11/11/11/11/11/4K6 w - - 0 1", ["b6b7"]),
]  # fmt: skip
VARIANT_NEGATIVE = [
    # The same fork, but Black saves the cannon and the horse takes a turncoat horse: a horse
    # does not turn a horse (step 4 of the lesson).
    ("defection", "xinban", "3k5/2+n1+c4/9/9/9/2N6/9/9/9/4K4 w - - 0 1",
     ["c4d6", "e8e2", "d6c8"]),
    # A cannon takes the missile over a screen and survives: a capture, not a collision (and
    # the missile, with nothing to guard it, was hanging).
    ("missile_collision", "feidan", "5k5/11/1m9/11/1p9/11/1C9/11/11/4K6 w - - 0 1", ["b3b7"]),
    # A collision is a trade, not a piece taken for free: the soldier is gone too.
    ("hanging_piece", "feidan", "5k5/11/1m9/1P9/11/11/11/11/11/4K6 w - - 0 1", ["b6b7"]),
]  # fmt: skip


# The tactics of protection and of lines, each with its own tests below: (variant, FEN, line)
# of lines whose point the tactic is, and of near misses.
DISCOVERED_ATTACKS = [
    # Lesson xiangqi-discovered-attack, step 1: the horse leaves the chariot's file to attack
    # the cannon, the chariot now attacks the horse on a8; the horse runs and the cannon falls.
    ("xiangqi", "3k5/n8/9/4c4/9/N8/9/9/R8/4K4 w - - 0 1", ["a4c5", "a8b6", "c5e6"]),
    # Step 4: the horse leaves the chariot's rank to attack the black chariot, which runs; the
    # red chariot takes the cannon on g5 it now attacks.
    ("xiangqi", "3k5/9/2r6/5P3/R1N3c2/9/9/9/9/3AKAB2 w - - 0 1", ["c5e6", "c7c2", "a5g5"]),
    # Missile Xiangqi, on the eleven-file board: the horse leaves the k-file to attack the
    # cannon; the cannon runs and the chariot takes the horse on k8.
    ("feidan", "4k6/10n/11/6c4/11/10N/11/11/10R/5K5 w - - 0 1", ["k4i5", "g6g2", "k1k8"]),
]
DISCOVERED_ATTACK_MISSES = [
    # The horse takes the chariot and uncovers a check: a discovered check, not an attack.
    ("xiangqi", "4k4/9/9/2r6/4N4/9/9/4R4/9/5K3 w - - 0 1", ["e5c6"]),
    # The uncovered chariot attacks a horse the black chariot protects: no target, a trade.
    ("xiangqi", "3k5/nr7/9/9/9/N8/9/9/R8/4K4 w - - 0 1", ["a4c5", "d9d8", "a1a8", "b8a8"]),
]
INTERFERENCES = [
    # Lesson xiangqi-interference, step 3: the horse on e6 stands on the leg of the black
    # horse that protects the cannon on d5, and the chariot takes it.
    ("xiangqi", "5k3/9/9/5n3/3c2N2/9/9/9/3R5/4K4 w - - 0 1", ["g5e6", "f9e9", "d1d5"]),
    # Step 5: the horse on f6 fills the elephant's eye; the cannon on g5 falls.
    ("xiangqi", "5k3/9/4b4/9/3N2c2/9/9/9/6R2/4K4 w - - 0 1", ["d5f6", "f9f8", "g1g5"]),
    # Missile Xiangqi: the horse on c8 is a second screen between the black cannon and the
    # horse on c5 it protected over c7.
    ("feidan", "2c2k5/11/2n8/1N9/R1n8/11/11/11/11/4K6 w - - 0 1", ["b6c8", "f9f8", "a5c5"]),
]
INTERFERENCE_MISSES = [
    # The horse goes to e4, not onto the black horse's leg: the cannon is still protected.
    ("xiangqi", "5k3/9/9/5n3/3c2N2/9/9/9/3R5/4K4 w - - 0 1", ["g5e4", "f9e9", "d1d5"]),
]
DEFLECTIONS = [
    # The horse checks from c7 and the black horse, which protected the cannon on d4, takes
    # it: the chariot takes the cannon.
    ("xiangqi", "3k5/9/9/N8/1n7/3c5/9/9/3R5/4K4 w - - 0 1", ["a6c7", "b5c7", "d1d4"]),
    # Lesson xiangqi-deflection, step 3: the horse's check drives the general off the horse it
    # protected.
    ("xiangqi", "9/4k4/4n4/9/7N1/9/9/9/4R4/3K5 w - - 0 1", ["h5g7", "e8f8", "e1e7"]),
    # New-version Xiangqi (step 4 of the lesson, with a turncoat cannon): the soldier drives
    # the horse away, and the chariot takes the cannon, which defects.
    ("xinban", "5k3/9/3n5/4P4/2+c6/9/9/9/2R6/4K4 w - - 0 1", ["e6e7", "d7b6", "c1c5"]),
]
DEFLECTION_MISSES = [
    # Nothing makes the horse leave the cannon: it goes of its own accord.
    ("xiangqi", "3k5/9/9/N8/1n7/3c5/9/9/3R5/4K4 w - - 0 1", ["e0e1", "b5a3", "d1d4"]),
    # The horse attacks the chariot and the cannon it protects; the chariot runs and the same
    # horse takes the cannon: a fork, not a deflection.
    ("xiangqi", "4k4/9/9/3r1c3/9/9/9/3N5/9/5K3 w - - 0 1", ["d2e4", "d6d9", "e4f6"]),
]
DECOYS = [
    # The cannon checks from e4, the black chariot takes it there, and the red chariot takes
    # the chariot.
    ("xiangqi", "4k4/9/4b4/9/9/r1C6/9/9/4R4/4K4 w - - 0 1", ["c4e4", "a4e4", "e1e4"]),
    # The chariot takes the advisor on e8 with check and the general takes it: the horse
    # checks the general there and forks the chariot.
    ("xiangqi", "4k4/R3a4/9/4r4/3N5/9/9/9/9/3K5 w - - 0 1",
     ["a8e8", "e9e8", "d5c7", "e8e9", "c7e6"]),
    # Missile Xiangqi: the first line on the eleven-file board.
    ("feidan", "5k5/11/5b5/11/11/1r1C7/11/11/5R5/5K5 w - - 0 1", ["d4f4", "b4f4", "f1f4"]),
]  # fmt: skip
DECOY_MISSES = [
    # Chariot for chariot on d6, then the horse that took back: a trade, nothing given up.
    ("xiangqi", "5k3/4n4/9/3r5/9/9/9/3R5/3R5/4K4 w - - 0 1", ["d2d6", "e8d6", "d1d6"]),
    # The horse given up on c7 is taken, but the next move wins the cannon elsewhere: a
    # deflection, not a decoy.
    ("xiangqi", "3k5/9/9/N8/1n7/3c5/9/9/3R5/4K4 w - - 0 1", ["a6c7", "b5c7", "d1d4"]),
]
DEFENDERS_REMOVED = [
    # The cannon takes the horse that protected the cannon on c5, which the chariot takes.
    ("xiangqi", "5k3/9/3n5/9/2c6/3N5/9/3C5/2R6/4K4 w - - 0 1", ["d2d7", "f9f8", "c1c5"]),
    # Chariot for chariot on b7, and the horse takes the cannon the black chariot protected.
    ("xiangqi", "2n1k4/9/1r5R1/9/9/1c7/9/2N6/9/3K5 w - - 0 1", ["h7b7", "c9b7", "c2b4"]),
    # Missile Xiangqi: the missile blows up the horse that protected the cannon.
    ("feidan", "5k5/11/n10/11/1c9/11/11/11/1R9/M3K6 w - - 0 1", ["a0a7", "f9f8", "b1b5"]),
]
DEFENDER_MISSES = [
    # The black chariot on c9 protects the cannon too: the chariot that takes it is lost.
    ("xiangqi", "2r2k3/9/3n5/9/2c6/3N5/9/3C5/2R6/4K4 w - - 0 1", ["d2d7", "f9f8", "c1c5"]),
]
# code -> (lines that show it, near misses)
OWN_TESTS = {
    "discovered_attack": (DISCOVERED_ATTACKS, DISCOVERED_ATTACK_MISSES),
    "interference": (INTERFERENCES, INTERFERENCE_MISSES),
    "deflection": (DEFLECTIONS, DEFLECTION_MISSES),
    "decoy": (DECOYS, DECOY_MISSES),
    "remove_defender": (DEFENDERS_REMOVED, DEFENDER_MISSES),
}


@pytest.mark.parametrize(("code", "fen", "line"), POSITIVE, ids=[p[0] for p in POSITIVE])
def test_a_line_that_shows_the_tactic_is_named_so(code: str, fen: str, line: list[str]) -> None:
    assert code in detect("xiangqi", fen, line)


@pytest.mark.parametrize(("code", "fen", "line"), NEGATIVE, ids=[n[0] for n in NEGATIVE])
def test_a_near_miss_is_not_named(code: str, fen: str, line: list[str]) -> None:
    assert code not in detect("xiangqi", fen, line)


@pytest.mark.parametrize(
    ("code", "variant", "fen", "line"), VARIANT_POSITIVE, ids=[p[0] for p in VARIANT_POSITIVE]
)
def test_a_line_that_shows_a_variant_s_tactic_is_named_so(
    code: str, variant: str, fen: str, line: list[str]
) -> None:
    assert code in detect(variant, fen, line)


@pytest.mark.parametrize(
    ("code", "variant", "fen", "line"), VARIANT_NEGATIVE, ids=[n[0] for n in VARIANT_NEGATIVE]
)
def test_a_near_miss_of_a_variant_s_tactic_is_not_named(
    code: str, variant: str, fen: str, line: list[str]
) -> None:
    assert code not in detect(variant, fen, line)


def test_every_tactic_has_a_positive_and_a_negative_position() -> None:
    positive = {p[0] for p in POSITIVE} | {p[0] for p in VARIANT_POSITIVE}
    negative = {n[0] for n in NEGATIVE} | {n[0] for n in VARIANT_NEGATIVE}
    positive |= {code for code, (shown, _missed) in OWN_TESTS.items() if shown}
    negative |= {code for code, (_shown, missed) in OWN_TESTS.items() if missed}
    assert positive == negative == set(CODES)


def test_each_tactic_with_its_own_tests_has_two_lines_one_traditional() -> None:
    for shown, _missed in OWN_TESTS.values():
        assert len(shown) >= 2 and any(variant == "xiangqi" for variant, _fen, _line in shown)


@pytest.mark.parametrize(("variant", "fen", "line"), DISCOVERED_ATTACKS)
def test_a_discovered_attack_uncovers_another_pieces_attack_that_wins_the_target(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "discovered_attack" in detect(variant, fen, line)


@pytest.mark.parametrize(("variant", "fen", "line"), DISCOVERED_ATTACK_MISSES)
def test_an_uncovered_check_or_an_attack_on_no_target_is_no_discovered_attack(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "discovered_attack" not in detect(variant, fen, line)


def test_an_uncovered_check_keeps_its_own_theme() -> None:
    found = detect("xiangqi", "4k4/9/9/2r6/4N4/9/9/4R4/9/5K3 w - - 0 1", ["e5c6"])
    assert "discovered_check" in found and "discovered_attack" not in found


@pytest.mark.parametrize(("variant", "fen", "line"), INTERFERENCES)
def test_interference_cuts_a_protector_off_the_piece_that_is_then_taken(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "interference" in detect(variant, fen, line)


@pytest.mark.parametrize(("variant", "fen", "line"), INTERFERENCE_MISSES)
def test_a_piece_off_the_line_of_protection_is_no_interference(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "interference" not in detect(variant, fen, line)


@pytest.mark.parametrize(("variant", "fen", "line"), DEFLECTIONS)
def test_deflection_forces_a_protector_away_and_the_next_move_takes_what_it_protected(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "deflection" in detect(variant, fen, line)


@pytest.mark.parametrize(("variant", "fen", "line"), DEFLECTION_MISSES)
def test_a_protector_that_leaves_unforced_or_to_a_fork_is_not_deflected(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "deflection" not in detect(variant, fen, line)


@pytest.mark.parametrize(("variant", "fen", "line"), DECOYS)
def test_a_decoy_gives_up_a_piece_whose_captor_the_next_move_wins_forks_or_checks(
    variant: str, fen: str, line: list[str]
) -> None:
    found = detect(variant, fen, line)
    assert "decoy" in found and "sacrifice" in found  # every decoy here is a sacrifice too


@pytest.mark.parametrize(("variant", "fen", "line"), DECOY_MISSES)
def test_a_trade_or_a_piece_given_up_elsewhere_is_no_decoy(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "decoy" not in detect(variant, fen, line)


@pytest.mark.parametrize(("variant", "fen", "line"), DEFENDERS_REMOVED)
def test_removing_the_defender_captures_a_protector_and_then_what_it_protected(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "remove_defender" in detect(variant, fen, line)


@pytest.mark.parametrize(("variant", "fen", "line"), DEFENDER_MISSES)
def test_a_target_another_piece_still_protects_is_not_won_by_removing_the_defender(
    variant: str, fen: str, line: list[str]
) -> None:
    assert "remove_defender" not in detect(variant, fen, line)


def test_the_variants_tactics_need_their_rules() -> None:
    """No traditional line shows a defection or a collision: the rules have neither."""
    for _code, fen, line in POSITIVE:
        found = detect("xiangqi", fen, line)
        assert "defection" not in found and "missile_collision" not in found


def test_the_catalogue_names_each_tactic_in_both_languages() -> None:
    for tactic in TACTICS:
        assert tactic.en and tactic.zh and tactic.definition_en and tactic.definition_zh
        assert tactic.summary_en and tactic.summary_zh
    assert len(set(CODES)) == len(CODES)
    assert {"fork", "pin", "discovered_check", "double_check"} <= set(CODES)
    assert {"hanging_piece", "sacrifice", "trapped_piece"} <= set(CODES)
    assert set(OWN_TESTS) <= set(CODES)


def test_codes_come_in_catalogue_order() -> None:
    found = detect("xiangqi", "4k4/9/9/2r6/4N4/9/9/4R4/9/5K3 w - - 0 1", ["e5c6"])
    assert found == [code for code in CODES if code in found]
    assert found == ["discovered_check", "hanging_piece"]


def test_an_illegal_move_in_the_line_is_refused() -> None:
    with pytest.raises(EngineError):
        detect("xiangqi", "4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1", ["a0b9"])


def test_material_counts_the_chase_values() -> None:
    start = Position.start("xiangqi")
    assert material(start, "red") == material(start, "black") == 2 * (9 + 4.5 + 4 + 2 + 2) + 5
    assert material_balance(start, "red") == 0
    fork = Position.from_fen("xiangqi", "4k4/9/9/3r1c3/9/9/9/3N5/9/5K3 w - - 0 1")
    assert material_balance(fork, "red") == 4 - 13.5
    assert material_balance(fork, "black") == 13.5 - 4


# (variant, FEN, move, kind of the move, the mover's gain): the material follows the board the
# rules leave, not a count of the piece taken.
VARIANT_GAINS = [
    # New-version Xiangqi: the chariot takes a turncoat horse, which defects to Red (+4 +4).
    ("xinban", "4k4/9/9/9/+n8/9/9/9/9/R2K5 w - - 0 1", "a0a5", "defection", 8.0),
    # A horse may not turn a turncoat horse: an ordinary capture (+4).
    ("xinban", "4k4/9/9/9/+n8/9/1N7/9/9/3K5 w - - 0 1", "b3a5", "capture", 4.0),
    # A turncoat chariot taken by a cannon defects: a chariot lost and one gained (+18).
    ("xinban", "4k4/9/9/9/+r8/P8/9/C8/9/3K5 w - - 0 1", "a2a5", "defection", 18.0),
    # Missile Xiangqi: the missile collides with a horse and both go (-6 +4).
    ("feidan", "4k6/11/11/11/n10/11/11/11/11/M4K5 w - - 0 1", "a0a5", "collision", -2.0),
    # A cannon takes a missile over a screen and survives (+6).
    ("feidan", "4k6/11/m10/11/n10/11/11/C10/11/5K5 w - - 0 1", "a2a7", "cannon_takes_missile", 6.0),
    # A fighter flies onto a missile: both go (-5 +6).
    ("feidan", "4k6/11/11/11/11/1m9/11/11/F10/5K5 w - - 0 1", "a1b4", "collision", 1.0),
]


@pytest.mark.parametrize(("variant", "fen", "move", "kind", "gain"), VARIANT_GAINS)
def test_material_follows_collisions_and_defections(
    variant: str, fen: str, move: str, kind: str, gain: float
) -> None:
    position = Position.from_fen(variant, fen)
    before = material_balance(position, "red")
    assert position.move_effect(Move.from_iccs(move)).kind == kind
    position.push(Move.from_iccs(move))
    assert material_balance(position, "red") - before == gain
    assert material_balance(position, "black") + material_balance(position, "red") == 0
