"""The prover's statuses on hand-built positions: every status, every
variant, every goal, both modes, and the repetition rules inside the tree."""

import pytest

from engine import Position
from engine.solver import Budget, Node, SolverInputError, find_win, solve

# Red: two soldiers beside Black's general; the soldier's quiet step g8g9
# is the only key of a mate in 2 (古谱《橘中秘》 "双孙扶老").
QUIET_KEY = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
# Either rook of b7 and h7 mates on rank 9 while the horses c7 and g7 hold
# d9, e8 and f9 (any quiet move stalemates).
TWO_KEYS = "4k4/9/1RN3NR1/9/9/9/9/9/9/3K5 w - - 0 1"
# A classic stated as mate in 4 that mates in 3 (b0b9 first).
STATED_FOUR = "2bk5/r3aR3/n1r1b4/9/9/6R2/9/3n5/4p4/1C3K3 w - - 0 1"
# A mate in 5 that takes a while in full mode.
MATE_IN_FIVE = "3k5/4a4/3aP4/9/9/9/6R2/6R2/2pp1p3/1c2K4 w - - 0 1"
# Feidan: the missile lands on f8, inside Black's palace; the general has
# nowhere to go, although the advisor on e9 could take the missile.
DEAD_GENERAL = "4aka4/M10/11/11/11/11/11/11/11/4K6 w - - 0 1"
# Feidan: a horse mate (checkmate, not a dead general).
FEIDAN_MATE = "4aka4/R10/11/11/7N3/11/11/11/11/4K6 w - - 0 1"
# Xinban: the horse takes the turncoat chariot on d7; the chariot defects to
# Red on e5 and checks along the file while the horse checks too.
DEFECTION = "3aka3/9/3+r5/9/4N4/9/9/9/9/5K3 w - - 0 1"
# The same board with a plain chariot: no defection, no mate.
NO_DEFECTION = "3aka3/9/3r5/9/4N4/9/9/9/9/5K3 w - - 0 1"
# The horse's step to g7 leaves the lone general no move, in no check.
STALEMATE = "4k4/9/9/9/7N1/9/9/9/9/3K5 w - - 0 1"
# After i3h5 Black's only way to stop Ng7# is to check with the rook from
# d2 and e2 for ever; the third repetition of that perpetual check loses,
# so the mate comes in 6. Without the repetition rule there is no win.
PERPETUAL = "5k3/4P4/9/9/9/9/3PP3N/3r2n2/9/4K4 w - - 0 1"
# Full mode: the quiet h5g7 is a second key; among checks h5f6 is unique.
QUIET_COOK = "9/9/3k5/9/7N1/9/4C1P2/9/1CR6/5K3 w - - 0 1"


# The same two-rook cook on the 11-file board.
FEIDAN_TWO_KEYS = "5k5/11/1R1N3N1R1/11/11/11/11/11/11/4K6 w - - 0 1"

EVERY_STATUS = [
    ("xiangqi", QUIET_KEY, "mate", 2, "sound_unique"),
    ("xiangqi", STALEMATE, "win", 1, "sound_unique"),
    ("xiangqi", TWO_KEYS, "mate", 1, "cooked"),
    ("xiangqi", TWO_KEYS, "mate", 2, "shorter"),
    ("xiangqi", STALEMATE, "mate", 2, "no_win"),
    ("feidan", FEIDAN_MATE, "mate", 1, "sound_unique"),
    ("feidan", DEAD_GENERAL, "dead_general", 1, "sound_unique"),
    ("feidan", DEAD_GENERAL, "win", 1, "sound_unique"),
    ("feidan", FEIDAN_TWO_KEYS, "mate", 1, "cooked"),
    ("feidan", FEIDAN_MATE, "win", 2, "shorter"),
    ("feidan", DEAD_GENERAL, "dead_general", 2, "shorter"),
    ("feidan", FEIDAN_MATE, "dead_general", 2, "no_win"),
    ("xinban", DEFECTION, "mate", 1, "sound_unique"),
    ("xinban", STALEMATE, "win", 1, "sound_unique"),
    ("xinban", TWO_KEYS, "mate", 1, "cooked"),
    ("xinban", DEFECTION, "mate", 2, "shorter"),
    ("xinban", NO_DEFECTION, "win", 1, "no_win"),
]


def _pos(variant: str, fen: str) -> Position:
    return Position.from_fen(variant, fen)


def _walk(node: Node):
    yield node
    for _, child in node.replies:
        yield from _walk(child)


def test_a_sound_puzzle_with_a_quiet_key() -> None:
    proof = solve(_pos("xiangqi", QUIET_KEY), "mate", 2)
    assert proof.status == "sound_unique"
    assert proof.sound
    assert proof.moves_to_win == 2
    assert proof.key_moves == ("g8g9",)
    assert proof.mode == "full"
    assert proof.nodes > 0
    tree = proof.tree
    assert tree is not None and tree.distance == 2 and tree.moves == ("g8g9",)
    # every defence is answered by a mate
    assert {reply for reply, _ in tree.replies} == {m.iccs() for m in _after(QUIET_KEY, "g8g9")}
    for _, child in tree.replies:
        assert child.distance == 1 and child.final and child.moves


def _after(fen: str, *moves: str):
    pos = _pos("xiangqi", fen)
    for m in moves:
        pos.push_iccs(m)
    return list(pos.legal_moves)


def test_checks_only_mode_does_not_see_a_quiet_key() -> None:
    proof = solve(_pos("xiangqi", QUIET_KEY), "mate", 2, mode="checks_only")
    assert proof.status == "no_win"
    assert proof.mode == "checks_only"
    assert proof.moves_to_win is None and proof.tree is None


def test_a_cook_names_the_second_key() -> None:
    proof = solve(_pos("xiangqi", TWO_KEYS), "mate", 1)
    assert proof.status == "cooked"
    assert set(proof.key_moves) == {"b7b9", "h7h9"}
    assert proof.second_key == proof.key_moves[1]
    assert proof.second_key in proof.reason
    assert proof.tree is not None and set(proof.tree.moves) == {"b7b9", "h7h9"}


def test_uniqueness_in_checks_only_mode_is_among_checks() -> None:
    full = solve(_pos("xiangqi", QUIET_COOK), "mate", 2)
    checks = solve(_pos("xiangqi", QUIET_COOK), "mate", 2, mode="checks_only")
    assert full.status == "cooked" and set(full.key_moves) == {"h5f6", "h5g7"}
    assert checks.status == "sound_unique" and checks.key_moves == ("h5f6",)


def test_a_shorter_win_is_reported_with_its_length_and_key() -> None:
    proof = solve(_pos("xiangqi", STATED_FOUR), "mate", 4, mode="checks_only")
    assert proof.status == "shorter"
    assert proof.moves_to_win == 3
    assert proof.key_moves == ("b0b9",)
    assert "3" in proof.reason
    assert proof.tree is not None and proof.tree.distance == 3


def test_no_win() -> None:
    proof = solve(_pos("xiangqi", STALEMATE), "mate", 3)
    assert proof.status == "no_win"
    assert proof.moves_to_win is None and proof.key_moves == () and proof.tree is None
    assert proof.reason


def test_the_budget_is_never_reported_as_sound() -> None:
    proof = solve(_pos("xiangqi", MATE_IN_FIVE), "mate", 5, Budget(nodes=2000))
    assert proof.status == "budget_exhausted"
    assert not proof.sound and proof.tree is None
    assert 2000 <= proof.nodes < 3000
    found = find_win(_pos("xiangqi", MATE_IN_FIVE), "mate", 5, Budget(nodes=2000))
    assert found.status == "budget_exhausted"


def test_a_time_budget_stops_the_search() -> None:
    proof = solve(_pos("xiangqi", MATE_IN_FIVE), "mate", 5, Budget(seconds=0.0))
    assert proof.status == "budget_exhausted"


def test_find_win_gives_the_length_and_a_key() -> None:
    found = find_win(_pos("xiangqi", MATE_IN_FIVE), "mate", 5, mode="checks_only")
    assert (found.status, found.moves_to_win, found.key_move) == ("win", 5, "g3g9")
    assert find_win(_pos("xiangqi", STALEMATE), "mate", 2).status == "no_win"


def test_feidan_dead_general() -> None:
    pos = _pos("feidan", DEAD_GENERAL)
    proof = solve(pos, "dead_general", 1)
    assert proof.status == "sound_unique" and proof.key_moves == ("a8f8",)
    # a dead general is not a checkmate, but it is a win
    assert solve(pos, "mate", 1).status == "no_win"
    assert solve(pos, "win", 1).key_moves == ("a8f8",)


def test_feidan_checkmate_is_not_a_dead_general() -> None:
    pos = _pos("feidan", FEIDAN_MATE)
    assert solve(pos, "mate", 1).key_moves == ("h5g7",)
    assert solve(pos, "win", 1).status == "sound_unique"
    assert solve(pos, "dead_general", 2).status == "no_win"


def test_xinban_defection_mate() -> None:
    proof = solve(_pos("xinban", DEFECTION), "mate", 1)
    assert proof.status == "sound_unique" and proof.key_moves == ("e5d7",)
    assert solve(_pos("xinban", DEFECTION), "win", 1).status == "sound_unique"
    for variant in ("xiangqi", "xinban"):
        assert solve(_pos(variant, NO_DEFECTION), "mate", 1).status == "no_win"


def test_stalemate_wins_under_goal_win_only() -> None:
    for variant in ("xiangqi", "xinban"):
        proof = solve(_pos(variant, STALEMATE), "win", 1)
        assert proof.status == "sound_unique" and proof.key_moves == ("h5g7",)
    assert solve(_pos("xiangqi", STALEMATE), "mate", 1).status == "no_win"
    # goal win counts stalemates among the keys
    proof = solve(_pos("xiangqi", TWO_KEYS), "win", 1)
    assert {"b7b9", "h7h9", "d0d1"} <= set(proof.key_moves)


def test_a_perpetual_check_is_not_an_escape() -> None:
    pos = _pos("xiangqi", PERPETUAL)
    proof = solve(pos, "mate", 6)
    assert proof.status == "sound_unique" and proof.key_moves == ("i3h5",)
    assert solve(pos, "mate", 5).status == "no_win"
    endings = {node.ending for node in _walk(proof.tree)} - {None}
    assert endings == {"perpetual_check"}


def test_the_natural_limit_draws_a_mate_that_comes_too_late() -> None:
    # 120 plies without a capture end the game; the mate of g8g9 comes on
    # the third ply, which is the 120th only from 118 on
    board = QUIET_KEY.rsplit(" ", 2)[0]
    for halfmove, status in ((117, "sound_unique"), (118, "no_win")):
        pos = _pos("xiangqi", f"{board} {halfmove} 60")
        assert solve(pos, "mate", 2).status == status, halfmove
    # a mate on the 120th ply still counts: the board outcome comes first
    pos = _pos("xiangqi", TWO_KEYS.rsplit(" ", 2)[0] + " 119 60")
    assert solve(pos, "mate", 1).status == "cooked"


def test_a_tree_cut_to_its_size_limit_says_so() -> None:
    proof = solve(_pos("xiangqi", MATE_IN_FIVE), "mate", 5, mode="checks_only", tree_limit=2)
    assert proof.status == "sound_unique" and not proof.tree_complete
    assert any(not node.expanded for node in _walk(proof.tree))
    whole = solve(_pos("xiangqi", MATE_IN_FIVE), "mate", 5, mode="checks_only")
    assert whole.tree_complete and all(node.expanded for node in _walk(whole.tree))


@pytest.mark.parametrize(("variant", "fen", "goal", "n", "status"), EVERY_STATUS)
@pytest.mark.parametrize("mode", ["full", "checks_only"])
def test_every_status_in_every_variant(
    variant: str, fen: str, goal: str, n: int, status: str, mode: str
) -> None:
    if mode == "checks_only" and fen in (QUIET_KEY, STALEMATE):
        status = "no_win"  # their keys give no check
    proof = solve(_pos(variant, fen), goal, n, mode=mode)
    assert proof.status == status
    assert (proof.tree is not None) is (status != "no_win")


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_every_variant_runs_out_of_budget(variant: str) -> None:
    proof = solve(Position.start(variant), "mate", 5, Budget(nodes=600))
    assert proof.status == "budget_exhausted" and proof.nodes >= 600


def test_bad_requests_are_engine_errors() -> None:
    pos = _pos("xiangqi", QUIET_KEY)
    for kwargs in (
        {"goal": "draw"},
        {"mode": "quick"},
        {"max_moves": 0},
        {"max_moves": 31},
        {"max_moves": "3"},
        {"goal": "dead_general"},
    ):
        args = {"goal": "mate", "max_moves": 2, **kwargs}
        with pytest.raises(SolverInputError):
            solve(pos, **args)
    over = _pos("feidan", "4aka4/5M5/11/11/11/11/11/11/11/4K6 b - - 0 1")
    with pytest.raises(SolverInputError):
        solve(over, "win", 1)
    assert issubclass(SolverInputError, ValueError)


def test_the_callers_position_is_left_alone() -> None:
    pos = _pos("xiangqi", QUIET_KEY)
    solve(pos, "mate", 2)
    assert pos.fen() == QUIET_KEY and pos.move_stack == []
