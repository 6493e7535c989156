"""The UCI adapter (judge.uci, through judge.fairy) against engines that go wrong: a small
program that speaks just enough UCI and then hangs, dies, or answers garbage
(tests/judge/broken_engine.py), and the reading of ``info`` lines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine import Position
from judge import (
    FairyStockfish,
    JudgeDied,
    JudgeProtocolError,
    JudgeTimeout,
    JudgeUnavailable,
    PositionRefused,
)
from judge.uci import Info, parse_info

BROKEN = Path(__file__).with_name("broken_engine.py")
START = Position.start("xiangqi").fen()


def broken(mode: str, *extra: str, seconds: float = 5.0) -> FairyStockfish:
    """A judge whose engine is the broken program in ``mode``; a search may take ``seconds``."""
    return FairyStockfish(
        [sys.executable, str(BROKEN), mode, *extra],
        start_seconds=seconds,
        floor_seconds=seconds,
        silence_seconds=seconds,
    )


def evaluate(judge: FairyStockfish, moves: list[str] | None = None) -> object:
    return judge.evaluate(variant="xiangqi", fen=START, moves=moves or [], nodes=1_000)


# -- reading info lines --------------------------------------------------------------------------


def test_an_info_line_is_read_with_its_score_from_the_side_to_move_and_its_line() -> None:
    line = "info depth 11 seldepth 15 multipv 2 score cp -32 nodes 100052 nps 138768 time 721 pv c7c6 e3e7"
    assert parse_info(line) == Info(
        multipv=2,
        depth=11,
        seldepth=15,
        nodes=100052,
        cp=-32,
        mate=None,
        bound=None,
        pv=("c7c6", "e3e7"),
    )


def test_a_mate_and_a_bound_are_read() -> None:
    info = parse_info("info depth 3 score mate -2 upperbound nodes 9 pv a1a2 a10a9")
    assert info is not None
    assert (info.cp, info.mate, info.bound, info.multipv) == (None, -2, "upperbound", 1)


@pytest.mark.parametrize(
    "line",
    [
        "info depth 5 currmove h3e3 currmovenumber 1",
        "info string variant xiangqi startpos rnbakabnr/9/1c5c1",
        "info nodes 100 nps 200",
        "info depth 2 score cp 10",  # no line
        "bestmove h3e3",
    ],
)
def test_lines_without_a_score_and_a_line_are_passed_over(line: str) -> None:
    assert parse_info(line) is None


@pytest.mark.parametrize(
    "line",
    [
        "info depth 1 score cp lots pv h3e3",
        "info depth one score cp 1 pv h3e3",
        "info depth 1 score wdl 1 pv h3e3",
        "info depth 1 score",
    ],
)
def test_a_line_that_breaks_the_protocol_is_an_error(line: str) -> None:
    with pytest.raises(ValueError):
        parse_info(line)


# -- engines that go wrong -----------------------------------------------------------------------


def test_a_working_engine_answers_and_its_move_is_read_in_iccs() -> None:
    judge = broken("fine")
    try:
        found = judge.evaluate(variant="xiangqi", fen=START, nodes=1_000)
    finally:
        judge.close()
    assert found.best.moves == ("h2e2", "h9g7")
    assert (found.best.cp, found.turn, found.for_red()) == (12, "red", (12, None))
    assert judge.label == "Broken 0.1"


def test_a_hung_engine_is_killed_started_afresh_and_then_given_up() -> None:
    judge = broken("hang", seconds=1.0)
    try:
        with pytest.raises(JudgeTimeout) as raised:
            evaluate(judge)
        assert judge.engine.starts == 2  # the first, and one fresh start for the search again
        assert judge.engine.pid is None  # nothing left running
    finally:
        judge.close()
    assert raised.value.code == "judge.timeout"
    assert "did not answer" in str(raised.value)


def test_an_engine_that_dies_on_every_search_is_tried_twice_then_given_up() -> None:
    judge = broken("die")
    try:
        with pytest.raises(JudgeDied):
            evaluate(judge)
        assert judge.engine.starts == 2
    finally:
        judge.close()


def test_an_engine_that_dies_once_is_replaced_and_the_search_done_again(tmp_path: Path) -> None:
    judge = broken("die_once", str(tmp_path / "state"))
    try:
        found = judge.evaluate(variant="xiangqi", fen=START, nodes=1_000)
        assert found.best.move == "h2e2"
        assert judge.engine.starts == 2
        judge.evaluate(variant="xiangqi", fen=START, nodes=1_000)  # the new process stays
        assert judge.engine.starts == 2
    finally:
        judge.close()


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("garbage_score", "score cp lots"),
        ("garbage_line", "I am not an engine"),
        ("bad_move", "a1a9"),
    ],
)
def test_garbage_is_a_clear_error_and_the_engine_is_not_trusted_again(mode: str, said: str) -> None:
    judge = broken(mode)
    try:
        with pytest.raises(JudgeProtocolError) as raised:
            evaluate(judge)
        assert judge.engine.starts == 1  # not asked again
        assert judge.engine.pid is None  # killed
    finally:
        judge.close()
    assert raised.value.code == "judge.garbage"
    assert said in str(raised.value)


def test_an_engine_that_finds_no_move_where_there_are_some_refuses_the_position() -> None:
    judge = broken("no_move")
    try:
        with pytest.raises(PositionRefused, match="finds no move"):
            evaluate(judge)
    finally:
        judge.close()


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ([sys.executable, str(BROKEN), "no_xiangqi"], "does not play xiangqi"),
        ([sys.executable, str(BROKEN), "not_uci"], "stopped before the UCI handshake"),
        ([sys.executable, str(BROKEN), "silent"], "no answer before the UCI handshake"),
        (["/nonexistent/fairy-stockfish"], "/nonexistent/fairy-stockfish"),
    ],
)
def test_a_program_that_is_no_xiangqi_engine_is_unavailable(
    command: list[str], reason: str
) -> None:
    judge = FairyStockfish(command, start_seconds=1.0)
    try:
        with pytest.raises(JudgeUnavailable, match=reason) as raised:
            evaluate(judge)
        assert judge.engine.pid is None
    finally:
        judge.close()
    assert raised.value.code == "judge.unavailable"


@pytest.mark.parametrize(
    ("variant", "fen", "moves", "reason"),
    [
        ("xiangqi", "rnbakabnr/9/9 w - - 0 1", [], "ranks"),
        ("xiangqi", START, ["h2h8"], "cannot move"),
        ("xiangqi", "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", [], "game is over"),
        ("feidan", Position.start("feidan").fen(), [], "does not play feidan"),
        ("xiangqi", START, "h2e2", "must be a list"),
    ],
)
def test_a_position_is_checked_before_the_engine_sees_it(
    variant: str, fen: str, moves: list[str], reason: str
) -> None:
    judge = broken("fine")
    try:
        with pytest.raises(PositionRefused, match=reason) as raised:
            judge.evaluate(variant=variant, fen=fen, moves=moves, nodes=1_000)
        assert judge.engine.starts == 0  # never started for it
    finally:
        judge.close()
    assert isinstance(raised.value, ValueError)
    assert raised.value.code == "judge.position_refused"
