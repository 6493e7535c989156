"""Puzzles from master games: each keeps its game and ply through the bank into the database,
the API names the game in the reader's language with a link to its replay at the puzzle's
moment, and every such puzzle of the shipped bank is the position its game reached."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from core.masters import SHIPPED_FILE, read_shipped, write_shipped
from engine import Move, Position
from puzzles.bankfile import read_bank, write_bank
from puzzles.mining import Chunk, mine_master
from puzzles.models import Puzzle
from puzzles.selfplay import VARIANTS, SelfplayGame, read_games, selfplay_path
from puzzles.services.bank import bank_load


@pytest.fixture(scope="module")
def game_73_entry(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("games") / "games.jsonl.gz"
    write_shipped((g for g in read_shipped(SHIPPED_FILE) if g.id == 73), path)
    chunk = Chunk(variant="xiangqi", strategy="master", seed=1, count=1, max_moves=7, games=1)
    (puzzle,) = mine_master(chunk, path=path)
    return puzzle.as_entry()


@pytest.mark.django_db
def test_a_puzzle_from_a_game_keeps_its_game_and_ply_in_the_database(
    tmp_path: Path, game_73_entry: dict[str, Any], client: Client
) -> None:
    bank = tmp_path / "bank.json"
    write_bank([game_73_entry], bank)
    bank_load(bank)
    puzzle = Puzzle.objects.get(source_key=game_73_entry["key"])
    assert (puzzle.source, puzzle.source_game, puzzle.source_ply) == ("game", "ccpd:73", 106)
    assert puzzle.source_info["red"] == game_73_entry["game"]["red"]

    zh = client.get(f"/api/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    en = client.get(f"/api/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert zh["game"]["url"] == en["game"]["url"] == "/play/masters/73/#ply=106"
    assert (en["game"]["ply"], en["game"]["move"]) == (106, 54)
    assert en["game"]["title"].endswith(", move 54")
    assert zh["game"]["title"].endswith("第 54 回合")
    assert "solution" not in json.dumps(zh["game"])


@pytest.mark.django_db
def test_a_puzzle_not_from_a_game_names_none(tmp_path: Path, client: Client) -> None:
    entries = [e for e in read_bank() if e.get("source") != "game"][:1]
    bank = tmp_path / "bank.json"
    write_bank(entries, bank)
    bank_load(bank)
    puzzle = Puzzle.objects.get(source_key=entries[0]["key"])
    assert client.get(f"/api/puzzles/{puzzle.pk}/").json()["game"] is None


def test_every_game_puzzle_of_the_bank_is_the_position_its_game_reached() -> None:
    """Master games and the engine's self-play games alike: the recorded moves, each legal,
    lead from the game's start to the puzzle's position."""
    games: dict[str, Any] = {f"ccpd:{g.id}": g for g in read_shipped(SHIPPED_FILE)}
    for variant in VARIANTS:
        games.update({f"selfplay:{variant}:{g.n}": g for g in read_games(selfplay_path(variant))})
    from_games = [e for e in read_bank() if e.get("source_game")]
    assert any(e["source_game"].startswith("ccpd:") for e in from_games)
    for entry in from_games:
        game = games[entry["source_game"]]
        if isinstance(game, SelfplayGame):
            position = Position.from_fen(game.variant, game.fen)
            assert entry["game"]["levels"] == list(game.levels), entry["key"]
            assert entry["game"]["setup"] == game.setup, entry["key"]
        else:
            position = Position.start("xiangqi")
            assert entry["game"]["red"] == game.red and entry["game"]["black"] == game.black
        for text in game.moves[: entry["ply"]]:
            move = Move.from_iccs(text)
            assert position.is_legal(move), (entry["key"], text)
            position.push(move)
        assert position.fen().split(" ")[:2] == entry["fen"].split(" ")[:2], entry["key"]


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_a_newcomers_first_ten_puzzles_are_moments_of_games_where_the_bank_has_them(
    variant: str,
) -> None:
    from puzzles.selectors import puzzle_next_pick

    bank_load()
    seen: list[int] = []
    for _ in range(10):
        pick = puzzle_next_pick(player=None, variant=variant, exclude=seen, seed=len(seen))
        assert pick is not None
        games_in_range = Puzzle.objects.filter(
            variant=variant,
            status="published",
            source="game",
            rating__gte=pick.rating_min,
            rating__lte=pick.rating_max,
        ).exclude(pk__in=seen)
        if games_in_range.exists():
            assert pick.puzzle.source == "game", (variant, len(seen), pick.puzzle.source)
        seen.append(pick.puzzle.pk)
    if variant == "xiangqi":
        assert Puzzle.objects.filter(pk__in=seen, source="game").count() == 10
