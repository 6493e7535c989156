"""A mined puzzle's starting rating comes from its proof (puzzles.difficulty): longer wins, a
quiet key, more defences to see through and a fuller board rate higher; a mate by checks alone
rates lower. Pure: proofs made by the prover here, no database."""

from __future__ import annotations

from puzzles import proving
from puzzles.bankfile import rate_entries
from puzzles.difficulty import (
    HIGHEST,
    ProofFeatures,
    proof_features,
    rating_from_features,
    starting_rating,
)
from tests.puzzles.positions import MATE_IN_1, MATE_IN_2, MATE_IN_2_KEY


def features(**changes: object) -> ProofFeatures:
    base = {"moves_to_win": 3, "side_defences": 3, "quiet_key": False, "pieces": 16,
            "checks_only": False}  # fmt: skip
    base.update(changes)
    return ProofFeatures(**base)  # type: ignore[arg-type]


def test_each_feature_moves_the_rating_its_way() -> None:
    plain = rating_from_features(features())
    assert plain == 1500 + 60 * 2  # a mate in 3 with 3 side defences on a board of 16
    assert (
        rating_from_features(features(moves_to_win=2))
        < plain
        < rating_from_features(features(moves_to_win=4))
    )
    assert rating_from_features(features(quiet_key=True)) == plain + 150
    assert rating_from_features(features(side_defences=0)) < plain
    assert rating_from_features(features(side_defences=7)) == plain + 60  # one doubling of 1 + 3
    assert rating_from_features(features(pieces=26)) == plain + 60
    assert rating_from_features(features(pieces=40)) == plain + 90  # at most +90
    assert rating_from_features(features(pieces=3)) == plain - 60  # at least -60
    assert rating_from_features(features(checks_only=True)) == plain - 100
    assert rating_from_features(features(moves_to_win=1, checks_only=True)) == rating_from_features(
        features(moves_to_win=1)
    )


def test_the_rating_stays_within_its_bounds() -> None:
    assert rating_from_features(features(moves_to_win=30, side_defences=10**6, quiet_key=True,
                                         pieces=32)) == HIGHEST  # fmt: skip
    assert (
        rating_from_features(features(moves_to_win=1, side_defences=0, pieces=3)) == 840
    )  # 900 - 60


def test_the_features_are_read_off_the_proof() -> None:
    two = proving.prove(variant="xiangqi", fen=MATE_IN_2, goal="mate", moves_to_win=2)
    assert two.sound and two.proof is not None and two.main_line[0] == MATE_IN_2_KEY
    read = proof_features(
        variant="xiangqi", fen=MATE_IN_2, proof=two.proof, main_line=two.main_line
    )
    tree_replies = len(two.proof["tree"]["r"])
    assert read == ProofFeatures(2, tree_replies - 1, True, 7, False)  # g8g9 does not check
    one = proving.prove(variant="xiangqi", fen=MATE_IN_1, goal="mate", moves_to_win=1)
    assert one.proof is not None
    assert proof_features(variant="xiangqi", fen=MATE_IN_1, proof=one.proof,
                          main_line=one.main_line) == ProofFeatures(1, 0, False, 3, True)  # fmt: skip
    assert starting_rating(variant="xiangqi", fen=MATE_IN_1, proof=one.proof,
                           main_line=one.main_line) < starting_rating(
        variant="xiangqi", fen=MATE_IN_2, proof=two.proof, main_line=two.main_line
    )  # fmt: skip


def test_mined_entries_without_a_rating_get_their_proofs_and_classics_keep_theirs() -> None:
    two = proving.prove(variant="xiangqi", fen=MATE_IN_2, goal="mate", moves_to_win=2)
    assert two.proof is not None
    base = {"variant": "xiangqi", "fen": MATE_IN_2, "goal": "mate", "moves_to_win": 2,
            "proof": two.proof, "main_line": two.main_line}  # fmt: skip
    mined, rated, classic = dict(base), {**base, "rating": 1111.0}, {**base, "source": "classic"}
    assert rate_entries([mined, rated, classic]) == 1
    assert mined["rating"] == starting_rating(
        variant="xiangqi", fen=MATE_IN_2, proof=two.proof, main_line=two.main_line
    )
    assert rated["rating"] == 1111.0 and "rating" not in classic
