"""Property tests (hypothesis, derandomized so every run is the same)."""

import importlib.util

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Position,
)
from engine.variants import BLACK

FIXED = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow],
)
FEW = settings(FIXED, max_examples=40)

VARIANTS = st.sampled_from(["xiangqi", "feidan", "xinban"])

REAL_FENS = [
    ("xiangqi", Position.start("xiangqi").fen()),
    ("feidan", Position.start("feidan").fen()),
    ("xinban", Position.start("xinban").fen()),
    ("xiangqi", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"),
    ("feidan", "m3k5m/11/11/11/11/11/10M/11/11/M4K5 w - - 0 1"),
    ("feidan", "6k3m/11/6a4/2C8/3F7/3B3B3/4m3C2/Nc3K5/4pA5/5R4M b - - 0 1"),
    ("xinban", "r4+C2+n/4+n4/1+r3k3/4P4/9/2C2+r2+N/9/2C6/9/n2K5 w - - 0 1"),
    ("xinban", "5k3/9/2+n6/9/p8/9/9/9/4A4/3K+R4 w - - 12 30"),
]

FEN_CHARACTERS = "kabnrcpfmKABNRCPFM+/0123456789 wbr-xX\t\n漢"


@st.composite
def games(draw: st.DrawFn) -> tuple[str, list[int]]:
    """A variant and a list of choices: the i-th legal move at each ply."""
    variant = draw(VARIANTS)
    choices = draw(st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
    return variant, choices


def play(variant: str, choices: list[int]) -> Position:
    pos = Position.start(variant)
    for choice in choices:
        moves = sorted(pos.legal_moves)
        if not moves:
            break
        pos.push(moves[choice % len(moves)])
    return pos


@FEW
@given(games())
def test_push_pop_round_trips_the_fen(game: tuple[str, list[int]]) -> None:
    variant, choices = game
    pos = Position.start(variant)
    fens = []
    for choice in choices:
        moves = sorted(pos.legal_moves)
        if not moves:
            break
        fens.append(pos.fen())
        pos.push(moves[choice % len(moves)])
    for fen in reversed(fens):
        pos.pop()
        assert pos.fen() == fen


@FEW
@given(games())
def test_fen_out_then_in_is_the_identity(game: tuple[str, list[int]]) -> None:
    pos = play(*game)
    again = Position.from_fen(pos.variant, pos.fen())
    assert again.fen() == pos.fen()
    assert again == pos
    assert again.hash == pos.hash
    assert sorted(again.legal_moves) == sorted(pos.legal_moves)


@FEW
@given(games())
def test_every_generated_move_is_accepted_by_push_iccs(game: tuple[str, list[int]]) -> None:
    pos = play(*game)
    fen = pos.fen()
    for move in list(pos.legal_moves):
        assert Move.from_iccs(move.iccs()) == move
        assert pos.push_iccs(move.iccs()) == move
        pos.pop()
    assert pos.fen() == fen


@FEW
@given(games())
def test_capture_codes_are_the_generated_moves_onto_enemy_pieces(
    game: tuple[str, list[int]],
) -> None:
    pos = play(*game)
    b = pos.board
    onto_enemy = [m for m in pos.pseudo_codes() if b[m & 255] and b[m & 255] & BLACK != pos.side]
    assert pos.capture_codes() == onto_enemy


@FEW
@given(games())
def test_last_changes_are_the_effects_of_the_move_played(game: tuple[str, list[int]]) -> None:
    pos = play(*game)
    history = pos.hash_history()
    for m in list(pos.legal_codes()):
        changes, _ = pos.effects(m)
        pos.push_code(m)
        assert pos.last_changes() == changes
        assert pos.hash_history()[:-1] == history
        pos.pop_code()
        assert pos.hash_history() == history


@FEW
@given(games())
def test_attacked_after_a_move_is_check_once_it_is_played(game: tuple[str, list[int]]) -> None:
    pos = play(*game)
    board = list(pos.board)
    enemy_king = pos.kings[(pos.side >> 5) ^ 1]
    for m in list(pos.legal_codes()):
        gives = pos.attacked_after(m, enemy_king, pos.side)
        assert pos.board == board
        pos.push_code(m)
        assert gives == pos.is_check()
        pos.pop_code()


@st.composite
def mutated_fens(draw: st.DrawFn) -> tuple[str, str]:
    variant, fen = draw(st.sampled_from(REAL_FENS))
    variant = draw(st.sampled_from([variant, variant, "xiangqi", "feidan", "xinban"]))
    text = fen
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap", "duplicate", "cut"]))
        i = draw(st.integers(min_value=0, max_value=max(len(text) - 1, 0)))
        char = draw(st.sampled_from(FEN_CHARACTERS))
        if kind == "delete":
            text = text[:i] + text[i + 1 :]
        elif kind == "insert":
            text = text[:i] + char + text[i:]
        elif kind == "replace":
            text = text[:i] + char + text[i + 1 :]
        elif kind == "cut":
            text = text[:i]
        else:
            board, _, rest = text.partition(" ")
            rows = board.split("/")
            a = draw(st.integers(min_value=0, max_value=len(rows) - 1))
            b = draw(st.integers(min_value=0, max_value=len(rows) - 1))
            if kind == "swap":
                rows[a], rows[b] = rows[b], rows[a]
            else:
                rows[a] = rows[b]
            text = "/".join(rows) + (" " + rest if rest else "")
    return variant, text


def check_fen_input(variant: str, text: object) -> None:
    try:
        pos = Position.from_fen(variant, text)  # type: ignore[arg-type]
    except InvalidFenError as exc:
        assert str(exc)
        assert "\n" not in str(exc).replace(repr(text), "")
        return
    # accepted: the position must be a usable one
    assert Position.from_fen(variant, pos.fen()).fen() == pos.fen()
    assert pos.status() in ("ongoing", "checkmate", "stalemate", "dead_general")
    list(pos.legal_moves)


@settings(FIXED, max_examples=400)
@given(mutated_fens())
def test_mutated_fens_raise_only_invalid_fen_error(case: tuple[str, str]) -> None:
    check_fen_input(*case)


@FIXED
@given(VARIANTS, st.text(max_size=120))
def test_random_text_as_a_fen_raises_only_invalid_fen_error(variant: str, text: str) -> None:
    check_fen_input(variant, text)


@FIXED
@given(VARIANTS, st.text(alphabet=FEN_CHARACTERS, max_size=120))
def test_fen_alphabet_soup_raises_only_invalid_fen_error(variant: str, text: str) -> None:
    check_fen_input(variant, text)


MOVE_TEXT = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="abcdefghijkl0123456789-+ ", max_size=7),
    st.text(alphabet="车马炮相象仕士帅将兵卒前中后进退平一二三四五六七八九123456789+", max_size=6),
)


@FIXED
@given(MOVE_TEXT)
def test_random_text_to_move_from_iccs_raises_only_invalid_move_error(text: str) -> None:
    try:
        move = Move.from_iccs(text)
    except InvalidMoveError:
        return
    assert Move.from_iccs(move.iccs()) == move


HAS_NOTATION = importlib.util.find_spec("engine.notation") is not None


@pytest.mark.skipif(not HAS_NOTATION, reason="Chinese notation is not there yet")
@FIXED
@given(st.sampled_from(REAL_FENS), MOVE_TEXT)
def test_random_text_to_parse_move_raises_only_the_move_errors(
    case: tuple[str, str], text: str
) -> None:
    pos = Position.from_fen(*case)
    try:
        move = pos.parse_move(text)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        return
    assert move in pos.legal_moves
