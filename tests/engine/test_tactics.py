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
    assert positive == negative == set(CODES)


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
