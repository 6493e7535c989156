"""docs/rules.md §6: xinban defection (反间策反). A captured turncoat (+R +N +C) joins
the captor as a plain piece on the point the captor left, when the captor's
type is eligible; the legality fallback; mixed play; the other reading of the
seed's check sentence (``defection_requires_check``)."""

import pytest

from engine import IllegalMoveError, Move, Position, find_variant


def xb(fen: str) -> Position:
    return Position.from_fen("xinban", fen)


def targets(pos: Position, point: str) -> set[str]:
    return {m.iccs()[2:] for m in pos.legal_moves if m.iccs()[:2] == point}


# One position per captor type: a red captor of that type takes the black
# piece "{t}" with the move given. The general stays safe in every case.
CAPTORS = {
    "K": ("3k5/9/9/9/9/9/9/9/4{t}4/4K4 w - - 0 1", "e0e1"),
    "A": ("3k5/9/9/9/9/9/9/9/4{t}4/3A1K3 w - - 0 1", "d0e1"),
    "B": ("3k5/9/9/9/9/9/9/4{t}4/9/2B1K4 w - - 0 1", "c0e2"),
    "N": ("3k5/9/9/9/9/9/9/4{t}4/2N6/4K4 w - - 0 1", "c1e2"),
    "R": ("3k5/9/9/9/9/9/9/R3{t}4/9/4K4 w - - 0 1", "a2e2"),
    "C": ("3k5/9/9/9/9/9/9/C1N1{t}4/9/4K4 w - - 0 1", "a2e2"),
    "P": ("3k5/9/9/9/4{t}4/4P4/9/9/9/4K4 w - - 0 1", "e4e5"),
}

# docs/rules.md §6.1 table: captured turncoat -> captors that make it defect
ELIGIBLE = {
    "r": set("ABNCP"),
    "n": set("RCP"),
    "c": set("KABNRP"),
}

TABLE = [
    pytest.param(
        target,
        captor,
        captor in ELIGIBLE[target],
        id=f"+{target.upper()}-by-{captor}-{'defects' if captor in ELIGIBLE[target] else 'removed'}",
    )
    for target in "rnc"
    for captor in "KABNRCP"
]


@pytest.mark.parametrize(("target", "captor", "defects"), TABLE)
def test_eligibility_table(target: str, captor: str, defects: bool) -> None:
    template, move = CAPTORS[captor]
    pos = xb(template.format(t="+" + target))
    effect = pos.move_effect(Move.from_iccs(move))
    assert effect.captured == "+" + target
    assert effect.kind == ("defection" if defects else "capture")
    pos.push_iccs(move)
    assert pos.piece_at(move[2:]) == captor
    # the defected piece is plain, Red, of the captured type, on the captor's origin
    assert pos.piece_at(move[:2]) == (target.upper() if defects else None)
    assert effect.defected == (target.upper() if defects else None)


@pytest.mark.parametrize(
    ("captor", "target", "defects"),
    [("+R", "+c", True), ("+N", "+r", True), ("+C", "+n", True), ("+R", "+r", False)],
)
def test_a_turncoat_captor_counts_as_its_type_and_keeps_its_mark(
    captor: str, target: str, defects: bool
) -> None:
    template, move = CAPTORS[captor[1]]
    fen = template.format(t=target).replace(captor[1], captor, 1)
    pos = xb(fen)
    pos.push_iccs(move)
    assert pos.piece_at(move[2:]) == captor
    assert pos.piece_at(move[:2]) == (target[1].upper() if defects else None)


def test_plain_pieces_never_defect() -> None:
    for captor, (template, move) in CAPTORS.items():
        for target in "rnc":
            pos = xb(template.format(t=target))
            assert pos.move_effect(Move.from_iccs(move)).kind == "capture", (captor, target)
            pos.push_iccs(move)
            assert pos.piece_at(move[:2]) is None


def test_black_captors_defect_red_turncoats_too() -> None:
    pos = xb("4k4/9/9/9/9/4p4/4+R4/9/9/3K5 b - - 0 1")
    pos.push_iccs("e4e3")
    assert pos.piece_at("e3") == "p"
    assert pos.piece_at("e4") == "r"


def test_the_defected_pieces_check_counts_at_once() -> None:
    # advisor d0 takes +r e1: the new chariot on d0 sees the black general d9
    pos = xb("3k5/9/9/9/9/9/9/9/4+r4/3A1K3 w - - 0 1")
    pos.push_iccs("d0e1")
    assert pos.is_check()
    assert pos.checkers() == ["d0"]
    assert {m.iccs() for m in pos.legal_moves} == {"d9e9"}
    # and it plays from the next move on
    pos.push_iccs("d9e9")
    assert "d0d9" in {m.iccs() for m in pos.legal_moves}


def test_defection_that_mates() -> None:
    # the chariot appearing on d0 covers d8; e9 holds Black's own chariot,
    # which cannot reach the d-file
    pos = xb("3kr4/9/9/9/9/9/9/9/4+r4/3A1K3 w - - 0 1")
    pos.push_iccs("d0e1")
    assert pos.status() == "checkmate"


def test_legality_fallback_the_seed_example() -> None:
    # chariot e3 takes +c b3: a cannon left on e3 would be the screen of the
    # black cannon e7 onto the general e0, so the capture is ordinary
    pos = xb("4k4/9/4c4/9/9/9/1+c2R4/9/9/4K4 w - - 0 1")
    assert pos.move_effect(Move.from_iccs("e3b3")).kind == "capture"
    pos.push_iccs("e3b3")
    assert pos.board_fen() == "4k4/9/4c4/9/9/9/1R7/9/9/4K4"


def test_legality_fallback_the_defected_piece_would_be_a_screen() -> None:
    # the seed's example, with an advisor: a chariot refilling d2 would be the
    # screen of cannon d7 onto the general d0, so the capture is ordinary
    pos = xb("5k3/9/3c5/9/9/9/9/3A5/4+r4/3K5 w - - 0 1")
    assert pos.is_check()
    effect = pos.move_effect(Move.from_iccs("d2e1"))
    assert (effect.kind, effect.captured, effect.defected) == ("capture", "+r", None)
    pos.push_iccs("d2e1")
    assert pos.piece_at("d2") is None
    assert pos.piece_at("e1") == "A"
    assert "R" not in pos.pieces().values()


def test_legality_fallback_the_ordinary_capture_must_itself_be_legal() -> None:
    # general d0 takes +c e0: a cannon left on d0 would screen cannon a0, and
    # the ordinary capture leaves the general on e0 facing the chariot e5
    pos = xb("5k3/9/9/9/4r4/9/9/9/9/c2K+c4 w - - 0 1")
    assert Move.from_iccs("d0e0") not in pos.legal_moves
    with pytest.raises(IllegalMoveError):
        pos.push_iccs("d0e0")


def test_a_capture_legal_only_as_a_defection() -> None:
    # horse d3 is the only piece between the general d0 and the chariot d7:
    # d3c5 (+r) and d3f4 (+c) defect and the new piece refills d3; d3e5 (+n,
    # horse not eligible) would be ordinary and expose the general
    pos = xb("5k3/9/3r5/9/2+r1+n4/5+c3/3N5/9/9/3K5 w - - 0 1")
    assert targets(pos, "d3") == {"c5", "f4"}
    pos.push_iccs("d3c5")
    assert pos.piece_at("d3") == "R"


def test_the_general_capturing_defects_a_turncoat_cannon_onto_its_old_point() -> None:
    # the general on d0 is in check from the chariot a0; taking +c e0 is legal
    # because the defected cannon fills d0 and blocks the chariot
    pos = xb("5k3/9/9/9/9/9/9/9/9/r2K+c4 w - - 0 1")
    assert pos.is_check()
    assert Move.from_iccs("d0e0") in pos.legal_moves
    pos.push_iccs("d0e0")
    assert pos.piece_at("d0") == "C"
    assert pos.piece_at("e0") == "K"


def test_a_defected_piece_captured_again_is_removed() -> None:
    pos = xb("3k5/9/9/9/9/9/9/2+n6/4+r4/3A1K3 w - - 0 1")
    pos.push_iccs("d0e1")  # +r defects: red chariot on d0, check
    assert pos.piece_at("d0") == "R"
    effect = pos.move_effect(Move.from_iccs("c2d0"))
    assert effect.kind == "capture"
    pos.push_iccs("c2d0")
    assert pos.piece_at("d0") == "+n"
    assert pos.piece_at("c2") is None
    assert "R" not in pos.pieces().values()


def test_mixed_play_a_traditional_sides_cannon_makes_a_turncoat_horse_defect() -> None:
    pos = Position.start("xinban", "red-new")
    assert pos.piece_at("b0") == "+N"
    assert pos.piece_at("b7") == "c"
    pos.push_iccs("a3a4")
    assert pos.move_effect(Move.from_iccs("b7b0")).kind == "defection"
    pos.push_iccs("b7b0")
    assert pos.piece_at("b0") == "c"
    assert pos.piece_at("b7") == "n"


def test_mixed_play_a_turncoat_taking_a_plain_piece_removes_it() -> None:
    pos = Position.start("xinban", "red-new")
    pos.push_iccs("b2b9")  # +C x plain horse: removed
    assert pos.piece_at("b9") == "+C"
    assert pos.piece_at("b2") is None


# -- the other reading of the seed's check sentence ------------------------------

READING = "4k4/9/2+n6/2P6/6+c2/9/7N1/5+r3/4A4/3K5 w - - 0 1"


def _capture_kinds(pos: Position) -> dict[str, str]:
    kinds = {}
    for move in pos.legal_moves:
        effect = pos.move_effect(move)
        if effect.captured:
            kinds[move.iccs()] = effect.kind
    return kinds


def test_defection_does_not_require_check_by_default() -> None:
    assert find_variant("xinban").defection_requires_check is False
    pos = xb(READING)
    assert _capture_kinds(pos) == {
        "c6c7": "defection",
        "h3g5": "defection",
        "h3f2": "defection",
        "e1f2": "defection",
    }


def test_defection_requires_check_reading_changes_exactly_the_captures_without_check() -> None:
    strict = find_variant("xinban").with_changes(defection_requires_check=True)
    assert find_variant("xinban").defection_requires_check is False  # unchanged
    default = _capture_kinds(xb(READING))
    other = _capture_kinds(Position.from_fen(strict, READING))
    changed = {m for m in default if default[m] != other[m]}
    # only e1f2 (a chariot on e1 checks e9) still defects
    assert changed == {"c6c7", "h3g5", "h3f2"}
    assert other["e1f2"] == "defection"
    assert set(other.values()) == {"defection", "capture"}
    pos = Position.from_fen(strict, READING)
    pos.push_iccs("c6c7")
    assert pos.piece_at("c6") is None
    pos.pop()
    pos.push_iccs("e1f2")
    assert pos.piece_at("e1") == "R"
    assert pos.is_check()
