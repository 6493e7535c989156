"""The master games library: loading the shipped collection, finding games, replaying one.

``master_games_load`` puts the shipped file (core.masters) into the database and is safe to
run on every start: a game whose shipped entry has not changed is not written again, a changed
one is updated, and one that has left the file is removed. The selectors list and search the
games; ``master_game_replay`` plays a game's moves through the engine to give the replay page
what it shows for each move.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet

from core.masters import COLLECTION, SHIPPED_FILE, read_shipped, simplified
from core.masters import MasterGame as ShippedGame
from engine import Position
from games.models import MasterGame
from games.record_clean import (
    PLACEHOLDER_DATES,
    clean_date,
    clean_name,
    is_latin_query,
    latin_key,
    pinyin_key,
)
from games.selectors import check_point

START_FEN = Position.start("xiangqi").fen()
PAGE_SIZE = 50
QUERY_MAX = 40  # characters of a search: longer than any name or event in the collection
LOAD_BATCH = 2000


# The version of how a row is made from its entry (the cleaning of games.record_clean): a new
# one rewrites every row on the next load, so that the stored rows are cleaned as the code says.
ROW_VERSION = "2"


def _digest(entry: ShippedGame) -> str:
    text = json.dumps(entry.as_json(), ensure_ascii=False, sort_keys=True) + ROW_VERSION
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _row(entry: ShippedGame, digest: str) -> MasterGame:
    stop = entry.stop or {}
    date = clean_date(entry.date)
    # the year of a date read whole; else the year the record names, unless it wrote the
    # placeholder date
    year = (
        int(date[:4]) if date else None if entry.date.strip() in PLACEHOLDER_DATES else entry.year
    )
    red, black = clean_name(entry.red), clean_name(entry.black)
    return MasterGame(
        id=entry.id,
        event=entry.event,
        date=date,
        year=year,
        site=entry.site,
        red=red,
        black=black,
        result=entry.result,
        ecco=entry.ecco,
        moves=" ".join(entry.moves),
        plies=len(entry.moves),
        record_plies=entry.record_plies,
        stop_ply=stop.get("ply"),
        stop_text=str(stop.get("text", "")),
        stop_reason=str(stop.get("reason", "")),
        red_simplified=simplified(red),
        black_simplified=simplified(black),
        red_pinyin=pinyin_key(red),
        black_pinyin=pinyin_key(black),
        event_simplified=simplified(entry.event),
        digest=digest,
    )


def master_games_load(path: Path = SHIPPED_FILE) -> dict[str, int]:
    """Make the database hold exactly the shipped games; returns counts (added, updated,
    removed, total). The whole load is one transaction: a failure leaves the old games."""
    known = dict(MasterGame.objects.values_list("id", "digest"))
    added: list[MasterGame] = []
    changed: list[MasterGame] = []
    shipped: set[int] = set()
    for entry in read_shipped(path):
        shipped.add(entry.id)
        digest = _digest(entry)
        if known.get(entry.id) == digest:
            continue  # unchanged: nothing to convert or write
        (changed if entry.id in known else added).append(_row(entry, digest))
    gone = [game_id for game_id in known if game_id not in shipped]
    with transaction.atomic():
        # A changed row is written anew (nothing refers to a row by key): far quicker than an
        # update of every column, when a new ROW_VERSION changes them all.
        rewritten = [row.id for row in changed]
        for ids in (gone, rewritten):
            for start in range(0, len(ids), LOAD_BATCH):
                MasterGame.objects.filter(id__in=ids[start : start + LOAD_BATCH]).delete()
        MasterGame.objects.bulk_create([*added, *changed], batch_size=LOAD_BATCH)
    return {
        "added": len(added),
        "updated": len(changed),
        "removed": len(gone),
        "total": len(shipped),
    }


@dataclass(frozen=True)
class MasterGameFilter:
    """A search of the library, each part bounded (see ``master_game_filter_parse``)."""

    query: str = ""  # a player's name or part of an event's
    year: int | None = None
    result: str = ""


def master_game_filter_parse(params: Any) -> tuple[MasterGameFilter, list[str]]:
    """Read a search from query parameters; returns the filter and the parts ignored
    because they were malformed (named, so the page can say so)."""
    ignored: list[str] = []
    query = str(params.get("q", "")).replace("\x00", "").strip()
    if len(query) > QUERY_MAX:
        query = query[:QUERY_MAX]
        ignored.append("q")
    year: int | None = None
    raw_year = str(params.get("year", "")).strip()
    if raw_year:
        if raw_year.isascii() and raw_year.isdigit() and 1900 <= int(raw_year) <= 2100:
            year = int(raw_year)
        else:
            ignored.append("year")
    result = str(params.get("result", ""))
    if result and result not in MasterGame.Result.values:
        result = ""
        ignored.append("result")
    return MasterGameFilter(query=query, year=year, result=result), ignored


def master_game_list(search: MasterGameFilter) -> QuerySet[MasterGame]:
    """The library's games that match, newest first, those of an unknown date last (the
    queryset is lazy: page it). A record whose red and black player are one name (a player
    cannot meet himself: the record's names are wrong) is left out."""
    games = MasterGame.objects.defer("moves").exclude(Q(red=F("black")) & ~Q(red=""))
    if search.query and is_latin_query(search.query):
        key = latin_key(search.query)  # pinyin: "Hu Ronghua", "Lü Qin", "lu qin"
        games = games.filter(
            Q(red_pinyin__contains=key)
            | Q(black_pinyin__contains=key)
            | Q(event__icontains=search.query)
        )
    elif search.query:
        query = simplified(search.query)  # a name typed in either script finds the game
        games = games.filter(
            Q(red_simplified__icontains=query)
            | Q(black_simplified__icontains=query)
            | Q(event_simplified__icontains=query)
        )
    if search.year is not None:
        games = games.filter(year=search.year)
    if search.result:
        games = games.filter(result=search.result)
    return games.order_by("-date", "-id")


def master_game_get(*, game_id: int) -> MasterGame | None:
    return MasterGame.objects.filter(id=game_id).first()


def master_game_source(game: MasterGame) -> str:
    """The game's source, as puzzles and links name it: ``ccpd:<number>``."""
    return f"{COLLECTION}:{game.id}"


def master_game_replay(game: MasterGame) -> list[dict[str, Any]]:
    """Each move as the replay shows it: ICCS, Chinese notation, the FEN after it, what it
    did, and the point of a general left in check."""
    pos = Position.from_fen("xiangqi", START_FEN)
    entries: list[dict[str, Any]] = []
    for index, text in enumerate(game.moves.split()):
        move = pos.parse_move(text)
        chinese = pos.chinese(move)
        effect = pos.move_effect(move)
        pos.push(move)
        entries.append(
            {
                "iccs": move.iccs(),
                "chinese": chinese,
                "fen": pos.fen(),
                "effect": effect.kind,
                "captured": effect.captured,
                "defected": effect.defected,
                "check": check_point(pos),
                "by": "red" if index % 2 == 0 else "black",
            }
        )
    return entries
