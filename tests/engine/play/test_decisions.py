"""The computer's decisions beyond its moves (engine.play.decisions): it resigns a game lost
beyond doubt, offers a draw in a dead-even position with little material (not too often),
and answers a draw offered while it was thinking by the score of the move it made."""

from __future__ import annotations

import pytest

from engine import Position
from engine.play.decisions import (
    ACCEPT_AFTER_MOVE_BELOW,
    DRAW_MATERIAL_AT_MOST,
    DRAW_OFFER_AFTER,
    DRAW_OFFER_EVERY,
    DRAW_OFFER_MARGIN,
    RESIGN_AFTER,
    RESIGN_BELOW,
    Judgement,
    Resignation,
    accepts_offer_after_move,
    attacking_material,
    offers_draw,
    resignation,
    takes_draw,
)

EVEN = Judgement(score=10)
LOST = Judgement(score=RESIGN_BELOW - 1)
MATED = Judgement(score=None, mate=-3)


def test_no_history_no_resignation() -> None:
    assert resignation([]) is None


def test_one_mate_against_it_is_not_yet_beyond_doubt() -> None:
    assert resignation([EVEN, EVEN, MATED]) is None


def test_two_searches_in_a_row_proving_mate_resign() -> None:
    got = resignation([EVEN, Judgement(None, -4), Judgement(None, -3)])
    assert got == Resignation("mate", 2, mate=3)
    assert got is not None and got.to_json() == {
        "reason": "mate",
        "moves": 2,
        "mate": 3,
        "score": None,
    }


def test_a_mate_for_it_in_between_breaks_the_proof() -> None:
    assert resignation([Judgement(None, -4), Judgement(None, 5), Judgement(None, -3)]) is None


def test_lost_for_several_moves_in_a_row_resigns() -> None:
    history = [EVEN] + [Judgement(RESIGN_BELOW - 50 * i) for i in range(RESIGN_AFTER)]
    got = resignation(history)
    assert got == Resignation("lost", RESIGN_AFTER, score=history[-1].score)


def test_lost_one_move_fewer_than_needed_plays_on() -> None:
    assert resignation([EVEN] + [LOST] * (RESIGN_AFTER - 1)) is None


def test_a_better_search_in_between_plays_on() -> None:
    history = [LOST] * (RESIGN_AFTER - 1) + [Judgement(RESIGN_BELOW + 1)] + [LOST]
    assert resignation(history) is None


def test_exactly_at_the_line_counts_as_lost() -> None:
    assert resignation([Judgement(RESIGN_BELOW)] * RESIGN_AFTER) is not None


def test_lost_then_mated_resigns_naming_the_mate() -> None:
    got = resignation([LOST] * (RESIGN_AFTER - 1) + [Judgement(None, -6)])
    assert got == Resignation("mate", RESIGN_AFTER, mate=6)


def test_resignation_is_deterministic() -> None:
    history = [LOST] * RESIGN_AFTER
    assert resignation(history) == resignation(list(history))


def test_attacking_material_counts_attackers_of_both_sides() -> None:
    start = Position.start("xiangqi").pieces().values()
    # each side: 2 chariots, 2 horses, 2 cannons, 5 soldiers
    assert attacking_material(start) == 2 * (2 * 900 + 2 * 400 + 2 * 450 + 5 * 100)
    assert attacking_material(["K", "k", "A", "a", "B", "b"]) == 0
    assert attacking_material(["+N", "p", "F", "m"]) == 400 + 100 + 500 + 600


def test_a_dead_even_endgame_offers_a_draw() -> None:
    assert offers_draw([EVEN] * DRAW_OFFER_AFTER, material=900, moves_since_offer=None)


def test_too_few_even_moves_no_offer() -> None:
    history = [Judgement(200)] + [EVEN] * (DRAW_OFFER_AFTER - 1)
    assert not offers_draw(history, material=900, moves_since_offer=None)


@pytest.mark.parametrize("score", [31, -31, 400])
def test_one_uneven_search_in_the_run_no_offer(score: int) -> None:
    history = [EVEN] * (DRAW_OFFER_AFTER - 1) + [Judgement(score)]
    assert not offers_draw(history, material=900, moves_since_offer=None)


def test_a_mate_seen_is_never_even() -> None:
    history = [EVEN] * (DRAW_OFFER_AFTER - 1) + [Judgement(None, 7)]
    assert not offers_draw(history, material=900, moves_since_offer=None)


def test_much_material_left_no_offer() -> None:
    even = [EVEN] * DRAW_OFFER_AFTER
    assert offers_draw(even, material=DRAW_MATERIAL_AT_MOST, moves_since_offer=None)
    assert not offers_draw(even, material=DRAW_MATERIAL_AT_MOST + 1, moves_since_offer=None)


def test_never_more_than_once_every_so_many_moves() -> None:
    even = [EVEN] * (DRAW_OFFER_AFTER + DRAW_OFFER_EVERY)
    assert not offers_draw(even, material=0, moves_since_offer=DRAW_OFFER_EVERY - 1)
    assert offers_draw(even, material=0, moves_since_offer=DRAW_OFFER_EVERY)


def test_an_offer_during_the_search_is_answered_by_the_moves_score() -> None:
    much = DRAW_MATERIAL_AT_MOST + 1
    assert accepts_offer_after_move(Judgement(ACCEPT_AFTER_MOVE_BELOW), material=much)
    assert accepts_offer_after_move(Judgement(None, -9), material=much)
    assert not accepts_offer_after_move(Judgement(ACCEPT_AFTER_MOVE_BELOW + 1), material=much)
    assert not accepts_offer_after_move(Judgement(None, 9), material=much)
    assert not accepts_offer_after_move(Judgement(0), material=much)


def test_a_dead_even_position_with_little_material_takes_the_draw() -> None:
    # the line on which the computer offers a draw itself, less the wait
    assert takes_draw(Judgement(0), material=0)
    assert takes_draw(Judgement(DRAW_OFFER_MARGIN), material=DRAW_MATERIAL_AT_MOST)
    assert not takes_draw(Judgement(DRAW_OFFER_MARGIN + 1), material=0)
    assert not takes_draw(Judgement(0), material=DRAW_MATERIAL_AT_MOST + 1)
    assert not takes_draw(Judgement(None, 3), material=0)  # it mates: no draw
    assert accepts_offer_after_move(Judgement(-DRAW_OFFER_MARGIN), material=0)
