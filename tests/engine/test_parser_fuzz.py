"""Hostile input for the engine's three readers: FEN, ICCS and Chinese notation.

Whatever text comes in, each reader either returns a value that writes back to the same text
(or to text that reads back the same), or raises its own error (``InvalidFenError``,
``InvalidMoveError``, ``IllegalMoveError``, ``AmbiguousMoveError``): never anything else.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    VARIANTS,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Position,
    UnknownVariantError,
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VARIANT_NAMES = sorted(VARIANTS)
START_FENS = [fen for variant in VARIANTS.values() for _name, fen in variant.starts]
FEN_ALPHABET = "rnbakcpfmRNBAKCPFM+/0123456789 wb-x"
CHINESE_ALPHABET = (
    "帅将仕士相象马车炮兵卒战机导弹帥將俥傌砲包機彈"
    "一二三四五六七八九十123456789１２３４５６７８９"
    "进退平前中后+-=.车马 "
)


def any_text(alphabet: str, max_size: int) -> st.SearchStrategy[str]:
    """Text from the reader's own alphabet, mixed with any unicode at all."""
    return st.one_of(
        st.text(alphabet=alphabet, max_size=max_size),
        st.text(max_size=max_size),
    )


@st.composite
def mutated_fen(draw: st.DrawFn) -> str:
    """A real start FEN with a few characters replaced, inserted or deleted."""
    fen = list(draw(st.sampled_from(START_FENS)))
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(fen)))
        action = draw(st.sampled_from(["replace", "insert", "delete"]))
        char = draw(st.sampled_from(FEN_ALPHABET))
        if action == "insert" or index == len(fen):
            fen.insert(index, char)
        elif action == "replace":
            fen[index] = char
        else:
            del fen[index]
    return "".join(fen)


@st.composite
def random_board_fen(draw: st.DrawFn) -> str:
    """Ten ranks of random pieces and gaps, with a side to move."""
    ranks = draw(st.lists(st.text(alphabet=FEN_ALPHABET[:19] + "123", max_size=12),
                          min_size=9, max_size=11))  # fmt: skip
    return "/".join(ranks) + " " + draw(st.sampled_from(["w", "b", "r", "x"])) + " - - 0 1"


@FUZZ
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    fen=st.one_of(mutated_fen(), random_board_fen(), any_text(FEN_ALPHABET, 120)),
)
def test_fen_reader_raises_only_invalid_fen(variant: str, fen: str) -> None:
    try:
        position = Position.from_fen(variant, fen)
    except InvalidFenError as error:
        assert error.fen == fen and error.reason
        return
    # Accepted: the position is usable and writes a FEN that reads back to itself.
    written = position.fen()
    assert Position.from_fen(variant, written).fen() == written
    list(position.legal_moves)
    position.outcome()


@FUZZ
@given(name=st.text(max_size=20).filter(lambda name: name not in VARIANTS))
def test_unknown_variant_raises_only_unknown_variant(name: str) -> None:
    try:
        Position.start(name)
    except UnknownVariantError as error:
        assert repr(name) in str(error)
    else:
        raise AssertionError(f"{name!r} was taken for a variant")


@FUZZ
@given(text=st.one_of(any_text("abcdefghijkl0123456789-", 8), st.text(max_size=30)))
def test_iccs_reader_raises_only_invalid_move(text: str) -> None:
    try:
        move = Move.from_iccs(text)
    except InvalidMoveError as error:
        assert error.text == text
        return
    assert Move.from_iccs(move.iccs()) == move


@FUZZ
@given(
    start=st.sampled_from([(v.name, fen) for v in VARIANTS.values() for _n, fen in v.starts]),
    text=any_text(CHINESE_ALPHABET, 8),
)
def test_move_reader_raises_only_move_errors(start: tuple[str, str], text: str) -> None:
    variant, fen = start
    position = Position.from_fen(variant, fen)
    try:
        move = position.parse_move(text)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        return
    assert move in position.legal_moves
    # Written back in Chinese, the move reads back to itself.
    assert position.parse_move(position.chinese(move)) == move


@FUZZ
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    moves=st.lists(st.sampled_from(["h2e2", "h9g7", "b0c2", "a0a1", "e3e4", "i9i8"]), max_size=6),
    text=any_text(CHINESE_ALPHABET, 8),
)
def test_move_reader_after_play_raises_only_move_errors(
    variant: str, moves: list[str], text: str
) -> None:
    """The same in positions reached by play (where pieces share files, 前/后 matter)."""
    position = Position.start(variant)
    for iccs in moves:
        move = Move.from_iccs(iccs)
        if move in position.legal_moves:
            position.push(move)
    try:
        move = position.parse_move(text)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        return
    assert move in position.legal_moves


@FUZZ
@given(
    variant=st.sampled_from(VARIANT_NAMES),
    fen=st.one_of(mutated_fen(), random_board_fen(), any_text(FEN_ALPHABET, 120)),
)
def test_the_one_pass_board_reader_reads_what_the_careful_reader_reads(
    variant: str, fen: str
) -> None:
    """The FEN reader's fast path (one pass over tables) and its careful reader (rank by rank,
    naming the reason) agree: the fast path reads a board exactly when the careful reader
    accepts it, into the same points and pieces."""
    from engine.fen import _read_board, _read_ranks, _tables
    from engine.variants import find_variant

    table = find_variant(variant)
    field = fen.split()[0] if fen.split() else ""
    fast = _read_board(_tables(table), field)
    rows = field.split("/")
    try:
        careful = _read_ranks(fen, table, rows) if len(rows) == 10 else None
    except InvalidFenError:
        careful = None
    if careful is None:
        assert fast is None
    else:
        assert fast is not None
        assert fast[0] == careful[0]
        assert sorted(fast[1]) == sorted(careful[1])
