"""Judging a solver's line against a proof: wrong moves get their
refutation, every winning move is accepted, the final move accepts every
mate, the site answers with the longest defence."""

import pytest

from engine import IllegalMoveError, Position
from engine.solver import Proof, SolverInputError, find_win, judge, solve

QUIET_KEY = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
TWO_KEYS = "4k4/9/1RN3NR1/9/9/9/9/9/9/3K5 w - - 0 1"
# mate in 5 by checks; after g3g9 d9d8 both e7e8 and e7d7 win (a dual)
WITH_DUAL = "3k5/4a4/3aP4/9/9/9/6R2/6R2/2pp1p3/1c2K4 w - - 0 1"
PERPETUAL = "5k3/4P4/9/9/9/9/3PP3N/3r2n2/9/4K4 w - - 0 1"


def _proof(fen: str, n: int, mode: str = "full") -> Proof:
    return solve(Position.from_fen("xiangqi", fen), "mate", n, mode=mode)


def _after(fen: str, moves: list[str]) -> Position:
    pos = Position.from_fen("xiangqi", fen)
    for m in moves:
        pos.push_iccs(m)
    return pos


def test_every_wrong_first_move_gets_a_refutation_that_holds() -> None:
    proof = _proof(QUIET_KEY, 2)
    wrong = [m.iccs() for m in _after(QUIET_KEY, []).legal_moves if m.iccs() != "g8g9"]
    assert len(wrong) == 6
    for move in wrong:
        verdict = judge(proof, [move])
        assert verdict.verdict == "wrong", move
        assert verdict.refutation is not None and verdict.refutation in verdict.reason
        # after the refutation no mate in the one move left
        pos = _after(QUIET_KEY, [move, verdict.refutation])
        if pos.status() == "ongoing":
            assert find_win(pos, "mate", 1).status == "no_win", move


def test_the_key_is_answered_with_the_longest_defence() -> None:
    proof = _proof(WITH_DUAL, 5, "checks_only")
    verdict = judge(proof, ["g3g9"])
    assert verdict.verdict == "continue" and verdict.remaining == 4
    assert verdict.reply == proof.tree.replies[0][0] == "d9d8"
    # d9d8 resists longest: the other replies are mated sooner
    assert proof.tree.replies[0][1].distance == 4
    assert all(child.distance <= 4 for _, child in proof.tree.replies)


def test_a_dual_is_accepted_and_the_game_goes_on_to_the_mate() -> None:
    proof = _proof(WITH_DUAL, 5, "checks_only")
    node = proof.tree.reply_node("d9d8")
    assert set(node.moves) == {"e7e8", "e7d7"} and node.duals
    line = ["g3g9", "d9d8", "e7d7"]  # the move that is not the primary
    while True:
        verdict = judge(proof, line)
        if verdict.verdict == "solved":
            break
        assert verdict.verdict == "continue", line
        line.append(verdict.reply)
        found = find_win(_after(WITH_DUAL, line), "mate", verdict.remaining, mode="checks_only")
        assert found.status == "win"
        line.append(found.key_move)
    assert len(line) <= 9 and verdict.reason == "checkmate"
    assert _after(WITH_DUAL, line).status() == "checkmate"


def test_the_second_key_of_a_cook_is_accepted() -> None:
    proof = _proof(TWO_KEYS, 1)
    for key in ("b7b9", "h7h9"):
        assert judge(proof, [key]).verdict == "solved"


def test_the_final_move_accepts_every_mate() -> None:
    proof = _proof(QUIET_KEY, 2)
    for reply, node in proof.tree.replies:
        pos = _after(QUIET_KEY, ["g8g9", reply])
        for move in pos.legal_moves:
            pos.push(move)
            mates = pos.status() == "checkmate"
            pos.pop()
            verdict = judge(proof, ["g8g9", reply, move.iccs()])
            assert verdict.verdict == ("solved" if mates else "wrong"), (reply, move)
            assert (move.iccs() in node.moves) is mates


def test_a_defence_off_the_stored_line_is_followed() -> None:
    proof = _proof(WITH_DUAL, 5, "checks_only")
    other = [reply for reply, _ in proof.tree.replies][-1]
    verdict = judge(proof, ["g3g9", other])
    assert verdict.verdict == "continue" and verdict.reply is None


def test_checks_only_rejects_a_quiet_move() -> None:
    proof = _proof(WITH_DUAL, 5, "checks_only")
    verdict = judge(proof, ["g2h2"])
    assert verdict.verdict == "wrong" and "check" in verdict.reason


def test_a_perpetual_check_line_ends_with_the_rule() -> None:
    proof = _proof(PERPETUAL, 6)
    line = ["i3h5", "d2e2", "e0d0", "e2d2", "d0e0", "d2e2", "e0d0", "e2d2", "d0e0"]
    verdict = judge(proof, line)
    assert verdict.verdict == "solved" and verdict.reason == "perpetual_check"


def test_a_move_played_by_chinese_name_is_read() -> None:
    proof = _proof(QUIET_KEY, 2)
    pos = _after(QUIET_KEY, [])
    name = pos.chinese(pos.parse_move("g8g9"))
    assert judge(proof, [name]).verdict == "continue"


def test_judging_works_on_a_proof_read_back_from_json() -> None:
    proof = Proof.from_json(_proof(QUIET_KEY, 2).to_json())
    assert judge(proof, ["g8g9", "a7c9", "g9f9"]).verdict == "solved"


def test_bad_input() -> None:
    proof = _proof(QUIET_KEY, 2)
    with pytest.raises(IllegalMoveError):
        judge(proof, ["g8g7"])
    with pytest.raises(SolverInputError):
        judge(_proof(QUIET_KEY, 2, "checks_only"), [])  # no win to judge


def test_a_line_beyond_a_cut_tree_is_proved_on_the_fly() -> None:
    whole = _proof(WITH_DUAL, 5, "checks_only")
    cut = solve(
        Position.from_fen("xiangqi", WITH_DUAL), "mate", 5, mode="checks_only", tree_limit=1
    )
    assert not cut.tree_complete
    line = ["g3g9"]
    for _ in range(4):
        verdict = judge(cut, line)
        assert verdict.verdict == "continue"
        assert verdict.reply == judge(whole, line).reply  # the same longest defence
        line.append(verdict.reply)
        found = find_win(_after(WITH_DUAL, line), "mate", verdict.remaining, mode="checks_only")
        line.append(found.key_move)
    assert judge(cut, line).verdict == "solved"
