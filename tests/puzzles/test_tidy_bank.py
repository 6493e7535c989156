"""Tidying the shipped bank (``manage.py tidy_bank``, puzzles.bankfile): the puzzles of games
played by random moves leave, so does a puzzle that another puzzle's solution reaches, and a
New-version puzzle keeps its ``defection`` theme only when the win needs the defected piece.
The shipped bank is kept that way."""

from __future__ import annotations

from typing import Any

from puzzles import proving
from puzzles.bankfile import (
    consecutive_duplicates,
    defection_needed,
    random_game_puzzle,
    read_bank,
    tidy_bank,
)
from puzzles.mining import bank_key
from puzzles.patterns import pattern_examples
from tests.puzzles.positions import MATE_IN_1

# New-version Xiangqi, mates in 1 by a capture that makes a turncoat defect. Here the soldier
# takes the turncoat cannon on g7 and it becomes Red's cannon on h7, but the soldier and the
# cannon on g6 mate without it: the defection is decoration.
DECORATIVE = "9/3+rP4/3abk+cP1/6C2/9/9/9/4K4/9/9 w - - 0 1"
# Here the chariot takes the turncoat cannon on e8 and the cannon it becomes on e9 is what
# holds the general: without it Black escapes.
NEEDED = "2+N1Ra3/4+c4/4k4/9/9/9/9/9/9/5K3 w - - 0 2"

# A mate in 2 from the old random-move games, and a position its proof reaches after the key
# and one defence, also in that bank as a mate in 1 (a consecutive duplicate).
MATE_IN_2_ON = "9/4k4/9/2R1p1p1p/9/3c4P/2P6/9/4K4/1Nr6 w - - 0 19"
ONE_MOVE_ON = "9/5k3/9/4R1p1p/9/3c4P/2P6/9/4K4/1Nr6 w - - 1 20"


def entry(fen: str, n: int, variant: str = "xiangqi", **extra: Any) -> dict[str, Any]:
    result = proving.prove(variant=variant, fen=fen, goal="mate", moves_to_win=n)
    assert result.sound and result.proof is not None, fen
    return {
        "key": bank_key(variant=variant, fen=fen, goal="mate", moves_to_win=n),
        "variant": variant,
        "fen": fen,
        "goal": "mate",
        "moves_to_win": n,
        "mode": result.mode,
        "themes": ["defection"] if variant == "xinban" else [],
        "main_line": result.main_line,
        "proof": result.proof,
        "source": "mined",
        "origin": "sparse",
        **extra,
    }


def test_random_game_puzzles_and_consecutive_duplicates_leave_and_classics_stay() -> None:
    longer = entry(MATE_IN_2_ON, 2)
    one_move_on = entry(ONE_MOVE_ON, 1)  # c6e6, then Black's e8f8: the same mate a move on
    random_game = entry(MATE_IN_1, 1, origin="game")
    from_a_master_game = {**entry(MATE_IN_1, 1), "key": "x", "origin": "master",
                          "source": "game", "source_game": "ccpd:1"}  # fmt: skip
    classic_on = {**one_move_on, "key": "c", "source": "classic"}
    assert random_game_puzzle(random_game) and not random_game_puzzle(from_a_master_game)
    assert consecutive_duplicates([longer, one_move_on]) == {one_move_on["key"]}
    assert consecutive_duplicates([one_move_on, longer]) == {one_move_on["key"]}
    assert consecutive_duplicates([longer, classic_on]) == set()  # a classic is never dropped

    kept, done = tidy_bank([longer, one_move_on, random_game, from_a_master_game])
    assert [e["key"] for e in kept] == [longer["key"], "x"]
    assert (done.random_games, done.duplicates) == ([random_game["key"]], [one_move_on["key"]])
    assert all(e["rating"] > 0 for e in kept) and done.rated == 2
    kept, done = tidy_bank([longer, random_game], keep=frozenset({random_game["key"]}))
    assert len(kept) == 2 and done.random_games == []


def test_a_defection_tag_stays_only_where_the_win_needs_the_defected_piece() -> None:
    decorative = entry(DECORATIVE, 1, variant="xinban")
    needed = entry(NEEDED, 1, variant="xinban")
    assert defection_needed(decorative) is False
    assert defection_needed(needed) is True
    kept, done = tidy_bank([decorative, needed])
    assert done.decorative_defections == [decorative["key"]]
    assert [("defection" in e["themes"]) for e in kept] == [False, True]


def test_the_shipped_bank_is_tidy() -> None:
    entries = read_bank()
    examples = {e.key for e in pattern_examples().values() if e.source == "bank"}
    assert all(e["key"] in examples for e in entries if random_game_puzzle(e))
    assert consecutive_duplicates(entries) == set()
    tagged = [e for e in entries if "defection" in e["themes"]]
    assert tagged and all(defection_needed(e) is True for e in tagged)
    assert all(e.get("rating") for e in entries if e.get("source") != "classic")
