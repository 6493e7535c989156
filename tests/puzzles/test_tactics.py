"""Tactics puzzles (goal ``material``): the answers stored on each, judging without an engine,
the trainer's answers through the API ("also good, but not the best"), the Tactics / Mates
choice, the shipped tactics file, and loading it."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from engine import Move, Position
from puzzles import proving
from puzzles.bankfile import write_bank
from puzzles.models import Goal, Puzzle, PuzzleAttempt
from puzzles.services import bank_load
from puzzles.tactics import (
    answers,
    check_entry,
    judge,
    starting_rating,
    tactic_themes,
)
from puzzles.tactics_bank import read_tactics, tactics_added
from puzzles.themes import LABELS, MAX_TEACHING, cap_themes

# The horse forks the chariot and the cannon; d2c4 keeps a smaller edge ("also good").
FORK = "4k4/9/9/3r1c3/9/9/9/3N5/9/5K3 w - - 0 1"
LINE = ["d2e4", "d6d9", "e4f6"]
STEPS = [{"accepted": ["d2e4"], "good": ["d2c4"]}, {"accepted": ["e4f6"], "good": []}]


def fork_entry() -> dict[str, Any]:
    from puzzles.mining import bank_key

    entry = {
        "key": bank_key(variant="xiangqi", fen=FORK, goal="material", moves_to_win=2),
        "variant": "xiangqi",
        "fen": FORK,
        "goal": "material",
        "moves_to_win": 2,
        "mode": "judge",
        "main_line": LINE,
        "proof": answers(fen=FORK, line=LINE, steps=STEPS),
        "eval_before": 400,
        "eval_after": 420,
        "eval_mistake": 0,
        "source": "game",
        "source_game": "ccpd:1",
        "ply": 40,
        "origin": "master",
    }
    entry["themes"] = tactic_themes(entry)
    entry["rating"] = starting_rating(fen=FORK, line=LINE, steps=STEPS, themes=entry["themes"])
    return entry


# --- judging from the stored answers (no engine) --------------------------------------------


def test_the_line_is_judged_from_the_stored_answers() -> None:
    proof = fork_entry()["proof"]
    assert judge(proof, ["d2e4"]) == ("continue", "d6d9", "")
    assert judge(proof, ["d2e4", "d6d9", "e4f6"]) == ("solved", None, "")
    assert judge(proof, ["d2c4"]) == ("good", None, "tactics.also_good")
    assert judge(proof, ["d2f4"])[0] == "wrong"
    # A line that leaves the stored one (a defender's move the puzzle never plays) is wrong.
    assert judge(proof, ["d2e4", "d6d7", "e4f6"]) == ("wrong", None, "tactics.off_line")
    assert judge(proof, ["d2e4", "d6d9"])[0] == "wrong"  # ends with the defender's move


def test_the_prover_facade_judges_and_hints_a_tactics_puzzle_without_a_search() -> None:
    proof = fork_entry()["proof"]
    with translation.override("en"):
        good = proving.judge(proof=proof, moves=["d2c4"])
    assert good.verdict == "good" and "not the best" in good.reason
    assert proving.judge(proof=proof, moves=["d2e4"]).reply == "d6d9"
    assert proving.hint(proof=proof, moves=["d2e4", "d6d9"]).move == "e4f6"
    assert proving.hint(proof=proof, moves=[]).move == "d2e4"
    assert proving.main_line(proof) == LINE


def test_an_entry_is_checked_move_by_move() -> None:
    entry = fork_entry()
    assert check_entry(entry) == []
    broken = json.loads(json.dumps(entry))
    broken["proof"]["steps"][0]["accepted"] = ["d2c4"]
    broken["proof"]["steps"][0]["good"] = ["d2c4"]
    problems = check_entry(broken)
    assert any("not accepted" in p for p in problems)
    assert any("both accepted and good" in p for p in problems)
    illegal = json.loads(json.dumps(entry))
    illegal["proof"]["steps"][1]["good"] = ["e4e9"]
    assert any("e4e9 is not legal" in p for p in check_entry(illegal))
    short = json.loads(json.dumps(entry))
    short["moves_to_win"] = 3
    assert check_entry(short) == ["its line and steps do not match its length"]


def test_the_starting_rating_follows_what_the_line_asks() -> None:
    one = starting_rating(fen=FORK, line=["d2e4"], steps=STEPS[:1], themes=[])
    two = starting_rating(fen=FORK, line=LINE, steps=STEPS, themes=[])
    assert two > one  # a longer line
    quiet_free = starting_rating(
        fen=FORK, line=["d2e4"], steps=[{"accepted": ["d2e4"], "good": []}], themes=[]
    )
    assert one == quiet_free + 50  # one tempting also-good move
    assert starting_rating(fen=FORK, line=LINE, steps=STEPS, themes=["sacrifice"]) == two + 100


# --- the shipped tactics ----------------------------------------------------------------------

ALL_SHIPPED = read_tactics()
SHIPPED = [e for e in ALL_SHIPPED if e["variant"] == "xiangqi"]  # the variants': their own file


def test_a_new_run_adds_its_puzzles_to_the_shipped_ones() -> None:
    shipped = [fork_entry()]
    changed = {**fork_entry(), "rating": 1}  # the same position mined again
    other = {**fork_entry(), "key": "xiangqi-other"}
    assert tactics_added(shipped, [changed, other]) == [fork_entry(), other]
    assert tactics_added([], [other]) == [other]


def test_the_shipped_tactics_file_holds_puzzles() -> None:
    assert len(SHIPPED) >= 20
    assert {e["goal"] for e in ALL_SHIPPED} == {"material"}
    assert {e["variant"] for e in ALL_SHIPPED} == {"xiangqi", "feidan", "xinban"}


@pytest.mark.parametrize("entry", SHIPPED, ids=[e["key"] for e in SHIPPED])
def test_every_shipped_tactic_is_legal_and_answers_its_own_line(entry: dict[str, Any]) -> None:
    assert check_entry(entry) == []
    proof = entry["proof"]
    line = entry["main_line"]
    for end in range(1, len(line) + 1, 2):
        verdict, reply, _code = judge(proof, line[:end])
        last = end == len(line)
        assert verdict == ("solved" if last else "continue")
        assert reply == (None if last else line[end])
    for index, step in enumerate(proof["steps"]):
        assert line[2 * index] in step["accepted"]
    # The judge's evaluations and where it comes from.
    assert entry["eval_before"] >= 250 and entry["eval_after"] >= 250
    assert entry["source_game"].startswith("ccpd:") and entry["ply"] >= 10
    assert entry["gain"] >= 2
    assert entry["themes"][0] == "material"
    teaching = [t for t in cap_themes(entry["themes"]) if t not in LABELS]
    assert len(teaching) <= MAX_TEACHING
    assert 600 <= entry["rating"] <= 2800
    # The key is the only accepted move: an only-move puzzle.
    assert proof["steps"][0]["accepted"] == [line[0]]


def test_every_shipped_tactic_stands_in_its_game_at_its_ply() -> None:
    from puzzles.mining import master_games

    wanted = {int(e["source_game"].split(":")[1]): e for e in SHIPPED}
    found = 0
    first, last = min(wanted), max(wanted)
    for game in master_games(first - 1, last - first + 1):
        entry = wanted.get(game.id)
        if entry is None:
            continue
        position = Position.start("xiangqi")
        for text in game.moves[: entry["ply"]]:
            position.push(Move.from_iccs(text))
        assert position.fen().split(" ")[:2] == entry["fen"].split(" ")[:2], entry["key"]
        found += 1
    assert found == len(wanted)


@pytest.mark.django_db
def test_loading_puts_the_tactics_beside_the_mates(tmp_path: Path) -> None:
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([fork_entry()], tactics)
    assert bank_load(bank, tactics) == {"added": 1, "updated": 0, "retired": 0, "total": 1}
    assert bank_load(bank, tactics)["added"] == 0
    puzzle = Puzzle.objects.get(goal=Goal.MATERIAL)
    assert puzzle.status == Puzzle.Status.PUBLISHED and puzzle.source == Puzzle.Source.GAME
    assert {t.slug for t in puzzle.themes.all()} == {"material", "fork"}
    assert puzzle.source_game == "ccpd:1" and puzzle.source_ply == 40
    # The tactics file leaving: its puzzles are retired like any shipped puzzle.
    write_bank([], tactics)
    assert bank_load(bank, tactics)["retired"] == 1


@pytest.mark.django_db
def test_the_shipped_bank_loads_every_tactic() -> None:
    from puzzles.bankfile import read_bank

    counts = bank_load()
    assert counts["total"] == len(read_bank()) + len(ALL_SHIPPED)
    published = Puzzle.objects.filter(goal=Goal.MATERIAL, status="published").count()
    assert published == len(ALL_SHIPPED)


# --- the trainer: the API -------------------------------------------------------------------


@pytest.fixture
def tactic(db: None, tmp_path: Path) -> Puzzle:
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank([fork_entry()], tactics)
    bank_load(bank, tactics)
    return Puzzle.objects.get(goal=Goal.MATERIAL)


def _post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


def _play(client: Client, puzzle: Puzzle, attempt: int, move: str, ply: int) -> Any:
    url = f"/api/puzzles/{puzzle.pk}/judge/"
    return _post(client, url, {"attempt": attempt, "move": move, "ply": ply})


def test_the_trainer_says_also_good_and_lets_the_solver_try_again(tactic: Puzzle) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    attempt = _post(client, f"/api/puzzles/{tactic.pk}/attempts/", {}).json()["id"]
    good = _play(client, tactic, attempt, "d2c4", 0)
    assert good.status_code == 200, good.content
    answer = good.json()
    assert answer["verdict"] == "good" and answer["reply"] is None
    assert "not the best" in answer["reason"]
    stored = PuzzleAttempt.objects.get(pk=attempt)
    assert stored.moves == [] and stored.is_open  # not played: the try goes on
    best = _play(client, tactic, attempt, "d2e4", 0).json()
    assert best["verdict"] == "continue" and best["reply"]["iccs"] == "d6d9"
    solved = _play(client, tactic, attempt, "e4f6", 2).json()
    assert solved["verdict"] == "solved"
    assert PuzzleAttempt.objects.get(pk=attempt).moves == LINE


def test_the_trainer_says_also_good_in_chinese(tactic: Puzzle) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    attempt = _post(client, f"/api/puzzles/{tactic.pk}/attempts/", {}).json()["id"]
    answer = _play(client, tactic, attempt, "d2c4", 0).json()
    assert answer["verdict"] == "good" and "不是最好的" in answer["reason"]


def test_a_move_outside_the_margin_is_wrong_and_ends_the_try(tactic: Puzzle) -> None:
    client = Client()
    attempt = _post(client, f"/api/puzzles/{tactic.pk}/attempts/", {}).json()["id"]
    answer = _play(client, tactic, attempt, "f0f1", 0).json()
    assert answer["verdict"] == "wrong"
    assert not PuzzleAttempt.objects.get(pk=attempt).is_open
    bad = _play(client, tactic, attempt, "d2z9", 1)
    assert bad.status_code == 400


def test_the_trainer_chooses_tactics_or_mates(tactic: Puzzle, make_puzzle) -> None:
    mate = make_puzzle()
    client = Client()
    tactics = client.get("/api/puzzles/next/?variant=xiangqi&kind=tactics").json()
    mates = client.get("/api/puzzles/next/?variant=xiangqi&kind=mates").json()
    assert tactics["id"] == tactic.pk and tactics["goal"] == "material"
    assert mates["id"] == mate.pk
    assert client.get("/api/puzzles/next/?variant=feidan&kind=tactics").status_code == 404
    bad = client.get("/api/puzzles/next/?variant=xiangqi&kind=openings")
    assert bad.status_code == 400
    page = client.get("/puzzles/?kind=tactics")
    assert page.status_code == 200 and b'value="tactics" selected' in page.content


def test_streak_and_storm_mix_the_tactics_with_the_mates(tactic: Puzzle, make_puzzle) -> None:
    from puzzles.services.runs import _candidates

    mate = make_puzzle()
    for mode in ("streak", "storm"):
        assert {pk for _rating, pk in _candidates(mode, "xiangqi")} == {tactic.pk, mate.pk}


def test_a_tactic_in_a_run_says_also_good_and_the_run_goes_on(tactic: Puzzle, visitor) -> None:
    """In a storm as in the trainer, a move that keeps a smaller win is not played and not a
    miss: the player looks again; the only winning line solves the puzzle."""
    from puzzles.services import runs

    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    assert run.puzzles == [tactic.pk]

    def play(iccs: str) -> runs.RunMove:
        _moved, answer = runs.run_move(
            run_id=run.pk, player=visitor, move=iccs, index=run.index, ply=len(run.line)
        )
        run.refresh_from_db()
        return answer

    good = play("d2c4")
    assert (good.verdict, good.seconds, run.line, run.missed) == ("good", 0, [], [])
    answer = play("d2e4")
    assert answer.verdict == "continue" and answer.reply is not None
    assert answer.reply.iccs == "d6d9"
    assert play("e4f6").verdict == "solved"
    assert run.score == 1 and run.missed == []


def test_the_daily_puzzle_alternates_a_tactic_and_a_mate(tactic: Puzzle, make_puzzle) -> None:
    """Where a variant has tactics, its daily puzzle is a tactic on odd days and a mate on even
    ones; a day whose kind has no puzzle left takes the other kind."""
    from puzzles.services import daily_puzzles_choose
    from puzzles.services.daily import tactics_day

    mates = [make_puzzle(), make_puzzle()]
    odd = datetime.date.fromordinal(datetime.date(2027, 1, 1).toordinal() | 1)
    assert tactics_day(odd) and not tactics_day(odd + datetime.timedelta(days=1))
    chosen = []
    for day in range(3):
        (daily,) = [
            d
            for d in daily_puzzles_choose(date=odd + datetime.timedelta(days=day))
            if d.variant == "xiangqi"
        ]
        chosen.append(daily.puzzle_id)
    assert chosen[0] == tactic.pk
    assert set(chosen[1:]) == {m.pk for m in mates}  # no tactic left on the third day


def test_an_author_cannot_choose_the_material_goal(make_user) -> None:
    client = Client()
    client.force_login(make_user())
    made = _post(
        client,
        "/api/puzzles/authored/",
        {"variant": "xiangqi", "fen": FORK, "goal": "material", "moves_to_win": 1},
    )
    assert made.status_code == 400 and "goal" in json.dumps(made.json())
