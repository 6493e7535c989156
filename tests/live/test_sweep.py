"""The live games' sweep (``live.services.live_games_sweep``, Celery beat's ``live.sweep``): a
game both of whose players have left ends without a message. A side to move out of time loses
on time, and a game whose first move did not come in its window is aborted, exactly as a
message would have ended it (the consumer's look at the clock); every other game is left as it
is; a rated game is rated once, whatever meets on it. On the real database; times are given to
the services (``now``), nothing waits; one test runs the task on the real Celery worker."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.owners import Owner
from core import glicko2
from live.models import LiveGame
from live.selectors import first_move_window_ms, live_game_state, setup_window
from live.services import (
    ChallengeOptions,
    LiveRefusal,
    live_challenge_accept,
    live_challenge_create,
    live_clock_check,
    live_flag_claim,
    live_games_sweep,
    live_move_play,
    live_resign,
    live_setup_submit,
)
from live.tasks import live_sweep_task
from tests.live.conftest import race, visitor_session
from tests.live.test_ratings import account, ratings

T = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)
JUST = timedelta(milliseconds=1)
WINDOW = timedelta(milliseconds=first_move_window_ms())
# What a game's end writes: the sweep must write it as a message would.
ENDING = (
    "status", "result", "winner", "termination", "ended_by", "red_clock_ms", "black_clock_ms",
    "turn_started_at", "finished_at", "draw_offer_by", "rating_changes",
)  # fmt: skip


def players() -> tuple[Owner, Owner]:
    return visitor_session()[1], visitor_session()[1]


def accepted(
    red: Owner, black: Owner, *, at: datetime = T, minutes: int = 5, rated: bool = False,
    setup: str = "standard", variant: str = "xiangqi",
) -> LiveGame:  # fmt: skip
    options = ChallengeOptions(variant, setup, "red", minutes, 3, rated=rated)
    game = live_challenge_create(owner=red, options=options)
    return live_challenge_accept(slug=game.slug, owner=black, now=at)


def timed(red: Owner, black: Owner, *, at: datetime = T, **options: Any) -> LiveGame:
    """A game in which both sides have moved (Red at ``at``, Black a second later): Red's
    clock runs from ``at`` + 1 s, with the whole base time."""
    game = accepted(red, black, at=at, **options)
    live_move_play(slug=game.slug, owner=red, ply=0, move="h2e2", now=at)
    return live_move_play(slug=game.slug, owner=black, ply=1, move="h9g7", now=at + SECOND)


def flag_time(game: LiveGame) -> datetime:
    """When Red, to move, runs out of time."""
    assert game.turn_started_at is not None and game.turn == "red"
    return game.turn_started_at + timedelta(milliseconds=game.red_clock_ms)


def ending(game: LiveGame) -> tuple[Any, ...]:
    game.refresh_from_db()
    return tuple(getattr(game, field) for field in ENDING)


def every_row() -> list[tuple[Any, ...]]:
    return list(LiveGame.objects.order_by("pk").values_list())


@pytest.mark.django_db
def test_a_side_out_of_time_loses_to_the_sweep_as_to_a_message() -> None:
    red, black = players()
    swept, messaged = timed(red, black), timed(red, black)
    flag = flag_time(swept)
    assert flag == T + SECOND + timedelta(minutes=5) == flag_time(messaged)
    assert live_games_sweep(now=flag - JUST) == []
    assert {g.status for g in LiveGame.objects.all()} == {"playing"}
    # the consumer's look at the clock (on any message or connection) ends one ...
    assert live_clock_check(slug=messaged.slug, now=flag)[1] is True
    # ... the sweep the other, with the same verdict, written the same way
    assert [game.pk for game in live_games_sweep(now=flag)] == [swept.pk]
    assert ending(swept) == ending(messaged)
    assert ending(swept)[:5] == ("finished", "0-1", "black", "timeout", "red")
    assert swept.red_clock_ms == 0 and swept.turn_started_at is None
    assert live_game_state(swept)["ending"] == live_game_state(messaged)["ending"]
    assert live_games_sweep(now=flag + timedelta(hours=1)) == []  # nothing left to end


@pytest.mark.django_db
def test_the_side_to_move_runs_out_whether_its_clock_is_the_lower_or_the_higher() -> None:
    red, black = players()
    lower, higher = timed(red, black), timed(red, black)
    LiveGame.objects.filter(pk=lower.pk).update(red_clock_ms=10_000)
    LiveGame.objects.filter(pk=higher.pk).update(red_clock_ms=20_000, black_clock_ms=10_000)
    began = T + SECOND  # Red's turn
    assert live_games_sweep(now=began + 10 * SECOND - JUST) == []
    assert [g.pk for g in live_games_sweep(now=began + 10 * SECOND)] == [lower.pk]
    assert live_games_sweep(now=began + 20 * SECOND - JUST) == []  # Black's 10 s do not run
    assert [g.pk for g in live_games_sweep(now=began + 20 * SECOND)] == [higher.pk]
    assert ending(higher)[:5] == ending(lower)[:5] == ("finished", "0-1", "black", "timeout", "red")


@pytest.mark.django_db
def test_a_game_whose_first_move_did_not_come_in_its_window_is_aborted_by_the_sweep() -> None:
    red, black = players()
    no_move, messaged = accepted(red, black), accepted(red, black)
    red_moved = accepted(red, black)
    live_move_play(slug=red_moved.slug, owner=red, ply=0, move="h2e2", now=T + 10 * SECOND)
    assert live_games_sweep(now=T + WINDOW - JUST) == []
    assert live_clock_check(slug=messaged.slug, now=T + WINDOW)[1] is True
    # Red's window from the start; Black's from Red's first move, still open
    assert [game.pk for game in live_games_sweep(now=T + WINDOW)] == [no_move.pk]
    assert ending(no_move) == ending(messaged)
    assert ending(no_move)[:5] == ("aborted", "", "", "no_first_move", "red")
    assert live_games_sweep(now=T + 10 * SECOND + WINDOW - JUST) == []
    assert [game.pk for game in live_games_sweep(now=T + 10 * SECOND + WINDOW)] == [red_moved.pk]
    assert ending(red_moved)[:5] == ("aborted", "", "", "no_first_move", "black")


@pytest.mark.django_db
def test_a_secret_setup_left_for_its_window_is_aborted_by_the_sweep() -> None:
    """No clock runs while the players arrange their halves: a setup both players left, or
    one whose second half never came, was kept in its setup for ever. It is aborted once it
    has gone a setup window without a half handed in, by the side that has not handed one in
    (nobody, when neither has), by the sweep as by a message."""
    from tests.live.test_setups import RED_A

    red, black = players()
    both_left = accepted(red, black, variant="feidan", setup="five_soldiers")
    one_left = accepted(red, black, variant="feidan", setup="five_soldiers")
    later = T + timedelta(minutes=5)
    live_setup_submit(slug=one_left.slug, owner=red, placement=RED_A, now=later)
    window = setup_window()
    assert window == timedelta(minutes=10)
    assert live_games_sweep(now=T + window - JUST) == []
    assert [game.pk for game in live_games_sweep(now=T + window)] == [both_left.pk]
    assert ending(both_left)[:5] == ("aborted", "", "", "setup_abandoned", "")
    # Red's half restarted the window: Black's is the missing half
    assert live_games_sweep(now=later + window - JUST) == []
    assert live_clock_check(slug=one_left.slug, now=later + window)[1] is True
    assert ending(one_left)[:5] == ("aborted", "", "", "setup_abandoned", "black")
    shown = live_game_state(LiveGame.objects.get(pk=one_left.pk))
    assert (shown["status"], shown["termination"], shown["ended_by"]) == (
        "aborted",
        "setup_abandoned",
        "black",
    )


@pytest.mark.django_db
def test_every_other_game_is_left_as_it_is() -> None:
    red, black = players()
    live_challenge_create(owner=red, options=ChallengeOptions("xiangqi", "standard", "red", 5, 3))
    accepted(red, black, variant="feidan", setup="five_soldiers")  # set up within its window
    live_resign(slug=timed(red, black).slug, owner=red)  # over
    timed(red, black, minutes=30)  # time left
    # Black has a second left but Red is to move, with its whole time: Black's clock does not run
    short = timed(red, black)
    LiveGame.objects.filter(pk=short.pk).update(black_clock_ms=1000)
    before = every_row()
    assert live_games_sweep(now=T + timedelta(minutes=4)) == []
    assert every_row() == before


@pytest.mark.django_db
def test_a_rated_game_ended_by_the_sweep_is_rated_once() -> None:
    red, black = account("ming"), account("hua")
    game = timed(red, black, rated=True)
    flag = flag_time(game)
    [swept] = live_games_sweep(now=flag)
    assert (swept.termination, swept.winner) == ("timeout", "black")
    won, lost = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 1.0)
    once = ratings()
    assert once[("hua", "xiangqi")] == (pytest.approx(won.rating), pytest.approx(won.deviation), 1)
    assert once[("ming", "xiangqi")] == (
        pytest.approx(lost.rating),
        pytest.approx(lost.deviation),
        1,
    )
    # another sweep, a message, a claim: nothing more
    assert live_games_sweep(now=flag + timedelta(minutes=1)) == []
    assert live_clock_check(slug=game.slug, now=flag + SECOND)[1] is False
    with pytest.raises(LiveRefusal) as refused:
        live_flag_claim(slug=game.slug, owner=black, now=flag + SECOND)
    assert refused.value.code == "game_over"
    assert ratings() == once


@pytest.mark.django_db(transaction=True)
def test_a_sweep_racing_a_flag_claim_and_a_late_move_rates_the_game_once() -> None:
    red, black = account("ming"), account("hua")
    game = timed(red, black, rated=True, minutes=1)
    late = flag_time(game) + SECOND
    outcomes = race(
        [
            lambda: live_games_sweep(now=late),
            lambda: live_flag_claim(slug=game.slug, owner=black, now=late),
            lambda: live_move_play(slug=game.slug, owner=red, ply=2, move="h0g2", now=late),
        ]
    )
    assert len(outcomes) == 3 and set(outcomes) <= {"done", "game_over"}
    stored = LiveGame.objects.get(pk=game.pk)
    assert (stored.termination, stored.winner, stored.ply) == ("timeout", "black", 2)
    assert {games for _rating, _deviation, games in ratings().values()} == {1}


@pytest.mark.django_db(transaction=True)
def test_a_game_locked_by_a_request_is_passed_over_and_ended_by_the_next_sweep() -> None:
    red, black = players()
    game = timed(red, black)
    late = flag_time(game) + SECOND
    locked, release = threading.Event(), threading.Event()

    def request_being_judged() -> None:
        try:
            with transaction.atomic():
                LiveGame.objects.select_for_update().get(pk=game.pk)
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=request_being_judged)
    holder.start()
    try:
        assert locked.wait(30)
        assert live_games_sweep(now=late) == []  # not waited for: that request judges it
    finally:
        release.set()
        holder.join(30)
    assert LiveGame.objects.get(pk=game.pk).status == "playing"
    assert [swept.pk for swept in live_games_sweep(now=late)] == [game.pk]


@pytest.mark.django_db
def test_a_run_ends_at_most_its_limit_the_longest_due_first() -> None:
    red, black = players()
    games = [timed(red, black, at=T + n * SECOND) for n in range(3)]
    late = flag_time(games[-1])
    assert [g.pk for g in live_games_sweep(now=late, limit=1)] == [games[0].pk]
    assert [g.pk for g in live_games_sweep(now=late, limit=5)] == [g.pk for g in games[1:]]


def test_the_sweep_runs_every_minute_under_celery_beat() -> None:
    from config.celery import app

    entry = app.conf.beat_schedule["live-sweep"]
    assert entry["task"] == live_sweep_task.name == "live.sweep"
    assert entry["schedule"] == 60.0


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_the_sweep(celery_worker: Any) -> None:
    red, black = players()
    now = timezone.now()
    out_of_time = timed(red, black, at=now - timedelta(minutes=3), minutes=1)
    no_first_move = accepted(red, black, at=now - 2 * WINDOW)
    in_time = timed(red, black, at=now, minutes=30)
    left_setup = accepted(
        red, black, at=now - setup_window() - SECOND, variant="feidan", setup="five_soldiers"
    )
    result = live_sweep_task.delay().get(timeout=60)
    expected = {"timeout": 1, "no_first_move": 1, "setup_abandoned": 1}
    assert result == expected, celery_worker.output()
    assert ending(out_of_time)[:5] == ("finished", "0-1", "black", "timeout", "red")
    assert ending(no_first_move)[:5] == ("aborted", "", "", "no_first_move", "red")
    assert ending(left_setup)[:5] == ("aborted", "", "", "setup_abandoned", "")
    assert ending(in_time)[0] == "playing"
    nothing = {"timeout": 0, "no_first_move": 0, "setup_abandoned": 0}
    assert live_sweep_task.delay().get(timeout=60) == nothing
