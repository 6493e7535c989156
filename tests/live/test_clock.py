"""The clock arithmetic of live games (live.clock): plain values, no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from live.clock import Clock, LagAllowance, elapsed_ms, smoothed_rtt

T0 = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def running(side: str = "red", red: int = 60_000, black: int = 60_000) -> Clock:
    return Clock(red_ms=red, black_ms=black, increment_ms=2_000, running=side, started_at=T0)


def test_the_running_side_loses_the_time_since_its_turn_began_the_other_keeps_its_own() -> None:
    clock = running("red")
    assert clock.left("red", at(1_500)) == 58_500
    assert clock.left("black", at(1_500)) == 60_000


def test_time_left_never_goes_below_zero_and_then_the_side_has_flagged() -> None:
    clock = running("black", black=1_000)
    assert clock.flagged(at(999)) is None
    assert clock.left("black", at(5_000)) == 0
    assert clock.flagged(at(1_000)) == "black"


def test_no_clock_runs_no_one_flags() -> None:
    clock = Clock(red_ms=0, black_ms=0, increment_ms=0, running=None, started_at=None)
    assert clock.flagged(at(10**9)) is None


def test_a_timed_move_charges_the_mover_adds_the_increment_and_starts_the_other_clock() -> None:
    after = running("red").after_move("red", at(4_000), ply_after=3, playing=True)
    assert (after.red_ms, after.black_ms) == (60_000 - 4_000 + 2_000, 60_000)
    assert after.running == "black" and after.started_at == at(4_000)


def test_the_first_two_plies_are_free_and_start_no_clock_until_both_have_moved() -> None:
    idle = Clock(red_ms=60_000, black_ms=60_000, increment_ms=2_000, running=None, started_at=None)
    first = idle.after_move("red", at(30_000), ply_after=1, playing=True)
    assert (first.red_ms, first.running) == (60_000, None)  # no charge, no increment
    second = first.after_move("black", at(90_000), ply_after=2, playing=True)
    assert (second.black_ms, second.running, second.started_at) == (60_000, "red", at(90_000))


def test_a_move_that_ends_the_game_stops_the_clocks() -> None:
    after = running("red").after_move("red", at(1_000), ply_after=9, playing=False)
    assert after.running is None and after.started_at is None
    assert after.red_ms == 61_000


def test_stopping_charges_the_running_side_up_to_that_moment() -> None:
    stopped = running("black").stopped(at(2_500))
    assert (stopped.black_ms, stopped.running) == (57_500, None)
    assert stopped.stopped(at(9_000)) == stopped


def test_elapsed_time_is_whole_milliseconds_and_never_negative() -> None:
    assert elapsed_ms(T0, at(1_234)) == 1_234
    assert elapsed_ms(at(1_000), T0) == 0


# -- the lag allowance ------------------------------------------------------------------------


def test_the_round_trip_estimate_starts_at_its_first_sample_and_moves_a_quarter_each() -> None:
    assert smoothed_rtt(None, 200) == 200
    assert smoothed_rtt(200, 600) == 300
    assert smoothed_rtt(300, 300) == 300
    assert smoothed_rtt(None, -5) == 0  # a clock never runs backwards, but a sample is >= 0


def test_a_move_is_credited_its_round_trip_up_to_the_cap_and_the_quota() -> None:
    allowance = LagAllowance(cap_ms=500)
    assert (allowance.gain_ms, allowance.start_quota_ms, allowance.max_quota_ms) == (
        250,
        750,
        1_750,
    )
    assert allowance.credit(None, 750) == 0  # nothing measured: nothing credited
    assert allowance.credit(180, 750) == 180
    assert allowance.credit(5_000, 750) == 500  # the cap
    assert allowance.credit(5_000, 120) == 120  # the quota


def test_a_steady_round_trip_within_the_gain_is_given_back_on_every_move() -> None:
    allowance = LagAllowance(cap_ms=500)
    quota = allowance.start_quota_ms
    for _ in range(200):
        credit = allowance.credit(240, quota)
        assert credit == 240
        quota = allowance.quota_after(quota, credit)
    assert quota == allowance.max_quota_ms  # it grows back to its limit, and no further


def test_answers_held_back_gain_the_cap_a_move_and_the_gain_a_move_over_a_game() -> None:
    allowance = LagAllowance(cap_ms=500)
    quota, credits = allowance.start_quota_ms, []
    for _ in range(40):
        credits.append(allowance.credit(60_000, quota))  # a minute "measured" each time
        quota = allowance.quota_after(quota, credits[-1])
    assert max(credits) == 500
    assert credits[:3] == [500, 500, 250]  # the quota's start spent, then the gain
    assert set(credits[2:]) == {250}
    assert sum(credits) <= allowance.start_quota_ms + 40 * allowance.gain_ms


def test_a_move_credited_lag_is_charged_its_turn_less_the_credit_never_less_than_nothing() -> None:
    after = running("red").after_move("red", at(4_000), ply_after=3, playing=True, lag_ms=300)
    assert after.red_ms == 60_000 - 4_000 + 300 + 2_000
    quick = running("red").after_move("red", at(100), ply_after=3, playing=True, lag_ms=300)
    assert quick.red_ms == 60_000 + 2_000  # the turn lasted 100 ms: 100 ms back, not 300
    assert running("red").credit("red", at(100), 300) == 100
    assert running("red").credit("black", at(100), 300) == 0  # Black's time does not run


def test_a_move_arriving_within_its_lag_allowance_after_the_flag_is_in_time() -> None:
    clock = running("red", red=1_000)
    assert clock.flagged(at(1_200)) == "red"
    assert clock.flagged(at(1_200), lag_ms=300) is None
    assert clock.left("red", at(1_200), lag_ms=300) == 100
    assert clock.flagged(at(1_300), lag_ms=300) == "red"
