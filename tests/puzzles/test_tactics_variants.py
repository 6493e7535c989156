"""Tactics puzzles of Missile and New-version Xiangqi (puzzles.tactics_mining with the
variants' profiles, judged by the site's own engine on its own games): the miner on small
games (several winning moves, a line that ends in a repetition, a judge that fails), the
material it counts, the shipped puzzles (each found again from its game, standing in its game
at its ply, kept by the second look), loading them and solving one of each through the API."""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from engine import Move, Position
from judge import Evaluation, Line
from judge.errors import JudgeTimeout
from judge.ours import OurEngine
from puzzles import selectors
from puzzles.bankfile import write_bank
from puzzles.models import Goal, Puzzle
from puzzles.selfplay import SelfplayGame, read_games, selfplay_path
from puzzles.services import bank_load
from puzzles.tactics import check_entry, judge, line_material, material_changed
from puzzles.tactics_bank import entries_from_log, read_tactics
from puzzles.tactics_mining import (
    PROFILES,
    Rejected,
    Stats,
    examine,
    game_history,
    game_positions,
    mine_game,
    mine_games,
    read_log,
)

VARIANTS = ("feidan", "xinban")
SHIPPED = [e for e in read_tactics() if e["variant"] in VARIANTS]


def _quick(variant: str) -> Any:
    """The variant's profile on small budgets, for positions that need no depth."""
    return dataclasses.replace(
        PROFILES[variant], nodes=30_000, screen_nodes=10_000, recheck_nodes=0
    )


# --- the miner --------------------------------------------------------------------------------

# Red, pieces up, can take the loose horse on a5 or the loose cannon: two moves win.
TWO_WINS = {
    "xinban": "2bakab2/4r4/9/9/n7c/9/9/1C5C1/9/RN1K3NR w - - 0 1",
    "feidan": "3bakab3/3r7/11/11/n9c/11/11/1C7C1/11/RN2K4NR w - - 0 1",
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_position_with_several_winning_moves_is_no_puzzle(variant: str) -> None:
    fen = TWO_WINS[variant]
    positions = [(40, fen.replace(" w ", " b ")), (41, fen)]
    with pytest.raises(Rejected, match="not_only"):
        examine("test", positions, 1, OurEngine(), Stats(), _quick(variant))


class ScriptedJudge:
    """A judge that answers from a script: {(fen, moves): [(move, cp), ...]}, best first; any
    other position gets its first legal move at 0. ``fail_after`` evaluations, it times out
    (an outside engine that no longer answers)."""

    name = "scripted"
    label = "scripted"

    def __init__(self, script: dict[tuple[str, tuple[str, ...]], list[tuple[str, int]]],
                 fail_after: int | None = None) -> None:  # fmt: skip
        self.script = script
        self.fail_after = fail_after
        self.calls = 0

    def plays(self, variant: str) -> bool:
        return True

    def evaluate(self, *, variant: str, fen: str, moves: Sequence[str] = (), nodes: int,
                 multipv: int = 1, stop: Callable[[], bool] | None = None,
                 only: Sequence[str] = ()) -> Evaluation:  # fmt: skip
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise JudgeTimeout(self.name, 1.0)
        position = Position.from_fen(variant, fen)
        for text in moves:
            position.push(Move.from_iccs(text))
        answer = self.script.get((fen, tuple(moves)))
        if answer is None:
            answer = [(next(iter(position.legal_moves)).iccs(), 0)]
        lines = tuple(Line(moves=(move,), cp=cp, mate=None) for move, cp in answer[:multipv])
        return Evaluation(engine=self.name, turn=position.turn, lines=lines, depth=1, nodes=nodes)


# The chariot goes i0-i1-i0 and the black horse a9-b7-a9: the game has played the round once,
# and the line plays it again, so its last move brings the start back for the third time.
ROUND = ["i0i1", "a9b7", "i1i0", "b7a9"]
START = "n2k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1"


def _round_game(result: str = "1-0") -> SelfplayGame:
    return SelfplayGame(
        n=0, variant="xinban", setup="test", fen=START, levels=(8, 8), seed=0,
        moves=tuple(ROUND), result=result, end="test",
    )  # fmt: skip


def _round_script() -> dict[tuple[str, tuple[str, ...]], list[tuple[str, int]]]:
    # At the start come round again, the judge sees a win that only the round keeps, and
    # nothing won on the way.
    again = list(game_positions(_round_game()))[4][1]
    return {
        (again, ()): [("i0i1", 500), ("i0h0", 0)],
        (again, ("i0i1",)): [("a9b7", -500)],
        (again, ("i0i1", "a9b7")): [("i1i0", 500), ("i1h1", 0)],
        (again, ("i0i1", "a9b7", "i1i0")): [("b7a9", -500)],
    }


def test_a_line_that_ends_in_a_repetition_is_no_puzzle() -> None:
    game = _round_game()
    positions = list(game_positions(game))
    assert positions[-1][1].split(" ")[:2] == START.split(" ")[:2]  # the start, a second time
    history = game_history(game, 4)
    with pytest.raises(Rejected, match="ends_game"):
        examine("test", positions, 4, ScriptedJudge(_round_script()), Stats(),
                PROFILES["xinban"], history)  # fmt: skip
    # Without the game's moves the same line repeats nothing yet: the judge is asked on.
    with pytest.raises(Rejected) as why:
        examine("test", positions, 4, ScriptedJudge(_round_script()), Stats(), PROFILES["xinban"])
    assert str(why.value) == "win_fades"


def test_a_judge_that_fails_while_examining_costs_the_candidate_only(tmp_path: Path) -> None:
    game = _round_game()
    # The scan (five positions) sees the candidate at the end; then the judge stops answering.
    script = _round_script()
    judge_ = ScriptedJudge(script, fail_after=5)
    profile = dataclasses.replace(PROFILES["xinban"], first_ply=1)
    stats = Stats()
    assert mine_game(game, judge_, stats, profile=profile) == []
    assert stats.rejected == {"judge: JudgeTimeout": 1}


def test_a_judge_that_fails_while_scanning_stops_the_run_and_the_log_resumes(
    tmp_path: Path,
) -> None:
    log = tmp_path / "run.jsonl"
    draw = _round_game("1/2-1/2")  # a draw: for the winner's moves alone, no search
    later = dataclasses.replace(_round_game(), n=1)
    profile = dataclasses.replace(PROFILES["xinban"], first_ply=1, winner_only=True)
    with pytest.raises(JudgeTimeout):
        mine_games([draw, later], ScriptedJudge({}, fail_after=0), log, profile=profile)
    assert [r["game"] for r in read_log(log)] == [0]  # the failed game is not marked done
    mine_games([draw, later], ScriptedJudge(_round_script()), log, profile=profile)
    assert [r["game"] for r in read_log(log)] == [0, 1]


def test_the_command_mines_the_engine_games_of_a_variant_and_resumes(tmp_path: Path) -> None:
    shortest = min(read_games(selfplay_path("xinban")), key=lambda g: len(g.moves))
    log = tmp_path / "xinban.jsonl"
    call_command("mine_tactics", variant="xinban", first=shortest.n, games=1, log=log)
    (record,) = read_log(log)
    assert record["game"] == shortest.n
    # Plies 9 to the one before the mate (the mate is no position to judge).
    assert record["stats"]["positions"] == len(shortest.moves) - 9
    call_command("mine_tactics", variant="xinban", first=shortest.n, games=1, log=log)
    assert len(read_log(log)) == 1  # not mined twice


def test_the_command_judges_the_bank_again_and_drops_a_key_that_is_not_the_only_win(
    tmp_path: Path,
) -> None:
    """``mine_tactics --recheck``: every key of the variant judged again on four times the
    budget; a puzzle whose key is not the judge's move is dropped, the good ones and the
    other variants' puzzles are written back as they were."""
    feidan = sorted(_by_variant("feidan"), key=lambda e: e["key"])[:2]
    other = sorted(_by_variant("xinban"), key=lambda e: e["key"])[0]
    forged = json.loads(json.dumps(feidan[0]))
    position = Position.from_fen("feidan", forged["fen"])
    accepted = forged["proof"]["steps"][0]["accepted"] + forged["proof"]["steps"][0]["good"]
    another = sorted(m.iccs() for m in position.legal_moves if m.iccs() not in accepted)[0]
    forged["key"], forged["main_line"] = "feidan-forged", [another]
    bank = tmp_path / "tactics.json"
    write_bank([*feidan, forged, other], bank)
    out = io.StringIO()
    call_command("mine_tactics", variant="feidan", recheck=True, bank=bank, stdout=out)
    assert f"feidan-forged: dropped, {another} is not the only win" in out.getvalue()
    assert "feidan: 2 of 3 kept (67%) on 400,000 nodes; 3 tactics puzzles written" in out.getvalue()
    written = {entry["key"]: entry for entry in read_tactics(bank)}
    assert written == {entry["key"]: entry for entry in [*feidan, other]}


def test_the_command_says_what_it_cannot_recheck(tmp_path: Path) -> None:
    bank = tmp_path / "tactics.json"
    with pytest.raises(CommandError, match="no such bank file"):
        call_command("mine_tactics", variant="feidan", recheck=True, bank=bank)
    write_bank([_by_variant("xinban")[0]], bank)
    with pytest.raises(CommandError, match="no feidan puzzles to check"):
        call_command("mine_tactics", variant="feidan", recheck=True, bank=bank)
    with pytest.raises(CommandError, match="--log is needed"):
        call_command("mine_tactics", variant="feidan", games=1)


# --- the material a line wins ------------------------------------------------------------------


def test_what_a_line_wins_follows_defections_and_collisions() -> None:
    xinban = Position.from_fen("xinban", "4k4/9/9/9/+n8/9/9/9/9/R2K5 w - - 0 1")
    after = xinban.copy()
    after.push(Move.from_iccs("a0a5"))  # the turncoat horse defects to Red
    assert material_changed(xinban, after, "red") == ({"horse": 1}, {})
    feidan = Position.from_fen("feidan", "4k6/11/11/11/n10/11/11/11/11/M4K5 w - - 0 1")
    proof = {"variant": "feidan", "fen": feidan.fen(), "line": ["a0a5"]}
    assert line_material(proof) == ({"horse": 1}, {"missile": 1})  # both gone in the collision


# --- the shipped puzzles ------------------------------------------------------------------------


def _by_variant(variant: str) -> list[dict[str, Any]]:
    return [e for e in SHIPPED if e["variant"] == variant]


def _game(entry: dict[str, Any]) -> SelfplayGame:
    _, variant, number = entry["source_game"].split(":")
    return next(g for g in read_games(selfplay_path(variant)) if g.n == int(number))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_shipped_file_holds_tactics_of_the_variant(variant: str) -> None:
    entries = _by_variant(variant)
    assert len(entries) >= 10
    profile = PROFILES[variant]
    for entry in entries:
        assert check_entry(entry) == [], entry["key"]
        proof, line = entry["proof"], entry["main_line"]
        assert proof["engine"] == "ours" and proof["nodes"] == profile.nodes
        assert proof["recheck_nodes"] == 4 * profile.nodes
        assert proof["steps"][0]["accepted"] == [line[0]]  # the only winning move
        assert entry["eval_before"] >= profile.win and entry["gain"] >= profile.gain
        assert entry["origin"] == "selfplay" and entry["source_game"].startswith("selfplay:")
        for end in range(1, len(line) + 1, 2):
            assert judge(proof, line[:end])[0] == ("solved" if end == len(line) else "continue")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_tactic_stands_in_its_game_at_its_ply(variant: str) -> None:
    for entry in _by_variant(variant):
        position = game_history(_game(entry), entry["ply"])
        assert position.fen().split(" ")[:2] == entry["fen"].split(" ")[:2], entry["key"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_shipped_tactic_is_found_again_from_its_game(variant: str) -> None:
    """The miner is deterministic: the same game gives the same puzzle, second look included."""
    entry = min(_by_variant(variant), key=lambda e: (len(e["main_line"]), e["key"]))
    game = _game(entry)
    positions = list(game_positions(game))
    index = next(i for i, (ply, _fen) in enumerate(positions) if ply == entry["ply"])
    stats = Stats()
    found = examine(entry["source_game"], positions, index, OurEngine(), stats,
                    PROFILES[variant], game_history(game, entry["ply"]))  # fmt: skip
    assert found.main_line == entry["main_line"]
    assert [s.accepted for s in found.steps] == [s["accepted"] for s in entry["proof"]["steps"]]
    assert [s.good for s in found.steps] == [s["good"] for s in entry["proof"]["steps"]]


def test_a_log_of_a_variant_makes_entries_of_that_variant() -> None:
    entry = _by_variant("xinban")[0]
    tactic = {
        "variant": "xinban",
        "fen": entry["fen"],
        "main_line": entry["main_line"],
        "steps": entry["proof"]["steps"],
        "eval_before": entry["eval_before"],
        "eval_after": entry["eval_after"],
        "eval_mistake": entry["eval_mistake"],
        "gain": entry["gain"],
        "source_game": entry["source_game"],
        "ply": entry["ply"],
        "game": entry["game"],
    }
    (made,) = entries_from_log([{"game": 0, "tactics": [tactic], "stats": {}}])
    assert made == entry


# --- loading and solving -------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_shipped_bank_loads_the_tactics_of_every_variant() -> None:
    bank_load()
    for variant in ("xiangqi", *VARIANTS):
        count = Puzzle.objects.filter(goal=Goal.MATERIAL, variant=variant).count()
        assert count == len([e for e in read_tactics() if e["variant"] == variant]) > 0


def _load(tmp_path: Path, entries: list[dict[str, Any]]) -> None:
    bank, tactics = tmp_path / "bank.json", tmp_path / "tactics.json"
    write_bank([], bank)
    write_bank(entries, tactics)
    bank_load(bank, tactics)


def _post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


@pytest.mark.django_db
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_tactic_of_the_variant_is_offered_and_solved_through_the_api(
    variant: str, tmp_path: Path
) -> None:
    entries = _by_variant(variant)
    # The one with a move that is "also good" at its key, where there is one.
    entry = max(entries, key=lambda e: (bool(e["proof"]["steps"][0]["good"]), e["key"]))
    _load(tmp_path, [entry])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    offered = client.get(f"/api/puzzles/next/?variant={variant}&kind=tactics")
    assert offered.status_code == 200 and offered.json()["goal"] == "material"
    puzzle = Puzzle.objects.get(pk=offered.json()["id"])
    assert puzzle.source_key == entry["key"]
    attempt = _post(client, f"/api/puzzles/{puzzle.pk}/attempts/", {}).json()["id"]
    url = f"/api/puzzles/{puzzle.pk}/judge/"
    good = entry["proof"]["steps"][0]["good"]
    if good:
        answer = _post(client, url, {"attempt": attempt, "move": good[0], "ply": 0}).json()
        assert answer["verdict"] == "good" and "not the best" in answer["reason"]
    line = entry["main_line"]
    for ply in range(0, len(line), 2):
        answer = _post(client, url, {"attempt": attempt, "move": line[ply], "ply": ply}).json()
        if ply + 1 < len(line):
            assert answer["verdict"] == "continue" and answer["reply"]["iccs"] == line[ply + 1]
    assert answer["verdict"] == "solved"
    # Once the try is over the page names the judge: the site's own engine and its budget.
    with translation.override("en"):
        english = selectors.puzzle_judge_text(puzzle=puzzle) or ""
    assert english.startswith(
        "Checked by the site's own engine on a search of 100,000 positions: only the first "
        "move of the solution wins material."
    )
    with translation.override("zh-hans"):
        chinese = selectors.puzzle_judge_text(puzzle=puzzle) or ""
    assert chinese.startswith("由本站引擎以 100,000 个局面")


def test_some_shipped_tactic_of_the_variants_has_an_also_good_move() -> None:
    assert any(e["proof"]["steps"][0]["good"] for e in SHIPPED)
