"""Reading a game record (engine.records): every move played with the position's own reader,
stopping at the first move that cannot be played, never guessing."""

from __future__ import annotations

import pytest

from engine import InvalidFenError, Position
from engine.records import read_record

START = Position.start("xiangqi").fen()


def test_a_record_in_traditional_characters_and_full_width_digits_is_read_to_its_end() -> None:
    read = read_record("xiangqi", START, ["炮二平五", "馬８進７", "馬二進三", "車９平８"])
    assert read.complete
    assert read.iccs == ("h2e2", "h9g7", "h0g2", "i9h9")
    assert read.record_plies == 4
    assert read.final_fen.startswith("rnbakabr1/9/1c4nc1/")


def test_a_record_stops_at_its_first_illegal_move_and_keeps_what_came_before() -> None:
    read = read_record("xiangqi", START, ["炮二平五", "馬８進７", "車一進九", "車９平８"])
    assert not read.complete
    assert read.iccs == ("h2e2", "h9g7")
    assert read.stop is not None
    assert (read.stop.ply, read.stop.text) == (3, "車一進九")
    assert read.stop.code.startswith("move.")
    assert "chariot" in read.stop.reason


def test_a_record_stops_at_a_move_it_cannot_read() -> None:
    read = read_record("xiangqi", START, ["炮二平五", "hello"])
    assert read.iccs == ("h2e2",)
    assert read.stop is not None and read.stop.ply == 2 and read.stop.text == "hello"


def test_a_move_that_would_leave_the_general_in_check_stops_the_record() -> None:
    read = read_record("xiangqi", START, ["炮二平五", "馬８進７", "炮五進四", "士４進５"])
    assert read.stop is not None and read.stop.ply == 4 and read.stop.code == "move.leaves_check"


def test_a_start_the_engine_refuses_is_an_error_not_an_empty_game() -> None:
    with pytest.raises(InvalidFenError):
        read_record("xiangqi", "rnbakabnr/9/9 w", ["炮二平五"])


def test_moves_after_a_repetition_the_rules_would_end_are_still_read() -> None:
    # the horses go out and back twice: this site's rules end the game by repetition, but a
    # record may go on (an arbiter let it), and each further move is still a legal move
    there_and_back = ["馬二進三", "馬８進７", "馬三退二", "馬７退８"]
    read = read_record("xiangqi", START, [*there_and_back * 3, "炮二平五"])
    assert read.complete
    assert read.rules_end is not None and read.rules_end[1] == "repetition"
    assert read.rules_end[0] < len(read.iccs)
    assert read.iccs[-1] == "h2e2"
