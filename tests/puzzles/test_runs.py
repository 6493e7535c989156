"""Puzzle Streak and Puzzle Storm, judged on the server: a player's streak sequence, scores the
server counts, forged and replayed requests, two tabs of one run, a storm move after the
server's clock ran out, and no rating ever changed."""

from __future__ import annotations

import json
import threading
from datetime import date, timedelta
from typing import Any

import pytest
from django.db import connection
from django.http import Http404
from django.test import Client
from django.utils import timezone, translation

from accounts.owners import Owner
from core.exceptions import ApplicationError
from puzzles import selectors
from puzzles.api.runs import RunSerializer
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, PuzzleRun, PuzzleRunMet
from puzzles.services import puzzle_attempt_score, puzzle_line_hint, runs
from tests.puzzles.positions import DEAD_GENERAL_IN_1, MATE_IN_1, MATE_IN_2
from tests.puzzles.test_solving import a_wrong_first_move, solve

pytestmark = pytest.mark.django_db


def bank(make_puzzle: Any, count: int, variant: str = "xiangqi", fen: str = MATE_IN_1) -> list:
    """``count`` published puzzles of rising rating (the same mate, proved each time)."""
    goal = "dead_general" if variant == "feidan" else "mate"
    made = []
    for n in range(count):
        puzzle = make_puzzle(fen, variant=variant, goal=goal, moves_to_win=1)
        Puzzle.objects.filter(pk=puzzle.pk).update(rating=900 + 50 * n)
        puzzle.refresh_from_db()
        made.append(puzzle)
    return made


def rated(puzzle: Puzzle, rating: float) -> Puzzle:
    Puzzle.objects.filter(pk=puzzle.pk).update(rating=rating)
    puzzle.refresh_from_db()
    return puzzle


def right_move(run: PuzzleRun) -> str:
    puzzle = Puzzle.objects.get(pk=run.puzzles[run.index])
    move = puzzle_line_hint(puzzle=puzzle, moves=run.line)
    assert move is not None
    return move


def wrong_move(run: PuzzleRun) -> str:
    return a_wrong_first_move(Puzzle.objects.get(pk=run.puzzles[run.index]))


def move(run: PuzzleRun, player: Owner, iccs: str, **kw: Any) -> runs.RunMove:
    kw.setdefault("index", run.index)
    kw.setdefault("ply", len(run.line))
    moved, answer = runs.run_move(run_id=run.pk, player=player, move=iccs, **kw)
    run.refresh_from_db()
    return answer


def solve_current(run: PuzzleRun, player: Owner) -> runs.RunMove:
    """Play the current puzzle out, right move after right move; the last answer."""
    index = run.index
    while True:
        answer = move(run, player, right_move(run))
        if answer.verdict != "continue" or run.index != index:
            return answer


def ratings_untouched(puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        before = puzzle.rating
        puzzle.refresh_from_db()
        assert puzzle.rating == before and puzzle.plays == 0
    assert not PuzzleRating.objects.exists()
    assert not PuzzleAttempt.objects.exists()


# --- Sequences -----------------------------------------------------------------------------


def test_a_players_streak_of_the_day_rises_in_difficulty_and_is_their_own(
    make_puzzle, make_user, visitor
) -> None:
    made = bank(make_puzzle, 25)
    day = date(2026, 12, 3)
    ann = Owner(user=make_user())
    sequence = runs.streak_sequence(variant="xiangqi", day=day, player=ann)
    assert sequence == runs.streak_sequence(variant="xiangqi", day=day, player=ann)
    assert sorted(sequence) == sorted(p.pk for p in made)
    rating = {p.pk: p.rating for p in made}
    # 25 puzzles in 10 slices of 2 or 3: each slice is harder than the one before.
    ratings = [rating[pk] for pk in sequence]
    slices = [ratings[b * 25 // 10 : (b + 1) * 25 // 10] for b in range(10)]
    for easier, harder in zip(slices, slices[1:], strict=False):
        assert max(easier) < min(harder)
    other_days = {
        tuple(runs.streak_sequence(variant="xiangqi", day=day + timedelta(d), player=ann))
        for d in range(1, 6)
    }
    assert len(other_days | {tuple(sequence)}) > 1  # the shuffle inside a slice changes by day
    # Another player's order is another: it cannot be learnt from a second account.
    others = {
        tuple(runs.streak_sequence(variant="xiangqi", day=day, player=other))
        for other in [visitor, *(Owner(user=make_user()) for _ in range(4))]
    }
    assert tuple(sequence) not in others and len(others) > 1
    for order in others:  # the same two easiest puzzles first, in an order of their own
        assert sorted(rating[pk] for pk in order[:2]) == sorted(ratings)[:2]


def test_a_variant_with_fewer_puzzles_than_buckets_gets_them_all_easiest_first(
    make_puzzle, visitor
) -> None:
    made = bank(make_puzzle, 3, variant="feidan", fen=DEAD_GENERAL_IN_1)
    day = date(2026, 12, 3)
    sequence = runs.streak_sequence(variant="feidan", day=day, player=visitor)
    assert sequence == [p.pk for p in made]  # one puzzle a slice: by rating
    assert runs.streak_sequence(variant="xinban", day=day, player=visitor) == []


def test_a_variant_without_puzzles_refuses_to_start(visitor) -> None:
    with pytest.raises(ApplicationError) as refused:
        runs.run_start(player=visitor, mode="streak", variant="xinban")
    assert refused.value.code == "run.no_puzzles"


# --- Streak --------------------------------------------------------------------------------


def test_a_streak_counts_solved_puzzles_and_ends_at_the_first_wrong_move(
    make_puzzle, make_user
) -> None:
    made = [*bank(make_puzzle, 2), rated(make_puzzle(MATE_IN_2), 1900)]
    player = Owner(user=make_user())
    run, created = runs.run_start(player=player, mode="streak", variant="xiangqi")
    assert created and run.puzzles == [p.pk for p in made]
    assert runs.run_start(player=player, mode="streak", variant="xiangqi") == (run, False)
    assert solve_current(run, player).verdict == "solved"
    assert solve_current(run, player).verdict == "solved"
    assert (run.score, run.index, run.combo) == (2, 2, 2)
    # The mate in 2: the first right move gets the defender's reply, then a wrong one ends it.
    first = move(run, player, right_move(run))
    assert first.verdict == "continue" and first.reply is not None
    assert len(run.line) == 2
    position_moves = runs.run_position(run, made[2]).legal_moves
    wrong = next(
        m for m in position_moves if m != right_move(run) and move_is_wrong(made[2], run.line, m)
    )
    expected = puzzle_judge_of(made[2], [*run.line, wrong])
    answer = move(run, player, wrong)
    assert answer.verdict == "wrong"
    assert not run.is_open and run.end == "wrong" and run.score == 2
    # The run ends here: the answer says how the defence escapes, as the trainer does.
    assert answer.refutation and answer.refutation == expected.refutation
    assert answer.explanation == expected.reason
    assert run.missed == [made[2].pk]
    with pytest.raises(ApplicationError) as over:
        move(run, player, right_move_of(made[2], []), index=2, ply=0)
    assert over.value.code == "run.over"
    ratings_untouched(made)


def puzzle_judge_of(puzzle: Puzzle, line: list[str]) -> Any:
    from puzzles.services import puzzle_judge

    return puzzle_judge(puzzle=puzzle, moves=line)


def move_is_wrong(puzzle: Puzzle, line: list[str], iccs: str) -> bool:
    from puzzles.services import puzzle_judge

    return puzzle_judge(puzzle=puzzle, moves=[*line, iccs]).verdict == "wrong"


def right_move_of(puzzle: Puzzle, line: list[str]) -> str:
    found = puzzle_line_hint(puzzle=puzzle, moves=line)
    assert found is not None
    return found


def test_a_streak_has_one_skip(make_puzzle, visitor) -> None:
    bank(make_puzzle, 3)
    run, _ = runs.run_start(player=visitor, mode="streak", variant="xiangqi")
    skipped = runs.run_skip(run_id=run.pk, player=visitor, index=0)
    assert skipped.index == 1 and skipped.skip_used and skipped.score == 0
    assert skipped.missed == []
    with pytest.raises(ApplicationError) as again:
        runs.run_skip(run_id=run.pk, player=visitor, index=1)
    assert again.value.code == "run.no_skip"


def test_the_end_of_a_run_lists_every_puzzle_it_reached(make_puzzle, visitor) -> None:
    # Not only the misses: each puzzle of the run in its order, solved, skipped or missed,
    # with its page, as the review after a run.
    made = bank(make_puzzle, 4)
    run, _ = runs.run_start(player=visitor, mode="streak", variant="xiangqi")
    assert RunSerializer(run).data["played"] == []  # nothing to review while it is played
    solve_current(run, visitor)
    run = runs.run_skip(run_id=run.pk, player=visitor, index=1)
    solve_current(run, visitor)
    assert move(run, visitor, wrong_move(run)).verdict == "wrong"
    played = RunSerializer(run).data["played"]
    assert [(row["id"], row["result"]) for row in played] == [
        (made[0].pk, "solved"),
        (made[1].pk, "skipped"),
        (made[2].pk, "solved"),
        (made[3].pk, "missed"),
    ]
    assert played[3]["url"] == f"/puzzles/p/{made[3].slug}/"
    # A storm stopped in the middle of a puzzle lists only those played to their end.
    storm, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    assert move(storm, visitor, wrong_move(storm)).verdict == "wrong"
    solve_current(storm, visitor)
    storm = runs.run_stop(run_id=storm.pk, player=visitor)
    results = [row["result"] for row in RunSerializer(storm).data["played"]]
    assert results == ["missed", "solved"]


def test_finishing_every_puzzle_completes_the_streak(make_puzzle, visitor) -> None:
    bank(make_puzzle, 2)
    run, _ = runs.run_start(player=visitor, mode="streak", variant="xiangqi")
    solve_current(run, visitor)
    solve_current(run, visitor)
    assert not run.is_open and run.end == "complete" and run.score == 2


# --- Forged, replayed, two tabs --------------------------------------------------------------


def test_a_request_sent_again_counts_once(make_puzzle, visitor) -> None:
    bank(make_puzzle, 3)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    right = right_move(run)
    assert move(run, visitor, right, index=0, ply=0).verdict == "solved"
    with pytest.raises(ApplicationError) as replayed:
        move(run, visitor, right, index=0, ply=0)
    assert replayed.value.code == "run.out_of_step"
    assert run.score == 1 and run.index == 1


def test_a_move_for_a_puzzle_ahead_or_at_another_ply_is_refused(make_puzzle, visitor) -> None:
    bank(make_puzzle, 3)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    for index, ply in ((1, 0), (2, 0), (0, 2)):
        with pytest.raises(ApplicationError) as refused:
            move(run, visitor, right_move(run), index=index, ply=ply)
        assert refused.value.code == "run.out_of_step"
    assert run.score == 0 and run.moves_played == 0


def test_someone_elses_run_is_not_found(make_puzzle, visitor, make_user) -> None:
    bank(make_puzzle, 2)
    run, _ = runs.run_start(player=visitor, mode="streak", variant="xiangqi")
    for other in (Owner(user=make_user()), Owner(visitor_id="someone-else"), None):
        with pytest.raises(Http404):
            runs.run_move(run_id=run.pk, player=other, move=right_move(run), index=0, ply=0)
        with pytest.raises(Http404):
            runs.run_stop(run_id=run.pk, player=other)


@pytest.mark.django_db(transaction=True)
def test_two_tabs_sending_the_same_move_at_once_count_it_once(make_puzzle, make_user) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    bank(make_puzzle, 3)
    player = Owner(user=make_user())
    run, _ = runs.run_start(player=player, mode="storm", variant="xiangqi")
    right = right_move(run)
    barrier = threading.Barrier(4)
    verdicts: list[str] = []
    refusals: list[str] = []
    errors: list[BaseException] = []

    def tab() -> None:
        try:
            barrier.wait()
            _run, answer = runs.run_move(run_id=run.pk, player=player, move=right, index=0, ply=0)
            verdicts.append(answer.verdict)
        except ApplicationError as refused:
            refusals.append(str(refused.code))
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=tab) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert verdicts == ["solved"] and refusals == ["run.out_of_step"] * 3
    run.refresh_from_db()
    assert run.score == 1 and run.index == 1 and run.moves_played == 1


# --- Storm ---------------------------------------------------------------------------------


def test_a_storm_miss_costs_seconds_and_goes_on(make_puzzle, visitor) -> None:
    made = bank(make_puzzle, 4)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    left = runs.run_time_left(run)
    assert left is not None and 170 < left <= 180
    answer = move(run, visitor, wrong_move(run))
    assert answer.verdict == "wrong" and answer.seconds == -runs.STORM_MISS_SECONDS
    assert answer.refutation == [] and answer.explanation == ""  # it goes straight on
    assert run.is_open and run.index == 1 and run.penalty_seconds == 10
    assert run.missed == [run.puzzles[0]]
    after = runs.run_time_left(run)
    assert after is not None and after <= left - 10
    ratings_untouched(made)


def test_a_storm_combo_earns_time(make_puzzle, visitor) -> None:
    bank(make_puzzle, 7)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    seconds = [solve_current(run, visitor).seconds for _ in range(runs.STORM_COMBO_STEP)]
    assert seconds == [0] * (runs.STORM_COMBO_STEP - 1) + [runs.STORM_COMBO_SECONDS]
    assert run.bonus_seconds == runs.STORM_COMBO_SECONDS and run.best_combo == 5
    move(run, visitor, wrong_move(run))
    assert run.combo == 0 and run.best_combo == 5


def test_a_storm_move_after_the_servers_clock_ran_out_is_refused(make_puzzle, visitor) -> None:
    bank(make_puzzle, 3)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    solve_current(run, visitor)
    # The run started 181 seconds ago by the server's clock, whatever the page believes.
    PuzzleRun.objects.filter(pk=run.pk).update(started_at=timezone.now() - timedelta(seconds=181))
    run.refresh_from_db()
    with pytest.raises(ApplicationError) as late:
        move(run, visitor, right_move(run))
    assert late.value.code == "run.time_up"
    run.refresh_from_db()
    assert not run.is_open and run.end == "time" and run.score == 1
    assert runs.run_time_left(run) == 0.0
    # The run in progress is gone: the next start is a new run.
    fresh, created = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    assert created and fresh.pk != run.pk


def test_asking_for_a_storm_after_its_time_ends_it(make_puzzle, visitor) -> None:
    bank(make_puzzle, 2)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    assert runs.run_get(run_id=run.pk, player=visitor).is_open
    PuzzleRun.objects.filter(pk=run.pk).update(started_at=timezone.now() - timedelta(seconds=180))
    shown = runs.run_get(run_id=run.pk, player=visitor)
    assert not shown.is_open and shown.end == "time" and runs.run_time_left(shown) == 0.0
    assert runs.run_current(player=visitor, mode="storm", variant="xiangqi") is None
    # A streak has no clock: it waits however long.
    streak, _ = runs.run_start(player=visitor, mode="streak", variant="xiangqi")
    PuzzleRun.objects.filter(pk=streak.pk).update(started_at=timezone.now() - timedelta(days=1))
    assert runs.run_get(run_id=streak.pk, player=visitor).is_open


def test_penalties_can_end_a_storm(make_puzzle, visitor) -> None:
    bank(make_puzzle, 3)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    PuzzleRun.objects.filter(pk=run.pk).update(started_at=timezone.now() - timedelta(seconds=175))
    run.refresh_from_db()
    assert move(run, visitor, wrong_move(run)).verdict == "wrong"
    assert not run.is_open and run.end == "time"


# --- Leaderboards, bests, merging ----------------------------------------------------------


def test_the_leaderboard_lists_each_signed_in_players_best_of_the_day(
    make_puzzle, make_user, visitor
) -> None:
    bank(make_puzzle, 3)
    ann, bob = make_user("ann"), make_user("bob")
    today = timezone.localdate()
    for player, scores in ((Owner(user=ann), (1, 3)), (Owner(user=bob), (2,)), (visitor, (5,))):
        for score in scores:
            PuzzleRun.objects.create(
                **player.fields(),
                mode="storm",
                variant="xiangqi",
                day=today,
                puzzles=[1],
                started_at=timezone.now(),
                score=score,
                finished_at=timezone.now(),
                end="time",
            )
    board = selectors.run_leaderboard(mode="storm", variant="xiangqi", day=today)
    assert [(r.rank, r.username, r.score) for r in board] == [(1, "ann", 3), (2, "bob", 2)]
    assert selectors.run_leaderboard(mode="streak", variant="xiangqi", day=today) == []
    yesterday = today - timedelta(days=1)
    assert selectors.run_leaderboard(mode="storm", variant="xiangqi", day=yesterday) == []
    assert selectors.run_bests(player=Owner(user=ann))["storm"] == {"xiangqi": 3}
    assert selectors.run_bests(player=visitor)["storm"] == {"xiangqi": 5}


def test_signing_in_hands_a_visitors_runs_to_the_account(make_puzzle, make_user, visitor) -> None:
    bank(make_puzzle, 2)
    run, _ = runs.run_start(player=visitor, mode="streak", variant="xiangqi")
    solve_current(run, visitor)
    user = make_user()
    assert visitor.visitor_id is not None
    runs.run_progress_merge(visitor.visitor_id, user)
    run.refresh_from_db()
    assert run.user == user and run.visitor_id is None
    assert selectors.run_bests(player=Owner(user=user))["streak"] == {"xiangqi": 1}


# --- Met in a run, not rated in the trainer ------------------------------------------------


def met(player: Owner) -> set[int]:
    return set(PuzzleRunMet.objects.filter(player.q()).values_list("puzzle_id", flat=True))


def trainer_solve(puzzle: Puzzle, player: Owner) -> PuzzleAttempt:
    attempt = solve(puzzle, player)
    scored = puzzle_attempt_score(attempt_id=attempt.pk)
    assert scored is not None and scored.first_try
    return scored


def test_a_puzzle_met_in_a_storm_is_not_rated_in_the_trainer(make_puzzle, make_user) -> None:
    bank(make_puzzle, 4)
    player = Owner(user=make_user())
    run, _ = runs.run_start(player=player, mode="storm", variant="xiangqi")
    order = [Puzzle.objects.get(pk=pk) for pk in run.puzzles]
    assert met(player) == {order[0].pk}  # shown as the run starts
    assert solve_current(run, player).verdict == "solved"
    assert move(run, player, wrong_move(run)).verdict == "wrong"  # missed: goes on
    assert run.index == 2 and met(player) == {order[0].pk, order[1].pk, order[2].pk}
    runs.run_stop(run_id=run.pk, player=player)
    assert met(player) == {order[0].pk, order[1].pk, order[2].pk}
    for puzzle in order[:3]:  # solved, missed, shown when the run stopped
        scored = trainer_solve(puzzle, player)
        assert not scored.rated and scored.unrated_reason == "met_in_run"
        with translation.override("en"):
            said = str(scored.get_unrated_reason_display())
        assert said == "You met this puzzle in Puzzle Streak or Storm."
        with translation.override("zh-hans"):
            said = str(scored.get_unrated_reason_display())
        assert said == "你在解题连胜或解题风暴中遇到过这道谜题。"
    never_reached = trainer_solve(order[3], player)
    assert never_reached.rated and never_reached.unrated_reason == ""
    assert PuzzleRating.objects.get(user=player.user).games == 1


def test_a_streak_skip_meets_the_next_puzzle_and_a_twin_run_meets_it_once(
    make_puzzle, make_user
) -> None:
    bank(make_puzzle, 3)
    player = Owner(user=make_user())
    run, _ = runs.run_start(player=player, mode="streak", variant="xiangqi")
    runs.run_skip(run_id=run.pk, player=player, index=0)
    runs.run_stop(run_id=run.pk, player=player)
    again, created = runs.run_start(player=player, mode="streak", variant="xiangqi")
    assert created and again.puzzles == run.puzzles  # the player's streak of the day
    assert PuzzleRunMet.objects.filter(player.q()).count() == 2
    assert met(player) == set(run.puzzles[:2])
    other = Owner(user=make_user())
    assert met(other) == set()
    third = Puzzle.objects.get(pk=run.puzzles[2])
    assert trainer_solve(third, player).rated
    first = Puzzle.objects.get(pk=run.puzzles[0])
    assert trainer_solve(first, other).rated  # another player's run does not count


def test_puzzles_a_visitor_met_in_runs_follow_them_into_the_account(
    make_puzzle, make_user, visitor
) -> None:
    made = bank(make_puzzle, 3)
    run, _ = runs.run_start(player=visitor, mode="storm", variant="xiangqi")
    solve_current(run, visitor)
    user = make_user()
    account = Owner(user=user)
    # The account met the first puzzle of the visitor's run too: it is kept once.
    PuzzleRunMet.objects.create(user=user, puzzle_id=run.puzzles[0])
    assert visitor.visitor_id is not None
    runs.run_progress_merge(visitor.visitor_id, user)
    assert met(visitor) == set()
    assert met(account) == set(run.puzzles[:2])
    assert PuzzleRunMet.objects.filter(account.q()).count() == 2
    scored = trainer_solve(Puzzle.objects.get(pk=run.puzzles[1]), account)
    assert scored.unrated_reason == "met_in_run"
    untouched = next(p for p in made if p.pk not in run.puzzles[:2])
    assert trainer_solve(untouched, account).rated


# --- Through HTTP ---------------------------------------------------------------------------


def post(client: Client, url: str, body: Any = None) -> Any:
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def browser() -> Client:
    """A visitor's browser that has loaded a run's page, and so holds the site's cookies (a
    request without any is refused a run: tests/security/test_run_forgery.py)."""
    client = Client()
    assert client.get("/puzzles/streak/").status_code == 200
    return client


def test_the_api_plays_a_run_and_never_sends_an_answer(make_puzzle) -> None:
    made = [*bank(make_puzzle, 1), rated(make_puzzle(MATE_IN_2), 1900)]
    client = browser()
    started = post(client, "/api/puzzles/runs/", {"mode": "streak", "variant": "xiangqi"})
    assert started.status_code == 201, started.content
    data = started.json()
    assert data["puzzle"]["id"] == made[0].pk and data["score"] == 0 and data["time_left"] is None
    text = started.content.decode()
    assert "proof" not in text and "solution" not in text
    # The key is among the legal moves, like every other move, and nowhere else.
    shown = {k: v for k, v in data["puzzle"].items() if k != "legal_moves"}
    assert right_move_of(made[0], []) not in json.dumps({**data, "puzzle": shown})
    assert right_move_of(made[0], []) in data["puzzle"]["legal_moves"]
    again = post(client, "/api/puzzles/runs/", {"mode": "streak", "variant": "xiangqi"})
    assert again.status_code == 200 and again.json()["id"] == data["id"]
    current = client.get("/api/puzzles/runs/?mode=streak&variant=xiangqi").json()
    assert current["run"]["id"] == data["id"]
    url = f"/api/puzzles/runs/{data['id']}/move/"
    solved = post(client, url, {"index": 0, "ply": 0, "move": right_move_of(made[0], [])})
    assert solved.status_code == 200 and solved.json()["verdict"] == "solved"
    run = solved.json()["run"]
    assert run["score"] == 1 and run["puzzle"]["id"] == made[1].pk
    key = right_move_of(made[1], [])
    step = post(client, url, {"index": 1, "ply": 0, "move": key}).json()
    assert step["verdict"] == "continue" and step["reply"]["iccs"]
    assert step["run"]["puzzle"]["line"][1]["iccs"] == step["reply"]["iccs"]
    assert "proof" not in json.dumps(step)
    # A wrong move ends the streak, and the answer shows how the defence escapes.
    line = [key, step["reply"]["iccs"]]
    legal = step["run"]["puzzle"]["legal_moves"]
    wrong = next(m for m in legal if move_is_wrong(made[1], line, m))
    ended = post(client, url, {"index": 1, "ply": 2, "move": wrong}).json()
    assert ended["verdict"] == "wrong" and ended["run"]["end"] == "wrong"
    expected = puzzle_judge_of(made[1], [*line, wrong])
    assert [m["iccs"] for m in ended["refutation"]] == [m.iccs for m in expected.refutation]
    assert ended["refutation"] and set(ended["refutation"][0]) == {"iccs", "chinese", "fen"}
    assert ended["explanation"] == expected.reason


def test_forged_and_malformed_requests_get_a_clear_400(make_puzzle) -> None:
    made = bank(make_puzzle, 2)
    client = browser()
    run = post(client, "/api/puzzles/runs/", {"mode": "storm", "variant": "xiangqi"}).json()
    url = f"/api/puzzles/runs/{run['id']}/move/"
    right = right_move_of(made[0], [])
    # A score, a combo or a clock in the body is not read: only the move is.
    forged = post(client, url, {"index": 0, "ply": 0, "move": right, "score": 99, "time_left": 999})
    assert forged.json()["run"]["score"] == 1
    assert forged.json()["run"]["time_left"] <= 180
    cases = [
        {"index": 0, "ply": 0, "move": right},  # sent again
        {"index": 5, "ply": 0, "move": right},  # a puzzle ahead
        {"index": 1, "ply": 0, "move": "zz99"},  # no move
        {"index": 1, "ply": 0, "move": "e0e5"},  # not legal
        {"index": -1, "ply": 0, "move": right},
        {"index": 1, "move": right},
        {"index": "one", "ply": 0, "move": right},
        {},
    ]
    for body in cases:
        answer = post(client, url, body)
        assert answer.status_code == 400, (body, answer.content)
        assert answer.json()["error"]["message"], body
    assert client.get(f"/api/puzzles/runs/{run['id']}/").json()["score"] == 1
    bad = post(client, "/api/puzzles/runs/", {"mode": "blitz", "variant": "xiangqi"})
    assert bad.status_code == 400
    assert client.get("/api/puzzles/runs/?mode=storm").status_code == 400
    assert post(Client(), url, {"index": 1, "ply": 0, "move": right}).status_code == 404


def test_the_api_refuses_a_late_storm_move_by_the_servers_clock(make_puzzle) -> None:
    made = bank(make_puzzle, 2)
    client = browser()
    run = post(client, "/api/puzzles/runs/", {"mode": "storm", "variant": "xiangqi"}).json()
    PuzzleRun.objects.filter(pk=run["id"]).update(started_at=timezone.now() - timedelta(minutes=5))
    late = post(
        client,
        f"/api/puzzles/runs/{run['id']}/move/",
        {"index": 0, "ply": 0, "move": right_move_of(made[0], [])},
    )
    assert late.status_code == 400 and late.json()["error"]["code"] == "run.time_up"
    shown = client.get(f"/api/puzzles/runs/{run['id']}/").json()
    assert shown["open"] is False and shown["end"] == "time" and shown["score"] == 0
    assert shown["time_left"] == 0


def test_the_leaderboard_api_and_stop(make_puzzle, make_user) -> None:
    made = bank(make_puzzle, 2)
    user = make_user("carol")
    client = Client()
    client.force_login(user)
    run = post(client, "/api/puzzles/runs/", {"mode": "streak", "variant": "xiangqi"}).json()
    post(
        client,
        f"/api/puzzles/runs/{run['id']}/move/",
        {"index": 0, "ply": 0, "move": right_move_of(made[0], [])},
    )
    stopped = post(client, f"/api/puzzles/runs/{run['id']}/stop/").json()
    assert stopped["open"] is False and stopped["end"] == "stopped" and stopped["score"] == 1
    board = client.get("/api/puzzles/runs/leaderboard/?mode=streak&variant=xiangqi").json()
    assert board == [{"rank": 1, "username": "carol", "score": 1}]
    assert client.get("/api/puzzles/runs/leaderboard/?mode=streak").status_code == 400


@pytest.mark.parametrize(
    ("path", "language", "words"),
    [
        ("/puzzles/streak/", "en", ["Puzzle Streak", "you may skip one puzzle", "Not rated."]),
        ("/puzzles/streak/", "zh-hans", ["解题连胜", "每轮可以跳过一道题", "今日排行榜"]),
        ("/puzzles/storm/", "en", ["Puzzle Storm", "in 180 seconds", "costs 10 seconds"]),
        ("/puzzles/storm/", "zh-hans", ["解题风暴", "在 180 秒内", "扣 10 秒", "今日排行榜"]),
    ],
)
def test_the_pages_speak_both_languages(path: str, language: str, words: list[str]) -> None:
    client = Client(headers={"accept-language": language})
    answer = client.get(f"{path}?variant=feidan")
    assert answer.status_code == 200
    text = answer.content.decode()
    assert 'id="run-page"' in text and 'value="feidan" selected' in text
    for word in words:
        assert word in text, word
    assert client.get(f"{path}?variant=nope").status_code == 200  # the default variant


def test_the_profile_and_dashboard_show_the_bests(make_puzzle, make_user) -> None:
    made = bank(make_puzzle, 2)
    user = make_user()
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    run = post(client, "/api/puzzles/runs/", {"mode": "storm", "variant": "xiangqi"}).json()
    post(
        client,
        f"/api/puzzles/runs/{run['id']}/move/",
        {"index": 0, "ply": 0, "move": right_move_of(made[0], [])},
    )
    for path in ("/accounts/profile/", "/puzzles/dashboard/"):
        text = client.get(path).content.decode()
        assert "Puzzle Streak and Puzzle Storm" in text
        assert "/puzzles/storm/?variant=xiangqi" in text
    profile = client.get("/accounts/profile/").content.decode()
    card = profile[profile.index('data-testid="profile-runs"') :]
    assert '<strong class="profile-figure" data-run="storm">1</strong>' in card
    nav = client.get("/puzzles/").content.decode()
    assert 'href="/puzzles/streak/"' in nav and 'href="/puzzles/storm/"' in nav
