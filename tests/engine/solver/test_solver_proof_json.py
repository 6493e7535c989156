"""The proof's compact JSON form: versioned, read back unchanged, and
malformed input rejected with an engine error."""

import json

import pytest

from engine import Position
from engine.solver import Node, Proof, SolverInputError, solve

QUIET_KEY = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
TWO_KEYS = "4k4/9/1RN3NR1/9/9/9/9/9/9/3K5 w - - 0 1"
PERPETUAL = "5k3/4P4/9/9/9/9/3PP3N/3r2n2/9/4K4 w - - 0 1"


@pytest.mark.parametrize(
    ("fen", "n", "mode"),
    [
        (QUIET_KEY, 2, "full"),
        (QUIET_KEY, 2, "checks_only"),
        (TWO_KEYS, 1, "full"),
        (PERPETUAL, 6, "full"),
    ],
)
def test_round_trip(fen: str, n: int, mode: str) -> None:
    proof = solve(Position.from_fen("xiangqi", fen), "mate", n, mode=mode)
    text = proof.to_json()
    # compact: one line, no spaces between the items
    assert text == json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    back = Proof.from_json(text)
    assert back == proof
    assert back.to_json() == text


def test_the_json_names_its_version_and_summary_fields() -> None:
    proof = solve(Position.from_fen("xiangqi", TWO_KEYS), "mate", 1)
    data = json.loads(proof.to_json())
    assert data["v"] == 1
    assert data["status"] == "cooked" and data["second_key"] == proof.second_key
    assert data["keys"] == list(proof.key_moves) and data["mode"] == "full"
    assert proof.summary() == {
        "status": "cooked",
        "moves_to_win": 1,
        "key_moves": list(proof.key_moves),
        "mode": "full",
        "nodes": proof.nodes,
        "seconds": proof.seconds,
    }


def test_a_tree_node_keeps_its_marks() -> None:
    node = Node(
        distance=3,
        moves=("a0a1", "b0b1"),
        replies=(
            ("c9c8", Node(distance=0, ending="perpetual_check")),
            ("d9d8", Node(distance=2, expanded=False)),
        ),
    )
    assert Node.from_data(json.loads(json.dumps(node.to_data()))) == node
    assert node.duals == ("b0b1",) and node.primary == "a0a1" and not node.final
    assert node.size() == 3


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"v": 2}',
        '{"v": 1, "status": "sound_unique"}',
        '{"v": 1, "variant": "xiangqi", "fen": "x", "goal": "mate", "mode": "full", "max": 1,'
        ' "status": "great"}',
        '{"v": 1, "variant": "xiangqi", "fen": "x", "goal": "mate", "mode": "full", "max": 1,'
        ' "status": "no_win", "tree": {"d": "one"}}',
        '{"v": 1, "variant": "xiangqi", "fen": "x", "goal": "mate", "mode": "full", "max": 1,'
        ' "status": "no_win", "tree": {"d": 1, "r": [["a0a1"]]}}',
    ],
)
def test_malformed_proofs_are_rejected(text: str) -> None:
    with pytest.raises(SolverInputError):
        Proof.from_json(text)
