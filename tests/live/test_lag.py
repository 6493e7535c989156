"""The lag allowance over the real WebSocket, on the real database: the server times each
connection's round trip with its own probes, credits a move at most the cap and the side's
quota however late the page answers, and no field a client sends changes a clock."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.owners import Owner
from live.models import LiveGame
from live.services import live_challenge_accept, live_move_play
from tests.live.conftest import challenge, visitor_session
from tests.live.test_consumer import SHORT_MATE

pytestmark = pytest.mark.django_db(transaction=True)

CAP = 300  # LIVE_LAG_ALLOWANCE_MS in these tests: gain 150 a move, quota 450 at the start


@pytest.fixture(autouse=True)
def allowance(settings) -> None:
    settings.LIVE_LAG_ALLOWANCE_MS = CAP


def visitor_owner(game: LiveGame, side: str) -> Owner:
    return Owner(visitor_id=getattr(game, f"{side}_visitor"))


def both_first_moves(red, black) -> None:
    red.state(), black.state()
    for ply, move in enumerate(SHORT_MATE[:2]):
        (red if ply == 0 else black).send({"type": "move", "ply": ply, "move": move})
        red.state(), black.state()


def thinking(game: LiveGame, seconds: float) -> None:
    """The side to move has been thinking for ``seconds`` (its turn began that long ago)."""
    LiveGame.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_probe_answered_late_earns_the_cap_at_most_and_the_quota_over_the_game(
    sockets, started
) -> None:
    game, red_key, black_key = started(minutes=5, increment=3)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    both_first_moves(red, black)
    probe = red.probe()
    time.sleep(1.0)  # Red's page holds the answer back: a round trip of a second and more
    red.send({"type": "probe", "id": probe})
    credits = []
    for ply in (2, 4, 6):
        thinking(game, 10)
        before = LiveGame.objects.get(pk=game.pk).red_clock_ms
        red.send({"type": "move", "ply": ply, "move": SHORT_MATE[ply]})
        red.state(), black.state()
        stored = LiveGame.objects.get(pk=game.pk)
        entry = stored.moves[-1]
        credits.append(entry["lag_ms"])
        # charged the turn less the credit, then the increment: nothing more given back
        assert entry["spent_ms"] >= 10_000 - entry["lag_ms"]
        assert stored.red_clock_ms == before - entry["spent_ms"] + 3_000
        assert stored.red_clock_ms <= before - 10_000 + entry["lag_ms"] + 3_000
        black.send({"type": "move", "ply": ply + 1, "move": SHORT_MATE[ply + 1]})
        red.state(), black.state()
        assert LiveGame.objects.get(pk=game.pk).moves[-1]["lag_ms"] == 0  # Black never answered
    assert credits == [CAP, CAP, CAP // 2]  # the cap while the quota lasts, then its gain


def test_a_quick_answer_is_credited_its_round_trip_and_no_more(sockets, started) -> None:
    game, red_key, black_key = started(minutes=5, increment=0)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    both_first_moves(red, black)
    sent = time.monotonic()
    red.send({"type": "probe", "id": red.probe()})
    assert red.silent()  # the answer is not a message the game answers
    upper = int((time.monotonic() - sent) * 1000) + 1_000  # the probe may have waited too
    thinking(game, 10)
    red.send({"type": "move", "ply": 2, "move": SHORT_MATE[2]})
    red.state(), black.state()
    assert 0 <= LiveGame.objects.get(pk=game.pk).moves[-1]["lag_ms"] <= min(CAP, upper)


def test_no_field_a_client_sends_changes_a_clock(sockets, started) -> None:
    game, red_key, black_key = started(minutes=5, increment=0)
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    both_first_moves(red, black)
    probe = red.probe()
    for message, code in (
        ({"type": "move", "ply": 2, "move": "b0c2", "lag_ms": 5_000}, "clock_not_accepted"),
        ({"type": "move", "ply": 2, "move": "b0c2", "lag": 5_000}, "clock_not_accepted"),
        ({"type": "probe", "id": probe, "rtt": 5_000}, "clock_not_accepted"),
        ({"type": "probe", "id": probe, "sent": 0}, "unknown_field"),
        ({"type": "probe", "id": 5}, "bad_field"),
        ({"type": "probe", "id": ""}, "bad_field"),
        ({"type": "probe"}, "missing_field"),
    ):
        before = LiveGame.objects.get(pk=game.pk)
        red.send(message)
        refused = red.error()
        assert refused["code"] == code, (message, refused)
        assert refused["message"]["zh"] and refused["message"]["en"]
        after = LiveGame.objects.get(pk=game.pk)
        assert (after.red_clock_ms, after.black_clock_ms, after.turn_started_at, after.ply) == (
            before.red_clock_ms,
            before.black_clock_ms,
            before.turn_started_at,
            before.ply,
        )
    red.send({"type": "probe", "id": "made-up"})  # not the probe outstanding: ignored
    assert red.silent()
    thinking(game, 10)
    red.send({"type": "move", "ply": 2, "move": SHORT_MATE[2]})
    red.state(), black.state()
    entry = LiveGame.objects.get(pk=game.pk).moves[-1]
    assert entry["lag_ms"] == 0 and entry["spent_ms"] >= 10_000  # nothing was measured


def test_a_spectator_is_not_probed_and_a_challenger_is_once_the_friend_accepts(
    sockets, transactional_db
) -> None:
    red_key, red = visitor_session()
    _black_key, black = visitor_session()
    game = challenge(red, colour="red")
    waiting = sockets(game.slug, red_key)
    assert waiting.state()["you"] is None  # no seat before the friend accepts
    watcher = sockets(game.slug)
    watcher.state()
    live_challenge_accept(slug=game.slug, owner=black)
    waiting.send({"type": "state"})  # the game's state to its group, as the accept page sends
    assert waiting.state()["you"] == "red" and watcher.state()["you"] is None
    assert waiting.probe()  # the challenger's page is probed from now on
    assert watcher.silent() and not watcher.probes
    watcher.send({"type": "probe", "id": "made-up"})  # an answer to nothing: ignored
    assert watcher.silent()


def test_a_move_within_its_lag_allowance_after_the_flag_is_played_and_one_beyond_is_not(
    started,
) -> None:
    game, _red_key, black_key = started(minutes=1, increment=0)
    red_owner, black_owner = visitor_owner(game, "red"), visitor_owner(game, "black")
    t0 = timezone.now()
    live_move_play(slug=game.slug, owner=red_owner, ply=0, move="h2e2", now=t0)
    live_move_play(slug=game.slug, owner=black_owner, ply=1, move="h9g7", now=t0)
    late = t0 + timedelta(milliseconds=60_200)  # Red's minute ran out 200 ms ago
    played = live_move_play(
        slug=game.slug, owner=red_owner, ply=2, move="h0g2", now=late, rtt_ms=250
    )
    assert (played.status, played.ply, played.red_clock_ms) == ("playing", 3, 50)
    assert played.moves[-1]["lag_ms"] == 250
    later = late + timedelta(milliseconds=60_050 + CAP)  # Black: past even the cap
    lost = live_move_play(
        slug=game.slug, owner=black_owner, ply=3, move="b9c7", now=later, rtt_ms=10_000
    )
    assert (lost.status, lost.termination, lost.winner, lost.ply) == (
        "finished",
        "timeout",
        "red",
        3,
    )


def test_a_move_without_a_measured_round_trip_is_not_credited(started) -> None:
    game, _red_key, _black_key = started(minutes=1, increment=0)
    red, black = visitor_owner(game, "red"), visitor_owner(game, "black")
    t0 = timezone.now()
    live_move_play(slug=game.slug, owner=red, ply=0, move="h2e2", now=t0)
    live_move_play(slug=game.slug, owner=black, ply=1, move="h9g7", now=t0)
    late = live_move_play(
        slug=game.slug, owner=red, ply=2, move="h0g2", now=t0 + timedelta(milliseconds=60_001)
    )
    assert (late.termination, late.winner) == ("timeout", "black")


def test_each_move_is_timed_inside_the_server_when_its_log_is_on(sockets, started) -> None:
    """``live.timing`` at DEBUG: one line a move played, from its receipt to the mover's new
    state sent (the live benchmark reads them); a refused move is not timed."""
    game, red_key, black_key = started()
    red, black = sockets(game.slug, red_key), sockets(game.slug, black_key)
    red.state(), black.state()
    lines: list[str] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    log = logging.getLogger("live.timing")
    level = log.level
    log.setLevel(logging.DEBUG)
    log.addHandler(handler)
    try:
        red.send({"type": "move", "ply": 0, "move": SHORT_MATE[0]})
        red.state(), black.state()
        black.send({"type": "move", "ply": 0, "move": SHORT_MATE[1]})  # out of date: refused
        assert black.error()["code"] == "out_of_date"
        deadline = time.monotonic() + 10
        while not lines and time.monotonic() < deadline:  # written just after the state is sent
            time.sleep(0.01)
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    assert len(lines) == 1 and lines[0].startswith("move ") and lines[0].endswith(" ms")
    assert 0 <= float(lines[0].split()[1]) < 60_000
