"""The engine against reference_rules.py, a slow literal reading of the rules
that shares no code with it: legal moves, what every move does, check and
status, on random hand-built positions and on positions of random games, in
all three variants (and in xinban's other reading of the check sentence)."""

import random
from pathlib import Path

import pytest
from reference_rules import RefPosition

from engine import InvalidFenError, Move, Position, find_variant

DATA = Path(__file__).parent / "data"
# what one side's start gives (RULES §3, material a game can reach)
START_COUNT = {"a": 2, "b": 2, "n": 2, "r": 2, "c": 2, "p": 5, "f": 2, "m": 2}


def random_fen(rng: random.Random, variant: str) -> str:
    """Generals in their palaces and up to 14 other pieces, each on a point
    its kind may stand on; missiles often in a base or an enemy palace."""
    width = 11 if variant == "feidan" else 9
    c = width // 2
    board: dict[tuple[int, int], str] = {}
    board[(rng.choice((c - 1, c, c + 1)), rng.choice((0, 1, 2)))] = "K"
    board[(rng.choice((c - 1, c, c + 1)), rng.choice((7, 8, 9)))] = "k"
    kinds = "abnrcp" + ("fm" if variant == "feidan" else "")
    advisor = [(c - 1, 0), (c + 1, 0), (c, 1), (c - 1, 2), (c + 1, 2)]
    elephant = [(c - 2, 0), (c + 2, 0), (c - 4, 2), (c, 2), (c + 4, 2), (c - 2, 4), (c + 2, 4)]
    everywhere = [(f, r) for f in range(width) for r in range(10)]
    for _ in range(rng.randint(1, 14)):
        red = rng.random() < 0.5
        kind = rng.choice(kinds)
        if kind == "a":
            points = advisor
        elif kind == "b":
            points = elephant
        elif kind == "p":
            points = [(f, r) for f, r in everywhere if r >= 3]
        elif kind == "m" and rng.random() < 0.4:
            points = [(0, 0), (width - 1, 0)]
        elif kind == "m" and rng.random() < 0.4:
            points = [(f, r) for f in (c - 1, c, c + 1) for r in (7, 8, 9)]  # enemy palace
        else:
            points = everywhere
        if not red and kind in "abpm":
            points = [(f, 9 - r) for f, r in points]
        free = [p for p in points if p not in board]
        letter = kind.upper() if red else kind
        if not free or sum(1 for q in board.values() if q[-1] == letter[-1]) >= START_COUNT[kind]:
            continue  # RULES §3: no more of a kind than a side starts with
        if variant == "xinban" and kind in "rnc" and rng.random() < 0.6:
            letter = "+" + letter
        board[rng.choice(free)] = letter
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(width):
            piece = board.get((f, rank))
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if rng.random() < 0.5 else " b") + " - - 0 1"


def random_positions(variant: str, seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        fen = random_fen(rng, variant)
        try:
            Position.from_fen(variant, fen)
        except InvalidFenError:
            continue
        fens.append(fen)
    return fens


def game_positions(variant: str, seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    pos = Position.start(variant)
    fens = []
    for _ in range(plies):
        moves = sorted(pos.legal_moves)
        if not moves:
            break
        pos.push(rng.choice(moves))
        fens.append(pos.fen())
    return fens


def assert_same(variant: str, fen: str, requires_check: bool = False) -> None:
    table = find_variant(variant).with_changes(defection_requires_check=requires_check)
    pos = Position.from_fen(table, fen)
    ref = RefPosition.from_fen(variant, fen, requires_check)
    expected = ref.legal_moves()
    assert sorted(m.iccs() for m in pos.legal_moves) == sorted(expected), fen
    assert pos.is_check() == ref.in_check(), fen
    assert pos.status() == ref.status(), fen
    for iccs, (board, effect) in expected.items():
        move = Move.from_iccs(iccs)
        assert pos.move_effect(move).kind == effect, (fen, iccs)
        pos.push(move)
        assert pos.board_fen() == ref.child(board).board_fen(), (fen, iccs)
        pos.pop()


CASES = [
    pytest.param(
        variant, seed, requires_check, id=f"{variant}{'-check' if requires_check else ''}-{seed}"
    )
    for variant, requires_check in (
        ("xiangqi", False),
        ("feidan", False),
        ("xinban", False),
        ("xinban", True),
    )
    for seed in range(3)
]


@pytest.mark.parametrize(("variant", "seed", "requires_check"), CASES)
def test_random_hand_built_positions(variant: str, seed: int, requires_check: bool) -> None:
    fens = random_positions(variant, 1000 * seed + len(variant), 120)
    for fen in fens:
        assert_same(variant, fen, requires_check)


def test_the_random_positions_reach_the_special_rules() -> None:
    statuses = set()
    kinds = set()
    for variant in ("feidan", "xinban"):
        for fen in random_positions(variant, 2024, 300):
            pos = Position.from_fen(variant, fen)
            statuses.add(pos.status())
            kinds.update(pos.move_effect(m).kind for m in pos.legal_moves)
    assert {"checkmate", "dead_general", "ongoing"} <= statuses
    assert {"collision", "self_destruct", "cannon_takes_missile", "defection"} <= kinds


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
@pytest.mark.parametrize("seed", range(2))
def test_positions_of_random_games(variant: str, seed: int) -> None:
    for fen in game_positions(variant, seed, 50):
        assert_same(variant, fen)


def _perft_lines(name: str) -> list[tuple[str, str, dict[int, int]]]:
    lines = []
    for line in (DATA / name).read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            variant, fen, *counts = (field.strip() for field in line.split(";"))
            lines.append((variant, fen, {int(c.split()[0]): int(c.split()[1]) for c in counts}))
    return lines


@pytest.mark.parametrize(
    ("variant", "fen", "table"),
    [
        pytest.param(v, f, t, id=f"{v}-{i}")
        for name in ("feidan.perft", "xinban.perft")
        for i, (v, f, t) in enumerate(_perft_lines(name))
    ],
)
def test_perft_files_agree_with_the_reference(
    variant: str, fen: str, table: dict[int, int]
) -> None:
    ref = RefPosition.from_fen(variant, fen)
    assert ref.perft(1) == table[1]
    assert ref.perft(2) == table[2]
