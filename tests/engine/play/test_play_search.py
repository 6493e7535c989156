"""The playing engine: legal moves always, mates found, budgets kept,
the rules respected inside the search, determinism for a seed."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from engine import (
    LEVELS,
    GameOverError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Position,
    UnknownVariantError,
    accepts_draw,
    bestmove,
    evaluate,
)
from engine.errors import EngineError
from engine.play import (
    CLASSIC_WEIGHTS,
    LEVEL_TABLE,
    MOVETIME_CAP_MS,
    Limits,
    level_limits,
    search_position,
)
from engine.play.search import (
    ALL_TECHNIQUES,
    DEFAULT_TECHNIQUES,
    TECHNIQUES,
    Searcher,
    continuation,
)

VARIANTS = ("xiangqi", "feidan", "xinban")


def budget(level: int) -> int:
    """The level's own node budget, passed explicitly: a search at a node
    budget is deterministic (the level's wall-clock cap is then off)."""
    return LEVEL_TABLE[level].nodes


def start(variant: str) -> str:
    return Position.start(variant).fen()


def middlegame(variant: str, seed: int, plies: int = 24) -> tuple[str, list[str]]:
    """A start position and random legal moves from it (the game not over)."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    moves: list[str] = []
    for _ in range(plies):
        legal = sorted(m.iccs() for m in pos.legal_moves)
        if not legal or pos.outcome() is not None:
            break
        mv = rng.choice(legal)
        pos.push_iccs(mv)
        if pos.outcome() is not None:
            pos.pop()
            break
        moves.append(mv)
    return pos.variant.start_fen(), moves


def after(variant: str, fen: str, moves: list[str]) -> Position:
    pos = Position.from_fen(variant, fen)
    for mv in moves:
        pos.push_iccs(mv)
    return pos


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [None, 1, 2, 3])
def test_always_a_legal_move_with_a_legal_line(variant: str, seed: int | None) -> None:
    fen, moves = (start(variant), []) if seed is None else middlegame(variant, seed)
    pos = after(variant, fen, moves)
    for level in (1, 5, 8):
        found = bestmove(variant, fen, moves, level=level, nodes=1500)
        assert Move.from_iccs(found.move) in pos.legal_moves
        assert found.pv[0] == found.move
        replay = pos.copy()
        for mv in found.pv:
            replay.push(Move.from_iccs(mv))  # raises if any pv move is illegal
        assert found.nodes <= 1500


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_tiny_budget_still_gives_a_legal_move(variant: str) -> None:
    found = bestmove(variant, start(variant), nodes=1)
    assert Move.from_iccs(found.move) in Position.start(variant).legal_moves
    assert found.nodes <= 1


MATE_IN_ONE = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"  # b0b9 mates, a8b8 stalemates (a win)


@pytest.mark.parametrize("level", list(LEVELS))
def test_mate_in_one_at_every_level(level: int) -> None:
    found = bestmove("xiangqi", MATE_IN_ONE, level=level, nodes=budget(level))
    assert found.move in {"b0b9", "a8b8"}
    outcome = after("xiangqi", MATE_IN_ONE, [found.move]).outcome()
    assert outcome is not None and outcome.winner == "red"
    assert found.mate == 1
    assert found.score is None
    assert found.to_json()["score"] == {"mate": 1}


def test_mate_in_two_from_the_classics() -> None:
    # 双孙扶老 (橘中秘): g8g9, then g9f9 mates whatever Black does
    fen = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
    found = bestmove("xiangqi", fen, level=8, nodes=budget(8))
    assert found.move == "g8g9"
    assert found.mate == 2
    assert len(found.pv) == 3


def test_the_mated_side_reports_a_negative_mate() -> None:
    # Black to move, mated next move whatever it does
    fen = "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1"
    found = bestmove("xiangqi", fen, ["g8g9"], level=8, nodes=budget(8))
    assert found.mate == -1


# -- the rules inside the search ---------------------------------------------


XQ_CHECKS = "h0h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9 h8h9"
FD_CHECKS = "j0j9 f9f8 j9j8 f8f9 j8j9 f9f8 j9j8 f8f9 j8j9"


@pytest.mark.parametrize(
    ("variant", "fen", "line"),
    [
        ("xiangqi", "4k4/9/9/9/9/9/9/9/9/3K3R1 w - - 0 1", XQ_CHECKS),
        ("xinban", "4k4/9/9/9/9/9/9/9/9/3K3R1 w - - 0 1", XQ_CHECKS),
        ("feidan", "5k5/11/11/11/11/11/11/11/11/4K4R1 w - - 0 1", FD_CHECKS),
    ],
)
def test_it_refuses_to_complete_a_perpetual_check(variant: str, fen: str, line: str) -> None:
    *moves, losing = line.split()  # the last check repeats a position a third time
    pos = after(variant, fen, moves)
    pos.push_iccs(losing)
    assert pos.outcome() is not None and pos.outcome().termination == "perpetual_check"
    for level in (1, 8):
        found = bestmove(variant, fen, moves, level=level, nodes=budget(level))
        assert found.move != losing
        played = after(variant, fen, [*moves, found.move])
        outcome = played.outcome()
        assert outcome is None or outcome.winner == "red"


def test_it_varies_rather_than_lose_by_forced_variation_in_xinban() -> None:
    fen = "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1"
    moves = ["d0e1", "d9e8", "e1d0", "e8d9", "d0e1", "d9e8", "e1d0"]
    pos = after("xinban", fen, moves)
    pos.push_iccs("e8d9")
    assert pos.outcome() is not None and pos.outcome().termination == "forced_variation"
    for level in (1, 8):
        found = bestmove("xinban", fen, moves, level=level, nodes=budget(level))
        assert found.move != "e8d9"
    # in xiangqi the same repetition is only a draw, which a bare-kings side may take
    assert bestmove("xiangqi", fen, moves, level=8, nodes=budget(8)).move in {
        m.iccs() for m in after("xiangqi", fen, moves).legal_moves
    }


def test_it_delivers_a_dead_general_in_feidan() -> None:
    # the missile slides into the palace next to the general, whose
    # advisors block its escape: 死将 however the advisors could collide
    fen = "4aka4/M10/11/11/11/11/11/11/11/4K6 w - - 0 1"
    found = bestmove("feidan", fen, level=8, nodes=budget(8))
    assert found.move == "a8f8"
    assert found.mate == 1
    pos = after("feidan", fen, ["a8f8"])
    assert pos.status() == "dead_general"


def test_it_exploits_a_defection_in_xinban() -> None:
    # the chariot would only take the turncoat chariot; the horse makes it
    # defect, and Red gains a chariot on b3
    fen = "3aka3/9/9/9/2+r6/9/1N7/9/9/2R2K3 w - - 0 1"
    found = bestmove("xinban", fen, level=8, nodes=budget(8))
    assert found.move == "b3c5"
    pos = Position.from_fen("xinban", fen)
    assert pos.move_effect(Move.from_iccs("b3c5")).kind == "defection"


def test_it_values_collisions_by_what_they_remove_in_feidan() -> None:
    # Red's missile could hit Black's soldier, but both would vanish (600
    # for 100); Red's cannon takes Black's missile over the horse and survives
    fen = "5k5/11/2m8/11/11/11/2N8/2C8/5A5/5K5 w - - 0 1"
    pos = Position.from_fen("feidan", fen)
    assert pos.move_effect(Move.from_iccs("c2c7")).kind == "cannon_takes_missile"
    found = bestmove("feidan", fen, level=8, nodes=5000)
    assert found.move == "c2c7"
    fen = "5k5/11/11/2p8/11/2M8/11/11/5A5/5K5 w - - 0 1"
    pos = Position.from_fen("feidan", fen)
    assert pos.move_effect(Move.from_iccs("c4c6")).kind == "collision"
    found = bestmove("feidan", fen, level=8, nodes=5000)
    assert found.move != "c4c6"


# -- budgets and determinism ---------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_node_budget_is_kept(variant: str) -> None:
    fen, moves = middlegame(variant, 7)
    for budget in (50, 700, 3000):
        found = bestmove(variant, fen, moves, nodes=budget)
        assert 0 < found.nodes <= budget


def test_the_time_budget_stops_the_search() -> None:
    fen, moves = middlegame("feidan", 5)
    found = bestmove("feidan", fen, moves, level=8, nodes=10_000_000, movetime_ms=300)
    assert found.nodes < 10_000_000  # stopped by the clock, not the node budget
    assert found.depth >= 1
    assert Move.from_iccs(found.move) in after("feidan", fen, moves).legal_moves


def test_a_level_has_a_wall_clock_cap_that_an_explicit_budget_replaces() -> None:
    capped = level_limits(8)
    assert capped.nodes == LEVEL_TABLE[8].nodes
    assert capped.movetime_ms == MOVETIME_CAP_MS
    # an explicit node budget is deterministic: no clock
    assert level_limits(8, nodes=5000).movetime_ms is None
    assert level_limits(8, movetime_ms=300).movetime_ms == 300
    assert level_limits(8, movetime_ms=300).nodes == LEVEL_TABLE[8].nodes
    both = level_limits(3, nodes=700, movetime_ms=50)
    assert (both.nodes, both.movetime_ms) == (700, 50)


def test_the_cap_stops_a_level_at_its_last_completed_iteration() -> None:
    # a 1 ms time budget at level 8's own node budget: the clock stops the
    # search long before the nodes run out, and a legal move still comes back
    fen, moves = middlegame("xiangqi", 3)
    found = bestmove("xiangqi", fen, moves, level=8, movetime_ms=1)
    assert found.nodes < LEVEL_TABLE[8].nodes
    assert found.depth >= 0
    assert Move.from_iccs(found.move) in after("xiangqi", fen, moves).legal_moves
    assert found.pv[0] == found.move


def test_the_time_budget_counts_from_the_callers_start() -> None:
    # a budget that ran out before the search began: the first look at the
    # clock (after 64 nodes) stops it, and a legal move still comes back
    fen, moves = middlegame("xinban", 4)
    pos = after("xinban", fen, moves)
    limits = Limits(nodes=1_000_000, movetime_ms=100)
    found = search_position(pos, limits, started=time.perf_counter() - 10.0)
    assert found.nodes == 64
    assert Move.from_iccs(found.move) in pos.legal_moves


def test_levels_rise_in_budget_and_fall_in_noise() -> None:
    for level in list(LEVELS)[1:]:
        lower, upper = LEVEL_TABLE[level - 1], LEVEL_TABLE[level]
        assert upper.nodes >= 2 * lower.nodes
        assert upper.depth >= lower.depth
        assert upper.noise < lower.noise or upper.noise == 0
    assert LEVEL_TABLE[8].noise == 0


def test_without_check_extensions_a_check_is_searched_no_deeper() -> None:
    # Red's chariot checks at once; with the extension the replies to the
    # check are searched one ply further, which costs nodes
    fen = "4k4/4a4/4b4/9/9/9/9/9/9/R2AK4 w - - 0 1"
    pos = Position.from_fen("xiangqi", fen)
    on = search_position(pos, Limits(depth=2, quiescence=False))
    off = search_position(pos, Limits(depth=2, quiescence=False, extensions=False))
    assert on.nodes > off.nodes > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_deterministic_for_a_seed(variant: str) -> None:
    fen, moves = middlegame(variant, 11)
    for level in (1, 3, 8):
        a = bestmove(variant, fen, moves, level=level, seed=5, nodes=2000)
        b = bestmove(variant, fen, moves, level=level, seed=5, nodes=2000)
        assert a == b


def test_the_seed_changes_the_low_levels_choices() -> None:
    played = set()
    for seed in range(8):
        played.add(bestmove("xiangqi", start("xiangqi"), level=1, seed=seed, nodes=budget(1)).move)
    assert len(played) >= 2


# -- bad input -------------------------------------------------------------------


def test_bad_input_raises_the_engines_errors() -> None:
    with pytest.raises(UnknownVariantError):
        bestmove("chess", start("xiangqi"))
    with pytest.raises(InvalidFenError):
        bestmove("xiangqi", "not a fen")
    with pytest.raises(InvalidMoveError):
        bestmove("xiangqi", start("xiangqi"), ["h2"])
    with pytest.raises(IllegalMoveError):
        bestmove("xiangqi", start("xiangqi"), ["h2e2", "h9g7", "a0a5"])
    with pytest.raises(EngineError):
        bestmove("xiangqi", start("xiangqi"), level=0)
    with pytest.raises(EngineError):
        bestmove("xiangqi", start("xiangqi"), nodes=0)
    with pytest.raises(EngineError):
        bestmove("xiangqi", start("xiangqi"), movetime_ms=-5)
    with pytest.raises(EngineError):
        bestmove("xiangqi", start("xiangqi"), "h2e2")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variant", "fen", "moves", "termination"),
    [
        ("xiangqi", "1R1k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", [], "checkmate"),
        ("xiangqi", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", [], "stalemate"),
        ("feidan", "4k6/11/11/11/11/11/11/5m4R/11/4AKA4 w - - 0 1", [], "dead_general"),
        (
            "xiangqi",
            "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1",
            ["d0e1", "d9e8", "e1d0", "e8d9", "d0e1", "d9e8", "e1d0", "e8d9"],
            "repetition",
        ),
        ("xiangqi", "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 120 70", [], "natural_limit"),
    ],
)
def test_a_finished_game_raises_game_over(
    variant: str, fen: str, moves: list[str], termination: str
) -> None:
    with pytest.raises(GameOverError) as caught:
        bestmove(variant, fen, moves)
    assert caught.value.outcome.termination == termination
    assert isinstance(caught.value, EngineError)
    with pytest.raises(GameOverError):
        evaluate(variant, fen, moves)
    with pytest.raises(GameOverError):
        accepts_draw(variant, fen, moves)


# -- evaluation and draw offers ---------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_start_is_about_level(variant: str) -> None:
    assert abs(evaluate(variant, start(variant))) < 100


def test_evaluate_sees_material_and_a_hanging_piece() -> None:
    # Red is a chariot up
    assert evaluate("xiangqi", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1") > 700
    assert evaluate("xiangqi", "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1") < -700
    # Black's chariot hangs to Red's: after the capture Red is a chariot up
    assert evaluate("xiangqi", "3k5/9/9/9/r8/9/9/9/9/R3K4 w - - 0 1") > 700


def test_a_turncoat_is_worth_less_to_its_owner() -> None:
    plain = evaluate("xinban", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    turncoat = evaluate("xinban", "3k5/9/9/9/9/9/9/9/9/+R3K4 w - - 0 1")
    assert 0 < turncoat < plain


def test_a_missile_in_the_palace_is_mortal_danger() -> None:
    outside = evaluate("feidan", "4k6/11/11/11/11/11/11/11/m10/5K5 w - - 0 1")
    inside = evaluate("feidan", "4k6/11/11/11/11/11/11/11/4m6/5K5 w - - 0 1")
    assert inside < outside - 200


def test_draw_offers() -> None:
    # the side to move, a chariot down, accepts; a chariot up, declines
    assert accepts_draw("xiangqi", "3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1")
    assert not accepts_draw("xiangqi", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert not accepts_draw("xiangqi", start("xiangqi"), level=3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_computer_accepts_a_draw_with_bare_generals(variant: str) -> None:
    # neither side can give mate: an even position with no attacking material
    fen = {
        "xiangqi": "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "feidan": "4k6/11/11/11/11/11/11/11/11/5K5 w - - 0 1",
        "xinban": "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    }[variant]
    assert accepts_draw(variant, fen, level=8)
    assert accepts_draw(variant, fen, level=1)


def test_level_one_makes_a_beginners_mistake_the_others_do_not() -> None:
    # the horse on a5 is protected by the chariot on a9: taking it loses the chariot
    fen = "r4k3/9/9/9/n8/9/9/9/9/R3K4 w - - 0 1"
    for seed in range(3):
        assert bestmove("xiangqi", fen, level=1, seed=seed, nodes=budget(1)).move == "a0a5"
        for level in (2, 3, 8):
            assert (
                bestmove("xiangqi", fen, level=level, seed=seed, nodes=budget(level)).move != "a0a5"
            )


@pytest.mark.parametrize("variant", VARIANTS)
def test_excluded_root_moves_are_not_searched(variant: str) -> None:
    """The best of the other moves, as the analysis board's second and third lines."""
    fen, moves = middlegame(variant, 5)
    pos = after(variant, fen, moves)
    limits = level_limits(8, nodes=20_000)
    first = search_position(pos, limits)
    second = search_position(pos, limits, exclude={first.move})
    third = search_position(pos, limits, exclude={first.move, second.move})
    assert len({first.move, second.move, third.move}) == 3
    for found in (second, third):
        assert Move.from_iccs(found.move) in pos.legal_moves
        assert found.pv[0] == found.move


def test_excluding_every_move_is_refused() -> None:
    pos = Position.from_fen("xiangqi", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    every = {m.iccs() for m in pos.legal_moves}
    with pytest.raises(EngineError) as refused:
        search_position(pos, level_limits(8, nodes=1_000), exclude=every)
    assert refused.value.code == "play.all_excluded"


# -- the search's techniques (engine.play.search.TECHNIQUES) ---------------------------------


@pytest.mark.parametrize("name", sorted(TECHNIQUES))
def test_every_technique_keeps_the_mates(name: str) -> None:
    """With all techniques and with each left out, the classic mate in 2 and a
    feidan dead general are found: pruning and reductions never hide a forced win."""
    for techniques in (ALL_TECHNIQUES, ALL_TECHNIQUES & ~TECHNIQUES[name]):
        limits = replace(level_limits(8, nodes=budget(8)), techniques=techniques)
        pos = Position.from_fen("xiangqi", "3ak4/4aPP2/b8/9/9/9/9/9/9/4K4 w - - 0 1")
        found = search_position(pos, limits)
        assert (found.move, found.mate) == ("g8g9", 2)


def test_a_losing_capture_is_ordered_after_the_quiet_moves() -> None:
    # the chariot on e4 may take the soldier on e6, which the cannon on e9 defends
    # (with the horse on e7 as its screen): a chariot for a soldier loses
    pos = Position.from_fen("xiangqi", "4ck3/9/4n4/4p4/9/4R4/9/9/9/3K5 w - - 0 1")
    searcher = Searcher(pos, level_limits(8, nodes=1000))
    captures = [m for m in pos.legal_codes() if pos.board[m & 255]]
    take = next(m for m in captures if pos.square_name(m & 255) == "e6")
    order = searcher.order(list(pos.legal_codes()), 0, 0)
    assert order[-1] == take
    assert searcher.losing(take, searcher.gain(take))
    without = Searcher(pos, replace(level_limits(8, nodes=1000), techniques=0))
    assert not without.losing(take, without.gain(take))
    assert without.order(list(pos.legal_codes()), 0, 0)[0] == take


def test_an_even_trade_is_not_a_losing_capture() -> None:
    # the cannon on e2 takes the horse on e7 (screen on e5), which the general on e8 defends:
    # a cannon for a horse is about even, so it is searched like any capture
    pos = Position.from_fen("xiangqi", "9/4k4/4n4/9/4p4/9/9/4C4/9/3K5 w - - 0 1")
    searcher = Searcher(pos, level_limits(8, nodes=1000))
    take = next(m for m in pos.legal_codes() if pos.square_name(m & 255) == "e7")
    assert not searcher.losing(take, searcher.gain(take))


@pytest.mark.parametrize("variant", VARIANTS)
def test_aspiration_windows_keep_the_search_deterministic_and_legal(variant: str) -> None:
    fen, moves = middlegame(variant, 21)
    pos = after(variant, fen, moves)
    legal = {m.iccs() for m in pos.legal_moves}
    for techniques in (ALL_TECHNIQUES, ALL_TECHNIQUES & ~TECHNIQUES["aspiration"]):
        limits = replace(level_limits(8, nodes=30_000, seed=3), techniques=techniques)
        a = search_position(pos, limits)
        b = search_position(pos, limits)
        assert a == b
        assert a.move in legal and (a.mate is not None or a.depth >= 5)


# Red's horse e4-c5 attacks Black's chariot on b7; only a chariot move that leaves the horse's
# reach saves it (Black has nothing to capture)
HORSE_ATTACKS_CHARIOT = ("3k5/9/1r7/9/9/4N4/9/9/9/4K4 w - - 0 1", "e4c5")


def after_the_attack(techniques: int) -> Searcher:
    fen, attack = HORSE_ATTACKS_CHARIOT
    pos = Position.from_fen("xiangqi", fen)
    searcher = Searcher(pos, replace(level_limits(8, nodes=100_000), techniques=techniques))
    searcher.make(pos.encode(Move.from_iccs(attack)))
    return searcher


def test_the_counter_move_table_records_the_quiet_refutation_of_the_last_move() -> None:
    searcher = after_the_attack(ALL_TECHNIQUES)
    # a window only a saved chariot reaches: the first escape searched cuts off
    score = searcher.search(2, 100, 300, 1)
    assert score >= 300
    refutation = searcher.counters[searcher.played[-1]]
    pos = searcher.pos
    assert pos.square_name(refutation >> 8) == "b7" and not pos.board[refutation & 255]
    assert pos.square_name(refutation & 255) not in ("a6", "b3", "d7", "a7")
    # it is recorded under the horse's move to c5, nothing else is
    assert [i for i, m in enumerate(searcher.counters) if m] == [searcher.played[-1]]
    assert searcher.played[-1] & 255 == pos.encode(Move.from_iccs("e4c5")) & 255


def test_the_counter_move_is_ordered_after_the_killers_before_the_other_quiet_moves() -> None:
    searcher = after_the_attack(ALL_TECHNIQUES)
    quiet = sorted(searcher.pos.legal_codes())
    counter, k1, k2 = quiet[0], quiet[1], quiet[2]  # the lowest codes: last by history alone
    searcher.killers[1] = [k1, k2]
    searcher.counters[searcher.played[-1]] = counter
    assert searcher.order(list(quiet), 0, 1)[:3] == [k1, k2, counter]
    assert searcher.order(list(quiet), quiet[5], 1)[:4] == [quiet[5], k1, k2, counter]


def test_without_the_counter_move_bit_no_counter_move_is_kept_or_ordered() -> None:
    without = ALL_TECHNIQUES & ~TECHNIQUES["counter-moves"]
    searcher = after_the_attack(without)
    searcher.search(2, 100, 300, 1)
    assert not any(searcher.counters)
    searcher = after_the_attack(without)
    quiet = sorted(searcher.pos.legal_codes())
    searcher.counters[searcher.played[-1]] = quiet[0]
    assert searcher.order(list(quiet), 0, 1)[-1] == quiet[0]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["counter-moves", "continuation-history", "deeper-entries"])
def test_the_ordering_and_table_techniques_keep_the_search_deterministic(
    variant: str, name: str
) -> None:
    """The same position and node budget give the same search, with the technique and without."""
    fen, moves = middlegame(variant, 17)
    pos = after(variant, fen, moves)
    legal = {m.iccs() for m in pos.legal_moves}
    for techniques in (
        DEFAULT_TECHNIQUES | TECHNIQUES[name],
        DEFAULT_TECHNIQUES & ~TECHNIQUES[name],
    ):
        limits = replace(level_limits(8, nodes=20_000, seed=2), techniques=techniques)
        found = search_position(pos, limits)
        assert found == search_position(pos, limits)
        assert found.move in legal


def test_the_continuation_history_rewards_the_refutation_and_punishes_the_moves_before_it() -> None:
    searcher = after_the_attack(ALL_TECHNIQUES)
    previous = searcher.played[-1]
    board = searcher.pos.board
    searcher.search(2, 100, 300, 1)
    refutation = searcher.counters[previous]
    after_horse = continuation(previous, 0, 0)
    rewarded = {k: v for k, v in searcher.follow.items() if k >> 12 == after_horse >> 12}
    cut = continuation(previous, board[refutation >> 8], refutation)
    assert rewarded.pop(cut) > 0
    # every other reply to the horse's move that was tried there failed: each lost history
    assert rewarded and all(v < 0 for v in rewarded.values())


def test_the_continuation_history_orders_the_quiet_replies_to_the_last_move() -> None:
    searcher = after_the_attack(ALL_TECHNIQUES)
    previous = searcher.played[-1]
    board = searcher.pos.board
    quiet = sorted(searcher.pos.legal_codes())
    best = quiet[0]  # the lowest code: last by history alone
    searcher.follow[continuation(previous, board[best >> 8], best)] = 1000
    assert searcher.order(list(quiet), 0, 1)[0] == best
    # the move's own history still counts beside it
    searcher.hist[quiet[1]] = 2000
    assert searcher.order(list(quiet), 0, 1)[:2] == [quiet[1], best]
    without = after_the_attack(ALL_TECHNIQUES & ~TECHNIQUES["continuation-history"])
    without.follow[continuation(previous, board[best >> 8], best)] = 1000
    assert without.order(list(quiet), 0, 1)[-1] == best
    without.search(2, 100, 300, 1)
    assert without.follow == {continuation(previous, board[best >> 8], best): 1000}


def test_deeper_entries_store_a_position_in_its_pair_over_the_shallower_entry() -> None:
    pos = Position.start("xiangqi")
    searcher = Searcher(pos, replace(level_limits(8, nodes=1000), techniques=ALL_TECHNIQUES))
    slot = 6
    assert searcher.tt_slot(99, slot) == slot  # both empty
    searcher.tt[slot] = (11, 5, 0, 0, 0)
    assert searcher.tt_slot(99, slot) == slot ^ 1  # the other one is empty
    searcher.tt[slot ^ 1] = (12, 2, 0, 0, 0)
    assert searcher.tt_slot(99, slot) == slot ^ 1  # over the shallower (depth 2, not 5)
    assert searcher.tt_slot(12, slot) == slot ^ 1  # a position stays where it is
    assert searcher.tt_slot(11, slot) == slot
    searcher.tt[slot ^ 1] = (12, 7, 0, 0, 0)
    assert searcher.tt_slot(99, slot) == slot


def test_deeper_entries_find_a_position_stored_in_the_other_slot_of_its_pair() -> None:
    """A position the table holds in the second slot of its pair still gives its move and
    score: a cutoff from the table, no node searched below it."""
    pos = Position.start("xiangqi")
    limits = replace(level_limits(8, nodes=10_000), techniques=ALL_TECHNIQUES)
    searcher = Searcher(pos, limits)
    key = searcher.pos.hash
    slot = key & searcher.tt_mask
    move = sorted(searcher.pos.legal_codes())[0]
    searcher.tt[slot] = (key ^ 1 << 40, 9, 0, 0, 0)  # another position, deeper
    searcher.tt[slot ^ 1] = (key, 6, 0, 123, move)  # exact, 6 plies
    assert searcher.search(5, 0, 1, 0) == 123
    assert searcher.nodes == 1


# (variant, seed of the random middlegame, move, score, depth, nodes, line) at 6,000 nodes with
# no techniques and the hand-written tables, as the engine before the counter moves, the
# continuation history and the paired table gave them
WITHOUT_TECHNIQUES = [
    ("xiangqi", 4, "f3f9", -428, 4, 6000, "f3f9 e9f9 d4d9 f9f8 d9d8 f8f9 i0i3"),
    ("xiangqi", 9, "e2g4", 48, 4, 6000, "e2g4 g8f8 c2f2 i5i4 h0g2"),
    ("feidan", 4, "d2c2", 58, 3, 6000, "d2c2 c6c0 c2c9"),
    ("feidan", 9, "b4b9", 1591, 5, 6000, "b4b9 i6i3 h3g6 f9e9 i2i9 i3k3"),
    ("xinban", 4, "e1e0", -355, 4, 6000, "e1e0 h9g7 d4d5 c9e7 f3f5"),
    ("xinban", 9, "d2d7", 431, 6, 6000, "d2d7 g7f5 d7h7 f5g3 h0g2 c7e8 a1a6"),
]


@pytest.mark.parametrize(
    ("variant", "seed", "move", "score", "depth", "nodes", "line"), WITHOUT_TECHNIQUES
)
def test_without_techniques_the_search_is_the_one_the_lessons_were_proved_against(
    variant: str, seed: int, move: str, score: int, depth: int, nodes: int, line: str
) -> None:
    """``techniques=0`` with ``CLASSIC_WEIGHTS`` (the lessons' computer) is the old search move
    for move: no newer technique's bit changes it."""
    fen, moves = middlegame(variant, seed)
    found = bestmove(
        variant, fen, moves, level=8, nodes=6000, techniques=0, weights=CLASSIC_WEIGHTS
    )
    assert (found.move, found.score, found.depth, found.nodes, " ".join(found.pv)) == (
        move,
        score,
        depth,
        nodes,
        line,
    )


def test_the_techniques_a_match_did_not_show_to_help_are_off_by_default() -> None:
    assert Limits().techniques == DEFAULT_TECHNIQUES
    assert DEFAULT_TECHNIQUES & TECHNIQUES["continuation-history"]
    off = TECHNIQUES["counter-moves"] | TECHNIQUES["deeper-entries"]
    assert not DEFAULT_TECHNIQUES & off
    assert DEFAULT_TECHNIQUES | off == ALL_TECHNIQUES
