"""Live games: every change of a game (writes). The server is the only judge: each move is
checked by the engine on the game's whole history, and each clock is computed here from the
server's own times (``live.clock``); a client sends moves and requests, never a clock.

Every service locks the game's row (``select_for_update``) for its transaction, so two
messages for one game (two tabs of one player, both players at once) are judged one after the
other; the ``ply`` sent with a move makes a move sent twice count once. Each first looks at the
clock: a side whose time ran out loses then, and a game whose side to move let its first move's
window pass (``settings.LIVE_FIRST_MOVE_SECONDS``) is aborted then, whatever the message.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.owners import Owner
from core import glicko2
from core.exceptions import ApplicationError
from core.messages import render
from engine import (
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    attack_power,
    can_claim_draw,
    combine_secret_setups,
    find_variant,
)
from live.clock import FREE_PLIES, Clock, LagAllowance, other_side
from live.models import LiveBlock, LiveGame, LiveRating
from live.protocol import ICCS
from live.selectors import (
    blocked_between,
    both_seated,
    claim_wait_ms,
    creator_q,
    first_move_deadline,
    game_clock,
    game_position,
    is_creator,
    live_games_due,
    live_seeks_open,
    presence_window,
    seat_of,
    seek_expired,
    setup_deadline,
    shown_position,
    takeback_plies,
)
from live.texts import refusal_text
from words.explain import explain_illegal
from words.setups import plum_blossom_info, secret_half_faults, void_reveal_text
from words.texts import Text, side_name

if TYPE_CHECKING:
    from accounts.models import User

SETUPS_BY_VARIANT: dict[str, tuple[str, ...]] = {
    "xiangqi": (LiveGame.Setup.STANDARD,),
    "feidan": (
        LiveGame.Setup.STANDARD,
        LiveGame.Setup.PLUM_BLOSSOM,
        LiveGame.Setup.FIVE_SOLDIERS,
        LiveGame.Setup.MIDDLE_SOLDIER,
    ),
    "xinban": (
        LiveGame.Setup.XINBAN_NEW,
        LiveGame.Setup.XINBAN_TRADITIONAL,
        LiveGame.Setup.XINBAN_RED_NEW,
        LiveGame.Setup.XINBAN_BLACK_NEW,
    ),
}
# Feidan's secret setups: each player hands in a half, unseen, before the game is played.
SECRET_SETUPS: tuple[str, ...] = (LiveGame.Setup.FIVE_SOLDIERS, LiveGame.Setup.MIDDLE_SOLDIER)
# The starts known only once the game begins: drawn from its moment, or revealed.
STARTS_LATER: tuple[str, ...] = (LiveGame.Setup.PLUM_BLOSSOM, *SECRET_SETUPS)
# The puzzles app's task that looks for the wins missed in a finished game.
MISSED_WINS_TASK = "puzzles.missed_mates"
BASE_MINUTES_MAX = 180
INCREMENT_SECONDS_MAX = 60
SLUG_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
SLUG_LENGTH = 12


class LiveRefusal(ApplicationError):
    """A request the game refuses: nothing has changed. ``code`` is one of ``live.texts``;
    ``extra["message"]`` the sentence in both languages."""

    @classmethod
    def of(cls, code: str, params: Mapping[str, Any] | None = None, **extra: Any) -> LiveRefusal:
        text = refusal_text(code, dict(params or {}))
        return cls(text.en, {"code": code, "message": text.as_dict(), **extra}, code=code)


# -- challenges -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeOptions:
    variant: str
    setup: str
    colour: str
    base_minutes: int
    increment_seconds: int
    rated: bool = False


def _check_options(options: ChallengeOptions) -> None:
    def refuse(reason: str) -> LiveRefusal:
        return LiveRefusal.of("bad_options", {"reason": reason}, field="options")

    if options.variant not in SETUPS_BY_VARIANT:
        raise refuse(f"variant {options.variant!r}")
    if options.setup not in SETUPS_BY_VARIANT[options.variant]:
        raise refuse(f"setup {options.setup!r} for {options.variant}")
    if options.colour not in LiveGame.Colour.values:
        raise refuse(f"colour {options.colour!r}")
    if not 1 <= options.base_minutes <= BASE_MINUTES_MAX:
        raise refuse(f"minutes 1-{BASE_MINUTES_MAX}")
    if not 0 <= options.increment_seconds <= INCREMENT_SECONDS_MAX:
        raise refuse(f"increment 0-{INCREMENT_SECONDS_MAX}")


def _new_slug() -> str:
    return "".join(secrets.choice(SLUG_ALPHABET) for _ in range(SLUG_LENGTH))


def _challenge_start(variant: str, setup: str) -> str:
    """The start shown with a challenge: the setup's own, or (a start drawn or set up once the
    game begins) the variant's standard start until then."""
    if setup in STARTS_LATER:
        return find_variant(variant).default_start
    return find_variant(variant).start_fen(setup)


def live_challenge_create(
    *, owner: Owner, options: ChallengeOptions, seek_at: datetime | None = None
) -> LiveGame:
    """A challenge from ``owner``, waiting for a friend to open its link and accept (with
    ``seek_at``: an open seek of the lobby, made then). A rated challenge needs an account (a
    visitor may make casual ones only)."""
    _check_options(options)
    if options.rated and owner.user is None:
        raise LiveRefusal.of("rated_needs_account", field="rated")
    base_ms = options.base_minutes * 60_000
    for _ in range(5):
        game = LiveGame(
            slug=_new_slug(),
            variant=options.variant,
            setup=options.setup,
            start_fen=_challenge_start(options.variant, options.setup),
            creator_user=owner.user,
            creator_visitor=owner.visitor_id if owner.user is None else None,
            colour_choice=options.colour,
            rated=options.rated,
            base_ms=base_ms,
            increment_ms=options.increment_seconds * 1000,
            red_clock_ms=base_ms,
            black_clock_ms=base_ms,
            seek=seek_at is not None,
            seek_seen_at=seek_at,
        )
        try:
            with transaction.atomic():
                game.save()
        except IntegrityError:  # the random link is taken: draw another
            continue
        return game
    raise RuntimeError("no free link for a live game")


def _seat(game: LiveGame, side: str, owner: Owner) -> None:
    setattr(game, f"{side}_user", owner.user)
    setattr(game, f"{side}_visitor", owner.visitor_id if owner.user is None else None)


def _locked(slug: str) -> LiveGame:
    game = LiveGame.objects.select_for_update().filter(slug=slug).first()
    if game is None:
        raise LiveRefusal.of("not_found")
    return game


def live_challenge_accept(*, slug: str, owner: Owner, now: datetime | None = None) -> LiveGame:
    """``owner`` takes the other seat of the challenge ``slug``; the game begins (no clock
    runs before each side's first move): with both secret halves awaited (a secret setup), or
    from the plum-blossom start drawn now, or from its start. Refused: one's own challenge, one
    already taken, a rated one by a visitor (rated games need an account on both seats); a
    lobby seek also when it is cancelled or gone (not refreshed lately), each said as a seek's.

    Both players now play: every other open seek of either is closed (a player has one game
    from the lobby at a time). Their open seeks are locked with the challenge, in one order
    (``_locked_with_seeks``), so two people taking one seek, or two seeks of one player, at once
    get one game and one refusal.

    Two accounts one of which has blocked the other never meet: the challenge is refused as
    one that cannot be played (``cannot_play``; a seek as gone, which it is for them)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked_with_seeks(slug, owner)
        if game.status != LiveGame.Status.WAITING or seek_expired(game, now):
            raise LiveRefusal.of("seek_gone" if game.seek else "already_accepted")
        if is_creator(game, owner):
            raise LiveRefusal.of("own_seek" if game.seek else "own_challenge")
        if game.rated and owner.user is None:
            raise LiveRefusal.of("rated_seek_needs_account" if game.seek else "rated_needs_sign_in")
        if owner.user is not None and blocked_between(game.creator_user_id, owner.user.pk):
            raise LiveRefusal.of("seek_gone" if game.seek else "cannot_play")
        creator = (
            Owner(user=game.creator_user)
            if game.creator_user is not None
            else Owner(visitor_id=game.creator_visitor)
        )
        colour = game.colour_choice
        if colour == LiveGame.Colour.RANDOM:
            colour = secrets.choice(("red", "black"))
        _seat(game, colour, creator)
        _seat(game, other_side(colour), owner)
        game.status = LiveGame.Status.PLAYING
        if game.setup in SECRET_SETUPS:
            game.status = LiveGame.Status.SETTING_UP
            game.setup_info = {
                "method": game.setup, "round": 0, "halves": {}, "void_reveals": [],
                "changed_at": now.isoformat(),
            }  # fmt: skip
        elif game.setup == LiveGame.Setup.PLUM_BLOSSOM:
            game.start_fen, game.setup_info = plum_blossom_info(now)
        game.started_at = now
        game.save()
        LiveGame.objects.filter(
            creator_q(creator) | creator_q(owner), seek=True, status=LiveGame.Status.WAITING
        ).exclude(pk=game.pk).update(
            status=LiveGame.Status.ABORTED, termination="seek_closed", finished_at=now
        )
    return game


def _locked_with_seeks(slug: str, owner: Owner) -> LiveGame:
    """Lock the challenge ``slug`` and every open seek of its creator and of ``owner``, in the
    order of their ids (whoever takes any of them locks them all the same way round, so two
    takers wait for each other and never for each other's locks in turn); return the
    challenge."""
    found = LiveGame.objects.filter(slug=slug).values("pk", "creator_user_id", "creator_visitor")
    first = found.first()
    if first is None:
        raise LiveRefusal.of("not_found")
    if first["creator_user_id"] is not None:
        creators = Q(creator_user_id=first["creator_user_id"])
    else:
        creators = Q(creator_user__isnull=True, creator_visitor=first["creator_visitor"])
    seeks = (creators | creator_q(owner)) & Q(seek=True, status=LiveGame.Status.WAITING)
    locked = LiveGame.objects.select_for_update().filter(Q(pk=first["pk"]) | seeks)
    list(locked.order_by("pk").values_list("pk", flat=True))
    return _locked(slug)


# -- the lobby ------------------------------------------------------------------------------


def live_seek_create(
    *, owner: Owner, options: ChallengeOptions, now: datetime | None = None
) -> LiveGame:
    """An open seek of ``owner`` in the lobby, with the options of a challenge. Refused, with
    nothing made: options a challenge refuses, a rated seek by a visitor, and a player with
    ``LIVE_SEEKS_PER_PLAYER`` open seeks already (how often one may be made is the caller's
    throttle, ``live_seeks``)."""
    now = now or timezone.now()
    _check_options(options)
    if options.rated and owner.user is None:
        raise LiveRefusal.of("rated_needs_account", field="rated")
    limit = int(settings.LIVE_SEEKS_PER_PLAYER)
    if live_seeks_open(now).filter(creator_q(owner)).count() >= limit:
        raise LiveRefusal.of("too_many_seeks", {"limit": limit})
    return live_challenge_create(owner=owner, options=options, seek_at=now)


def live_seek_cancel(*, slug: str, owner: Owner, now: datetime | None = None) -> LiveGame:
    """``owner`` takes back their open seek ``slug``. Refused: no such seek, another's, one
    accepted or cancelled already."""
    now = now or timezone.now()
    with transaction.atomic():
        game = LiveGame.objects.select_for_update().filter(slug=slug, seek=True).first()
        if game is None:
            raise LiveRefusal.of("seek_gone")
        if not is_creator(game, owner):
            raise LiveRefusal.of("not_your_seek")
        if game.status != LiveGame.Status.WAITING:
            raise LiveRefusal.of("seek_gone")
        _abort(game, "", now=now, termination="cancelled")
        game.save()
    return game


def live_seeks_refresh(*, owner: Owner, now: datetime | None = None) -> int:
    """``owner``'s lobby page is open: their open seeks stay listed (a seek gone already stays
    gone). Returns how many were refreshed."""
    now = now or timezone.now()
    return live_seeks_open(now).filter(creator_q(owner)).update(seek_seen_at=now)


# -- playing --------------------------------------------------------------------------------


def _store_clock(game: LiveGame, clock: Clock) -> None:
    game.red_clock_ms = clock.red_ms
    game.black_clock_ms = clock.black_ms
    game.turn_started_at = clock.started_at


def _finish(
    game: LiveGame, termination: str, winner: str | None, *, now: datetime, ended_by: str = ""
) -> None:
    """Finish ``game`` (the caller saves it, in its transaction); once that commits, each
    seated player's own side goes to the search for the wins they missed in it."""
    transaction.on_commit(lambda: _missed_wins_send(game), robust=True)
    _store_clock(game, game_clock(game).stopped(now))
    game.status = LiveGame.Status.FINISHED
    game.termination = termination
    game.winner = winner or ""
    game.result = {"red": "1-0", "black": "0-1"}.get(winner or "", "1/2-1/2")
    game.ended_by = ended_by
    game.finished_at = now
    game.turn_started_at = None
    game.draw_offer_by = ""
    game.draw_offer_ply = None
    _takeback_offer_clear(game)
    _rate(game)


def _missed_wins_send(game: LiveGame) -> None:
    """Hand a finished game to the puzzles app's search for the wins missed in it
    (``puzzles.missed_mates``, by the task's name: the two apps do not import each other), one
    message per seated player (an account or a visitor), each for the player's own side. A
    game without a move has nothing to search."""
    if not game.moves or game.status != LiveGame.Status.FINISHED:
        return
    for message in missed_wins_messages(game):
        current_app.send_task(MISSED_WINS_TASK, kwargs={"game": message})


def missed_wins_messages(game: LiveGame) -> list[dict[str, Any]]:
    """What the search for missed wins is sent of a finished live game: plain data, one
    message per seated player, naming the game's table (``mode`` "live") and the player's
    side, so that each player's review is their own."""
    messages = []
    for side in ("red", "black"):
        user_id = getattr(game, f"{side}_user_id")
        visitor_id = None if user_id is not None else getattr(game, f"{side}_visitor")
        if user_id is None and not visitor_id:
            continue  # an account deleted since: nobody to tell
        messages.append(
            {
                "id": game.pk,
                "variant": game.variant,
                "start_fen": game.start_fen,
                "moves": game.iccs_moves,
                "mode": "live",
                "human_side": side,
                "level": None,
                "user_id": user_id,
                "visitor_id": visitor_id,
            }
        )
    return messages


def _rate(game: LiveGame) -> None:
    """A rated game has just ended with a result: move both players' live ratings of its
    variant, once. Called by ``_finish`` inside the transaction that holds the game's row lock
    and saves the result, so the ratings change with the result or not at all, and a game that
    is over is never finished (nor rated) again. The two rating rows are locked in the order of
    their accounts, so that two games of one player ending together wait for each other."""
    if not game.rated or game.rating_changes:
        return
    users = {side: getattr(game, f"{side}_user_id") for side in ("red", "black")}
    if None in users.values() or users["red"] == users["black"]:
        return  # an account deleted mid-game: nobody left to rate
    for user_id in sorted(users.values()):
        LiveRating.objects.get_or_create(user_id=user_id, variant=game.variant)
    rows = {
        row.user_id: row
        for row in LiveRating.objects.select_for_update()
        .filter(user_id__in=users.values(), variant=game.variant)
        .order_by("user_id")
    }
    red, black = rows[users["red"]], rows[users["black"]]
    red_score = {"red": 1.0, "black": 0.0}.get(game.winner, 0.5)
    now = timezone.now()  # each rating as it stands now: less sure after time away
    new_red, new_black = glicko2.rate_game(red.glicko_at(now), black.glicko_at(now), red_score)
    changes = {}
    for side, row, new in (("red", red, new_red), ("black", black, new_black)):
        changes[side] = {
            "before": row.rating,
            "after": new.rating,
            "deviation": new.deviation,
            "provisional": glicko2.is_provisional(new.deviation),
        }
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.save(update_fields=["rating", "deviation", "volatility", "games", "updated_at"])
    game.rating_changes = changes


def _flag_if_out_of_time(game: LiveGame, now: datetime, *, lag_ms: int = 0) -> bool:
    """Look at the clock at ``now``: finish the game on time if the side to move has no time
    left (``lag_ms``: the lag allowance its move now arriving gets), or abort it if that side
    has let its first move's window pass (``live.selectors.first_move_deadline``).
    A game being set up is aborted once its setup window has passed without a half handed
    in (``live.selectors.setup_deadline``), by the side that has not handed one in, if only
    one has not. Returns whether the game has ended."""
    setup_ends = setup_deadline(game)
    if setup_ends is not None and now >= setup_ends:
        ready = (game.setup_info or {}).get("halves", {})
        missing = [side for side in ("red", "black") if side not in ready]
        _abort(
            game, missing[0] if len(missing) == 1 else "", now=now, termination="setup_abandoned"
        )
        return True
    if game.status != LiveGame.Status.PLAYING:
        return False
    deadline = first_move_deadline(game)
    if deadline is not None and now >= deadline:
        _abort(game, game.turn, now=now, termination="no_first_move")
        return True
    loser = game_clock(game).flagged(now, lag_ms=lag_ms)
    if loser is None:
        return False
    _finish(game, "timeout", other_side(loser), now=now, ended_by=loser)
    return True


def _abort(game: LiveGame, side: str, *, now: datetime, termination: str = "") -> None:
    """Call the game off without a result; ``side``: who did (or failed to move), if anyone."""
    game.status = LiveGame.Status.ABORTED
    game.ended_by = side
    game.termination = termination
    game.finished_at = now
    game.turn_started_at = None
    game.draw_offer_by = ""
    game.draw_offer_ply = None
    _takeback_offer_clear(game)


def _player_side(game: LiveGame, owner: Owner | None) -> str:
    side = seat_of(game, owner)
    if side is None:
        raise LiveRefusal.of("spectator")
    return side


def _require_status(game: LiveGame, status: str) -> None:
    """Refuse unless ``game`` is at ``status`` (playing, or setting up), saying where it is."""
    if game.status == status:
        return
    if game.status == LiveGame.Status.WAITING:
        raise LiveRefusal.of("not_started")
    if game.status == LiveGame.Status.SETTING_UP:
        raise LiveRefusal.of("setting_up")
    if game.status == LiveGame.Status.PLAYING:
        raise LiveRefusal.of("no_setup" if game.setup not in SECRET_SETUPS else "setup_over")
    raise LiveRefusal.of("game_over")


@dataclass(frozen=True)
class _PlayerRequest:
    """A player's request as every service begins it (``_player_request``): the game locked,
    the player's side, and whether a look at the clock has just ended it (on time, or aborted
    for a first move not made in time)."""

    game: LiveGame
    side: str
    ended: bool


def _player_request(
    slug: str,
    owner: Owner | None,
    now: datetime,
    *,
    status: str = LiveGame.Status.PLAYING,
    rtt_ms: int | None = None,
) -> _PlayerRequest:
    """The first steps of a player's request, inside the caller's transaction: lock the game
    ``slug``, find ``owner``'s side (a spectator is refused), look at the clock (a side out of
    time at ``now`` loses then, a first move's window passed aborts the game: the game is saved,
    ``ended`` is true and the caller returns it as it is), then require the game to be at ``status`` (refused if not begun, setting up
    or playing when the other is needed, or over). ``rtt_ms``: the measured round trip of a
    move's connection, whose lag allowance counts before the mover is out of time."""
    game = _locked(slug)
    side = _player_side(game, owner)
    if _flag_if_out_of_time(game, now, lag_ms=_lag_credit(game, side, rtt_ms, now)[0]):
        game.save()
        return _PlayerRequest(game, side, ended=True)
    _require_status(game, status)
    return _PlayerRequest(game, side, ended=False)


def live_clock_check(*, slug: str, now: datetime | None = None) -> tuple[LiveGame, bool]:
    """Look at the clock of game ``slug``: a side out of time loses now. Returns the game and
    whether this call finished it (then everyone watching is told)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(slug)
        flagged = _flag_if_out_of_time(game, now)
        if flagged:
            game.save()
    return game, flagged


# The most games one sweep looks at (the longest due first); the rest wait for the next run.
SWEEP_LIMIT = 500


def live_games_sweep(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> list[LiveGame]:
    """Look at the clock of every game being played that may have ended by ``now``
    (``live.selectors.live_games_due``), as any message to it would: a side to move whose time
    has run out loses on time, and a game whose side to move let its first move's window pass
    is aborted without a result (``_flag_if_out_of_time``, the same verdict as the
    consumer's). So a game both of whose players have left ends without a message. Returns
    the games this call ended.

    Each game is locked in a transaction of its own; one locked by a request being judged
    (a move, a claim) is passed over, since that request looks at the clock itself. A game is
    ended once, and a rated one rated once, however many sweeps and messages meet on it (the
    row lock, and ``_rate`` leaving a game rated already as it is)."""
    now = now or timezone.now()
    ended = []
    for pk in live_games_due(now, limit=limit):
        with transaction.atomic():
            game = LiveGame.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if game is not None and _flag_if_out_of_time(game, now):
                game.save()
                ended.append(game)
    return ended


def _illegal(pos: Position, move: Move, error: IllegalMoveError) -> LiveRefusal:
    """A move the rules refuse, explained as the lessons explain it."""
    try:
        said = explain_illegal(pos, move).text
    except Exception:  # the explanation is a courtesy; the refusal stands without it
        said = Text(*(render(error.code, error.params, language) for language in ("zh", "en")))
    return LiveRefusal.of("illegal_move", {"explanation": said}, move=move.iccs())


def live_move_play(
    *,
    slug: str,
    owner: Owner | None,
    ply: int,
    move: str,
    now: datetime | None = None,
    rtt_ms: int | None = None,
) -> LiveGame:
    """Play ``owner``'s ``move`` (ICCS) as the game's ply ``ply``, received at ``now``, on a
    connection whose round trip the server measured as ``rtt_ms`` (None: not measured yet):
    the mover gets it back as a lag allowance, capped (``_lag_credit``).

    Refused, with nothing changed: a spectator, a game not begun or over, a ``ply`` other than
    the game's (a move sent twice, or played already from another tab), the opponent's turn, a
    piece of the other side, a move the engine finds illegal. A mover whose time ran out before
    the move arrived loses on time instead (the move is not played)."""
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now, rtt_ms=rtt_ms)
        game, side = request.game, request.side
        if request.ended:
            return game
        if ply != game.ply:
            raise LiveRefusal.of("out_of_date", {"ply": game.ply}, ply=game.ply)
        if side != game.turn:
            raise LiveRefusal.of("not_your_turn")
        if not ICCS.fullmatch(move):
            raise LiveRefusal.of("bad_move", {"move": move[:16]})
        pos = game_position(game)
        letter = pos.pieces().get(move[:2])
        if letter is not None and letter[-1].isupper() != (side == "red"):
            raise LiveRefusal.of("wrong_side", {"point": move[:2], "colour": side_name(side)})
        try:
            parsed = pos.parse_move(move)
        except IllegalMoveError as error:
            raise _illegal(pos, Move.from_iccs(move), error) from error
        except (InvalidMoveError, ValueError) as error:
            raise LiveRefusal.of("bad_move", {"move": move[:16]}) from error
        _play(game, pos, parsed, side, now, rtt_ms)
        game.save()
    return game


def _lag_credit(game: LiveGame, side: str, rtt_ms: int | None, now: datetime) -> tuple[int, int]:
    """The lag allowance of ``side``'s move arriving at ``now`` on a connection of measured
    round trip ``rtt_ms``, and the side's quota after it: at most the round trip, the cap
    ``LIVE_LAG_ALLOWANCE_MS``, the quota (kept on the side's moves, ``lag_quota_ms``) and
    the turn's time; nothing for a move whose time does not run."""
    allowance = LagAllowance(cap_ms=int(settings.LIVE_LAG_ALLOWANCE_MS))
    previous = game.moves[-2] if len(game.moves) >= 2 else {}
    quota = int(previous.get("lag_quota_ms", allowance.start_quota_ms))
    clock = game_clock(game)
    if clock.running != side:
        return 0, quota
    credit = clock.credit(side, now, allowance.credit(rtt_ms, quota))
    return credit, allowance.quota_after(quota, credit)


def _play(
    game: LiveGame, pos: Position, move: Move, mover: str, now: datetime, rtt_ms: int | None
) -> None:
    clock = game_clock(game)
    lag, quota = _lag_credit(game, mover, rtt_ms, now)
    spent = (
        clock.stored(mover) - clock.left(mover, now, lag_ms=lag) if clock.running == mover else 0
    )
    chinese = pos.chinese(move)
    effect = pos.move_effect(move)
    pos.push(move)
    outcome = pos.outcome()
    playing = outcome is None
    clock = clock.after_move(mover, now, ply_after=game.ply + 1, playing=playing, lag_ms=lag)
    _store_clock(game, clock)
    game.moves = [
        *game.moves,
        {
            "iccs": move.iccs(),
            "chinese": chinese,
            "fen": pos.fen(),
            "effect": effect.kind,
            "check": pos.checked_general(),
            "at": now.isoformat(),
            "spent_ms": spent,
            "clock_ms": clock.stored(mover),
            "lag_ms": lag,
            "lag_quota_ms": quota,
        },
    ]
    if game.draw_offer_by and game.draw_offer_by != mover:
        game.draw_offer_by = ""  # playing on declines the opponent's offer
        game.draw_offer_ply = None
    _takeback_offer_clear(game)  # a move, by either side, cancels a takeback asked for
    if outcome is not None:
        _finish(game, outcome.termination, outcome.winner, now=now)


def live_resign(*, slug: str, owner: Owner | None, now: datetime | None = None) -> LiveGame:
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now)
        game, side = request.game, request.side
        if request.ended:
            return game
        _finish(game, "resignation", other_side(side), now=now, ended_by=side)
        game.save()
    return game


def live_abort(*, slug: str, owner: Owner | None, now: datetime | None = None) -> LiveGame:
    """Call the game off, without a result: a challenge nobody has accepted (its creator), or a
    game in which not both sides have moved yet, secret setups included (either player)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(slug)
        if game.status == LiveGame.Status.WAITING:
            if owner is None or not is_creator(game, owner):
                raise LiveRefusal.of("spectator")
            side = ""
        else:
            side = _player_side(game, owner)
            if game.status != LiveGame.Status.SETTING_UP:
                _require_status(game, LiveGame.Status.PLAYING)
            if game.ply >= FREE_PLIES:
                raise LiveRefusal.of("too_late_to_abort")
        _abort(game, side, now=now)
        game.save()
    return game


def live_draw(
    *, slug: str, owner: Owner | None, action: str, now: datetime | None = None
) -> LiveGame:
    """``action`` "offer": offer a draw (it stands until the opponent answers or moves);
    "accept" / "decline": answer the opponent's offer."""
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now)
        game, side = request.game, request.side
        if request.ended:
            return game
        if action == "offer":
            if game.draw_offer_by == side:
                raise LiveRefusal.of("draw_already_offered")
            if game.draw_offer_by == other_side(side):  # both want it: agreed
                _finish(game, "agreement", None, now=now, ended_by=side)
            else:
                game.draw_offer_by = side
                game.draw_offer_ply = game.ply
        else:
            if game.draw_offer_by != other_side(side):
                raise LiveRefusal.of("no_draw_offer")
            if action == "accept":
                _finish(game, "agreement", None, now=now, ended_by=side)
            else:
                game.draw_offer_by = ""
                game.draw_offer_ply = None
        game.save()
    return game


def _takeback_offer_clear(game: LiveGame) -> None:
    game.takeback_offer_by = ""
    game.takeback_offer_ply = None


def live_takeback(
    *, slug: str, owner: Owner | None, action: str, now: datetime | None = None
) -> LiveGame:
    """``action`` "offer": ask to take back one's own last move (one ply if the opponent is to
    move, two if the opponent has answered it); it stands until the opponent answers or a move
    is played. "accept" / "decline": answer the opponent's request. Both must agree: an
    accepted takeback undoes the plies (the board, the move list and with it the history that
    repetition, perpetual check and chase and xinban's forced variation are judged on), clears
    a draw offer standing (it was made in a position no longer on the board), and starts the
    clock of the side now to move, which is given no time back (as on Lichess); back at ply 0
    or 1 no clock runs, and the side to move has its first move's window from now.

    Refused, with nothing changed: a spectator, a game not being played (not begun, a secret
    setup, over); nothing to take back (the offerer has not moved); an offer standing already
    (one's own, or the opponent's: answer it first; two offers never ask for the same plies,
    each taking back its own player's move, so they never meet as an acceptance); an offer
    declined at this ply asked again; an answer with no request standing."""
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now)
        game, side = request.game, request.side
        if request.ended:
            return game
        if action == "offer":
            if game.takeback_offer_by == side:
                raise LiveRefusal.of("takeback_already_offered")
            if game.takeback_offer_by == other_side(side):
                raise LiveRefusal.of("takeback_offer_pending")
            if not takeback_plies(game, side):
                raise LiveRefusal.of("nothing_to_take_back")
            if game.takeback_declined.get(side) == game.ply:
                raise LiveRefusal.of("takeback_declined")
            game.takeback_offer_by = side
            game.takeback_offer_ply = game.ply
        else:
            offerer = other_side(side)
            if game.takeback_offer_by != offerer:
                raise LiveRefusal.of("no_takeback_offer")
            if action == "accept":
                _take_back(game, offerer, now)
            else:
                game.takeback_declined = {**game.takeback_declined, offerer: game.ply}
                _takeback_offer_clear(game)
        game.save()
    return game


def _take_back(game: LiveGame, offerer: str, now: datetime) -> None:
    """Undo ``offerer``'s last move (and the opponent's answer to it, if any) at ``now``."""
    plies = takeback_plies(game, offerer)
    clock = game_clock(game).stopped(now)  # the side to move is charged up to now
    before = game.ply
    game.moves = game.moves[: before - plies]
    runs = game.ply >= FREE_PLIES  # at ply 0 or 1 no clock runs (the first two plies are free)
    _store_clock(
        game, replace(clock, running=game.turn if runs else None, started_at=now if runs else None)
    )
    game.takebacks = [
        *game.takebacks,
        {"by": offerer, "from": before, "to": game.ply, "at": now.isoformat()},
    ]
    game.takeback_declined = {}
    _takeback_offer_clear(game)
    game.draw_offer_by = ""
    game.draw_offer_ply = None


def live_attack_power_claim(
    *, slug: str, owner: Owner | None, now: datetime | None = None
) -> LiveGame:
    """Declare a draw by attack power (xinban, rules.md §8.6): on the claimant's turn, when both
    sides' attack power is below the limit and the claimant's is not the lower (the games
    app's rule, ``games.services.game_attack_power_claim``). The game is drawn (termination
    ``attack_power``, ``ended_by`` the claimant), and a rated game rated as a draw.

    Refused, with nothing changed: another variant, the opponent's turn, a position the rule
    does not allow it in, a spectator, a game not being played."""
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now)
        game, side = request.game, request.side
        if request.ended:
            return game
        variant = find_variant(game.variant)
        if not variant.attack_power:
            raise LiveRefusal.of("claim_no_attack_power")
        if side != game.turn:
            raise LiveRefusal.of("not_your_turn")
        pos = shown_position(game)
        if not can_claim_draw(pos, side):
            powers = {colour: attack_power(pos, colour) for colour in ("red", "black")}
            raise LiveRefusal.of(
                "claim_not_allowed", {**powers, "limit": variant.attack_power_limit}
            )
        _finish(game, "attack_power", None, now=now, ended_by=side)
        game.save()
    return game


def live_flag_claim(*, slug: str, owner: Owner | None, now: datetime | None = None) -> LiveGame:
    """A player says the opponent's time is up: the server looks at its own clock and
    finishes the game on time, or refuses (saying how much time the opponent has)."""
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now)
        game, side = request.game, request.side
        if request.ended:
            return game
        left = game_clock(game).left(other_side(side), now)
        raise LiveRefusal.of("not_out_of_time", {"seconds": (left + 999) // 1000})


# -- secret setups --------------------------------------------------------------------------


def live_setup_submit(
    *, slug: str, owner: Owner | None, placement: Mapping[str, str], now: datetime | None = None
) -> LiveGame:
    """Hand in ``owner``'s secret half (point -> FEN letter) of a feidan game being set up.

    Refused, with nothing changed: a spectator; a game not being set up (not begun, without a
    secret setup, revealed already, over); a half handed in already this round; a piece of the
    other side; a half the rules refuse (every fault said, and listed in ``violations``). When
    both halves are in they are revealed: a void reveal (the generals facing, a general in
    check) is kept for both to see and both set up again; otherwise the game is played from
    the revealed position. No clock runs during the setup (nor before each side's first move)."""
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now, status=LiveGame.Status.SETTING_UP)
        game, side = request.game, request.side
        if request.ended:  # not while setting up (no clock runs), but the rule is the same
            return game
        info = dict(game.setup_info)
        halves = dict(info.get("halves", {}))
        if side in halves:
            raise LiveRefusal.of("setup_already_in")
        for point, letter in placement.items():
            if letter.isascii() and letter.isalpha() and letter.isupper() != (side == "red"):
                shown = point[:4]
                raise LiveRefusal.of("wrong_side", {"point": shown, "colour": side_name(side)})
        method = info["method"]
        faults = secret_half_faults(method=method, color=side, placement=placement)
        if faults:
            said = Text(
                *("".join(f"\n{f['text'][language]}" for f in faults) for language in ("zh", "en"))
            )
            raise LiveRefusal.of("illegal_setup", {"faults": said}, violations=faults)
        # Checked: every point is ASCII and named once, so the spellings fold without loss.
        halves[side] = {point.strip().lower(): letter for point, letter in placement.items()}
        info["halves"] = halves
        info["changed_at"] = now.isoformat()  # the setup's window starts again
        if len(halves) == 2:
            _reveal(game, info, now)
        game.setup_info = info
        game.save()
    return game


def _reveal(game: LiveGame, info: dict[str, Any], now: datetime) -> None:
    """Both halves are in: put them together (``info`` is the game's setup, changed here)."""
    halves = info["halves"]
    reveal = combine_secret_setups(halves["red"], halves["black"], info["method"])
    if reveal.void:
        info["void_reveals"] = [
            *info.get("void_reveals", []),
            {
                "fen": reveal.fen,
                "reasons": list(reveal.reasons),
                "text": void_reveal_text(reveal.reasons, computer=False).as_dict(),
            },
        ]
        info["round"] = info.get("round", 0) + 1
        info["halves"] = {}
        return
    info["revealed"] = True
    info["revealed_at"] = now.isoformat()
    game.start_fen = reveal.fen
    game.status = LiveGame.Status.PLAYING


# -- rematch --------------------------------------------------------------------------------


def live_rematch(
    *, slug: str, owner: Owner | None, action: str, now: datetime | None = None
) -> LiveGame:
    """Once the game is over, a player offers a rematch: a new challenge of the same game and
    clock with the colours swapped, kept on this game (its link is sent to nobody: only the
    other player may take it, by accepting here). "accept" starts it for both (two offers meet
    as an acceptance); "decline" calls it off. Returns this game."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(slug)
        side = _player_side(game, owner)
        if game.status in (LiveGame.Status.WAITING, LiveGame.Status.PLAYING):
            raise LiveRefusal.of("game_not_over")
        if not both_seated(game):
            raise LiveRefusal.of("no_rematch")
        offered_by_other = game.rematch_by == other_side(side)
        if action == "offer" and game.rematch_by == side:
            raise LiveRefusal.of("rematch_already_offered")
        if action in ("accept", "decline") and not offered_by_other:
            raise LiveRefusal.of("no_rematch_offer")
        if action != "decline" and blocked_between(game.red_user_id, game.black_user_id):
            raise LiveRefusal.of("cannot_play")
        if action == "offer" and not offered_by_other:
            options = ChallengeOptions(
                variant=game.variant,
                setup=game.setup,
                colour=other_side(side),
                base_minutes=game.base_ms // 60_000,
                increment_seconds=game.increment_ms // 1000,
                rated=game.rated,
            )
            assert owner is not None
            rematch = live_challenge_create(owner=owner, options=options)
            game.rematch_by, game.rematch_slug = side, rematch.slug
        elif action == "decline":
            LiveGame.objects.filter(slug=game.rematch_slug, status=LiveGame.Status.WAITING).update(
                status=LiveGame.Status.ABORTED, finished_at=now
            )
            game.rematch_by, game.rematch_slug = "", ""
        else:  # accepted, or offered back
            assert owner is not None
            live_challenge_accept(slug=game.rematch_slug, owner=owner, now=now)
        game.save(update_fields=["rematch_by", "rematch_slug", "updated_at"])
    return game


# -- accounts -------------------------------------------------------------------------------


def live_seats_merge(visitor_id: str, user: User) -> None:
    """A visitor who signs up or logs in keeps their seats and challenges."""
    if not visitor_id:
        return
    for prefix in ("creator", "red", "black"):
        LiveGame.objects.filter(
            **{f"{prefix}_visitor": visitor_id, f"{prefix}_user__isnull": True}
        ).update(**{f"{prefix}_user": user, f"{prefix}_visitor": None})


# -- presence -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Presence:
    """What a refresh of a seat found: whether the seat had been away (its return is news for
    everyone watching), since when the opponent's seat has been away (None: present), and
    whether the game is over (nothing more to refresh)."""

    was_away: bool
    opponent_away_since: datetime | None
    over: bool = False


def live_presence_refresh(*, slug: str, side: str, now: datetime | None = None) -> Presence:
    """A connection of ``side``'s player to game ``slug`` is open at ``now`` (it has just
    connected, or its process says so every ``LIVE_PING_SECONDS``): the seat is present until
    ``now`` + ``LIVE_PRESENCE_SECONDS``. A heartbeat rather than a count of connections: a
    server process killed with its connections leaves no count wrong behind, its seats simply
    stop being refreshed. Nothing is written once the game is over."""
    now = now or timezone.now()
    field = f"{side}_present_until"
    row = (
        LiveGame.objects.filter(slug=slug)
        .values(field, f"{other_side(side)}_present_until", "status")
        .first()
    )
    if row is None or row["status"] not in (LiveGame.Status.PLAYING, LiveGame.Status.SETTING_UP):
        over = row is None or row["status"] != LiveGame.Status.WAITING
        return Presence(was_away=False, opponent_away_since=None, over=over)
    LiveGame.objects.filter(slug=slug).update(**{field: now + presence_window()})
    opponent = row[f"{other_side(side)}_present_until"]
    return Presence(
        was_away=row[field] is not None and row[field] <= now,
        opponent_away_since=opponent if opponent is not None and opponent <= now else None,
    )


def live_presence_leave(*, slug: str, side: str, now: datetime | None = None) -> None:
    """A connection of ``side``'s player to game ``slug`` has closed: the seat is away from
    ``now``. Another page of the same player still open answers the state that says so by
    refreshing the seat (``live.consumers``), so a player with two tabs who closes one is
    away for the moment of a round trip, never long enough to be claimed against."""
    now = now or timezone.now()
    field = f"{side}_present_until"
    LiveGame.objects.filter(
        slug=slug, status=LiveGame.Status.PLAYING, **{f"{field}__gt": now}
    ).update(**{field: now})


CLAIMS = {"win": "left", "draw": "left_draw"}


def live_leave_claim(
    *, slug: str, owner: Owner | None, action: str, now: datetime | None = None
) -> LiveGame:
    """The opponent has left (no connection to the game for ``LIVE_GONE_SECONDS``): ``owner``
    claims the win (``action`` "win") or calls it a draw ("draw"); a rated game is rated then,
    once. The server judges from its own record of the seats' presence (``live.selectors.
    claim_wait_ms``), never from the claimant's word.

    Refused, with nothing changed: a spectator, a game not begun or over, a game in which not
    both sides have moved (abort it instead), an opponent present (or back: a reconnect cancels
    the claim), an opponent not away long enough yet (saying how long is left)."""
    now = now or timezone.now()
    with transaction.atomic():
        request = _player_request(slug, owner, now)
        game, side = request.game, request.side
        if request.ended:
            return game
        if game.ply < FREE_PLIES:
            raise LiveRefusal.of("claim_abort_instead")
        leaver = other_side(side)
        wait = claim_wait_ms(game, leaver, now)
        if wait is None:
            raise LiveRefusal.of("opponent_present")
        if wait > 0:
            raise LiveRefusal.of("opponent_not_gone_yet", {"seconds": (wait + 999) // 1000})
        winner = side if action == "win" else None
        _finish(game, CLAIMS[action], winner, now=now, ended_by=leaver)
        game.save()
    return game


# -- blocks ---------------------------------------------------------------------------------


def live_block(*, slug: str, owner: Owner | None) -> LiveBlock:
    """``owner`` blocks their opponent of the game ``slug``, once it is over: the two are
    never paired again (``blocked_between``) until ``owner`` unblocks. Accounts only (a visitor
    has no lasting identity). Blocking twice keeps one block. Refused: not a player of the
    game, a game not over, a visitor on either seat."""
    game = LiveGame.objects.filter(slug=slug).first()
    if game is None:
        raise LiveRefusal.of("not_found")
    side = _player_side(game, owner)
    if game.status not in (LiveGame.Status.FINISHED, LiveGame.Status.ABORTED):
        raise LiveRefusal.of("game_not_over")
    assert owner is not None
    opponent_id = getattr(game, f"{other_side(side)}_user_id")
    if owner.user is None or opponent_id is None or opponent_id == owner.user.pk:
        raise LiveRefusal.of("block_needs_accounts")
    block, _made = LiveBlock.objects.get_or_create(blocker=owner.user, blocked_id=opponent_id)
    return block


def live_unblock(*, user: User, blocked_id: int) -> None:
    """``user`` lifts their block of account ``blocked_id`` (a block by the other stays).
    Refused: no such block of ``user``'s."""
    deleted, _rows = LiveBlock.objects.filter(blocker=user, blocked_id=blocked_id).delete()
    if not deleted:
        raise LiveRefusal.of("not_blocked")
