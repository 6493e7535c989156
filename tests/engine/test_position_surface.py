"""``Position``'s public surface: the general's point, the checked general, a
position from a piece map, the same pieces with the other side to move, the
int-move layer the search modules use, and that no other module reads
``Position``'s private members."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine import Position
from engine.errors import EngineError, InvalidFenError
from engine.move import Move
from engine.variants import BLACK, KING, VARIANTS

ROOT = Path(__file__).resolve().parents[2]
VARIANT_NAMES = sorted(VARIANTS)
# the general's file is the centre file of the board: e on 9 files, f on 11
CENTRE = {"xiangqi": "e", "xinban": "e", "feidan": "f"}
# the side to move in check by a chariot (a turncoat chariot in xinban), and its general
IN_CHECK = {
    "xiangqi": ("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", "e9"),
    "xinban": ("4k4/9/9/9/4+R4/9/9/9/9/3K5 b - - 0 1", "e9"),
    "feidan": ("5k5/11/11/11/11/11/11/5R5/11/4K6 b - - 0 1", "f9"),
}


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_king_is_the_point_of_each_sides_general(variant: str) -> None:
    pos = Position.start(variant)
    c = CENTRE[variant]
    assert (pos.king("red"), pos.king("black")) == (f"{c}0", f"{c}9")
    assert pos.king("red") == next(p for p, letter in pos.pieces().items() if letter == "K")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_king_follows_the_general_through_push_and_pop(variant: str) -> None:
    fen, general = IN_CHECK[variant]
    pos = Position.from_fen(variant, fen)
    assert pos.king("black") == general
    step = next(m for m in pos.legal_moves if pos.square_name(pos.encode(m) >> 8) == general)
    pos.push(step)
    assert pos.king("black") == pos.square_name(pos.encode(step) & 255) != general
    pos.pop()
    assert pos.king("black") == general


def test_king_rejects_a_side_that_is_not_red_or_black() -> None:
    pos = Position.start()
    for side in ("white", "Red", "", None, 0):
        with pytest.raises(EngineError) as info:
            pos.king(side)
        assert info.value.code == "position.bad_side"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_checked_general_is_none_out_of_check_and_the_general_in_check(variant: str) -> None:
    assert Position.start(variant).checked_general() is None
    fen, general = IN_CHECK[variant]
    pos = Position.from_fen(variant, fen)
    assert pos.is_check()
    assert pos.checked_general() == general == pos.king(pos.turn)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_checked_general_agrees_with_is_check_along_random_games(variant: str) -> None:
    rng = random.Random(17)
    pos = Position.start(variant)
    for _ in range(80):
        moves = list(pos.legal_moves)
        if not moves:
            break
        expected = pos.king(pos.turn) if pos.is_check() else None
        assert pos.checked_general() == expected
        pos.push(rng.choice(moves))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_from_pieces_rebuilds_any_position_from_its_piece_map(variant: str) -> None:
    rng = random.Random(3)
    pos = Position.start(variant)
    for _ in range(40):
        moves = list(pos.legal_moves)
        if not moves:
            break
        pos.push(rng.choice(moves))
        rebuilt = Position.from_pieces(
            variant, pos.pieces(), pos.turn, halfmove=pos.halfmove, fullmove=pos.fullmove
        )
        assert rebuilt.fen() == pos.fen()
        assert rebuilt.hash == pos.hash
        assert rebuilt == pos
        assert rebuilt.ply_count() == 0
        assert sorted(m.iccs() for m in rebuilt.legal_moves) == sorted(
            m.iccs() for m in pos.legal_moves
        )


def test_from_pieces_places_pieces_on_every_rank_and_file_of_the_feidan_board() -> None:
    # the corners of the 11-file board, ranks 0 and 9 (the board is 10 high)
    pieces = {"f0": "K", "e9": "k", "a0": "M", "k0": "M", "a9": "m", "k9": "m", "k4": "P"}
    pos = Position.from_pieces("feidan", pieces, "black")
    assert pos.fen() == "m3k5m/11/11/11/11/10P/11/11/11/M4K4M b - - 0 1"
    assert pos.pieces() == pieces
    assert pos.turn == "black"


def test_from_pieces_checks_points_letters_sides_and_placement() -> None:
    base = {"d0": "K", "e9": "k"}
    cases = [
        ({**base, "j0": "R"}, "position.bad_square"),  # no j file on 9 files
        ({**base, "e10": "R"}, "position.bad_square"),
        ({**base, "a0": "RR"}, "position.bad_piece"),
        ({**base, "a0": "3"}, "position.bad_piece"),
        ({**base, "a0": 5}, "position.bad_piece"),
    ]
    for pieces, code in cases:
        with pytest.raises(EngineError) as info:
            Position.from_pieces("xiangqi", pieces)
        assert info.value.code == code, pieces
    with pytest.raises(EngineError) as info:
        Position.from_pieces("xiangqi", base, "blue")
    assert info.value.code == "position.bad_side"
    # the placement rules of a FEN hold: no general, a general outside its palace, a
    # piece the variant does not have, the side not to move in check
    for pieces, code in [
        ({"e0": "K"}, "fen.no_general"),
        ({"a0": "K", "e9": "k"}, "fen.general_outside_palace"),
        ({**base, "a0": "M"}, "fen.unknown_letter"),
        ({**base, "a0": "+R"}, "fen.turncoat_not_in_variant"),
        ({**base, "e5": "R"}, "fen.other_side_in_check"),
    ]:
        with pytest.raises(InvalidFenError) as fen_info:
            Position.from_pieces("xiangqi", pieces)
        assert fen_info.value.code == code, pieces
    assert Position.from_pieces("xinban", {**base, "a0": "+R"}).piece_at("a0") == "+R"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_with_turn_keeps_the_pieces_and_hands_the_move_over(variant: str) -> None:
    pos = Position.start(variant)
    pos.push(next(iter(pos.legal_moves)))
    black = pos.with_turn("red")
    assert black.turn == "red" and pos.turn == "black"
    assert black.pieces() == pos.pieces()
    assert black.ply_count() == 0 and pos.ply_count() == 1
    assert (black.halfmove, black.fullmove) == (pos.halfmove, pos.fullmove)
    assert black.board_fen() == pos.board_fen()
    assert black.fen().split(" ")[1] == "w"
    # the same as a FEN with the other side letter
    expected = Position.from_fen(variant, pos.fen().replace(" b ", " w "))
    assert black == expected and black.hash == expected.hash
    assert sorted(m.iccs() for m in black.legal_moves) == sorted(
        m.iccs() for m in expected.legal_moves
    )
    same = pos.with_turn("black")
    assert same == pos and same.hash == pos.hash and same is not pos
    with pytest.raises(EngineError) as info:
        pos.with_turn("w")
    assert info.value.code == "position.bad_side"


def test_with_turn_does_not_check_the_side_not_to_move() -> None:
    # black in check: with red to move the position could not be read from a FEN, but it
    # is what a lesson asks about ("what attacks this general?")
    fen, general = IN_CHECK["xiangqi"]
    pos = Position.from_fen("xiangqi", fen).with_turn("red")
    assert pos.turn == "red" and pos.king("black") == general
    assert pos.checked_general() is None


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_move_codes_round_trip_and_match_the_move_api(variant: str) -> None:
    rng = random.Random(5)
    pos = Position.start(variant)
    for _ in range(30):
        codes = pos.legal_codes()
        assert pos.cached_legal() is codes
        assert sorted(pos.decode(m).iccs() for m in codes) == sorted(
            m.iccs() for m in pos.legal_moves
        )
        assert all(pos.encode(pos.decode(m)) == m for m in codes)
        assert set(codes) <= set(pos.pseudo_codes())
        assert all(pos.is_legal_code(m) for m in codes)
        history = pos.hash_history()
        m = rng.choice(codes)
        pos.push_code(m)
        assert pos.cached_legal() is None
        assert pos.last_code() == m
        assert pos.hash_history() == history + [pos.hash]
        assert pos.last_changes() == pos.copy().last_changes()
    while pos.ply_count():
        m = pos.last_code()
        assert pos.pop_code() == m
    assert pos == Position.start(variant) and pos.hash_history() == [pos.hash]
    assert pos.last_code() == 0 and pos.last_changes() == []


def test_encode_rejects_points_off_the_board_by_the_variants_size() -> None:
    pos = Position.start("xiangqi")
    with pytest.raises(EngineError) as info:
        pos.encode(Move(9, 0, 8, 0))  # file j is off a 9-file board
    assert info.value.code == "move.off_board"
    assert Position.start("feidan").encode(Move(10, 0, 10, 1)) == (10 << 8) | 21


def test_board_size_is_read_from_the_variant_not_assumed() -> None:
    # every shipped board is 10 ranks high; a table 9 high shows that the FEN, the point
    # names and the move codes read the height from the variant
    short = VARIANTS["xiangqi"].with_changes(name="short", height=9)
    board = [0] * (9 * 9)
    board[4], board[8 * 9 + 4] = KING, KING | BLACK  # the generals on e0 and e8
    pos = Position(short, board, True)
    assert pos.fen() == "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1"
    assert pos.king("black") == "e8" and pos.square("e8") == 76
    with pytest.raises(EngineError) as info:
        pos.square("e9")
    assert info.value.code == "position.bad_square"
    with pytest.raises(EngineError) as info:
        pos.encode(Move(4, 8, 4, 9))
    assert info.value.code == "move.off_board"
    assert Position.start("xiangqi").encode(Move(4, 8, 4, 9)) == (76 << 8) | 85


def test_attacked_and_attackers_name_the_checking_pieces() -> None:
    fen, general = IN_CHECK["feidan"]
    pos = Position.from_fen("feidan", fen)
    ksq = pos.square(general)
    assert pos.attacked(ksq, 0) and not pos.attacked(ksq, BLACK)
    assert sorted(pos.square_name(s) for s in pos.attackers(ksq, 0)) == pos.checkers() == ["f2"]


def test_lines_and_legs_scans_lines_and_legs_towards_a_point() -> None:
    # red chariot and cannon on the black general's file, a red horse two legs away
    pos = Position.from_fen("xiangqi", "4k4/9/9/9/4C4/9/3N5/9/4R4/4K4 b - - 0 1")
    ksq = pos.square("e9")
    rays = pos.g.rays[ksq]
    line, cannon, legs = pos.lines_and_legs(ksq, 0)
    down = next(d for d, ray in enumerate(rays) if pos.square("e8") in ray)
    assert [pos.square_name(rays[down][i]) for i in (line[down], cannon[down])] == ["e1", "e5"]
    assert all(line[d] == -1 for d in range(len(rays)) if d != down)
    assert legs == set()  # the horse on d3 is not where a horse attacks e9 from
    near = Position.from_fen("xiangqi", "4k4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1")
    _, _, legs = near.lines_and_legs(ksq, 0)
    assert {near.square_name(s) for s in legs} == {"d8"}
    # the general on the file (behind a soldier here) counts only when asked
    file = Position.from_fen("xiangqi", "4k4/9/9/9/4P4/9/9/9/9/4K4 b - - 0 1")
    assert file.lines_and_legs(ksq, 0)[0][down] == -1
    assert file.square_name(rays[down][file.lines_and_legs(ksq, 0, True)[0][down]]) == "e0"


# ----------------------------------------------------------------------
# nothing outside engine/position.py reads Position's private members

SCANNED = ("engine", "core", "puzzles", "games", "tutorials", "accounts", "config")


def _private_names() -> set[str]:
    """Every ``_name`` member of ``Position``: its methods and the attributes its methods set."""
    tree = ast.parse((ROOT / "engine" / "position.py").read_text("utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Position")
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _reaches(path: Path, private: set[str], root: Path = ROOT) -> list[str]:
    found: list[tuple[int, str]] = []
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        attr = None
        if isinstance(node, ast.Attribute) and node.attr in private:
            owner = node.value
            # a class's own members are its business (other classes have a ``_legal`` too)
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                attr = node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in private
        ):
            attr = str(node.args[1].value)
        if attr is not None:
            found.append((node.lineno, f"{path.relative_to(root)}:{node.lineno}: .{attr}"))
    return [text for _, text in sorted(found)]


def test_the_private_member_list_is_read_from_the_class() -> None:
    private = _private_names()
    # a sample that must be there, so that an empty or broken list cannot pass
    assert {"_stack", "_legal", "_attacked_through", "_check_points", "_dead_general"} <= private
    assert not {"legal_codes", "push_code", "board", "kings"} & private


def test_no_module_outside_position_reads_a_private_member_of_position() -> None:
    private = _private_names()
    own = ROOT / "engine" / "position.py"
    found: list[str] = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path != own and "migrations" not in path.parts:
                found.extend(_reaches(path, private))
    assert found == []


def test_the_scan_finds_a_private_reach(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(pos, self):\n"
        "    pos._stack.pop()\n"
        "    getattr(pos, '_legal')\n"
        "    self._stack = []\n"
        "    pos.search._check_points()\n",
        "utf-8",
    )
    found = _reaches(sample, _private_names(), tmp_path)
    assert found == ["sample.py:2: ._stack", "sample.py:3: ._legal", "sample.py:5: ._check_points"]
