"""Wins missed in an owner's own games: searched once per finished game, the mates
(``puzzles.missed``) and then the decisive material wins (``puzzles.missed_material``, never
at a missed mate's ply or on its line: a moment that is a mate is told once, as a mate), each
kept as a private puzzle (``Puzzle.Status.PRIVATE``) with a ``MissedMate`` row that says whose
it is and where in the game it stands.

The games app sends the finished game as plain data (``FinishedGame``, by the task
``puzzles.missed_mates``), and so does the live app for a live game, once for each seated
player (``mode`` "live", the player's side in ``human_side``); this app never reads a game's
row. A game is named by its table and id (``source``: ``play`` for games.Game, ``live`` for
live.LiveGame, whose ids are apart) and, for a live game, the player's side: one review per
(source, game, side). A live game's review looks at its player's own side only: the
opponent's misses are the opponent's, never told as "let you escape". Running the search
again is harmless: a game with a ``GameReview`` is skipped, and the review, the puzzles and
their rows are written in one transaction, keyed by the game (and ply) under unique
constraints, so two deliveries racing write one set, and a worker that dies before the commit
leaves nothing behind for the next delivery to trip over.

A visitor's game: the rows belong to the visitor, and follow the visitor's games into the
account on sign-up (``puzzles.services.merge``). A search that ends after that sign-up gives
them to the account: the merge records the visitor (``MergedVisitor``), and both take the
same advisory lock on the visitor, so one of the two always sees the other's rows.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connection, transaction

from engine import EngineError, Position, find_variant
from judge import FAIRY_STOCKFISH, Judge, JudgeError, OurEngine, judge_for
from puzzles.mining import MiningStats
from puzzles.missed import MISSED_MAX_PLIES, MISSED_PER_GAME, missed_mates
from puzzles.missed import MissedMate as Missed
from puzzles.missed_material import MAX_SECONDS as MATERIAL_SECONDS
from puzzles.missed_material import (
    MaterialStats,
    MissedMaterial,
    missed_material,
    skipped_plies,
)
from puzzles.models import GameReview, GameSource, Goal, MergedVisitor, MissedMate, Puzzle
from puzzles.services.bank import theme_catalogue_sync

# The computer's own misses are shown ("the computer let you escape here") at these levels
# and below; above them the computer misses a short mate so rarely that it is not looked for.
COMPUTER_MISSES_MAX_LEVEL = 4
# The first key of the advisory lock taken on a visitor while their rows change hands.
VISITOR_LOCK = 0x6D697373
# The wall-clock seconds a game's review may spend looking (the mates, then the material
# wins with what is left): the task is stopped at 120, and a proof begun just before this ends
# by it, which leaves time to write the review. A longer look stops where it is and the review
# says from which move the game was not looked at.
REVIEW_SECONDS = 90.0


@dataclass(frozen=True)
class FinishedGame:
    """What the search needs of a finished game, as the games app sends it."""

    id: int
    variant: str
    start_fen: str
    moves: list[str]
    mode: str  # "computer", "local" or "live"
    human_side: str = ""  # a computer game or a live game: the player's side
    level: int | None = None
    user_id: int | None = None
    visitor_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> FinishedGame:
        """Read the task's message; ``ValueError`` for one that is not a finished game."""
        try:
            game = cls(
                id=int(data["id"]),
                variant=str(data["variant"]),
                start_fen=str(data["start_fen"]),
                moves=[str(m) for m in data["moves"]],
                mode=str(data["mode"]),
                human_side=str(data.get("human_side") or ""),
                level=int(data["level"]) if data.get("level") is not None else None,
                user_id=int(data["user_id"]) if data.get("user_id") is not None else None,
                visitor_id=str(data["visitor_id"]) if data.get("visitor_id") else None,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a finished game: {error}") from error
        if (game.user_id is None) == (game.visitor_id is None):
            raise ValueError("a finished game has exactly one owner")
        if game.mode not in ("computer", "local", "live"):
            raise ValueError(f"unknown mode {game.mode!r}")
        if game.mode == "live" and game.human_side not in ("red", "black"):
            raise ValueError("a live game needs the player's side")
        return game

    @property
    def source(self) -> str:
        """The table the game's id is of (``GameSource``): a live game's or a played one's."""
        return GameSource.LIVE if self.mode == "live" else GameSource.PLAY

    @property
    def review_side(self) -> str:
        """The side the review is keyed by: a live game's player's (one review each), else
        none (a game has one owner and one review)."""
        return self.human_side if self.mode == "live" else ""

    def review_key(self) -> dict[str, Any]:
        """The fields that name this game's review (unique together)."""
        return {"source": self.source, "game": self.id, "side": self.review_side}

    def puzzle_key(self, ply: int) -> str:
        """The ``source_key`` of the puzzle of the moment at ``ply`` (kept apart by table)."""
        table = "" if self.source == GameSource.PLAY else f"{self.source}:"
        return f"missed:{table}{self.id}:{ply}"

    def sides(self) -> dict[str, bool]:
        """The sides whose misses are looked for, each with whether it is the owner's: a live
        game's player's own side only."""
        if self.mode == "local":
            return {"red": True, "black": True}
        sides = {self.human_side: True}
        if self.mode == "live":
            return sides
        if self.level is not None and self.level <= COMPUTER_MISSES_MAX_LEVEL:
            sides["black" if self.human_side == "red" else "red"] = False
        return sides

    def move_number(self, ply: int) -> int:
        """The move (as players count them) of the ply played at index ``ply``."""
        black_first = self.start_fen.split(" ")[1:2] == ["b"]
        return (ply + (1 if black_first else 0)) // 2 + 1


def _owner_fields(game: FinishedGame) -> dict[str, Any]:
    """Inside a transaction: the owner the game's rows go to (the account a visitor has
    signed up to, if they have), with the visitor locked against a merge until commit."""
    if game.user_id is not None:
        return {"user_id": game.user_id, "visitor_id": None}
    visitor_lock(str(game.visitor_id))
    merged = MergedVisitor.objects.filter(visitor=game.visitor_id).first()
    if merged is not None:
        return {"user_id": merged.user_id, "visitor_id": None}
    return {"user_id": None, "visitor_id": game.visitor_id}


def visitor_lock(visitor_id: str) -> None:
    """Inside a transaction: wait for, then hold until commit, the lock on ``visitor_id`` (a
    PostgreSQL advisory lock; on another database, such as a SQLite file, writes are
    serialised anyway)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [VISITOR_LOCK, visitor_id])


def missed_judge(variant: str) -> Judge:
    """The judge whose search looks for the wins (up to five moves): Fairy-Stockfish, where it
    is installed, for traditional xiangqi; the site's own engine otherwise (Missile and
    New-version Xiangqi, which no other engine plays)."""
    return judge_for(variant)


def _search(
    game: FinishedGame, sides: set[str], stats: MiningStats, judge: Judge, deadline: float
) -> tuple[list[Missed], dict[str, Any]]:
    """The game's missed mates, looked for by ``judge``; by the quick searches when it fails
    on this game (Fairy-Stockfish's process died or hung twice, or a judge refused a
    position); and what looked (kept with the review's figures: ``looked``; when the judge's
    budget for the game ran out, ``quick_from_move``, the move from which the quick searches
    looked; when the judge failed, ``judge`` and ``judge_failed``, its name and why; when
    ``deadline`` came first, ``unlooked_from_move``, the first move not looked at)."""
    try:
        found = missed_mates(
            variant=game.variant, start_fen=game.start_fen, moves=game.moves, sides=sides,
            stats=stats, judge=judge, deadline=deadline,
        )  # fmt: skip
    except JudgeError as error:
        looked: dict[str, Any] = {
            "looked": "quick", "judge": judge.name, "judge_failed": str(error),
        }  # fmt: skip
    else:
        looked = {"looked": judge.name}
        if stats.quick_plies:  # its budget for the game ran out: the quick searches went on
            looked["quick_from_move"] = game.move_number(stats.judged_plies)
        return found, _unlooked(game, stats, looked)
    found = missed_mates(
        variant=game.variant, start_fen=game.start_fen, moves=game.moves, sides=sides,
        stats=stats, deadline=deadline,
    )  # fmt: skip
    return found, _unlooked(game, stats, looked)


def _unlooked(game: FinishedGame, stats: MiningStats, looked: dict[str, Any]) -> dict[str, Any]:
    """``looked`` with, when the review's time ran out before the end of the game, the first
    move not looked at (``unlooked_from_move``)."""
    if stats.unlooked_plies:
        looked_plies = min(len(game.moves), MISSED_MAX_PLIES) - stats.unlooked_plies
        looked["unlooked_from_move"] = game.move_number(looked_plies)
    return looked


def missed_mates_review(
    *, game: FinishedGame, judge: Judge | None = None, seconds: float = REVIEW_SECONDS
) -> GameReview:
    """Look for the mates missed in ``game`` and keep each as a private puzzle of its owner,
    once per game: the game's review (found before, or written now with its puzzles).
    ``judge`` looks (by default ``missed_judge``'s for the game's variant), for ``seconds`` at
    most: the mates first, then the material wins with the time left."""
    existing = GameReview.objects.filter(**game.review_key()).first()
    if existing is not None:
        return existing
    stats = MiningStats()
    started = time.process_time()
    deadline = time.monotonic() + seconds
    try:
        find_variant(game.variant)
        Position.from_fen(game.variant, game.start_fen)
        sides = game.sides()
        judge = judge or missed_judge(game.variant)
        found, looked = _search(game, set(sides), stats, judge, deadline)
        material, material_looked = _material_search(game, set(sides), found, deadline)
    except EngineError as error:  # a game the engine cannot replay: reviewed, nothing found
        found, material, sides = [], [], {}
        stats_data: dict[str, Any] = {"error": str(error)}
    else:
        stats_data = {**stats.as_json(), **looked, "material": material_looked}
    seconds = round(time.process_time() - started, 3)
    try:
        with transaction.atomic():
            owner = _owner_fields(game)
            themes = theme_catalogue_sync() if found or material else {}
            for missed in found:
                mined = missed.puzzle
                puzzle = Puzzle.objects.create(
                    variant=mined.variant,
                    fen=mined.fen,
                    goal=mined.goal,
                    moves_to_win=mined.moves_to_win,
                    proof=mined.proof,
                    proof_mode=mined.mode,
                    rating=mined.rating or Puzzle._meta.get_field("rating").get_default(),
                    status=Puzzle.Status.PRIVATE,
                    source=Puzzle.Source.MISSED,
                    source_key=game.puzzle_key(missed.ply),
                    source_game=f"{game.source}:{game.id}",
                    source_ply=missed.ply,
                )
                puzzle.themes.set([themes[s] for s in mined.themes if s in themes])
                MissedMate.objects.create(
                    puzzle=puzzle,
                    source=game.source,
                    game=game.id,
                    ply=missed.ply,
                    move_number=game.move_number(missed.ply),
                    side=missed.side,
                    by_player=sides.get(missed.side, True),
                    played=missed.played,
                    played_chinese=missed.played_chinese,
                    **owner,
                )
            for moment in material:
                _material_keep(game, moment, sides, owner, themes)
            return GameReview.objects.create(
                **game.review_key(),
                found=len(found) + len(material),
                seconds=seconds,
                stats=stats_data,
                **owner,
            )
    except IntegrityError:
        # Another delivery of the same game wrote its review first: that one stands.
        review = GameReview.objects.filter(**game.review_key()).first()
        if review is None:
            raise
        return review


def material_judge(variant: str) -> Judge:
    """The judge whose search looks for the material wins: Fairy-Stockfish, where it is
    installed, for traditional xiangqi; the site's own engine otherwise."""
    return judge_for(variant)


def _material_search(
    game: FinishedGame, sides: set[str], mates: list[Missed], deadline: float
) -> tuple[list[MissedMaterial], dict[str, Any]]:
    """The game's missed material wins (``puzzles.missed_material``), none at the plies of its
    missed mates and their lines, nothing begun after ``deadline``, and what looked (kept with
    the review's figures): the site's own engine when Fairy-Stockfish fails on the game."""
    stats = MaterialStats()
    left = min(MATERIAL_SECONDS, deadline - time.monotonic())
    if left <= 0:  # the mates took the review's time
        return [], {"looked": None, "stopped_at": 0}
    skip = skipped_plies((m.ply, m.puzzle.moves_to_win) for m in mates)
    search: dict[str, Any] = {
        "variant": game.variant, "start_fen": game.start_fen, "moves": game.moves,
        "sides": sides, "skip": skip, "limit": max(0, MISSED_PER_GAME - len(mates)),
        "stats": stats, "max_seconds": left,
    }  # fmt: skip
    judge = material_judge(game.variant)
    looked: dict[str, Any] = {}
    try:
        found = missed_material(**search, judge=judge)
    except JudgeError as error:
        if judge.name != FAIRY_STOCKFISH:
            raise
        looked["judge_failed"] = str(error)
        judge = OurEngine()
        stats = search["stats"] = MaterialStats()
        found = missed_material(**search, judge=judge)
    return found, {"looked": judge.name, **looked, **stats.as_json()}


def _material_keep(
    game: FinishedGame,
    moment: MissedMaterial,
    sides: dict[str, bool],
    owner: dict[str, Any],
    themes: dict[str, Any],
) -> None:
    """Inside the review's transaction: the private puzzle of one missed material win and its
    row."""
    puzzle = Puzzle.objects.create(
        variant=moment.variant,
        fen=moment.fen,
        goal=Goal.MATERIAL,
        moves_to_win=moment.moves_to_win,
        proof=moment.proof,
        proof_mode="judge",
        status=Puzzle.Status.PRIVATE,
        source=Puzzle.Source.MISSED,
        source_key=game.puzzle_key(moment.ply),
        source_game=f"{game.source}:{game.id}",
        source_ply=moment.ply,
    )
    slugs = ["material", *moment.themes]
    puzzle.themes.set([themes[s] for s in slugs if s in themes])
    MissedMate.objects.create(
        puzzle=puzzle,
        source=game.source,
        game=game.id,
        ply=moment.ply,
        move_number=game.move_number(moment.ply),
        side=moment.side,
        by_player=sides.get(moment.side, True),
        played=moment.played,
        played_chinese=moment.played_chinese,
        **owner,
    )
