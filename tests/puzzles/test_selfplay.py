"""The engine's self-play games (puzzles.selfplay, ``manage.py selfplay_games``) and the puzzles
mined from them (strategy ``selfplay``): a game depends only on its arguments, the corpus file
reads back what was written, and each puzzle names its game, levels and setup, and is the
position the game reached."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from engine import Position
from puzzles.mining import Chunk, mine_selfplay
from puzzles.selfplay import play_game, read_games, setup_fen, setup_names, write_games


def test_a_game_depends_only_on_its_arguments_and_reads_back_as_written(tmp_path: Path) -> None:
    first = play_game("feidan", n=0, setup="plum", levels=(1, 2), seed=4, most_plies=40)
    again = play_game("feidan", n=0, setup="plum", levels=(1, 2), seed=4, most_plies=40)
    assert first == again and first.setup.startswith("plum:") and first.levels == (1, 2)
    assert 0 < len(first.moves) <= 40
    position = Position.from_fen("feidan", first.fen)
    for text in first.moves:
        position.push(position.parse_move(text))  # every move legal
    other = play_game("xinban", n=1, setup="red-new", levels=(2, 1), seed=4, most_plies=40)
    path = tmp_path / "games.jsonl.gz"
    assert write_games([first, other], path) == 2
    assert list(read_games(path)) == [first, other]
    written = path.read_bytes()
    write_games([first, other], path)
    assert path.read_bytes() == written  # the same games, the same bytes


def test_the_setups_of_each_variant() -> None:
    assert setup_names("feidan") == (
        "standard", "plum", "secret-five_soldiers", "secret-middle_soldier",
    )  # fmt: skip
    assert setup_names("xinban") == ("new", "traditional", "red-new", "black-new")
    import random

    fen, recorded = setup_fen("feidan", "secret-middle_soldier", random.Random(1))
    assert recorded == "secret-middle_soldier" and Position.from_fen("feidan", fen)
    with pytest.raises(ValueError, match="unknown setup"):
        setup_fen("xinban", "plum", random.Random(1))


def test_puzzles_from_self_play_name_their_game_and_are_its_positions(tmp_path: Path) -> None:
    games = [
        play_game("feidan", n=n, setup=setup, levels=(2, 3), seed=n)
        for n, setup in enumerate(["standard", "plum"])
    ]
    path = tmp_path / "selfplay.jsonl.gz"
    write_games(games, path)
    chunk = Chunk(variant="feidan", strategy="selfplay", seed=1, count=10, max_moves=5, games=2)
    found = mine_selfplay(chunk, path=path)
    assert found, "low levels leave mates to find"
    for puzzle in found:
        variant, number = puzzle.source_game.split(":")[1:]
        game = games[int(number)]
        assert variant == "feidan" and puzzle.origin == "selfplay" and puzzle.source == "game"
        assert puzzle.game == game.info and puzzle.game["levels"] == [2, 3]
        position = Position.from_fen("feidan", game.fen)
        for text in game.moves[: puzzle.ply]:
            position.push(position.parse_move(text))
        assert position.fen().split(" ")[:2] == puzzle.fen.split(" ")[:2]
        assert puzzle.proof["status"] == "sound_unique" and puzzle.rating
    assert len({(p.source_game, p.ply) for p in found}) == len(found)


def test_the_command_adds_games_after_those_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "feidan.jsonl.gz"

    def run(*args: str) -> str:
        out = StringIO()
        call_command("selfplay_games", "--variant", "feidan", "--output", str(path), *args,
                     stdout=out)  # fmt: skip
        return out.getvalue()

    assert "2 games (2 new)" in run("--games", "2", "--levels", "1,2", "--setups", "standard,plum")
    assert "3 games (1 new)" in run("--games", "1", "--levels", "1,2", "--seed", "9")
    games = list(read_games(path))
    assert [g.n for g in games] == [0, 1, 2] and [g.levels for g in games] == [
        (1, 2),
        (2, 1),
        (1, 2),
    ]
    with pytest.raises(CommandError, match="unknown setups"):
        run("--setups", "new")
