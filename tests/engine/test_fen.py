"""docs/rules.md §3: reading and writing positions (FEN), and every rejection."""

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine import EngineError, InvalidFenError, Position, UnknownVariantError
from engine.fen import write_fen
from engine.variants import find_variant

ROOT = Path(__file__).resolve().parents[2]

STARTS = [
    (
        "xiangqi",
        None,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "feidan",
        None,
        "mrnbakabnrm/11/f1c5c1f/1p1p1p1p1p1/11/11/1P1P1P1P1P1/F1C5C1F/11/MRNBAKABNRM w - - 0 1",
    ),
    (
        "xinban",
        None,
        "+r+nbakab+n+r/9/1+c5+c1/p1p1p1p1p/9/9/P1P1P1P1P/1+C5+C1/9/+R+NBAKAB+N+R w - - 0 1",
    ),
    (
        "xinban",
        "traditional",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "xinban",
        "red-new",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1+C5+C1/9/+R+NBAKAB+N+R w - - 0 1",
    ),
    (
        "xinban",
        "black-new",
        "+r+nbakab+n+r/9/1+c5+c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
]


@pytest.mark.parametrize(("variant", "setup", "fen"), STARTS, ids=lambda x: str(x)[:20])
def test_start_positions_round_trip(variant: str, setup: str | None, fen: str) -> None:
    start = Position.start(variant, setup)
    assert start.fen() == fen
    assert Position.from_fen(variant, fen).fen() == fen
    assert Position.from_fen(variant, fen) == start


def test_the_default_xinban_start_is_new_against_new() -> None:
    assert Position.start("xinban").fen() == STARTS[2][2]


def test_eleven_file_boards_use_runs_of_ten_and_eleven() -> None:
    fen = "m3k5m/11/11/11/11/11/10M/11/11/M4K5 w - - 0 1"
    pos = Position.from_fen("feidan", fen)
    assert pos.fen() == fen
    assert pos.piece_at("k3") == "M"
    assert pos.piece_at("j3") is None
    assert pos.piece_at("a0") == "M"
    assert pos.piece_at("f0") == "K"


def test_turncoat_marks_are_read_and_written() -> None:
    fen = "5k3/9/2+n6/9/p8/9/9/9/4A4/3K+R4 b - - 3 20"
    pos = Position.from_fen("xinban", fen)
    assert pos.piece_at("c7") == "+n"
    assert pos.piece_at("e0") == "+R"
    assert pos.fen() == fen


def test_r_is_accepted_for_red_and_written_as_w() -> None:
    pos = Position.from_fen(
        "xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1"
    )
    assert pos.turn == "red"
    assert pos.fen() == STARTS[0][2]


def test_side_and_counters() -> None:
    pos = Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 17 42")
    assert pos.turn == "black"
    assert (pos.halfmove, pos.fullmove) == (17, 42)
    assert pos.fen() == "3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 17 42"


def test_the_board_field_alone_is_read_with_red_to_move() -> None:
    pos = Position.from_fen("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4")
    assert pos.turn == "red"
    assert pos.fen() == "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match="chess"):
        Position.from_fen("chess", STARTS[0][2])
    assert issubclass(UnknownVariantError, ValueError)


# -- rejections: each raises InvalidFenError naming the rank and the reason -------

REJECTED = [
    # does not parse
    ("xiangqi", "", None, "empty"),
    (
        "xiangqi",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1",
        None,
        "10 ranks",
    ),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4/9 w - - 0 1", None, "10 ranks"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 x - - 0 1", None, "side to move"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w KQ - 0 1", None, "third field"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - x 1", None, "halfmove"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 0", None, "move number"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1 extra", None, "too many fields"),
    ("xiangqi", "3k5/9/9/9/9/0P8/9/9/4A4/4K4 w - - 0 1", 4, "start with 0"),
    # wrong number of points on a rank
    ("xiangqi", "3k5/9/9/9/9/8/9/9/4A4/4K4 w - - 0 1", 4, "8 points"),
    ("xiangqi", "3k5/9/9/9/9/9/9/10/4A4/4K4 w - - 0 1", 2, "10 points"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9P/4A4/4K4 w - - 0 1", 2, "more than 9 points"),
    ("feidan", "5k5/11/11/11/11/11/11/11/11/5K4 w - - 0 1", 0, "10 points"),
    ("feidan", "5k5/11/11/11/11/11/12/11/11/5K5 w - - 0 1", 3, "12 points"),
    # a letter not in the variant
    ("xiangqi", "3k5/9/9/9/9/9/9/4F4/4A4/4K4 w - - 0 1", 2, "'F' is not a piece of xiangqi"),
    ("xinban", "3k5/9/9/9/9/9/9/4m4/4A4/4K4 w - - 0 1", 2, "'m' is not a piece of xinban"),
    ("xiangqi", "3k5/9/9/9/9/9/9/4x4/4A4/4K4 w - - 0 1", 2, "'x' is not a piece"),
    ("xiangqi", "3k5/9/9/9/9/9/9/4+R4/4A4/4K4 w - - 0 1", 2, "+R"),
    ("xinban", "3k5/9/9/9/9/9/9/4+P4/4A4/4K4 w - - 0 1", 2, "+P"),
    ("xinban", "3k5/9/9/9/9/9/9/9/4A4/4+K4 w - - 0 1", 0, "+K"),
    ("xinban", "3k5/9/9/9/9/9/9/8+/4A4/4K4 w - - 0 1", 2, "'+' must be followed"),
    # two generals of a side, no general
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4K4/4K4 w - - 0 1", 1, "2 generals"),
    ("xiangqi", "3k1k3/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", 9, "2 generals"),
    ("xiangqi", "9/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", None, "Black has no general"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/9 w - - 0 1", None, "Red has no general"),
    # a general outside its palace
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/2K6 w - - 0 1", 0, "outside its palace"),
    ("xiangqi", "9/9/9/9/9/9/9/3k5/4A4/4K4 w - - 0 1", 2, "outside its palace"),
    ("feidan", "5k5/11/11/11/11/11/11/11/11/3K7 w - - 0 1", 0, "outside its palace"),
    # an advisor or elephant on a point it can never reach
    ("xiangqi", "3k5/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1", 1, "advisor on d1"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/1B2K4 w - - 0 1", 0, "elephant on b0"),
    ("xiangqi", "3k5/9/9/9/9/2b6/9/9/9/4K4 w - - 0 1", 4, "elephant on c4"),
    ("xiangqi", "3k5/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", 5, "elephant on c5"),
    ("feidan", "5k5/11/11/11/11/11/11/11/11/3A1K5 w - - 0 1", 0, "advisor on d0"),
    ("feidan", "5k5/11/11/11/11/11/11/11/11/2B2K5 w - - 0 1", 0, "elephant on c0"),
    # a soldier behind its own start rank
    ("xiangqi", "3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1", 2, "soldier on a2"),
    ("xiangqi", "3k5/9/p8/9/9/9/9/9/9/4K4 w - - 0 1", 7, "soldier on a7"),
    # the side not to move in check, the generals facing
    ("xiangqi", "4k4/9/9/9/9/9/9/9/9/3KR4 w - - 0 1", 9, "in check"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/3rK4 b - - 0 1", 0, "in check"),
    ("xiangqi", "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1", 0, "faces"),
    ("feidan", "5k5/11/11/11/11/11/11/11/11/5K5 w - - 0 1", 9, "faces"),
]


@pytest.mark.parametrize(
    ("variant", "fen", "rank", "reason"),
    REJECTED,
    ids=[f"{v}-{reason}-{i}" for i, (v, _, _, reason) in enumerate(REJECTED)],
)
def test_rejections_name_the_rank_and_the_reason(
    variant: str, fen: str, rank: int | None, reason: str
) -> None:
    with pytest.raises(InvalidFenError) as caught:
        Position.from_fen(variant, fen)
    message = str(caught.value)
    assert reason in message
    assert caught.value.rank == rank
    if rank is not None:
        assert f"rank {rank}" in message
    assert "\n" not in message
    assert isinstance(caught.value, ValueError)


def test_a_fen_that_is_not_a_string_is_rejected() -> None:
    with pytest.raises(InvalidFenError):
        Position.from_fen("xiangqi", None)  # type: ignore[arg-type]
    with pytest.raises(InvalidFenError):
        Position.from_fen("xiangqi", 42)  # type: ignore[arg-type]


def test_a_very_long_fen_is_rejected() -> None:
    with pytest.raises(InvalidFenError, match="longer"):
        Position.from_fen("xiangqi", "9/" * 1000)


# -- docs/rules.md §3.2: a number in a rank is read whole -------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("xiangqi", "3k5/9/9/9/9/9/9/9/45/4K4 w - - 0 1"),
        ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P111P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
        ("xinban", "3k5/9/9/9/9/9/9/9/18/4K4 w - - 0 1"),
        ("feidan", "5k5/11/11/11/11/11/11/11/29/5K5 w - - 0 1"),
        ("feidan", "5k5/11/11/11/11/11/11/11/1a12/5K5 w - - 0 1"),
    ],
)
def test_a_number_in_a_rank_is_read_whole(variant: str, fen: str) -> None:
    with pytest.raises(InvalidFenError) as caught:
        Position.from_fen(variant, fen)
    assert caught.value.rank is not None
    assert "points" in str(caught.value)


def test_a_number_in_a_rank_is_read_whole_runs_of_ten_and_eleven_still_parse() -> None:
    fen = "4k6/11/11/11/11/11/11/11/1R9/5K5 w - - 0 1"
    assert Position.from_fen("feidan", fen).fen() == fen


# -- docs/rules.md §3.5, Ruling: material a game can reach ------------------------------------

TOO_MUCH = [
    # the feidan puzzle bank's dead-general constructions: three black advisors
    ("feidan", "4aka4/3M7/4a6/5F5/11/11/11/11/2c8/6K4 w - - 0 1", "Black has 3 advisors"),
    ("xiangqi", "3akab2/4a4/9/9/9/9/9/9/9/4K4 w - - 0 1", "Black has 3 advisors"),
    ("xiangqi", "3k5/9/9/9/9/9/9/B3B3B/9/4K4 w - - 0 1", "Red has 3 elephants"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/NNN1K4 w - - 0 1", "Red has 3 horses"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/RRR1K4 w - - 0 1", "Red has 3 chariots"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/9/CCC1K4 w - - 0 1", "Red has 3 cannons"),
    ("xiangqi", "3k5/9/9/9/9/PPPPPP3/9/9/9/4K4 w - - 0 1", "Red has 6 soldiers"),
    ("feidan", "4k6/11/11/11/11/11/11/11/11/FFF2K5 w - - 0 1", "Red has 3 fighters"),
    ("feidan", "4k6/11/11/11/11/11/11/11/11/MMM2K5 w - - 0 1", "Red has 3 missiles"),
    # xinban: a side may hold four chariots, but not five
    ("xinban", "3k5/9/9/9/9/9/9/9/9/RRRRKR3 w - - 0 1", "Red has 5 chariots"),
    # and never more than four of a kind stand on the board together
    ("xinban", "3k5/9/9/9/9/9/9/9/rr7/RRR1K4 w - - 0 1", "5 chariots on the board"),
    # a turncoat is never gained: at most the two of the start
    ("xinban", "3k5/9/9/9/9/9/9/9/9/+N+N+N1K4 w - - 0 1", "Red has 3 turncoat horses"),
]


@pytest.mark.parametrize(("variant", "fen", "reason"), TOO_MUCH)
def test_material_a_game_can_reach_more_is_rejected(variant: str, fen: str, reason: str) -> None:
    with pytest.raises(InvalidFenError) as caught:
        Position.from_fen(variant, fen)
    assert reason in str(caught.value)


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        # two of each, five soldiers: a full army
        ("xiangqi", "3k5/9/9/9/9/9/PPPPP4/9/9/RRNNKCC2 w - - 0 1"),
        # xinban: four chariots on one side after two defections
        ("xinban", "3k5/9/9/9/9/9/9/9/9/RR+R1K+R3 w - - 0 1"),
        ("xinban", "3k5/9/9/9/9/9/9/9/9/NNCCK+C+C2 w - - 0 1"),
        # four horses shared out between the sides
        ("xinban", "3k5/9/9/9/9/9/9/9/nn7/NN2K4 w - - 0 1"),
    ],
)
def test_material_a_game_can_reach_is_accepted(variant: str, fen: str) -> None:
    assert Position.from_fen(variant, fen).fen() == fen


# -- docs/rules.md §3.1-3.2: the one writer ---------------------------------------------------


def test_the_writer_puts_runs_as_one_number_and_all_six_fields() -> None:
    width = find_variant("feidan").width
    pieces = {0 * width + 5: "K", 9 * width + 5: "k", 3 * width + 10: "M", 7 * width + 0: "+r"}
    assert write_fen("feidan", pieces) == "5k5/11/+r10/11/11/11/10M/11/11/5K5 w - - 0 1"
    assert write_fen("feidan", pieces, red_to_move=False, halfmove=7, fullmove=30).endswith(
        " b - - 7 30"
    )


def test_the_writer_refuses_a_point_off_the_board() -> None:
    with pytest.raises(EngineError) as caught:
        write_fen("xiangqi", {4: "K", 90: "k"})
    assert caught.value.code == "position.bad_square"


def test_the_writer_writes_what_a_position_writes() -> None:
    pos = Position.from_fen("xinban", "5k3/9/2+n6/9/p8/9/9/9/4A4/3K+R4 b - - 3 20")
    squares = {pos.square(point): piece for point, piece in pos.pieces().items()}
    assert write_fen("xinban", squares, False, 3, 20) == pos.fen()


def reference_fen(pos: Position) -> str:
    """The FEN written straight from the board, point by point (§3.1-3.2): the oracle the
    writer is held to."""
    ranks = []
    for rank in range(9, -1, -1):
        text, empty = "", 0
        for file in pos.variant.files:
            piece = pos.piece_at(f"{file}{rank}")
            if piece is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + piece
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    side = "w" if pos.turn == "red" else "b"
    return f"{'/'.join(ranks)} {side} - - {pos.halfmove} {pos.fullmove}"


def _lesson_fens(data: Any) -> list[str]:
    if isinstance(data, dict):
        found = [data["fen"]] if isinstance(data.get("fen"), str) else []
        return found + [fen for value in data.values() for fen in _lesson_fens(value)]
    if isinstance(data, list):
        return [fen for value in data for fen in _lesson_fens(value)]
    return []


def data_file_fens() -> list[tuple[str, str, str]]:
    """(where, variant, FEN) of every position in the repository's data files: the perft
    files, the rules vectors, the puzzle bank, the classic puzzles and the lessons."""
    found: list[tuple[str, str, str]] = []
    for path in sorted((ROOT / "tests/engine/data").glob("*.perft")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                variant, fen = (part.strip() for part in line.split(";")[:2])
                found.append((path.name, variant, fen))
    vectors = json.loads((ROOT / "tests/engine/data/rules-vectors.json").read_text("utf-8"))
    for vector in (v for group in vectors["variants"].values() for v in group):
        found.append(("rules-vectors.json", vector["variant"], vector["fen"]))
        for key in vector.get("key_moves", []):
            found.append(("rules-vectors.json", vector["variant"], key["fen_after"]))
    bank = json.loads((ROOT / "puzzles/data/bank.json").read_text("utf-8"))
    found += [("bank.json", p["variant"], p["fen"]) for p in bank["puzzles"]]
    classics = json.loads((ROOT / "puzzles/data/classic-puzzles.json").read_text("utf-8"))
    found += [("classic-puzzles.json", "xiangqi", p["fen"]) for p in classics["puzzles"]]
    for path in sorted((ROOT / "tutorials/lessons").glob("*/*.toml")):
        lesson = tomllib.loads(path.read_text("utf-8"))
        found += [(path.name, path.parent.name, fen) for fen in _lesson_fens(lesson)]
    return found


DATA_FENS = data_file_fens()


def test_the_data_files_hold_positions_of_every_kind() -> None:
    sources = {where.rsplit(".", 1)[-1] for where, _, _ in DATA_FENS}
    assert sources == {"perft", "json", "toml"}
    assert {variant for _, variant, _ in DATA_FENS} == {"xiangqi", "feidan", "xinban"}
    assert len(DATA_FENS) > 500


def test_every_fen_of_the_data_files_round_trips() -> None:
    for where, variant, fen in DATA_FENS:
        pos = Position.from_fen(variant, fen)
        written = pos.fen()
        assert written == reference_fen(pos), where
        fields = fen.split()
        if len(fields) == 6 and fields[1] != "r":
            assert written == fen, where
        again = Position.from_fen(variant, written)
        assert again == pos and again.fen() == written, where
