"""Perft against the data files in data/*.perft (format: see their headers)."""

from pathlib import Path

import pytest

from engine import Position, divide, perft

DATA = Path(__file__).parent / "data"
SLOW_NODES = 1_000_000


def read_perft_file(path: Path) -> list[tuple[int, str, str, dict[int, int]]]:
    """(line number, variant, FEN, {depth: nodes}) for every position line."""
    entries = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        variant, fen, *counts = (field.strip() for field in line.split(";"))
        table = {}
        for count in counts:
            depth, nodes = count.split()
            table[int(depth)] = int(nodes)
        entries.append((number, variant, fen, table))
    return entries


ENTRIES = [
    (f"{path.stem}:L{number}", variant, fen, table)
    for path in sorted(DATA.glob("*.perft"))
    for number, variant, fen, table in read_perft_file(path)
]


def _cases() -> list:
    cases = []
    for name, variant, fen, table in ENTRIES:
        for depth, nodes in sorted(table.items()):
            marks = [pytest.mark.slow] if nodes > SLOW_NODES else []
            cases.append(
                pytest.param(variant, fen, depth, nodes, id=f"{name}:d{depth}", marks=marks)
            )
    return cases


def test_the_files_cover_every_variant_and_the_published_start_counts() -> None:
    assert {variant for _, variant, _, _ in ENTRIES} == {"xiangqi", "feidan", "xinban"}
    start = Position.start("xiangqi").fen()
    tables = [table for _, variant, fen, table in ENTRIES if variant == "xiangqi" and fen == start]
    assert tables == [{1: 44, 2: 1920, 3: 79666, 4: 3290240}]
    for name, variant, fen, table in ENTRIES:
        assert variant in name
        assert sorted(table) == list(range(1, len(table) + 1)), name
        Position.from_fen(variant, fen)


@pytest.mark.parametrize(("variant", "fen", "depth", "nodes"), _cases())
def test_perft(variant: str, fen: str, depth: int, nodes: int) -> None:
    pos = Position.from_fen(variant, fen)
    assert perft(pos, depth) == nodes
    assert pos.fen() == Position.from_fen(variant, fen).fen()


@pytest.mark.parametrize(
    ("variant", "fen", "table"),
    [pytest.param(v, f, t, id=name) for name, v, f, t in ENTRIES],
)
def test_divide_adds_up_to_perft(variant: str, fen: str, table: dict[int, int]) -> None:
    pos = Position.from_fen(variant, fen)
    split = divide(pos, 2)
    assert sorted(split) == sorted(m.iccs() for m in pos.legal_moves)
    assert sum(split.values()) == table[2]
    assert divide(pos, 1) == dict.fromkeys(split, 1)


def test_perft_of_depth_zero_is_one() -> None:
    assert perft(Position.start("feidan"), 0) == 1


def test_perft_of_a_finished_position_is_zero() -> None:
    mated = Position.from_fen("xiangqi", "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert perft(mated, 1) == 0
    assert perft(mated, 3) == 0


def test_negative_depth_is_rejected() -> None:
    with pytest.raises(ValueError):
        perft(Position.start("xiangqi"), -1)
    with pytest.raises(ValueError):
        divide(Position.start("xiangqi"), 0)
