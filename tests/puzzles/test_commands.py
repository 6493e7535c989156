"""The bank's commands: mining, proving the classical problems, re-proving a bank file."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from puzzles import proving
from puzzles.bankfile import book_move_to_iccs, read_bank, write_bank
from puzzles.mining import bank_key


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue()


def test_mining_writes_sound_puzzles_to_the_bank_file(tmp_path: Path) -> None:
    bank = tmp_path / "bank.json"
    output = run(
        "mine_puzzles", "--variant", "xiangqi", "--strategy", "sparse", "--count", "2",
        "--seed", "5", "--max-moves", "2", "--seconds", "60", "--max-one-movers", "0.5",
        "--output", str(bank),
    )  # fmt: skip
    entries = read_bank(bank)
    assert 1 <= len(entries) <= 2 and f"Wrote {bank}" in output
    assert all(e["proof"]["status"] == "sound_unique" for e in entries)
    assert sum(1 for e in entries if e["moves_to_win"] == 1) <= 1
    # The same seed again finds the same puzzles: those already in the bank are not added twice.
    run(
        "mine_puzzles", "--variant", "xiangqi", "--strategy", "sparse", "--count", "2",
        "--seed", "5", "--max-moves", "2", "--seconds", "60", "--max-one-movers", "0.5",
        "--output", str(bank),
    )  # fmt: skip
    after = read_bank(bank)
    assert {e["key"] for e in entries} <= {e["key"] for e in after}
    assert len({(e["fen"], e["goal"]) for e in after}) == len(after) <= 3
    assert "Every shipped puzzle is still sound" in run(
        "reprove_bank", "--bank", str(bank), "--jobs", "1"
    )


def test_classical_problems_are_proved_before_they_are_shipped(tmp_path: Path) -> None:
    bank = tmp_path / "bank.json"
    output = run("prove_classics", "--only", "0", "4", "--output", str(bank))
    entries = read_bank(bank)
    # Problem 0 (双孙扶老) is sound; problem 4 has two keys and stays out.
    assert [e["title"] for e in entries] == ["双孙扶老"] and "cooked" in output
    assert entries[0]["source"] == "classic" and "classic" in entries[0]["themes"]


def test_a_puzzle_that_no_longer_proves_fails_the_check(tmp_path: Path) -> None:
    bank = tmp_path / "bank.json"
    run("prove_classics", "--only", "0", "--output", str(bank))
    entry = read_bank(bank)[0]
    entry["moves_to_win"] = 3  # claims a length the prover will not confirm
    entry["proof"]["n"] = 3
    write_bank([entry], bank)
    with pytest.raises(CommandError, match="no longer prove sound"):
        run("reprove_bank", "--bank", str(bank), "--jobs", "1")


def test_book_moves_count_ranks_from_one() -> None:
    assert book_move_to_iccs("g9g10") == "g8g9"
    assert book_move_to_iccs("a1a10") == "a0a9"
    with pytest.raises(ValueError):
        book_move_to_iccs("炮二平五")


def test_a_seeded_sample_of_the_bank_is_re_proved_and_a_broken_one_is_named(
    tmp_path: Path,
) -> None:
    output = run("reprove_bank", "--sample", "10", "--seed", "3", "--jobs", "1")
    assert output.startswith("Re-proved 10 puzzles") and "still sound and unique" in output
    entries = read_bank()[:10]
    broken = dict(entries[0], moves_to_win=entries[0]["moves_to_win"] + 1)
    bank = tmp_path / "bank.json"
    write_bank([broken, *entries[1:]], bank)
    with pytest.raises(CommandError, match="1 shipped puzzle"):
        run("reprove_bank", "--bank", str(bank), "--sample", "10", "--seed", "3", "--jobs", "1")


def test_mining_leaves_out_a_puzzle_that_another_ones_line_reaches(tmp_path: Path) -> None:
    """Game 73 (index 72) gives a mate in 3 at ply 106; a mate in 2 already in the bank is its
    position after the key and the longest defence: the same puzzle, and the longer stays."""
    shorter = "5a3/3k5/2N1ba3/p1N6/2p3b2/3nC4/4P4/3AB4/4Ap3/c2K2B2 w - - 17 55"
    result = proving.prove(variant="xiangqi", fen=shorter, goal="mate", moves_to_win=2)
    assert result.sound
    entry = {
        "key": bank_key(variant="xiangqi", fen=shorter, goal="mate", moves_to_win=2),
        "variant": "xiangqi", "fen": shorter, "goal": "mate", "moves_to_win": 2,
        "mode": result.mode, "themes": [], "main_line": result.main_line, "proof": result.proof,
        "source": "mined", "origin": "sparse",
    }  # fmt: skip
    bank = tmp_path / "bank.json"
    write_bank([entry], bank)
    output = run(
        "mine_puzzles", "--variant", "xiangqi", "--strategy", "master", "--first", "72",
        "--games", "1", "--max-moves", "7", "--output", str(bank),
    )  # fmt: skip
    assert "1 puzzle(s) another puzzle's line reaches left out (0 new)" in output
    assert [(e.get("source_game"), e["moves_to_win"]) for e in read_bank(bank)] == [("ccpd:73", 3)]
