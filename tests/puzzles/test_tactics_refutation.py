"""The refutation of a wrong move in a tactics puzzle: the judge's answer holds the opponent's
best reply, found by the site's own engine on a small node budget in every variant, and why the
move fails in the reader's language; an engine that gives no reply still ends the try with the
plain "wrong"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings

from engine import EngineError, Move, Position
from puzzles.bankfile import write_bank
from puzzles.mining import bank_key
from puzzles.models import Goal, Puzzle, PuzzleAttempt, PuzzleLineResult
from puzzles.services import bank_load
from puzzles.tactics import answers, starting_rating, tactic_themes
from puzzles.tactics_bank import read_tactics
from puzzles.tactics_refutation import REFUTATION_NODES, refute

from .test_tactics import FORK, fork_entry

SHIPPED = read_tactics()


def _load(tmp_path: Path, entries: list[dict[str, Any]]) -> list[Puzzle]:
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank(entries, tactics)
    bank_load(bank, tactics)
    return list(Puzzle.objects.filter(goal=Goal.MATERIAL).order_by("pk"))


def _post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


def _wrong(client: Client, puzzle: Puzzle, move: str) -> tuple[int, dict[str, Any]]:
    """Open an attempt and play ``move`` as the solver's first move."""
    attempt = _post(client, f"/api/puzzles/{puzzle.pk}/attempts/", {}).json()["id"]
    answer = _post(client, f"/api/puzzles/{puzzle.pk}/judge/", {"attempt": attempt, "move": move})
    assert answer.status_code == 200, answer.content
    return attempt, answer.json()


def _a_wrong_move(entry: dict[str, Any]) -> str:
    """The first legal move (in ICCS order) the puzzle neither accepts nor calls also good."""
    step = entry["proof"]["steps"][0]
    position = Position.from_fen(entry["variant"], entry["fen"])
    return sorted(
        m.iccs() for m in position.legal_moves if m.iccs() not in step["accepted"] + step["good"]
    )[0]


def test_the_fork_s_wrong_move_is_answered_by_taking_the_horse(db: None, tmp_path: Path) -> None:
    (puzzle,) = _load(tmp_path, [fork_entry()])
    _, english = _wrong(Client(HTTP_ACCEPT_LANGUAGE="en"), puzzle, "f0f1")
    assert english["verdict"] == "wrong"
    (reply,) = english["refutation"]
    assert reply["iccs"] == "d6d2"  # the chariot takes the horse the king walked away from
    assert english["reason"] == (
        f"Not the right move: the opponent answers {reply['chinese']}, and you lose a horse."
    )
    _, chinese = _wrong(Client(HTTP_ACCEPT_LANGUAGE="zh-hans"), puzzle, "f0f1")
    assert chinese["refutation"] == english["refutation"]
    assert chinese["reason"] == f"不对：对方应以{reply['chinese']}，你反失一马。"


def test_the_reply_is_the_same_on_every_search() -> None:
    found = refute(variant="xiangqi", fen=FORK, moves=["d2c4"])
    assert found is not None
    assert [refute(variant="xiangqi", fen=FORK, moves=["d2c4"]) for _ in range(2)] == [found] * 2


def test_a_line_that_is_not_legal_is_refused_by_the_engine() -> None:
    with pytest.raises(EngineError):
        refute(variant="xiangqi", fen=FORK, moves=["a0a5"])  # no piece there
    with pytest.raises(EngineError):
        refute(variant="xiangqi", fen=FORK, moves=["f0f1"], nodes=0)


@pytest.mark.parametrize(
    ("won", "lost", "english", "chinese"),
    [
        ({}, {}, "and you win nothing.", "你什么也没赢到。"),
        ({"soldier": 1}, {}, "and you win only a soldier.", "你只得一卒。"),
        ({}, {"chariot": 1}, "and you lose a chariot.", "你反失一车。"),
        (
            {"horse": 1},
            {"chariot": 1},
            "and you win a horse but lose a chariot.",
            "你得一马，却失一车。",
        ),
    ],
)
def test_the_reason_says_what_the_reply_leaves_the_solver(
    won: dict[str, int], lost: dict[str, int], english: str, chinese: str
) -> None:
    from django.utils import translation

    from puzzles.selectors import tactic_refutation_text

    with translation.override("en"):
        said = tactic_refutation_text(reply="车二进四", side="red", won=won, lost=lost)
    assert said == f"Not the right move: the opponent answers 车二进四, {english}"
    with translation.override("zh-hans"):
        said = tactic_refutation_text(reply="车二进四", side="red", won=won, lost=lost)
    assert said == f"不对：对方应以车二进四，{chinese}"


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["xiangqi", "feidan", "xinban"])
def test_a_shipped_tactic_s_wrong_move_gets_a_legal_reply_and_its_reason(
    variant: str, tmp_path: Path
) -> None:
    entry = min((e for e in SHIPPED if e["variant"] == variant), key=lambda e: e["key"])
    (puzzle,) = _load(tmp_path, [entry])
    wrong = _a_wrong_move(entry)
    attempt, english = _wrong(Client(HTTP_ACCEPT_LANGUAGE="en"), puzzle, wrong)
    assert english["verdict"] == "wrong"
    assert english["move"]["iccs"] == wrong
    (reply,) = english["refutation"]
    after = Position.from_fen(variant, entry["fen"])
    after.push(Move.from_iccs(wrong))
    assert after.fen() == english["fen"]
    assert Move.from_iccs(reply["iccs"]) in after.legal_moves
    after.push(Move.from_iccs(reply["iccs"]))
    assert reply["fen"] == after.fen()
    assert english["reason"].startswith(
        f"Not the right move: the opponent answers {reply['chinese']}, and you "
    )
    assert not PuzzleAttempt.objects.get(pk=attempt).is_open  # the try is over
    # The reply is searched once a line: another solver's same move gets the kept answer.
    _, chinese = _wrong(Client(HTTP_ACCEPT_LANGUAGE="zh-hans"), puzzle, wrong)
    assert chinese["refutation"] == english["refutation"]
    assert chinese["reason"].startswith(f"不对：对方应以{reply['chinese']}，你")
    kept = PuzzleLineResult.objects.filter(puzzle=puzzle, kind=PuzzleLineResult.Kind.REFUTATION)
    assert kept.count() == 1 and kept.get().line == wrong


# --- in a run ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_streak_ends_on_a_tactic_s_wrong_move_with_the_engine_s_reply(tmp_path: Path) -> None:
    from django.utils import translation

    from accounts.owners import Owner
    from puzzles.services import runs

    (puzzle,) = _load(tmp_path, [fork_entry()])
    player = Owner(visitor_id="streaker")
    run, _ = runs.run_start(player=player, mode="streak", variant="xiangqi")
    with translation.override("en"):
        _, answer = runs.run_move(run_id=run.pk, player=player, move="f0f1", index=0, ply=0)
    assert answer.verdict == "wrong"
    assert [m.iccs for m in answer.refutation] == ["d6d2"]  # the chariot takes the horse
    reply = answer.refutation[0].chinese
    assert answer.explanation == (
        f"Not the right move: the opponent answers {reply}, and you lose a horse."
    )
    run.refresh_from_db()
    assert not run.is_open and run.end == "wrong"


@pytest.mark.django_db
def test_a_storm_goes_on_after_a_tactic_s_wrong_move_without_searching_a_reply(
    tmp_path: Path,
) -> None:
    from accounts.owners import Owner
    from puzzles.services import runs

    (puzzle,) = _load(tmp_path, [fork_entry()])
    player = Owner(visitor_id="stormer")
    run, _ = runs.run_start(player=player, mode="storm", variant="xiangqi")
    _, answer = runs.run_move(run_id=run.pk, player=player, move="f0f1", index=0, ply=0)
    assert answer.verdict == "wrong" and answer.seconds < 0
    assert answer.refutation == [] and answer.explanation == ""
    assert not PuzzleLineResult.objects.filter(kind=PuzzleLineResult.Kind.REFUTATION).exists()


# --- when the engine gives no reply ----------------------------------------------------------


@pytest.mark.django_db
@override_settings(PUZZLE_REFUTATION_NODES=0)  # the engine refuses a budget of no positions
def test_an_engine_error_ends_the_try_with_the_plain_wrong(tmp_path: Path) -> None:
    (puzzle,) = _load(tmp_path, [fork_entry()])
    for language, said in (("en", "does not win material"), ("zh-hans", "赢不到子力")):
        attempt, answer = _wrong(Client(HTTP_ACCEPT_LANGUAGE=language), puzzle, "f0f1")
        assert answer["verdict"] == "wrong" and answer["refutation"] == []
        assert said in answer["reason"]
        assert not PuzzleAttempt.objects.get(pk=attempt).is_open
    # Nothing is kept: the reply is searched again once the engine answers.
    assert not PuzzleLineResult.objects.filter(kind=PuzzleLineResult.Kind.REFUTATION).exists()
    with override_settings(PUZZLE_REFUTATION_NODES=REFUTATION_NODES):
        _, answer = _wrong(Client(), puzzle, "f0f1")
    assert [m["iccs"] for m in answer["refutation"]] == ["d6d2"]


# Two chariots against a bare general: b7b9 mates at once, which the puzzle does not ask for.
MATE = "4k4/R8/1R7/9/9/9/9/9/9/5K3 w - - 0 1"
MATE_LINE = ["b7b6"]
MATE_STEPS = [{"accepted": ["b7b6"], "good": []}]


def _mate_entry() -> dict[str, Any]:
    entry = {
        **fork_entry(),
        "key": bank_key(variant="xiangqi", fen=MATE, goal="material", moves_to_win=1),
        "fen": MATE,
        "moves_to_win": 1,
        "main_line": MATE_LINE,
        "proof": answers(fen=MATE, line=MATE_LINE, steps=MATE_STEPS),
    }
    entry["themes"] = tactic_themes(entry)
    entry["rating"] = starting_rating(
        fen=MATE, line=MATE_LINE, steps=MATE_STEPS, themes=entry["themes"]
    )
    return entry


def test_a_wrong_move_that_ends_the_game_has_no_reply(db: None, tmp_path: Path) -> None:
    assert refute(variant="xiangqi", fen=MATE, moves=["b7b9"]) is None
    (puzzle,) = _load(tmp_path, [_mate_entry()])
    attempt, answer = _wrong(Client(HTTP_ACCEPT_LANGUAGE="en"), puzzle, "b7b9")
    assert answer["verdict"] == "wrong" and answer["refutation"] == []
    assert answer["termination"] is not None
    assert "does not win material" in answer["reason"]
    assert not PuzzleAttempt.objects.get(pk=attempt).is_open
