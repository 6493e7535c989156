"""Every engine error carries a stable code of ``engine.errors.MESSAGES`` and read-only
params, besides its English message, so that a site can say it in any language."""

from __future__ import annotations

import pytest

from engine import EngineError, Position, find_variant, solve
from engine.errors import CODES, MESSAGES, english
from engine.setups import arrangement


def _raised(call: object) -> EngineError:
    assert callable(call)
    with pytest.raises(EngineError) as caught:
        call()
    return caught.value


CASES = [
    (lambda: find_variant("chess"), "variant.unknown", {"name": "chess"}),
    (lambda: find_variant("xiangqi").start_fen("odd"), "variant.unknown_start", {"setup": "odd"}),
    (
        lambda: Position.from_fen("feidan", "4aka4/3M7/4a6/5F5/11/11/11/11/2c8/6K4 w - - 0 1"),
        "fen.too_many_pieces",
        {"colour": "black", "piece": "advisor", "count": 3, "limit": 2},
    ),
    (
        lambda: Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/9/4K4/4K4 w - - 0 1"),
        "fen.two_generals",
        {"colour": "red", "count": 2, "rank": 1},
    ),
    (
        lambda: Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/9/45/4K4 w - - 0 1"),
        "fen.rank_width",
        {"count": 45, "width": 9, "rank": 1},
    ),
    (
        lambda: Position.start("xiangqi").parse_move("h2e3"),
        "move.cannot_reach",
        {"piece": "cannon", "colour": "red", "square": "h2", "target": "e3"},
    ),  # fmt: skip
    (lambda: Position.start("xiangqi").parse_move("e5e6"), "move.no_piece", {"square": "e5"}),
    (lambda: Position.start("xiangqi").parse_move("e6e5"), "move.not_your_piece", {}),
    (lambda: Position.start("xiangqi").parse_move("zz"), "notation.bad_start", {"found": "z"}),
    (lambda: Position.start("xiangqi").parse_move("炮二平二"), "notation.same_file", {}),
    (
        lambda: Position.start("xiangqi").parse_move("马二平三"),
        "notation.no_sideways",
        {"piece": "horse"},
    ),  # fmt: skip
    (lambda: arrangement(-1), "setup.arrangement_index", {"value": -1}),
    (lambda: solve(Position.start("xiangqi"), "stalemate", 1), "solver.unknown_goal", {}),
]


@pytest.mark.parametrize(("call", "code", "params"), CASES)
def test_errors_carry_a_code_and_params(call: object, code: str, params: dict) -> None:
    error = _raised(call)
    assert error.code == code and code in CODES
    for key, value in params.items():
        assert error.params[key] == value
    with pytest.raises(TypeError):
        error.params["extra"] = 1  # type: ignore[index]
    # the English message is made from the same code and params
    assert english(error.code, error.params) in str(error)


def test_errors_illegal_move_names_the_piece_not_its_letter() -> None:
    pos = Position.start("xinban")
    with pytest.raises(EngineError) as caught:
        pos.parse_move("h2e3")
    reason = caught.value.reason  # type: ignore[attr-defined]
    assert "+C" not in reason and reason == "the cannon on h2 cannot move to e3"


def test_errors_every_code_has_an_english_sentence() -> None:
    assert frozenset(MESSAGES) == CODES
    for code, text in MESSAGES.items():
        assert "." in code and text.strip(), code


def test_errors_an_unknown_code_is_refused() -> None:
    with pytest.raises(KeyError):
        EngineError("no.such.code")
