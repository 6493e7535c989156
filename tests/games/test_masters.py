"""The master games collection (core.masters, games.library): the import from the source
records, the shipped file, the library's load, search and replay pages."""

from __future__ import annotations

import gzip
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from core.masters import (
    SHIPPED_FILE,
    SOURCE_FILE,
    ImportReport,
    import_collection,
    read_shipped,
    read_source,
    write_shipped,
    year_of,
)
from core.masters import (
    MasterGame as ShippedGame,
)
from engine import Move, Position
from games.library import master_game_replay, master_games_load
from games.models import MasterGame

START = Position.start("xiangqi").fen()
OPENING = ["炮二平五", "馬８進７", "馬二進三", "車９平８"]


def record(game_id: int, moves: list[str] | None = None, **headers: Any) -> dict[str, Any]:
    base = {
        "id": game_id,
        "source": "test",
        "event": "友誼賽",
        "date": "1996年4月17日",
        "site": "",
        "red": "柳大華",
        "black": "吳貴臨",
        "result": "1-0",
        "ecco": "C55",
        "fen": START,
        "moves": OPENING if moves is None else moves,
    }
    return {**base, **headers}


def write_source(path: Path, lines: list[str], *, cut: int = 0) -> Path:
    data = "".join(line + "\n" for line in lines).encode()
    packed = gzip.compress(data)
    path.write_bytes(packed[: len(packed) - cut] if cut else packed)
    return path


# -- reading the source ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "year"),
    [
        ("4/17/1996", 1996),
        ("1982年12月12日", 1982),
        ("19800825", 1980),
        ("20091114-09：00", 2009),
        ("2010-12-01 09:0", 2010),
        ("1999年8月20日-25日", 1999),
        ("86-4-29", None),
        ("", None),
    ],
)
def test_the_year_is_read_from_every_way_the_records_write_a_date(
    written: str, year: int | None
) -> None:
    assert year_of(written) == year


def test_each_bad_record_is_reported_and_skipped_and_the_good_ones_are_kept(
    tmp_path: Path,
) -> None:
    lines = [
        json.dumps(record(1)),
        json.dumps(record(2, ["炮二平五", "車一進九", "馬８進７"], red="胡榮華")),  # stops at 2
        '{"id": 3, "moves": [',  # not a whole record
        json.dumps(record(1, red="許銀川")),  # the same id again
        json.dumps(record(4)),  # the same players, date and moves as game 1
        json.dumps(
            record(5, fen="rnbakabnr/9/9 w - - 0 1", red="甲")
        ),  # a start the engine refuses
        json.dumps(
            {k: v for k, v in record(6, red="乙").items() if k != "result"}
        ),  # a field missing
        json.dumps(record(7, result="2-0", red="丙")),  # an unknown result
        "",
        json.dumps(record(8, ["炮八平五"], red="呂欽")),
    ]
    source = write_source(tmp_path / "source.jsonl.gz", lines)
    target = tmp_path / "shipped.jsonl.gz"
    report = import_collection(source, target)

    assert [g.id for g in read_shipped(target)] == [1, 2, 8]
    assert (report.records, report.kept, report.read_to_end) == (9, 3, 2)
    skipped = dict(report.skipped)
    assert set(skipped) == {3, 4, 5, 6, 7, 8}
    assert "not a whole JSON record" in skipped[3]
    assert "appears twice" in skipped[4]
    assert "repeats an earlier game" in skipped[5]
    assert "start position is refused" in skipped[6]
    assert "'result'" in skipped[7]
    assert "unknown result" in skipped[8]

    stopped = next(g for g in read_shipped(target) if g.id == 2)
    assert stopped.moves == ("h2e2",)
    assert stopped.stop is not None and stopped.stop["ply"] == 2
    assert stopped.stop["text"] == "車一進九"
    assert stopped.record_plies == 3
    assert "1 stopped at a move that could not be played" in report.summary()


def test_a_cut_file_keeps_its_whole_records_and_reports_the_cut(tmp_path: Path) -> None:
    lines = [json.dumps(record(n, red=f"棋手{n}")) for n in range(1, 40)]
    source = write_source(tmp_path / "cut.jsonl.gz", lines, cut=40)
    report = ImportReport()
    games = list(read_source(source, report))
    assert 0 < len(games) < 39
    assert any("cut short" in why for _, why in report.skipped)
    for game in games:  # every game kept is whole
        assert game.moves == ("h2e2", "h9g7", "h0g2", "i9h9")


def test_the_shipped_file_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "shipped.jsonl.gz"
    first = ShippedGame.from_json(
        {
            "id": 1,
            **{h: "" for h in ("event", "date", "site", "red", "black", "ecco")},
            "result": "*",
            "year": None,
            "moves": "h2e2",
            "record_plies": 1,
            "stop": None,
            "rules_end": None,
        }
    )
    write_shipped([first], target)
    before = target.read_bytes()

    def failing() -> Any:
        yield first
        raise RuntimeError("the reader failed half-way")

    with pytest.raises(RuntimeError):
        write_shipped(failing(), target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shipped.jsonl.gz"]


def test_the_same_import_writes_the_same_bytes(tmp_path: Path) -> None:
    source = write_source(tmp_path / "s.jsonl.gz", [json.dumps(record(n)) for n in (1, 2)])
    import_collection(source, tmp_path / "a.jsonl.gz")
    import_collection(source, tmp_path / "b.jsonl.gz")
    assert (tmp_path / "a.jsonl.gz").read_bytes() == (tmp_path / "b.jsonl.gz").read_bytes()


# -- the shipped collection -----------------------------------------------------------------


def test_the_shipped_games_are_the_source_records_as_the_import_reads_them(
    tmp_path: Path,
) -> None:
    """A seeded sample of the source, read again, gives the shipped entries exactly."""
    shipped = {g.id: g for g in read_shipped(SHIPPED_FILE)}
    assert len(shipped) > 27_000
    sample = set(random.Random(7).sample(sorted(shipped), 150))
    lines = []
    with gzip.open(SOURCE_FILE, "rt", encoding="utf-8") as handle:
        for line in handle:
            if json.loads(line)["id"] in sample:
                lines.append(line.rstrip("\n"))
    report = ImportReport()
    again = {g.id: g for g in read_source(write_source(tmp_path / "s.gz", lines), report)}
    assert set(again) == sample
    for game_id in sample:
        assert again[game_id] == shipped[game_id]


def test_every_shipped_move_of_a_sample_is_legal_where_it_is_played() -> None:
    games = list(read_shipped(SHIPPED_FILE))
    for game in random.Random(11).sample(games, 300):
        pos = Position.from_fen("xiangqi", START)
        for text in game.moves:
            move = Move.from_iccs(text)
            assert pos.is_legal(move), (game.id, text)
            pos.push(move)
        assert len(game.moves) <= game.record_plies
        assert (game.stop is None) == (len(game.moves) == game.record_plies)


# -- the library in the database --------------------------------------------------------------


def shipped_file(tmp_path: Path, games: list[dict[str, Any]], name: str = "s.jsonl.gz") -> Path:
    source = write_source(tmp_path / f"source-{name}", [json.dumps(g) for g in games])
    target = tmp_path / name
    import_collection(source, target)
    return target


@pytest.mark.django_db
def test_loading_the_library_again_changes_nothing_and_follows_the_file(tmp_path: Path) -> None:
    one = shipped_file(tmp_path, [record(1), record(2, red="胡榮華"), record(3, red="呂欽")])
    assert master_games_load(one) == {"added": 3, "updated": 0, "removed": 0, "total": 3}
    assert master_games_load(one) == {"added": 0, "updated": 0, "removed": 0, "total": 3}
    two = shipped_file(tmp_path, [record(1), record(2, red="許銀川")], name="t.jsonl.gz")
    assert master_games_load(two) == {"added": 0, "updated": 1, "removed": 1, "total": 2}
    game = MasterGame.objects.get(id=2)
    assert (game.red, game.red_simplified, game.black_simplified) == ("許銀川", "许银川", "吴贵临")
    assert game.plies == 4 and game.moves == "h2e2 h9g7 h0g2 i9h9"


@pytest.fixture
def library(tmp_path: Path) -> None:
    games = [
        record(1),
        record(
            2, ["炮二平五", "車一進九"], red="胡榮華", black="楊官璘", date="1960", result="0-1"
        ),
        record(3, red="呂欽", black="許銀川", event="全國象棋個人賽", date="2001.5.1"),
        record(4, red="呂欽", black="李來群", date="1/2/1990", result="1/2-1/2"),
        record(5, red="呂欽", black="呂  欽", date="2005.3.3"),  # a player cannot meet himself
        record(6, red="王  斌", date="2000-01-01"),  # padded name, the placeholder date
    ]
    master_games_load(shipped_file(tmp_path, games))


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_the_library_is_searched_in_pinyin_newest_first_with_its_count(client: Client) -> None:
    def found(query: str, language: str = "en") -> list[int]:
        page = client.get("/play/masters/", {"q": query}, HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        return [row["game"].id for row in page.context["rows"]]

    assert found("Hu Ronghua") == [2]
    assert found("huronghua") == found("HU RONG-HUA") == [2]
    for spelling in ("Lü Qin", "Lu Qin", "lv qin", "lu:qin"):
        assert found(spelling) == [3, 4], spelling  # not 5: 呂欽 against 呂欽
    assert found("Wang Bin") == [6]  # "王  斌" stored as 王斌
    assert found("Xu") == [3]
    # newest first, an unknown date last; the record of a player against himself left out
    everything = client.get("/play/masters/", HTTP_ACCEPT_LANGUAGE="en")
    assert [row["game"].id for row in everything.context["rows"]] == [3, 1, 4, 2, 6]
    html = everything.content.decode()
    assert "2001-05-01" in html and "1996-04-17" in html and "1990-01-02" in html
    assert "2000-01-01" not in html and "unknown" in html
    assert "masters-count" not in html  # no search: the library's size is said instead
    assert "5 games of traditional xiangqi" in html  # the library, less the doubtful record
    for language, words in (("en", "2 games match this search."), ("zh-hans", "找到2盘对局。")):
        page = client.get("/play/masters/", {"q": "Lu Qin"}, HTTP_ACCEPT_LANGUAGE=language)
        assert words in page.content.decode(), language
    searched = client.get("/play/masters/", {"q": "Lu Qin"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "5 games of traditional xiangqi" in searched.content.decode()
    zh = client.get("/play/masters/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "不详" in zh and "王斌" in zh
    game = MasterGame.objects.get(id=6)
    assert (game.red, game.date, game.year) == ("王斌", "", None)


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_the_library_finds_a_player_written_in_either_script(client: Client) -> None:
    for query in ("吕钦", "呂欽"):
        page = client.get("/play/masters/", {"q": query}, HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert page.status_code == 200
        rows = page.context["rows"]
        assert [row["game"].id for row in rows] == [3, 4]
        assert rows[0]["red"] == "吕钦"  # Chinese pages show simplified characters
    english = client.get("/play/masters/", {"q": "吕钦"}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.context["rows"][0]["red"] == "呂欽"  # as the record writes it
    events = client.get("/play/masters/", {"q": "全国象棋"})
    assert [row["game"].id for row in events.context["rows"]] == [3]


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_the_library_filters_by_year_and_result(client: Client) -> None:
    by_year = client.get("/play/masters/", {"year": "1990"})
    assert [row["game"].id for row in by_year.context["rows"]] == [4]
    by_result = client.get("/play/masters/", {"result": "0-1"})
    assert [row["game"].id for row in by_result.context["rows"]] == [2]


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
@pytest.mark.parametrize(
    ("params", "ignored"),
    [
        ({"year": "１９９０"}, ["year"]),
        ({"year": "nineteen"}, ["year"]),
        ({"year": "99999999999999999999"}, ["year"]),
        ({"result": "2-0"}, ["result"]),
        ({"q": "呂" * 500}, ["q"]),
    ],
)
def test_a_search_it_cannot_read_is_said_and_the_rest_still_searches(
    client: Client, params: dict[str, str], ignored: list[str]
) -> None:
    page = client.get("/play/masters/", params, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert page.context["ignored"] == ignored
    assert "was not understood" in page.content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_odd_search_input_never_fails(client: Client) -> None:
    for params in ({"q": "%"}, {"q": "_"}, {"page": "-3"}, {"page": "999"}, {"page": "x"}):
        assert client.get("/play/masters/", params).status_code == 200
    assert client.get("/play/masters/", {"q": "\x00"}).status_code == 400  # as everywhere
    assert client.get("/play/masters/", {"page": "999"}).context["page"].number == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_a_master_game_replays_with_its_players_event_result_and_credit(client: Client) -> None:
    page = client.get("/play/masters/3/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert page.status_code == 200
    html = page.content.decode()
    assert "吕钦 – 许银川" in html and "全国象棋个人赛" in html and "2001-05-01" in html
    assert "CC BY 4.0" in html and "CCPD" in html
    state = json.loads(page.context["page"]["game"] and json.dumps(page.context["page"]["game"]))
    assert [m["iccs"] for m in state["moves"]] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert state["moves"][0]["chinese"] == "炮二平五"
    assert state["status"] == "finished" and state["ending"]["zh"] == "红方胜（棋谱所记）"
    assert state["outcome"] == "red_won"
    assert page.context["page"]["api"] == {}  # nothing on the page can change the game


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_a_record_that_stops_early_says_where_and_why(client: Client) -> None:
    page = client.get("/play/masters/2/", HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert "move 2 (車一進九) cannot be played" in html
    assert len(page.context["page"]["game"]["moves"]) == 1


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_an_unknown_master_game_is_not_found(client: Client) -> None:
    assert client.get("/play/masters/99/").status_code == 404
    assert client.get("/play/masters/0/").status_code == 404


@pytest.mark.django_db
@pytest.mark.usefixtures("library")
def test_the_replay_gives_each_move_its_notation_and_position() -> None:
    moves = master_game_replay(MasterGame.objects.get(id=1))
    assert [m["chinese"] for m in moves] == ["炮二平五", "马8进7", "马二进三", "车9平8"]
    assert moves[-1]["fen"].startswith("rnbakabr1/9/1c4nc1/")
    assert [m["by"] for m in moves] == ["red", "black", "red", "black"]


def test_the_import_command_reports_what_it_skipped_and_refuses_a_missing_file(
    tmp_path: Path,
) -> None:
    from django.core.management import CommandError, call_command

    source = write_source(
        tmp_path / "s.jsonl.gz",
        [json.dumps(record(1)), "{not json", json.dumps(record(2, red="甲"))],
    )
    out, err = io.StringIO(), io.StringIO()
    call_command("import_master_games", str(source), out=str(tmp_path / "o.jsonl.gz"),
                 stdout=out, stderr=err)  # fmt: skip
    assert "2 games kept of 3 records" in out.getvalue()
    assert "skipped line 2: not a whole JSON record" in err.getvalue()
    with pytest.raises(CommandError, match="no such file"):
        call_command("import_master_games", str(tmp_path / "missing.gz"), stdout=out)
    with pytest.raises(CommandError, match="at least 1"):
        call_command("import_master_games", str(source), limit=0, stdout=out)
