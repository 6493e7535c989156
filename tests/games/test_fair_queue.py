"""One client cannot starve the others of the computer: its moves take turns with everyone
else's (one of each owner and of each address with the workers at a time), its open games and
the computer's pending moves are capped per owner and per address, and a game left idle is
finished. The fair order is shown with a real worker on the ``playing`` queue."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from games.models import Game
from games.services import game_computer_move
from games.tasks import games_sweep_task
from tests.games.conftest import error_code, post
from tests.games.test_tasks import wait_for

FLOOD_ADDRESS = "10.66.0.1"


def _game(client: Client, **options: Any) -> Any:
    body = {"variant": "xiangqi", "level": 2, "side": "red", **options}
    return post(client, "/api/games/", body)


def _visitors(address: str) -> Iterator[Client]:
    """A new anonymous session for each game, all from one address."""
    while True:
        yield Client(REMOTE_ADDR=address)


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_players_move_waits_behind_at_most_one_of_a_floods(celery_worker: Any) -> None:
    """Ten games of one address (a new session each) ask for the computer, then an honest
    player at another address does: the honest reply comes after at most one flood reply
    (before, the queue served the flood's ten first)."""
    flood = []
    for _, visitor in zip(range(10), _visitors(FLOOD_ADDRESS), strict=False):
        game = _game(visitor, level=8).json()
        assert post(visitor, f"/api/games/{game['id']}/moves/", {"move": "h2e2"}).status_code == 200
        flood.append(game["id"])
    honest_client = Client(REMOTE_ADDR="10.1.0.7")
    honest = _game(honest_client, level=1).json()["id"]
    assert post(honest_client, f"/api/games/{honest}/moves/", {"move": "h2e2"}).status_code == 200
    every = [*flood, honest]

    def all_answered() -> bool:
        return all(len(Game.objects.get(pk=gid).moves) == 2 for gid in every)

    wait_for(all_answered, celery_worker, seconds=240)

    def at(gid: int, ply: int) -> datetime:
        return datetime.fromisoformat(Game.objects.get(pk=gid).moves[ply]["at"])

    asked, answered = at(honest, 0), at(honest, 1)
    waiting = [gid for gid in flood if at(gid, 1) > asked]  # still waiting when it asked
    assert len(waiting) >= 5  # the flood was still queued
    ahead = [gid for gid in waiting if at(gid, 1) < answered]
    assert len(ahead) <= 1, f"the honest reply waited for {len(ahead)} of the flood's"
    # the flood was served one move at a time, in the order it asked
    flood_times = [at(gid, 1) for gid in flood]
    assert flood_times == sorted(flood_times)
    assert Game.objects.filter(pk__in=every, computer_queued_at__isnull=False).count() == 0


@pytest.mark.django_db
def test_the_dispatcher_hands_over_one_move_per_owner_and_address() -> None:
    """Without a worker: of ten waiting moves of one address, one is with the workers; the
    honest player's move from another address is handed over at once, not queued behind."""
    flood = []
    for _, visitor in zip(range(10), _visitors(FLOOD_ADDRESS), strict=False):
        gid = _game(visitor).json()["id"]
        post(visitor, f"/api/games/{gid}/moves/", {"move": "h2e2"})
        flood.append(gid)
    honest_client = Client(REMOTE_ADDR="10.1.0.7")
    honest = _game(honest_client).json()["id"]
    post(honest_client, f"/api/games/{honest}/moves/", {"move": "h2e2"})
    from games.queueing import dispatch

    dispatch()  # what the commit of each move runs
    handed = set(
        Game.objects.filter(computer_dispatched_at__isnull=False).values_list("pk", flat=True)
    )
    assert handed == {flood[0], honest}
    # the flood's move is played: its next one, the oldest waiting, is handed over
    assert game_computer_move(game_id=flood[0], ply=1) == "played"
    dispatch()
    handed = set(
        Game.objects.filter(computer_dispatched_at__isnull=False).values_list("pk", flat=True)
    )
    assert handed == {flood[1], honest}


@pytest.mark.django_db
@override_settings(GAMES_OPEN_PER_OWNER=2, GAMES_OPEN_PER_ADDRESS=3)
def test_open_games_are_capped_per_owner_and_per_address() -> None:
    one = Client(REMOTE_ADDR=FLOOD_ADDRESS)
    assert [_game(one).status_code for _ in range(2)] == [201, 201]
    refused = _game(one)
    assert refused.status_code == 400 and error_code(refused) == "too_many_games"
    said = refused.json()["error"]["extra"]["explanation"]
    assert "2 games in progress" in said["en"] and "2 盘棋" in said["zh"]
    # a new session from the same address: the address's third, then none
    second = Client(REMOTE_ADDR=FLOOD_ADDRESS)
    assert _game(second).status_code == 201
    refused = _game(second)
    assert refused.status_code == 400 and error_code(refused) == "too_many_games_address"
    # another address is not affected; a finished game frees its place
    assert _game(Client(REMOTE_ADDR="10.1.0.7")).status_code == 201
    gid = one.get("/api/games/").json()[0]["id"]
    assert post(one, f"/api/games/{gid}/resign/").status_code == 200
    assert _game(second).status_code == 201


@pytest.mark.django_db
@override_settings(COMPUTER_PENDING_PER_OWNER=1, COMPUTER_PENDING_PER_ADDRESS=2)
def test_the_computers_pending_moves_are_capped_per_owner_and_per_address() -> None:
    player = Client(REMOTE_ADDR=FLOOD_ADDRESS)
    first, second = (_game(player).json()["id"] for _ in range(2))
    assert post(player, f"/api/games/{first}/moves/", {"move": "h2e2"}).status_code == 200
    refused = post(player, f"/api/games/{second}/moves/", {"move": "h2e2"})
    assert refused.status_code == 400 and error_code(refused) == "computer_busy"
    assert "wait for its moves" in refused.json()["error"]["extra"]["explanation"]["en"]
    assert Game.objects.get(pk=second).ply == 0  # nothing was played
    other = Client(REMOTE_ADDR=FLOOD_ADDRESS)  # another session at the same address
    third, fourth = (_game(other).json()["id"] for _ in range(2))
    assert post(other, f"/api/games/{third}/moves/", {"move": "h2e2"}).status_code == 200
    refused = post(Client(REMOTE_ADDR=FLOOD_ADDRESS), "/api/games/", {"variant": "xiangqi",
                   "level": 2, "side": "black"})  # fmt: skip
    assert refused.status_code == 400 and error_code(refused) == "computer_busy_address"
    # once the computer has answered, the player plays on
    assert game_computer_move(game_id=first, ply=1) == "played"
    assert post(player, f"/api/games/{second}/moves/", {"move": "h2e2"}).status_code == 200
    assert Game.objects.get(pk=fourth).ply == 0


@pytest.mark.django_db
def test_an_idle_game_is_finished_as_abandoned_when_read() -> None:
    client = Client()
    gid = _game(client).json()["id"]
    assert post(client, f"/api/games/{gid}/moves/", {"move": "h2e2"}).status_code == 200
    assert game_computer_move(game_id=gid, ply=1) == "played"
    Game.objects.filter(pk=gid).update(updated_at=timezone.now() - timedelta(hours=23))
    assert client.get(f"/api/games/{gid}/").json()["status"] == "playing"
    Game.objects.filter(pk=gid).update(updated_at=timezone.now() - timedelta(hours=25))
    game = client.get(f"/api/games/{gid}/").json()
    assert game["status"] == "finished" and game["termination"] == "abandoned"
    assert game["winner"] == "black" and game["ended_by"] == "red"  # the player had to move
    assert "abandoned" in game["ending"]["en"] and "弃局" in game["ending"]["zh"]
    assert game["result"] == "0-1"


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_the_sweep_finishes_idle_games_and_games_out_of_time(celery_worker: Any) -> None:
    """Nobody reads them: the periodic sweep finishes an idle untimed game, a game left in
    its secret setup, and a timed game whose player's clock ran out; a live game stays."""
    client = Client()
    idle = _game(client).json()["id"]
    setting_up = _game(client, variant="feidan", setup="five_soldiers").json()["id"]
    timed = _game(client, clock_minutes=1).json()["id"]
    live = _game(client).json()["id"]
    assert post(client, f"/api/games/{timed}/moves/", {"move": "h2e2"}).status_code == 200
    wait_for(lambda: Game.objects.get(pk=timed).ply == 2, celery_worker)  # the worker replies
    long_ago = timezone.now() - timedelta(days=2)
    Game.objects.filter(pk__in=[idle, setting_up]).update(updated_at=long_ago)
    Game.objects.filter(pk=timed).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    outcome = games_sweep_task.delay().get(timeout=60)
    assert outcome["finished"] == 3
    ended = {g.pk: g for g in Game.objects.filter(pk__in=[idle, setting_up, timed, live])}
    assert (ended[idle].termination, ended[idle].winner) == ("abandoned", "black")
    assert (ended[setting_up].termination, ended[setting_up].winner) == ("abandoned", "black")
    assert (ended[timed].termination, ended[timed].winner) == ("timeout", "black")
    assert ended[live].status == "playing"


def test_the_sweep_runs_every_minute_under_celery_beat() -> None:
    from config.celery import app

    entry = app.conf.beat_schedule["games-sweep"]
    assert entry["task"] == games_sweep_task.name == "games.sweep" and entry["schedule"] == 60.0


@pytest.mark.django_db(transaction=True)
def test_a_poll_never_waits_for_the_dispatchers_lock() -> None:
    """Polls of waiting games do not queue up behind a running dispatcher (before, every poll
    took the dispatcher's lock in turn: a flood of polls serialised the web workers); the
    poll after the dispatcher has finished hands the move over."""
    import threading

    from django.db import connection, transaction

    from core.fairqueue import dispatch_lock
    from games.queueing import LOCKS, MOVES, dispatch

    if connection.vendor != "postgresql":
        pytest.skip("the dispatcher's lock is PostgreSQL's advisory lock")
    visitor = Client(REMOTE_ADDR="10.1.0.8")
    with override_settings(COMPUTER_SEARCHES_PER_ADDRESS=0):  # the move waits: none is sent
        gid = _game(visitor).json()["id"]
        post(visitor, f"/api/games/{gid}/moves/", {"move": "h2e2"})
    assert Game.objects.get(pk=gid).computer_dispatched_at is None
    held, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        try:
            with transaction.atomic():
                dispatch_lock(LOCKS[MOVES])
                held.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert held.wait(10)
        assert dispatch(wait=False) == []  # gives up at once
        state = visitor.get(f"/api/games/{gid}/")  # the poll answers without waiting
        assert state.status_code == 200 and state.json()["thinking"] is True
        assert Game.objects.get(pk=gid).computer_dispatched_at is None
    finally:
        release.set()
        holder.join(10)
    visitor.get(f"/api/games/{gid}/")
    assert Game.objects.get(pk=gid).computer_dispatched_at is not None


@pytest.mark.django_db
def test_a_poll_of_a_move_with_the_workers_runs_no_dispatcher(
    django_assert_max_num_queries: Any,
) -> None:
    """A move handed over lately is the workers': polling it asks the database for the game
    only, however many moves wait behind it."""
    visitor = Client(REMOTE_ADDR="10.1.0.9")
    gid = _game(visitor).json()["id"]
    post(visitor, f"/api/games/{gid}/moves/", {"move": "h2e2"})
    from games.queueing import dispatch

    dispatch()
    game = Game.objects.get(pk=gid)
    assert game.computer_dispatched_at is not None
    from games.services import game_computer_requeue

    with django_assert_max_num_queries(0):
        assert game_computer_requeue(game=game) is False


# -- the analyses take turns with everyone's work -----------------------------------------------

# A short game in which Black throws a cannon away: its analysis is one short run.
SHORT_GAME = ["h2e2", "h9g7", "h0g2", "h7h0", "g2h0"]
OPENINGS = ["b2e2", "h0g2", "b0c2", "c3c4", "g3g4", "a3a4", "i3i4", "b2d2"]


def _finished_game(client: Client) -> int:
    gid = int(_game(client, mode="local").json()["id"])
    for text in SHORT_GAME:
        assert post(client, f"/api/games/{gid}/moves/", {"move": text}).status_code == 200
    assert post(client, f"/api/games/{gid}/resign/").json()["status"] == "finished"
    return gid


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
@override_settings(GAME_ANALYSIS_PENDING_PER_ADDRESS=100, ANALYSIS_PENDING_PER_ADDRESS=100)
def test_an_honest_search_and_move_wait_behind_at_most_one_of_an_analysis_flood(
    celery_worker: Any,
) -> None:
    """Ten visitors of one address ask for their finished games' analyses and four for board
    searches (the caps per address are lifted here: the order is what is tested); then an
    honest visitor at another address asks for a board search, and an honest player for a
    level-8 move. Each is answered after at most one of the flood's analyses (before, the
    flood's fourteen went first, first in first out)."""
    from games.models import EngineAnalysis, GameAnalysis

    visitors = [Client(REMOTE_ADDR=FLOOD_ADDRESS) for _ in range(14)]
    games = [_finished_game(visitor) for visitor in visitors[:10]]
    for visitor, gid in zip(visitors, games, strict=False):
        assert post(visitor, f"/api/games/{gid}/analysis/").status_code == 202
    for visitor, opening in zip(visitors[10:], OPENINGS, strict=False):
        body = {"variant": "xiangqi", "moves": [opening]}
        assert post(visitor, "/api/games/analysis/", body).status_code == 202
    searcher = Client(REMOTE_ADDR="10.1.0.7")
    search = post(searcher, "/api/games/analysis/", {"variant": "xiangqi", "moves": ["c3c4"]})
    assert search.status_code == 202, search.content
    player = Client(REMOTE_ADDR="10.1.0.8")
    honest = _game(player, level=8).json()["id"]
    assert post(player, f"/api/games/{honest}/moves/", {"move": "h2e2"}).status_code == 200

    def answered() -> bool:
        done = EngineAnalysis.objects.get(pk=search.json()["id"]).status == "done"
        return done and Game.objects.get(pk=honest).ply == 2

    wait_for(answered, celery_worker, seconds=240)
    flood_done = [
        *GameAnalysis.objects.filter(game__in=games).values_list("finished_at", flat=True),
        *EngineAnalysis.objects.filter(address=FLOOD_ADDRESS).values_list("finished_at", flat=True),
    ]
    # the flood is let go: its work left is skipped
    GameAnalysis.objects.filter(game__in=games, status="pending").update(status="failed")
    EngineAnalysis.objects.filter(address=FLOOD_ADDRESS, status="pending").update(status="failed")
    row = EngineAnalysis.objects.get(pk=search.json()["id"])
    moves = Game.objects.get(pk=honest).moves
    asked, replied = (datetime.fromisoformat(moves[ply]["at"]) for ply in (0, 1))
    for start, end, what in (
        (row.created_at, row.finished_at, "board search"),
        (asked, replied, "level-8 reply"),
    ):
        assert end is not None
        waiting = [at for at in flood_done if at is None or at > start]
        assert len(waiting) >= 5, "the flood was still queued"
        ahead = [at for at in waiting if at is not None and at < end]
        assert len(ahead) <= 1, f"the honest {what} waited for {len(ahead)} of the flood's"


def _handed() -> set[tuple[str, int]]:
    from games.models import EngineAnalysis, GameAnalysis

    return {
        *(("move", pk) for pk in Game.objects.filter(computer_dispatched_at__isnull=False)
          .filter(computer_queued_at__isnull=False).values_list("pk", flat=True)),
        *(("search", pk) for pk in EngineAnalysis.objects.filter(
            status="pending", dispatched_at__isnull=False).values_list("pk", flat=True)),
        *(("game", pk) for pk in GameAnalysis.objects.filter(
            status="pending", dispatched_at__isnull=False).values_list("pk", flat=True)),
    }  # fmt: skip


@pytest.mark.django_db
def test_the_dispatcher_gives_the_analyses_one_place_and_takes_them_in_turns() -> None:
    """Without a worker: of a flood's analyses (four board searches and two games of one
    address) one is with the workers, and of everyone's analyses one at a time
    (``ANALYSIS_SEARCHES_AT_ONCE``); the honest visitor's search, asked last, goes next, ahead
    of the flood's older ones; a level-8 move is handed over at once whatever the analyses."""
    from games.analysis import engine_analysis_run
    from games.game_analysis import game_analysis_run
    from games.models import EngineAnalysis, GameAnalysis
    from games.queueing import dispatch

    flood = [Client(REMOTE_ADDR=FLOOD_ADDRESS) for _ in range(6)]
    searches = []
    for visitor, opening in zip(flood[:4], OPENINGS, strict=False):
        body = {"variant": "xiangqi", "moves": [opening]}
        searches.append(post(visitor, "/api/games/analysis/", body).json()["id"])
    games = []
    for visitor in flood[4:]:
        gid = _finished_game(visitor)
        assert post(visitor, f"/api/games/{gid}/analysis/").status_code == 202
        games.append(GameAnalysis.objects.get(game_id=gid).pk)
    searcher = Client(REMOTE_ADDR="10.1.0.7")
    body = {"variant": "xiangqi", "moves": ["c3c4"]}
    honest = post(searcher, "/api/games/analysis/", body).json()["id"]
    player = Client(REMOTE_ADDR="10.1.0.8")
    move = _game(player, level=8).json()["id"]
    post(player, f"/api/games/{move}/moves/", {"move": "h2e2"})

    dispatch()  # what the commits run
    assert _handed() == {("search", searches[0]), ("move", move)}
    assert engine_analysis_run(analysis_id=searches[0]) == "done"
    dispatch()  # what the worker runs after it: the honest visitor's turn, not the flood's
    assert _handed() == {("search", honest), ("move", move)}
    assert engine_analysis_run(analysis_id=honest) == "done"
    dispatch()
    assert _handed() == {("search", searches[1]), ("move", move)}
    # a search whose message is lost is handed over again a minute later
    lost = timezone.now() - timedelta(seconds=61)
    EngineAnalysis.objects.filter(pk=searches[1]).update(dispatched_at=lost)
    dispatch()
    assert EngineAnalysis.objects.get(pk=searches[1]).dispatched_at > lost
    assert _handed() == {("search", searches[1]), ("move", move)}
    # with room for two analyses at once, still one of each address
    with override_settings(ANALYSIS_SEARCHES_AT_ONCE=2):
        for pk in searches[1:]:
            engine_analysis_run(analysis_id=pk)
            dispatch()
        assert _handed() == {("game", games[0]), ("move", move)}
        game_analysis_run(analysis_id=games[0], seconds=600)
        dispatch()
        assert _handed() == {("game", games[1]), ("move", move)}


@pytest.mark.django_db
def test_a_game_analysis_waits_its_turn_again_after_each_chunk() -> None:
    """A chunk of a game's analysis done, the rest waits in the fair queue, not on the
    workers' queue: a search asked for meanwhile by another address goes first."""
    from games.analysis import engine_analysis_run
    from games.game_analysis import game_analysis_run
    from games.models import GameAnalysis
    from games.queueing import dispatch

    visitor = Client(REMOTE_ADDR=FLOOD_ADDRESS)
    gid = _finished_game(visitor)
    post(visitor, f"/api/games/{gid}/analysis/")
    row = GameAnalysis.objects.get(game_id=gid)
    assert (row.address, row.dispatched_at) == (FLOOD_ADDRESS, None)
    dispatch()
    assert _handed() == {("game", row.pk)}
    searcher = Client(REMOTE_ADDR="10.1.0.7")
    search = post(searcher, "/api/games/analysis/", {"variant": "xiangqi"}).json()["id"]
    dispatch()
    assert _handed() == {("game", row.pk)}  # one analysis at a time
    # a search of a moment, over before the worker's first look at whether to give way
    GameAnalysis.objects.filter(pk=row.pk).update(nodes=2_000)
    assert game_analysis_run(analysis_id=row.pk, seconds=0) == "more"  # one position
    row.refresh_from_db()
    assert len(row.evaluations) == 1 and row.dispatched_at is None and row.served_at
    dispatch()
    assert _handed() == {("search", search)}
    engine_analysis_run(analysis_id=search)
    dispatch()
    assert _handed() == {("game", row.pk)}
    assert game_analysis_run(analysis_id=row.pk, seconds=600) == "done"
    assert visitor.get(f"/api/games/{gid}/analysis/").json()["searched"] == len(SHORT_GAME) + 1


@pytest.mark.django_db
@override_settings(GAME_ANALYSIS_PENDING_PER_ADDRESS=2)
def test_game_analyses_waiting_are_capped_per_address() -> None:
    visitors = [Client(REMOTE_ADDR=FLOOD_ADDRESS) for _ in range(3)]
    games = [_finished_game(visitor) for visitor in visitors]
    for visitor, gid in zip(visitors[:2], games, strict=False):
        assert post(visitor, f"/api/games/{gid}/analysis/").status_code == 202
    refused = post(visitors[2], f"/api/games/{games[2]}/analysis/")
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "game_analysis.busy_address" and error["params"]["count"] == 2
    said = error["extra"]["explanation"]
    assert "2 games waiting" in said["en"] and "2 盘棋在等电脑分析" in said["zh"]
    other = Client(REMOTE_ADDR="10.1.0.7")
    assert post(other, f"/api/games/{_finished_game(other)}/analysis/").status_code == 202


@pytest.mark.django_db
def test_the_players_of_one_address_take_turns_among_themselves() -> None:
    """A school: one player's analysis has just had its turn; another player's search, asked
    after the first player's, goes first."""
    from games.game_analysis import game_analysis_run
    from games.models import EngineAnalysis, GameAnalysis
    from games.queueing import dispatch

    first, second = Client(REMOTE_ADDR="10.5.0.1"), Client(REMOTE_ADDR="10.5.0.1")
    gid = _finished_game(first)
    post(first, f"/api/games/{gid}/analysis/")
    analysis = GameAnalysis.objects.get(game_id=gid).pk
    dispatch()
    mine = post(first, "/api/games/analysis/", {"variant": "xiangqi"}).json()["id"]
    theirs = post(second, "/api/games/analysis/", {"variant": "feidan"}).json()["id"]
    assert (
        EngineAnalysis.objects.get(pk=mine).created_at
        < EngineAnalysis.objects.get(pk=theirs).created_at
    )
    dispatch()
    assert _handed() == {("game", analysis)}
    assert game_analysis_run(analysis_id=analysis, seconds=0) == "more"
    dispatch()
    assert _handed() == {("search", theirs)}


@pytest.mark.django_db
def test_a_due_first_look_goes_before_every_other_analysis_waiting() -> None:
    """A first look at a position from an address that has had none for a while goes before
    the analyses waiting, even a client's whose turn the fair order says it is; a second
    first look of the same address right after waits its turn like other work."""
    from games.analysis import engine_analysis_run
    from games.models import EngineAnalysis, GameAnalysis
    from games.queueing import FIRST_LOOK_NODES, GIVE_WAY_AFTER, dispatch

    other = Client(REMOTE_ADDR=FLOOD_ADDRESS)
    deep = post(other, "/api/games/analysis/", {"variant": "xiangqi", "nodes": 160_000}).json()
    honest = Client(REMOTE_ADDR="10.1.0.7")
    gid = _finished_game(honest)
    post(honest, f"/api/games/{gid}/analysis/")
    # the honest address's game analysis had its turn a moment ago: by the fair order alone,
    # the other address's search goes next
    GameAnalysis.objects.filter(game_id=gid).update(served_at=timezone.now())
    look = post(honest, "/api/games/analysis/", {"variant": "xiangqi", "moves": ["c3c4"]}).json()
    assert EngineAnalysis.objects.get(pk=look["id"]).nodes <= FIRST_LOOK_NODES
    dispatch()
    assert _handed() == {("search", look["id"])}
    assert engine_analysis_run(analysis_id=look["id"]) == "done"
    again = Client(REMOTE_ADDR="10.1.0.7")  # another visitor of that address, at once
    second = post(again, "/api/games/analysis/", {"variant": "xiangqi", "moves": ["g3g4"]})
    dispatch()
    assert _handed() == {("search", deep["id"])}  # not due: the fair order
    engine_analysis_run(analysis_id=deep["id"])
    # once the address has had no first look handed over for a while, it is due again
    EngineAnalysis.objects.filter(pk=look["id"]).update(
        dispatched_at=timezone.now() - GIVE_WAY_AFTER - timedelta(seconds=1)
    )
    dispatch()
    assert _handed() == {("search", second.json()["id"])}


@pytest.mark.django_db
@override_settings(POLL_DISPATCH_EVERY_SECONDS=60.0)
def test_polls_of_waiting_work_run_the_dispatcher_at_most_once_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A flood of polls of waiting analyses costs one dispatch per web process and
    ``POLL_DISPATCH_EVERY_SECONDS``, not one a poll: the first poll hands its search over; a
    poll of another waiting one right after, the place free again, hands nothing over; once
    the while has passed, a poll does."""
    from games import queueing
    from games.analysis import engine_analysis_run

    monkeypatch.setattr(queueing, "_POLL_DISPATCHED", {})
    first, second = Client(REMOTE_ADDR="10.1.0.7"), Client(REMOTE_ADDR="10.1.0.8")
    mine = post(first, "/api/games/analysis/", {"variant": "xiangqi"}).json()
    other = post(second, "/api/games/analysis/", {"variant": "feidan"}).json()
    assert first.get(mine["url"]).status_code == 200
    assert _handed() == {("search", mine["id"])}
    assert engine_analysis_run(analysis_id=mine["id"]) == "done"
    assert second.get(other["url"]).json()["status"] == "pending"
    assert _handed() == set()  # no dispatch for this poll
    queueing._POLL_DISPATCHED["analyses"] -= 61.0  # a minute later
    assert second.get(other["url"]).status_code == 200
    assert _handed() == {("search", other["id"])}
