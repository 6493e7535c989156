"""Fairy-Stockfish as the judge of traditional xiangqi (judge.fairy over judge.uci), with the
real program: its lines in ICCS and from the right side, the same answer to the same question,
a process killed or frozen in the middle of a search replaced and the search done again with
nothing lost, one process per worker process; and which judge each variant gets."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator

import pytest

from engine import Position
from judge import (
    FAIRY_STOCKFISH,
    OURS,
    FairyStockfish,
    JudgeUnavailable,
    fairy_stockfish_path,
    judge_for,
    shared_fairy_stockfish,
)
from judge.uci import Info

PATH = fairy_stockfish_path()
pytestmark = pytest.mark.skipif(
    PATH is None,
    reason="Fairy-Stockfish is not installed (Debian: apt-get install fairy-stockfish)",
)

START = Position.start("xiangqi").fen()
# Red mates in 1 with either of two moves of the chariot on a0: a0a9 and a0d0.
TWO_MATES = "3k5/7R1/9/9/9/9/9/9/9/R3K4 w - - 0 1"
# The same, colours swapped: Black mates.
TWO_MATES_BLACK = "r3k4/9/9/9/9/9/9/9/7r1/3K5 b - - 0 1"
OPENING = ["h2e2", "h9g7", "h0g2", "i9h9"]


@pytest.fixture
def fairy() -> Iterator[FairyStockfish]:
    assert PATH is not None
    judge = FairyStockfish([PATH])
    yield judge
    judge.close()


def test_the_start_is_judged_in_iccs_on_its_node_budget(fairy: FairyStockfish) -> None:
    found = fairy.evaluate(variant="xiangqi", fen=START, nodes=20_000)
    assert found.engine == FAIRY_STOCKFISH and found.turn == "red"
    assert found.best.move in {m.iccs() for m in Position.start("xiangqi").legal_moves}
    assert found.best.cp is not None and abs(found.best.cp) < 100
    assert found.depth > 3 and 20_000 <= found.nodes < 25_000
    assert fairy.label.startswith("Fairy-Stockfish ")


def test_every_mating_move_is_a_line_and_the_mate_is_said_from_reds_side(
    fairy: FairyStockfish,
) -> None:
    # (a quiet move of either chariot that leaves Black no move wins at once too: stalemate)
    found = fairy.evaluate(variant="xiangqi", fen=TWO_MATES, nodes=10_000, multipv=20)
    mates = {line.move for line in found.lines if line.mate == 1}
    assert {"a0a9", "a0d0", "a0a1"} <= mates and "h8h7" not in mates
    assert found.for_red() == (None, 1)
    black = fairy.evaluate(variant="xiangqi", fen=TWO_MATES_BLACK, nodes=10_000, multipv=20)
    assert {"a9a0", "a9d9"} <= {line.move for line in black.lines if line.mate == 1}
    assert black.turn == "black" and black.for_red() == (None, -1)


def test_multipv_gives_different_first_moves_best_first(fairy: FairyStockfish) -> None:
    found = fairy.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=30_000, multipv=3)
    assert len(found.lines) == 3
    assert len({line.move for line in found.lines}) == 3
    scores = [line.cp for line in found.lines]
    assert all(score is not None for score in scores)
    assert found.turn == "red"


def test_the_same_position_gets_the_same_answer_whatever_was_asked_before(
    fairy: FairyStockfish,
) -> None:
    first = fairy.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=30_000)
    fairy.evaluate(variant="xiangqi", fen=START, moves=OPENING[:1], nodes=50_000, multipv=2)
    again = fairy.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=30_000)
    assert again == first


def test_a_search_told_to_stop_answers_at_once_with_what_it_has(fairy: FairyStockfish) -> None:
    """The analysis board stops a search nobody waits for any more: the engine is told
    ``stop`` and answers with the depths it finished; the next search is whole again."""
    reports: list[Info] = []
    found = fairy.evaluate(
        variant="xiangqi",
        fen=START,
        moves=OPENING,
        nodes=50_000_000,  # minutes of search, were it not stopped
        multipv=3,
        on_info=reports.append,
        stop=lambda: any(info.depth >= 6 for info in reports),
    )
    assert 6 <= found.depth < 20 and found.nodes < 5_000_000
    assert len(found.lines) == 3
    after = fairy.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=30_000)
    alone = FairyStockfish([PATH or ""])
    try:
        assert after == alone.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=30_000)
    finally:
        alone.close()


class AtDepth:
    """An ``on_info`` that sends ``signal`` to the engine at its first report of depth 5."""

    def __init__(self, judge: FairyStockfish, signal: int) -> None:
        self.judge, self.signal = judge, signal
        self.pids: list[int] = []

    def __call__(self, info: Info) -> None:
        if not self.pids and info.depth >= 5:
            pid = self.judge.engine.pid
            assert pid is not None
            self.pids.append(pid)
            os.kill(pid, self.signal)


def test_an_engine_killed_in_the_middle_of_a_search_is_replaced_and_nothing_is_lost(
    fairy: FairyStockfish,
) -> None:
    undisturbed = fairy.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=200_000)
    starts = fairy.engine.starts
    kill = AtDepth(fairy, signal.SIGKILL)
    found = fairy.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=200_000, on_info=kill)
    assert kill.pids and fairy.engine.pid not in kill.pids  # it was killed, and another took over
    assert fairy.engine.starts == starts + 1
    assert found == undisturbed


def test_a_frozen_engine_is_killed_replaced_and_the_search_done_again() -> None:
    assert PATH is not None
    judge = FairyStockfish([PATH], silence_seconds=3.0)
    try:
        undisturbed = judge.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=100_000)
        freeze = AtDepth(judge, signal.SIGSTOP)
        found = judge.evaluate(
            variant="xiangqi", fen=START, moves=OPENING, nodes=100_000, on_info=freeze
        )
        assert freeze.pids and judge.engine.pid not in freeze.pids
        assert judge.engine.starts == 2
        assert found == undisturbed
    finally:
        judge.close()


def _search_in_child(queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    judge = shared_fairy_stockfish()
    assert judge is not None
    found = judge.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=10_000)
    queue.put((judge.engine.pid, found.best.move))


def test_a_worker_forked_from_a_process_with_an_engine_starts_its_own() -> None:
    judge = shared_fairy_stockfish()
    assert judge is not None and shared_fairy_stockfish() is judge
    mine = judge.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=10_000)
    parent_pid = judge.engine.pid
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_search_in_child, args=(queue,))
    child.start()
    child_pid, move = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert child_pid not in (None, parent_pid)
    assert move == mine.best.move
    # the parent's process was left alone, and still answers
    assert judge.engine.pid == parent_pid
    again = judge.evaluate(variant="xiangqi", fen=START, moves=OPENING, nodes=10_000)
    assert again == mine


# -- which judge a variant gets --------------------------------------------------------------


def test_traditional_xiangqi_is_judged_by_fairy_stockfish_and_the_others_by_ours() -> None:
    assert judge_for("xiangqi").name == FAIRY_STOCKFISH
    assert judge_for("feidan").name == OURS
    assert judge_for("xinban").name == OURS
    assert judge_for("xiangqi", engine=OURS).name == OURS


@pytest.mark.parametrize("setting", ["", "/nonexistent/fairy-stockfish"])
def test_without_fairy_stockfish_xiangqi_falls_back_to_our_engine(
    monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    monkeypatch.setenv("FAIRY_STOCKFISH", setting)
    assert fairy_stockfish_path() is None
    assert judge_for("xiangqi").name == OURS
    with pytest.raises(JudgeUnavailable, match="not installed"):
        judge_for("xiangqi", engine=FAIRY_STOCKFISH)


def test_the_setting_names_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    assert PATH is not None
    monkeypatch.setenv("FAIRY_STOCKFISH", PATH)
    assert fairy_stockfish_path() == PATH
