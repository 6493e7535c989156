"""The master games collection: reading the source records, and the file the site ships.

The source (``core/data/master-games/sources/ccpd-games.jsonl.gz``) is the Chinese Chess
Practical Dataset (CC BY 4.0; see core/data/master-games/README.md): one JSON object a line with the record's headers
as written and its moves in Chinese notation. ``import_collection`` reads every record with the
engine's record reader (``engine.records``), which stops at the first move it cannot play, and
writes the shipped file (``core/data/master-games/master-games.jsonl.gz``): the same headers, the moves in
ICCS, and where and why a record stopped early. The site loads the shipped file; only the
``import_master_games`` command reads the source. It lives in core because both the games
app (the library's pages) and the puzzles app (puzzles mined from these games) read it.

Bad input never gets half in: a line that is not a whole JSON record (a cut file), a record
without a field, a start the engine refuses, a game seen before: each is reported and skipped,
and the shipped file is written whole or not at all.

Pure Python: no Django here, so that the command, a test and a shell can all use it.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine import EngineError
from engine.records import read_record

DATA_DIR = Path(__file__).resolve().parent / "data" / "master-games"
SOURCE_FILE = DATA_DIR / "sources" / "ccpd-games.jsonl.gz"
SHIPPED_FILE = DATA_DIR / "master-games.jsonl.gz"
COLLECTION = "ccpd"  # the collection's name where a game's source is recorded

HEADERS = ("event", "date", "site", "red", "black", "result", "ecco")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_YEAR = re.compile(r"(?<!\d)(19[4-9]\d|20[0-3]\d)(?!\d)")


def year_of(date: str) -> int | None:
    """The year a date as written names (``1982年12月12日``, ``4/17/1996``, ``19800825``)."""
    found = _YEAR.search(date)
    if found is None and re.fullmatch(r"(19|20)\d{6}\D.*|(19|20)\d{6}", date):
        found = _YEAR.match(date[:4])
    return int(found.group(1)) if found else None


@dataclass(frozen=True)
class MasterGame:
    """One game as the site ships it."""

    id: int
    event: str
    date: str
    year: int | None
    site: str
    red: str
    black: str
    result: str
    ecco: str
    moves: tuple[str, ...]  # ICCS, every one legal where it was played
    record_plies: int  # how many moves the record writes
    stop: dict[str, Any] | None  # {ply, text, code, reason}: the first move that could not be read
    rules_end: tuple[int, str] | None  # the ply at which this site's rules end the game first

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            **{name: getattr(self, name) for name in HEADERS},
            "year": self.year,
            "moves": " ".join(self.moves),
            "record_plies": self.record_plies,
            "stop": self.stop,
            "rules_end": list(self.rules_end) if self.rules_end else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MasterGame:
        rules_end = data.get("rules_end")
        return cls(
            id=int(data["id"]),
            **{name: str(data[name]) for name in HEADERS},
            year=data["year"],
            moves=tuple(data["moves"].split()),
            record_plies=int(data["record_plies"]),
            stop=data["stop"],
            rules_end=(int(rules_end[0]), str(rules_end[1])) if rules_end else None,
        )


@dataclass
class ImportReport:
    """What an import read, kept and skipped (and why)."""

    records: int = 0  # lines that held a record
    kept: int = 0
    read_to_end: int = 0  # kept games whose every move was read
    plies: int = 0  # moves read, in all kept games
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line number, why)
    stops: dict[str, int] = field(default_factory=dict)  # why records stopped early, by code

    def skip(self, line: int, why: str) -> None:
        self.skipped.append((line, why))

    def summary(self) -> str:
        early = self.kept - self.read_to_end
        codes = ", ".join(f"{code} {n}" for code, n in sorted(self.stops.items()))
        return (
            f"{self.kept} games kept of {self.records} records; {self.read_to_end} read to the "
            f"end, {early} stopped at a move that could not be played"
            + (f" ({codes})" if codes else "")
            + f"; {self.plies} moves; {len(self.skipped)} skipped"
        )


def _lines(path: Path) -> Iterator[tuple[int, bytes | None]]:
    """The file's lines, numbered; ``(n, None)`` once at the end when the file is cut short."""
    opener = gzip.open if path.suffix == ".gz" else open
    number = 0
    with opener(path, "rb") as handle:
        try:
            for number, line in enumerate(handle, start=1):  # noqa: B007 - read after the loop
                yield number, line
        except (EOFError, zlib.error, gzip.BadGzipFile):
            yield number + 1, None


def read_source(
    path: Path,
    report: ImportReport,
    *,
    limit: int | None = None,
    progress: Callable[[ImportReport], None] | None = None,
) -> Iterator[MasterGame]:
    """Every game of a source file that can be read, in the file's order."""
    seen_ids: set[int] = set()
    seen_games: set[str] = set()
    for number, line in _lines(path):
        if limit is not None and report.records >= limit:
            return
        if line is None:
            report.skip(number, "the file is cut short: its last record is incomplete")
            return
        if not line.strip():
            continue
        report.records += 1
        game = _read_line(number, line, report, seen_ids, seen_games)
        if game is not None:
            report.kept += 1
            report.plies += len(game.moves)
            if game.stop is None:
                report.read_to_end += 1
            else:
                code = str(game.stop["code"])
                report.stops[code] = report.stops.get(code, 0) + 1
            yield game
        if progress is not None and report.records % 1000 == 0:
            progress(report)


def _read_line(
    number: int, line: bytes, report: ImportReport, seen_ids: set[int], seen_games: set[str]
) -> MasterGame | None:
    try:
        data = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError):
        report.skip(number, "not a whole JSON record")
        return None
    if not isinstance(data, dict):
        report.skip(number, "not a JSON object")
        return None
    problem = _missing_field(data)
    if problem:
        report.skip(number, problem)
        return None
    game_id = int(data["id"])
    if game_id in seen_ids:
        report.skip(number, f"game {game_id} appears twice")
        return None
    moves = [str(m) for m in data["moves"]]
    key = hashlib.sha256(
        json.dumps([data["red"], data["black"], data["date"], moves]).encode()
    ).hexdigest()
    if key in seen_games:
        report.skip(number, f"game {game_id} repeats an earlier game (players, date and moves)")
        return None
    try:
        read = read_record("xiangqi", str(data["fen"]), moves)
    except EngineError as error:
        report.skip(number, f"game {game_id}: the start position is refused ({error})")
        return None
    seen_ids.add(game_id)
    seen_games.add(key)
    stop = read.stop
    return MasterGame(
        id=game_id,
        **{name: str(data[name] or "").strip() for name in HEADERS},
        year=year_of(str(data["date"] or "")),
        moves=read.iccs,
        record_plies=read.record_plies,
        stop=None
        if stop is None
        else {"ply": stop.ply, "text": stop.text, "code": stop.code, "reason": stop.reason},
        rules_end=read.rules_end,
    )


def _missing_field(data: dict[str, Any]) -> str | None:
    for name in ("id", "fen", "moves", *HEADERS):
        if name not in data:
            return f"no {name!r} field"
    if not isinstance(data["id"], int) or isinstance(data["id"], bool) or data["id"] < 1:
        return "the id is not a positive whole number"
    if not isinstance(data["moves"], list):
        return "the moves are not a list"
    if data["result"] not in RESULTS:
        return f"unknown result {data['result']!r}"
    return None


def write_shipped(games: Iterable[MasterGame], path: Path) -> int:
    """Write the shipped file whole, or leave the old one as it was. Returns the game count.

    The bytes depend only on the games (no time stamp in the gzip header), so the same import
    gives the same file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    fd, tmp = tempfile.mkstemp(prefix=path.name, dir=path.parent)
    try:
        with (
            os.fdopen(fd, "wb") as raw,
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed,
        ):
            text = io.TextIOWrapper(packed, encoding="utf-8", newline="\n")
            for game in games:
                text.write(json.dumps(game.as_json(), ensure_ascii=False) + "\n")
                count += 1
            text.flush()
            text.detach()
        os.chmod(tmp, 0o644)  # mkstemp's file is private; the shipped file is for everyone
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count


def import_collection(
    source: Path,
    target: Path,
    *,
    limit: int | None = None,
    progress: Callable[[ImportReport], None] | None = None,
) -> ImportReport:
    """Read ``source`` and write the games that could be read to ``target``."""
    report = ImportReport()
    write_shipped(read_source(source, report, limit=limit, progress=progress), target)
    return report


def read_shipped(path: Path = SHIPPED_FILE) -> Iterator[MasterGame]:
    """The games of a shipped file, in order."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield MasterGame.from_json(json.loads(line))


def shipped_digest(path: Path = SHIPPED_FILE) -> str:
    """A digest of the shipped file, to tell whether the database already holds it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@cache
def _to_simplified() -> Any:
    import opencc

    return opencc.OpenCC("t2s")


@cache
def simplified(text: str) -> str:
    """``text`` in simplified characters (text already simplified, or not Chinese, is kept).
    Cached: the collection names the same players and events thousands of times."""
    return str(_to_simplified().convert(text)) if text else text
