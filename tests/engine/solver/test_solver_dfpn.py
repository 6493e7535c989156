"""The proof-number prover (``algorithm="dfpn"``) against the depth-first
one: the same status, length and key moves on the hand-built positions
(every status, every variant, the repetition and natural-limit rules), on a
sample of the shipped bank and of the classical problems each run, and
within a small memory bound.

The sample changes from day to day (its seed is in the test id; set
``DFPN_SAMPLE_SEED`` to replay one). ``bench/prover_bench.py --compare``
runs the comparison over everything.
"""

import datetime
import json
import os
import random
from pathlib import Path

import pytest

from engine import Position
from engine.solver import Budget, SolverInputError, find_win, prover, solve
from engine.solver.dfpn import ENTRY_BYTES, DfpnSearch
from engine.solver.prover import DFPN_FROM, DFPN_FROM_WIN, Phases, _search, _solve_search
from engine.solver.search import OutOfBudget, Search
from tests.engine.solver.test_solver_statuses import (
    EVERY_STATUS,
    MATE_IN_FIVE,
    PERPETUAL,
    QUIET_COOK,
    QUIET_KEY,
    STATED_FOUR,
    TWO_KEYS,
)

DATA = Path(__file__).resolve().parents[3] / "puzzles" / "data"
BANK = json.loads((DATA / "bank.json").read_text("utf-8"))["puzzles"]
CLASSICS = json.loads((DATA / "classic-puzzles.json").read_text("utf-8"))["puzzles"]
SEED = int(os.environ.get("DFPN_SAMPLE_SEED", datetime.date.today().toordinal()))
# master games' mates in 4 of the mining runs: two keys (the depth-first search names h3g1
# first, df-pn f3e3), two keys, and a mate in 3 with three keys
COOKED_IN_FOUR = "C1bak4/4a4/4b3c/2P5p/9/N3P4/5r1nP/5A3/9/1R1AK4 b - - 2 34"
COOKED_IN_FOUR_TOO = "NRCk1a3/2n1a4/9/p1r5p/6p1c/9/9/4C3B/9/2BAKA3 w - - 1 28"
SHORTER_THAN_FOUR = "4ka3/3C4c/4ba3/4p4/2b6/4P4/1r7/N1n2A3/5p3/R2AK4 b - - 31 65"


def _both(variant: str, fen: str, goal: str, n: int, mode: str, **kw: object) -> tuple:
    proofs = [
        solve(Position.from_fen(variant, fen), goal, n, mode=mode, algorithm=alg, **kw)
        for alg in ("search", "dfpn")
    ]
    return tuple(proofs)


def _assert_agree(variant: str, fen: str, goal: str, n: int, mode: str) -> None:
    old, new = _both(variant, fen, goal, n, mode)
    assert new.status == old.status, fen
    assert new.moves_to_win == old.moves_to_win, fen
    assert set(new.key_moves) == set(old.key_moves), fen
    assert (new.tree is None) is (old.tree is None)
    if old.tree is not None and new.tree is not None:
        assert new.tree.distance == old.tree.distance
        assert set(new.tree.moves) == set(old.tree.moves)
        assert new.tree_complete


CASES = [(v, f, g, n, m) for v, f, g, n, _ in EVERY_STATUS for m in ("full", "checks_only")] + [
    ("xiangqi", PERPETUAL, "mate", 6, "full"),
    ("xiangqi", PERPETUAL, "mate", 5, "full"),
    ("xiangqi", QUIET_COOK, "mate", 2, "full"),
    ("xiangqi", QUIET_COOK, "mate", 2, "checks_only"),
    ("xiangqi", STATED_FOUR, "mate", 4, "checks_only"),
    ("xiangqi", MATE_IN_FIVE, "mate", 5, "checks_only"),
    ("xiangqi", QUIET_KEY.rsplit(" ", 2)[0] + " 117 60", "mate", 2, "full"),
    ("xiangqi", QUIET_KEY.rsplit(" ", 2)[0] + " 118 60", "mate", 2, "full"),
    ("xiangqi", TWO_KEYS.rsplit(" ", 2)[0] + " 119 60", "mate", 1, "full"),
]


@pytest.mark.parametrize(("variant", "fen", "goal", "n", "mode"), CASES)
def test_the_same_verdict_on_the_hand_built_positions(
    variant: str, fen: str, goal: str, n: int, mode: str
) -> None:
    _assert_agree(variant, fen, goal, n, mode)


def test_a_perpetual_check_is_judged_by_df_pn_itself() -> None:
    # Black's only defence is a perpetual check: its second occurrence is
    # not ruled a draw (the rules would punish Black), the line goes on and
    # the third occurrence loses for Black. df-pn decides it without the
    # exact search.
    pos = Position.from_fen("xiangqi", PERPETUAL)
    search = DfpnSearch(pos, "mate", False)
    assert search.distance(6) == 6
    assert search.fallbacks == 0
    assert search.distance(5) is None and search.fallbacks == 0
    proof = solve(pos, "mate", 6, algorithm="dfpn")
    assert proof.status == "sound_unique" and proof.key_moves == ("i3h5",)


# 填塞道路 (橘中秘): a stalemate in 9 with quiet moves on both sides, where
# the defender can walk back into a position of the line
SHUFFLE = "2b6/3k5/9/4P4/9/9/9/4C4/5K3/9 w - - 0 1"
# 副夺魁 (湖涯集): a mate in 7 with quiet moves
FU_DUO_KUI = "4ka3/3Pa4/b3b1CRN/9/6P2/9/9/2p1p4/4pp3/3K5 w - - 0 1"


def test_repetitions_are_judged_by_df_pn_itself() -> None:
    # "no win in 4": lines that come back to a position of the path are
    # ruled (a draw, so they fail for the attacker), the results that needed
    # such a ruling are kept under their path, and no question goes to the
    # depth-first search; it gives the same answer
    search = DfpnSearch(Position.from_fen("xiangqi", SHUFFLE), "win", False)
    assert search.attack_dfpn(4) is False
    assert search.fallbacks == 0
    assert search.cycles and not any(search.cycles.values())
    assert search.ptt
    assert Search(Position.from_fen("xiangqi", SHUFFLE), "win", False).attack(4) is False


def test_the_table_stays_within_its_memory_bound() -> None:
    pos = Position.from_fen("xiangqi", MATE_IN_FIVE)
    roomy = DfpnSearch(pos, "mate", False)
    assert roomy.entry_limit == 3 * 256 * 2**18 // ENTRY_BYTES
    assert roomy.distance(5) == 5 and roomy.purges == 0
    # a table far smaller than the search needs: it makes room, stays
    # within its bound and still gives the verdict
    small = DfpnSearch(pos, "mate", False, memory_mib=1)
    small.entry_limit = roomy._entries() // 4
    assert small.distance(5) == 5
    assert small.purges > 0 and small._entries() <= small.entry_limit


def test_the_rulings_of_cycles_stay_within_their_share() -> None:
    # 填塞道路 walks back into positions of the line: the rulings are a cache,
    # dropped when full, with the same verdict
    search = DfpnSearch(Position.from_fen("xiangqi", SHUFFLE), "win", False, memory_mib=1)
    assert search.cycle_limit < 256
    search.cycle_limit = 8
    assert search.attack_dfpn(4) is False
    assert 0 < len(search.cycles) <= 8


@pytest.mark.parametrize(("variant", "fen", "goal", "n", "mode"), CASES)
def test_the_first_moves_shown_to_fail_first_give_the_same_proof(
    variant: str, fen: str, goal: str, n: int, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with no nodes to look for a shorter win first, df-pn shows first which
    # first moves win at the length found, then that there is no shorter
    # win: the same proof as asking the other way round
    pos = Position.from_fen(variant, fen)
    if pos.status() != "ongoing":
        pytest.skip("the game is over")
    search = DfpnSearch(pos, goal, mode == "checks_only")
    plain = search.distance(n)
    keys = prover._winning_moves(search, plain) if plain else None
    monkeypatch.setattr(prover, "SHORTER_FIRST", 0)
    search = DfpnSearch(pos, goal, mode == "checks_only")
    shortest, winners = prover._shortest(search, n)
    assert shortest == plain
    if winners is not None:
        assert winners == keys
    monkeypatch.undo()
    new = solve(pos, goal, n, mode=mode, algorithm="dfpn")
    monkeypatch.setattr(prover, "SHORTER_FIRST", 0)
    first = solve(pos, goal, n, mode=mode, algorithm="dfpn")
    assert (first.status, first.moves_to_win) == (new.status, new.moves_to_win)
    assert first.key_moves[:1] == new.key_moves[:1]
    assert set(first.key_moves) == set(new.key_moves)
    assert (first.tree is None) is (new.tree is None)
    if first.tree is not None and new.tree is not None:
        assert (first.tree.distance, set(first.tree.moves)) == (
            new.tree.distance,
            set(new.tree.moves),
        )


def test_the_winning_first_moves_are_found_before_the_shorter_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 副夺魁 (湖涯集), mate in 7 with quiet moves, when the question "a mate in
    # 6?" gets no nodes of its own: the first moves are decided first (the
    # book's key alone), then that there is no mate in 6
    monkeypatch.setattr(prover, "SHORTER_FIRST", 0)
    pos = Position.from_fen("xiangqi", FU_DUO_KUI)
    search = DfpnSearch(pos, "mate", False)
    shortest, winners = prover._shortest(search, 7)
    assert shortest == 7 and winners is not None
    assert [pos.decode(m).iccs() for m in winners] == ["h7h1"]
    assert search.pos.fen() == pos.fen()


def test_a_capped_question_gives_up_and_goes_back_to_the_start() -> None:
    # 填塞道路 has no win in 4; showing it takes thousands of nodes
    pos = Position.from_fen("xiangqi", SHUFFLE)
    search = DfpnSearch(pos, "win", False, Budget(nodes=10_000_000))
    start = search.pos.fen()
    assert prover._capped(search, 4, 1000) is None
    assert 1000 <= search.nodes < 2000
    assert search.pos.fen() == start and search.node_limit == 10_000_000
    assert search.path == search.pos.hash_history()
    assert prover._capped(search, 4, 10_000_000) is False
    # within the whole budget: it runs out as before
    search = DfpnSearch(pos, "win", False, Budget(nodes=1000))
    with pytest.raises(OutOfBudget):
        prover._capped(search, 4, 100_000)


def test_find_win_agrees() -> None:
    for fen, n in ((MATE_IN_FIVE, 5), (STATED_FOUR, 4)):
        a = find_win(Position.from_fen("xiangqi", fen), "mate", n, mode="checks_only")
        b = find_win(
            Position.from_fen("xiangqi", fen), "mate", n, mode="checks_only", algorithm="dfpn"
        )
        assert (a.status, a.moves_to_win) == (b.status, b.moves_to_win)


def test_the_budget_still_holds() -> None:
    pos = Position.from_fen("xiangqi", MATE_IN_FIVE)
    proof = solve(pos, "mate", 5, Budget(nodes=2000), algorithm="dfpn")
    assert proof.status == "budget_exhausted"
    assert pos.fen() == Position.from_fen("xiangqi", MATE_IN_FIVE).fen()


def test_bad_algorithm_or_memory_is_an_error() -> None:
    pos = Position.from_fen("xiangqi", TWO_KEYS)
    with pytest.raises(SolverInputError, match="unknown algorithm"):
        solve(pos, "mate", 1, algorithm="mcts")
    with pytest.raises(SolverInputError, match="memory"):
        solve(pos, "mate", 1, algorithm="dfpn", memory_mib=0)


def _bank_sample() -> list:
    rng = random.Random(SEED)
    quick = [p for p in BANK if p["nodes"] <= 20_000]
    return [
        pytest.param(p, id=f"seed{SEED}-{p['key']}") for p in rng.sample(quick, min(12, len(quick)))
    ]


def _classic_sample() -> list:
    rng = random.Random(SEED + 1)
    picked = []
    for mode, longest, count in (("checks_only", 5, 5), ("full", 3, 3)):
        pool = [
            p for p in CLASSICS if p["mate_in"] <= longest and (mode == "full" or p["all_checks"])
        ]
        for p in rng.sample(pool, min(count, len(pool))):
            picked.append(pytest.param(p, mode, id=f"seed{SEED}-{mode}-{p['title'] or 'untitled'}"))
    return picked


@pytest.mark.parametrize("puzzle", _bank_sample())
def test_the_same_verdict_on_shipped_puzzles(puzzle: dict) -> None:
    _assert_agree(
        puzzle["variant"],
        puzzle["fen"],
        puzzle["goal"],
        puzzle["moves_to_win"],
        puzzle["mode"],
    )


@pytest.mark.parametrize(("puzzle", "mode"), _classic_sample())
def test_the_same_verdict_on_classics(puzzle: dict, mode: str) -> None:
    goal = "mate" if puzzle["ending"] == "checkmate" else "win"
    _assert_agree("xiangqi", puzzle["fen"], goal, puzzle["mate_in"], mode)


def test_auto_takes_the_depth_first_search_for_short_puzzles() -> None:
    pos = Position.from_fen("xiangqi", MATE_IN_FIVE)
    for mode, first in DFPN_FROM.items():
        assert type(_search(pos, "mate", first - 1, mode, None, "auto", 256)) is Search
        assert type(_search(pos, "mate", first, mode, None, "auto", 256)) is DfpnSearch
    for mode, first in DFPN_FROM_WIN.items():
        assert type(_search(pos, "win", first - 1, mode, None, "auto", 256)) is Search
        assert type(_search(pos, "win", first, mode, None, "auto", 256)) is DfpnSearch
    auto = solve(pos, "mate", 5, mode="checks_only")
    assert auto.status == solve(pos, "mate", 5, mode="checks_only", algorithm="search").status


def test_auto_decides_the_first_moves_of_a_full_mate_in_four_with_dfpn() -> None:
    pos = Position.from_fen("xiangqi", MATE_IN_FIVE)
    search, by_search = _solve_search(pos, "mate", 4, "full", None, "auto", 256)
    assert type(search) is DfpnSearch and by_search
    search, by_search = _solve_search(pos, "mate", 5, "full", None, "auto", 256)
    assert type(search) is DfpnSearch and not by_search
    for goal, n, mode in (("mate", 3, "full"), ("win", 4, "full"), ("mate", 4, "checks_only")):
        search, by_search = _solve_search(pos, goal, n, mode, None, "auto", 256)
        assert type(search) is Search and not by_search
    for algorithm in ("search", "dfpn"):
        search, by_search = _solve_search(pos, "mate", 4, "full", None, algorithm, 256)
        assert not by_search


@pytest.mark.parametrize("fen", [COOKED_IN_FOUR, COOKED_IN_FOUR_TOO, SHORTER_THAN_FOUR])
def test_auto_names_a_mate_in_four_s_keys_as_the_depth_first_search_does(fen: str) -> None:
    # the shortest win is the depth-first search's, so the key named first (and the second
    # key of a cook) is too; df-pn decides the other first moves
    pos = Position.from_fen("xiangqi", fen)
    auto = solve(pos, "mate", 4)
    old = solve(pos, "mate", 4, algorithm="search")
    verdict = (auto.status, auto.moves_to_win, auto.key_moves, auto.second_key, auto.reason)
    assert verdict == (old.status, old.moves_to_win, old.key_moves, old.second_key, old.reason)
    assert len(auto.key_moves) > 1
    assert auto.tree is not None and old.tree is not None
    assert auto.tree.moves == old.tree.moves and auto.tree_complete


def test_dfpn_alone_would_name_another_key_first() -> None:
    pos = Position.from_fen("xiangqi", COOKED_IN_FOUR)
    assert solve(pos, "mate", 4, algorithm="search").key_moves == ("h3g1", "f3e3")
    assert solve(pos, "mate", 4, algorithm="dfpn").key_moves == ("f3e3", "h3g1")


@pytest.mark.parametrize(
    ("fen", "goal", "n", "budget", "status"),
    [
        (COOKED_IN_FOUR, "mate", 4, None, "cooked"),
        (MATE_IN_FIVE, "mate", 5, None, "sound_unique"),
        (MATE_IN_FIVE, "mate", 3, None, "no_win"),
        (MATE_IN_FIVE, "mate", 5, Budget(nodes=600), "budget_exhausted"),
    ],
)
def test_the_work_of_each_phase_adds_up_to_the_proof_s(
    fen: str, goal: str, n: int, budget: Budget | None, status: str
) -> None:
    pos = Position.from_fen("xiangqi", fen)
    work = Phases()
    proof = solve(pos, goal, n, budget, phases=work)
    assert proof.status == status
    assert sum(work.nodes.values()) == proof.nodes
    assert work.nodes["shortest"] > 0
    assert (work.nodes["uniqueness"] > 0) is (status in ("cooked", "sound_unique"))
    assert (work.nodes["tree"] > 0) is (status in ("cooked", "sound_unique"))
    assert min(work.seconds.values()) >= 0
    plain = solve(pos, goal, n, budget)
    assert plain.to_data() | {"seconds": 0} == proof.to_data() | {"seconds": 0}


@pytest.mark.parametrize("halfmove", [0, 119])
def test_a_move_s_position_is_known_without_playing_it(halfmove: int) -> None:
    # df-pn reads the hash and key after a move without making it: they
    # must be those that playing the move gives, in every variant
    for variant in ("xiangqi", "feidan", "xinban"):
        pos = Position.start(variant)
        rng = random.Random(halfmove)
        for _ in range(30):
            pos.push_code(rng.choice(pos.legal_codes()))
        board = pos.fen().rsplit(" ", 2)[0]
        pos = Position.from_fen(variant, f"{board} {halfmove} 40")
        search = DfpnSearch(pos, "mate", False)
        pos = search.pos
        for m in pos.legal_codes():
            h = pos.hash_after(m)
            pos.push_code(m)
            assert h == pos.hash
            pos.pop_code()
        # the expansion: (move | (kind + 2) << 16, hash, key) for each move; with two
        # attacker moves left (``last``) the same moves, keys and ends, a check's kind 1
        full = search._generate_or(False)
        last = search._generate_or(True)
        for moves in (full, last):
            kinds = [(moves[i] >> 16) - 2 for i in range(0, len(moves), 3)]
            assert 0 in kinds or len(kinds) == len(pos.legal_codes())
            for i in range(0, len(moves), 3):
                code, h, key = moves[i : i + 3]
                m, kind = code & 0xFFFF, (code >> 16) - 2
                if kind in (0, -1):
                    continue  # the move ends the game
                pos.push_code(m)
                assert (h, key) == (pos.hash, search._pkey())
                assert (kind == -2) is search.over_limit()
                pos.pop_code()

        def outline(moves: list[int]) -> list[tuple[int, int]]:
            # each move with its kind, a first proof number counted as 1
            return [
                (moves[i] & 0xFFFF, min((moves[i] >> 16) - 2, 1)) for i in range(0, len(moves), 3)
            ]

        assert outline(full) == outline(last)
