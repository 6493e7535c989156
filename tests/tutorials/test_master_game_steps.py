"""Steps taken from the master games library say so truly.

A step that cites a master game ("呂欽 (Red) against 胡榮華 (Black), 1982") must show a position
of that game and ask for the move the game went on with: the table below names the game (its id
in the shipped library) and how many moves of it lead to the step. The step's position must be
the game's after those moves, the game's next move must be one the step accepts (or, for a step
replayed with a script, the script must be the game's moves from there on), and the instruction
must name both players as the library writes them, and the year, in both languages (a later
step of a lesson from the same game says that it is the same game instead).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from core.masters import MasterGame, read_shipped
from engine import Move, Position
from tests.tutorials.test_lesson_data import STEPS

# (lesson slug, step key): (game id, moves of the game played before the step)
CITED = {
    ("xiangqi-central-cannon-openings", "1"): (82, 6),
    ("xiangqi-central-cannon-openings", "2"): (82, 7),
    ("xiangqi-central-cannon-openings", "3"): (36, 9),
    ("xiangqi-central-cannon-openings", "4"): (67, 3),
    ("xiangqi-central-cannon-openings", "5"): (67, 5),
    ("xiangqi-central-cannon-openings", "6"): (67, 6),
    ("xiangqi-other-openings-traps", "1"): (234, 0),
    ("xiangqi-other-openings-traps", "2"): (234, 1),
    ("xiangqi-other-openings-traps", "3"): (584, 0),
    ("xiangqi-other-openings-traps", "4"): (292, 1),
    ("xiangqi-other-openings-traps", "5"): (8006, 14),
    ("xiangqi-other-openings-traps", "6"): (7388, 52),
    ("xiangqi-notation-black", "replay"): (13551, 1),
    ("xiangqi-middlegame-ideas", "1"): (3075, 52),
    ("xiangqi-middlegame-ideas", "2"): (13551, 13),
    ("xiangqi-middlegame-ideas", "3"): (4393, 54),
    ("xiangqi-middlegame-ideas", "4"): (7382, 52),
    ("xiangqi-middlegame-ideas", "5"): (6319, 62),
    ("xiangqi-middlegame-ideas", "6"): (3623, 38),
}


@pytest.fixture(scope="module")
def games() -> dict[int, MasterGame]:
    wanted = {game_id for game_id, _ in CITED.values()}
    return {game.id: game for game in read_shipped() if game.id in wanted}


LESSON_DIR = Path(__file__).resolve().parents[2] / "tutorials" / "lessons" / "xiangqi"


def script_of(slug: str, key: str) -> list[str]:
    """The step's ``line`` as its file writes it (the loaded step keeps only the replies)."""
    for path in LESSON_DIR.glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if data["slug"] == slug:
            for number, raw in enumerate(data["steps"], start=1):
                if str(raw.get("key", number)) == key:
                    return list(raw.get("line", []))
    raise AssertionError(f"{slug} has no step {key}")


def _name(player: str) -> str:
    return "".join(player.split())


@pytest.mark.parametrize(("slug", "key"), sorted(CITED))
def test_a_cited_step_is_the_games_position_and_move(
    slug: str, key: str, games: dict[int, MasterGame]
) -> None:
    step = next((s for lesson, s in STEPS if lesson.slug == slug and s.key == key), None)
    assert step is not None, f"{slug} has no step {key}"
    game_id, played = CITED[slug, key]
    game = games[game_id]
    pos = Position.start("xiangqi")
    for move in game.moves[:played]:
        pos.push(Move.from_iccs(move))
    shown = Position.from_fen(step.variant, step.fen)
    assert (shown.board_fen(), shown.turn) == (pos.board_fen(), pos.turn)
    line = script_of(slug, key)
    if line:
        assert line == list(game.moves[played:])
    else:
        assert game.moves[played] in step.goal.accept
    earlier = [k for (s, k), (g, n) in CITED.items() if s == slug and g == game_id and n < played]
    if earlier:
        assert "同一盘棋" in step.instruction.zh and "same game" in step.instruction.en
        return
    for words in (step.instruction.zh, step.instruction.en):
        said = _name(words)
        assert _name(game.red) in said and _name(game.black) in said, (slug, key)
        assert str(game.year) in words, (slug, key)
