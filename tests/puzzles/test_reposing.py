"""A game's puzzle takes the answer of the proof among every move (puzzles.reposing,
docs/rules.md §10.1–10.2): a checks-only puzzle from a game is proved in full mode where that
proof decides, posed at the shorter mate a quiet move gives, gone when another first move mates
as fast, and left checks-only only while the full proof is undecided; mining asks the same
question before it keeps a checks-only mate. The positions are the bank's own, as they stood
when they were checks-only puzzles. No database needed."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Position
from puzzles import proving
from puzzles.bankfile import read_bank
from puzzles.mining import Candidate, MiningStats, bank_key, examine_master
from puzzles.reposing import (
    COOKED,
    FULL,
    SHORTER,
    UNDECIDED,
    from_a_game,
    repose_entry,
)

# xiangqi-7972b22beeded077 was a mate in 3 by checks (ccpd:22101, ply 44: d8d9 first); among
# every move the horse's e7c8 (前马进七), which gives no check, mates in 2.
QUIET_MATE_SOONER = "1rbak4/1C1Ra2r1/2n1N4/p3NR2p/9/2P4n1/P3P1p1P/4CA3/3K4c/c4A3 w - - 1 23"
# xiangqi-34fb72fa108c4808 (ccpd:18968, ply 96): a mate in 3 by checks whose key d8d9 is one of
# six first moves that mate in 3 among every move.
MANY_KEYS = "1R1ak1b2/3Pa4/5P1nr/5N3/2b6/8p/8P/4B4/4A4/2BK1A3 w - - 42 49"


def gives_check(fen: str, iccs: str) -> bool:
    position = Position.from_fen("xiangqi", fen)
    position.push(position.parse_move(iccs))
    return position.is_check()


def checks_only_entry(fen: str, n: int, **extra: Any) -> dict[str, Any]:
    """A checks-only game puzzle as the bank kept it before (its proof among the checks)."""
    result = proving.prove(
        variant="xiangqi", fen=fen, goal="mate", moves_to_win=n, mode=proving.CHECKS_ONLY
    )
    assert result.sound and result.proof is not None
    return {
        "key": bank_key(variant="xiangqi", fen=fen, goal="mate", moves_to_win=n),
        "variant": "xiangqi",
        "fen": fen,
        "goal": "mate",
        "moves_to_win": n,
        "mode": proving.CHECKS_ONLY,
        "themes": ["mate_in_3", "checks_only"],
        "main_line": result.main_line,
        "proof": result.proof,
        "source": "game",
        "origin": "master",
        "source_game": "ccpd:1",
        "ply": 40,
        **extra,
    }


def test_a_checks_only_game_puzzle_that_a_quiet_move_mates_sooner_asks_for_that_mate() -> None:
    entry = checks_only_entry(QUIET_MATE_SOONER, 3)
    done = repose_entry(entry)
    assert done.outcome == SHORTER and done.moves_to_win == 2
    new = done.entry
    assert new is not None and new["mode"] == proving.FULL and new["moves_to_win"] == 2
    assert new["main_line"][0] == "e7c8" and not gives_check(QUIET_MATE_SOONER, "e7c8")
    assert new["key"] == bank_key(
        variant="xiangqi", fen=QUIET_MATE_SOONER, goal="mate", moves_to_win=2
    )
    assert new["key"] != entry["key"]
    assert "checks_only" not in new["themes"]
    # the game it came from stays with it
    assert (new["source_game"], new["ply"], new["origin"]) == ("ccpd:1", 40, "master")
    again = proving.prove(variant="xiangqi", fen=QUIET_MATE_SOONER, goal="mate", moves_to_win=2)
    assert again.sound and again.key_moves == ["e7c8"]


def test_a_checks_only_game_puzzle_with_other_winning_first_moves_goes() -> None:
    done = repose_entry(checks_only_entry(MANY_KEYS, 3))
    assert done.outcome == COOKED and done.entry is None
    assert "d8d9" in done.reason and "f7e7" in done.reason


def test_a_checks_only_game_puzzle_left_undecided_stays_as_it_was() -> None:
    entry = checks_only_entry(MANY_KEYS, 3)
    done = repose_entry(entry, nodes=50)
    assert done.outcome == UNDECIDED and done.entry is entry


def test_a_checks_only_puzzle_that_is_unique_among_every_move_is_proved_so() -> None:
    entry = next(e for e in read_bank() if e["key"] == "xiangqi-24c4032de498dfd0")
    assert entry["mode"] == proving.FULL  # a checks-only mate in 5 before, the same in full
    fen, n = entry["fen"], entry["moves_to_win"]
    done = repose_entry(checks_only_entry(fen, n))
    assert done.outcome == FULL and done.entry is not None
    assert done.entry["key"] == entry["key"] and done.entry["mode"] == proving.FULL


def test_the_classics_composed_as_checks_only_problems_stay_so() -> None:
    bank = read_bank()
    classics = [e for e in bank if e.get("source") == "classic" and e["mode"] == "checks_only"]
    assert classics and not any(from_a_game(e) for e in classics)


def test_mining_poses_a_checks_only_mate_that_a_quiet_move_beats_at_the_shorter_length() -> None:
    candidate = Candidate(
        variant="xiangqi", fen=QUIET_MATE_SOONER, goal="mate", origin="master", ply=40
    )
    puzzle = examine_master(candidate, max_moves=7, seed=1, stats=MiningStats())
    assert puzzle is not None
    assert (puzzle.moves_to_win, puzzle.mode, puzzle.main_line[0]) == (2, proving.FULL, "e7c8")


def test_mining_keeps_no_checks_only_mate_that_quiet_moves_also_give() -> None:
    candidate = Candidate(variant="xiangqi", fen=MANY_KEYS, goal="mate", origin="master", ply=40)
    assert examine_master(candidate, max_moves=7, seed=1, stats=MiningStats()) is None


@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_no_checks_only_game_puzzle_of_the_bank_has_a_shorter_mate_among_every_move(
    variant: str,
) -> None:
    """The quick look (a small budget each) finds none; a mate it cannot see in time is the
    re-posing's business (manage.py repose_bank), whose budget is far larger."""
    asked = [e for e in read_bank() if from_a_game(e) and e["variant"] == variant]
    shorter = []
    for entry in asked:
        n = entry["moves_to_win"]
        found = proving.find_win(
            variant=variant,
            fen=entry["fen"],
            goal=entry["goal"],
            max_moves=n - 1,
            nodes=20_000,
        )
        if found:
            shorter.append((entry["key"], found))
    assert shorter == []
