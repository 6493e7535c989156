"""A lone soldier against a lone elephant (单兵对单象), settled by an exhaustive search: every
position of a red general and a soldier across the river against a black general and an
elephant, with either side to move, solved backwards from the positions where Black has no
move (mate or stalemate, both lost in xiangqi). Taking the elephant leads into the soldier
against a bare general, solved the same way first; losing the soldier is a draw, and so is any
position no forced sequence wins (Black repeats).

The soldier endings lesson teaches what the search finds: a low soldier (on the rank next to
the last) never wins, and a higher soldier wins only an elephant it can take at once or one
pinned on the centre point between the two generals, as in the lesson's 高兵胜单象 step."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from engine import Position
from tutorials.curriculum import read_lessons
from tutorials.curriculum.schema import board_fen

FILES = "abcdefghi"
RED_PALACE = tuple(f + r for f in "def" for r in "012")
BLACK_PALACE = tuple(f + r for f in "def" for r in "789")
BLACK_ELEPHANT = ("c9", "g9", "a7", "e7", "i7", "c5", "g5")
ACROSS_THE_RIVER = tuple(f + str(r) for f in FILES for r in range(5, 10))
LOW_RANK = "8"

# A position's key: its board and the side to move ("w" Red, "b" Black).
Node = tuple[bool, list[str]]  # Red to move?, the keys after each legal move


def fen(pieces: dict[str, str], red_to_move: bool) -> str:
    """The FEN of ``pieces`` (point -> letter), as a lesson's position is read."""
    listed = " ".join(f"{letter}{point}" for point, letter in pieces.items())
    return board_fen("xiangqi", listed, "red" if red_to_move else "black")


def key_of(pos: Position) -> str:
    return pos.board_fen() + (" w" if pos.turn == "red" else " b")


def positions(placements: Sequence[tuple[str, Sequence[str]]]) -> dict[str, Node]:
    """Every legal position with one piece of each letter on one of its points, both sides to
    move, and the positions each legal move leads to."""
    found: dict[str, Node] = {}
    letters = [letter for letter, _ in placements]
    for points in itertools.product(*(where for _, where in placements)):
        if len(set(points)) < len(points):
            continue
        for red_to_move in (True, False):
            try:
                pos = Position.from_fen(
                    "xiangqi", fen(dict(zip(points, letters, strict=True)), red_to_move)
                )
            except ValueError:
                continue  # the side not to move in check, generals facing, …
            children = []
            for move in list(pos.legal_moves):
                pos.push(move)
                children.append(key_of(pos))
                pos.pop()
            found[key_of(pos)] = (red_to_move, children)
    return found


def red_wins(graph: dict[str, Node], known: dict[str, int]) -> dict[str, int]:
    """The positions of ``graph`` Red wins, with Red's moves to the win, by layers: Black to
    move loses in n when every move leads to a Red win in at most n (no move at all: 0); Red to
    move wins in n when some move leads to a Black loss in n - 1. ``known`` holds the wins of
    the positions a capture leads to; any other position outside ``graph`` is a draw."""
    wins = dict(known)
    for key, (red_to_move, children) in graph.items():
        if not red_to_move and not children:
            wins[key] = 0
    layer = 0
    while True:
        layer += 1
        found = 0
        for red_turn in (True, False):  # Red's wins in n first: Black's losses in n need them
            new = {}
            for key, (red_to_move, children) in graph.items():
                if red_to_move != red_turn or key in wins:
                    continue
                values = [wins.get(child) for child in children]
                if red_to_move:
                    if layer - 1 in values:
                        new[key] = layer
                elif children and None not in values and max(v or 0 for v in values) == layer:
                    new[key] = layer
            wins.update(new)
            found += len(new)
        if not found and not any(value >= layer for value in known.values()):
            return {key: value for key, value in wins.items() if key in graph}


@cache
def soldier_against_bare_general() -> tuple[dict[str, Node], dict[str, int]]:
    graph = positions([("K", RED_PALACE), ("P", ACROSS_THE_RIVER), ("k", BLACK_PALACE)])
    return graph, red_wins(graph, {})


@cache
def soldier_against_elephant() -> tuple[dict[str, Node], dict[str, int]]:
    graph = positions(
        [
            ("K", RED_PALACE),
            ("P", ACROSS_THE_RIVER),
            ("k", BLACK_PALACE),
            ("b", BLACK_ELEPHANT),
        ]
    )
    return graph, red_wins(graph, soldier_against_bare_general()[1])


def pieces_of(key: str) -> dict[str, str]:
    """Letter -> point, for a position with one piece of each letter."""
    board = Position.from_fen("xiangqi", key + " - - 0 1").pieces()
    return {letter: point for point, letter in board.items()}


def test_the_search_agrees_with_the_book_against_a_bare_general() -> None:
    """单兵胜单将: with Red to move, a soldier across the river and not yet on the last rank beats
    a bare general from every position; a bottom soldier (底兵) never does."""
    graph, wins = soldier_against_bare_general()
    red_to_move = [key for key, (red, _) in graph.items() if red]
    assert len(red_to_move) > 2_000
    for key in red_to_move:
        bottom = pieces_of(key)["P"][1] == "9"
        assert (key in wins) != bottom, key


def test_a_low_soldier_never_beats_a_lone_elephant() -> None:
    """低兵不胜单象: on the rank next to the last the soldier moves sideways or onto the last rank;
    it reaches an elephant only there, as a bottom soldier, which cannot win."""
    graph, wins = soldier_against_elephant()
    low = [key for key in graph if pieces_of(key)["P"][1] == LOW_RANK]
    assert len(low) > 6_000
    assert [key for key in low if key in wins] == []


def test_a_higher_soldier_wins_only_an_elephant_it_takes_at_once_or_one_pinned() -> None:
    """高兵胜单象 is a position, not a rule: every win has the elephant pinned on the centre
    point between the two generals, or (Red to move) standing where the soldier takes it."""
    graph, wins = soldier_against_elephant()
    assert len(graph) > 30_000 and {red for red, _ in graph.values()} == {True, False}
    taken_at_once = pinned = 0
    for key in wins:
        where = pieces_of(key)
        if where["b"] == "e7" and where["K"][0] == "e" and where["k"][0] == "e":
            pinned += 1
            continue
        pos = Position.from_fen("xiangqi", key + " - - 0 1")
        board = pos.pieces()
        assert pos.turn == "red", key
        assert any(board.get(m.iccs()[2:]) == "b" for m in pos.legal_moves), key
        taken_at_once += 1
    assert pinned and taken_at_once
    assert len(wins) < len(graph) // 10


def test_the_lessons_soldier_and_elephant_steps_are_what_the_search_says() -> None:
    _graph, wins = soldier_against_elephant()
    steps = {
        step.key: step
        for lesson in read_lessons()
        if lesson.slug == "xiangqi-endgames-soldier"
        for step in lesson.steps
    }
    high, low = steps["high-soldier-elephant"], steps["low-soldier-elephant"]
    assert wins[key_of(Position.from_fen("xiangqi", high.fen))] == high.par
    low_start = Position.from_fen("xiangqi", low.fen)
    assert pieces_of(key_of(low_start))["P"][1] == LOW_RANK
    assert key_of(low_start) not in wins
