"""A proof tells how far it has come (``Budget.progress``): its stages in order, the first moves
of the uniqueness check counted, its work growing; telling changes nothing of the proof, and
what the listener raises stops it."""

from __future__ import annotations

import pytest

from engine import Position
from engine import solver as prover
from engine.solver import STAGES, Budget, Progress

# A classical mate in 4 (full mode): some 57,000 positions, every stage of a proof.
HARD_MATE_IN_4 = "5k3/4P4/b1Rcba3/3N5/9/C1R6/2P6/9/4p4/4cK3 w - - 0 1"
# 围魏救赵 (陶情弈趣), a mate in 13 over every move: df-pn, with a shorter win looked for.
MATE_IN_13 = "3ak1b1N/8C/5P3/5P3/9/9/4r4/8p/1p2p4/3K5 w - - 0 1"


def proved(fen: str, n: int, *, every: float = 0.0, nodes: int | None = None) -> tuple[
    prover.Proof, list[Progress]
]:  # fmt: skip
    told: list[Progress] = []
    budget = Budget(nodes=nodes, progress=told.append, every=every)
    proof = prover.solve(Position.from_fen("xiangqi", fen), "mate", n, budget, "full")
    return proof, told


@pytest.mark.parametrize(
    ("fen", "n", "stages"),
    [(HARD_MATE_IN_4, 4, {"win", "unique", "tree"}), (MATE_IN_13, 13, {"win", "shorter"})],
)
def test_a_proof_tells_its_stages_in_order_and_its_work_growing(
    fen: str, n: int, stages: set[str]
) -> None:
    proof, told = proved(fen, n, nodes=6_000_000)
    assert proof.status == "sound_unique"
    assert {p.stage for p in told} >= stages
    order = [STAGES.index(p.stage) for p in told]
    # "shorter" may come back after a first look at the other first moves; never "win" again
    assert order[0] == 0 or 0 not in order
    first_unique = next((i for i, p in enumerate(told) if p.stage == "unique"), len(told))
    assert all(p.stage != "win" for p in told[first_unique:])
    assert [p.nodes for p in told] == sorted(p.nodes for p in told)
    assert all(p.nodes <= proof.nodes for p in told)
    for p in told:
        assert p.seconds >= 0
        if p.stage == "unique":
            assert 0 <= p.done < p.total
        else:
            assert p.done == p.total == 0


def test_the_uniqueness_check_counts_every_first_move() -> None:
    _proof, told = proved(HARD_MATE_IN_4, 4)
    unique = [p for p in told if p.stage == "unique"]
    total = unique[0].total
    position = Position.from_fen("xiangqi", HARD_MATE_IN_4)
    assert total == len(list(position.legal_moves))
    assert [p.done for p in unique] == sorted(p.done for p in unique)
    assert unique[-1].done > unique[0].done


def test_telling_the_progress_changes_nothing_of_the_proof() -> None:
    position = Position.from_fen("xiangqi", HARD_MATE_IN_4)
    quiet = prover.solve(position, "mate", 4, Budget(), "full")
    told, _ = proved(HARD_MATE_IN_4, 4)
    assert (told.status, told.key_moves, told.nodes, told.tree) == (
        quiet.status, quiet.key_moves, quiet.nodes, quiet.tree
    )  # fmt: skip


def test_a_listener_is_told_no_more_often_than_it_asked() -> None:
    _proof, told = proved(HARD_MATE_IN_4, 4, every=3600.0)
    assert told == []  # the proof takes far less than an hour


def test_what_the_listener_raises_stops_the_proof() -> None:
    class Stop(Exception):
        pass

    def listener(progress: Progress) -> None:
        raise Stop(progress.stage)

    position = Position.from_fen("xiangqi", HARD_MATE_IN_4)
    with pytest.raises(Stop):
        prover.solve(position, "mate", 4, Budget(progress=listener, every=0.0), "full")
    # the position given is untouched: the prover works on its own copy
    assert position.fen() == HARD_MATE_IN_4
