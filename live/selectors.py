"""Live games: reads. The lobby's open seeks, the state a client is sent (the same for players and spectators: it never
holds a secret half), a player's own secret half (sent to that player alone), whose seat a
visitor holds, the position and the clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import (
    DateTimeField,
    DurationField,
    ExpressionWrapper,
    F,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Least
from django.utils import timezone

from accounts.owners import Owner
from core import glicko2
from core.selectors import variant_list, variant_title
from engine import Move, Position, attack_power, can_claim_draw
from live.clock import FREE_PLIES, Clock, elapsed_ms, other_side
from live.models import LiveBlock, LiveGame, LiveRating
from words.endings import ending_sentence


def live_game_get(slug: str) -> LiveGame | None:
    return (
        LiveGame.objects.select_related("red_user", "black_user", "creator_user")
        .filter(slug=slug)
        .first()
    )


def live_ratings_of(user_id: int | None) -> dict[str, LiveRating]:
    """An account's live ratings by variant (a variant never played rated is missing)."""
    if user_id is None:
        return {}
    return {row.variant: row for row in LiveRating.objects.filter(user_id=user_id)}


def live_rating_cards(user_id: int | None) -> list[dict[str, Any]]:
    """An account's live rating in each variant, as the profile and the dashboard show it:
    {"variant", "title", "rating" (``rating_shown``, None: no rated game yet), "games"}."""
    rows = live_ratings_of(user_id)
    cards = []
    for variant in variant_list():
        row = rows.get(variant.name)
        cards.append(
            {
                "variant": variant.name,
                "title": variant_title(variant),
                "rating": row_shown(row) if row else None,
                "games": row.games if row else 0,
            }
        )
    return cards


def rating_shown(rating: float, deviation: float, provisional: bool) -> dict[str, Any]:
    """A rating as pages show it: rounded, with its deviation and whether it is provisional
    (shown with a "?")."""
    return {"rating": round(rating), "deviation": round(deviation), "provisional": provisional}


def row_shown(row: LiveRating) -> dict[str, Any]:
    """A rating row as pages show it now (``rating_shown``), its deviation grown with the time
    since its last rated game (``LiveRating.glicko_at``)."""
    now = row.glicko_at(timezone.now())
    return rating_shown(now.rating, now.deviation, glicko2.is_provisional(now.deviation))


def live_rating_shown(user_id: int | None, variant: str) -> dict[str, Any] | None:
    """``user_id``'s live rating in ``variant`` as shown (a player never rated there starts at
    the default, provisional); None for a visitor."""
    if user_id is None:
        return None
    row = LiveRating.objects.filter(user_id=user_id, variant=variant).first()
    if row is None:
        row = LiveRating(user_id=user_id, variant=variant)
    return row_shown(row)


def _ratings(game: LiveGame) -> tuple[dict[str, Any] | None, dict[str, int] | None]:
    """A rated game's players' ratings (after the game once it has been rated, their ratings
    now before) and, once rated, each side's change (``+12``; rounded so that the ratings
    shown before and after differ by it)."""
    if not game.rated:
        return None, None
    changes = game.rating_changes or {}
    ratings: dict[str, dict[str, Any] | None]
    if changes:
        ratings = {
            side: rating_shown(change["after"], change["deviation"], change["provisional"])
            for side, change in changes.items()
        }
        diffs = {
            side: round(change["after"]) - round(change["before"])
            for side, change in changes.items()
        }
        return ratings, diffs
    ratings = {
        side: live_rating_shown(getattr(game, f"{side}_user_id"), game.variant)
        for side in ("red", "black")
    }
    return ratings, None


def seat_of(game: LiveGame, owner: Owner | None) -> str | None:
    """The side ``owner`` plays in ``game`` (None: a spectator, or a seat not yet taken)."""
    if owner is None:
        return None
    for side in ("red", "black"):
        user_id = getattr(game, f"{side}_user_id")
        visitor = getattr(game, f"{side}_visitor")
        if owner.user is not None and user_id == owner.user.pk:
            return side
        if owner.user is None and user_id is None and visitor and visitor == owner.visitor_id:
            return side
    return None


def is_creator(game: LiveGame, owner: Owner | None) -> bool:
    if owner is None:
        return False
    if owner.user is not None:
        return game.creator_user_id == owner.user.pk
    return game.creator_user_id is None and game.creator_visitor == owner.visitor_id


def creator_q(owner: Owner) -> Q:
    """The games ``owner`` created (challenges and seeks)."""
    if owner.user is not None:
        return Q(creator_user_id=owner.user.pk)
    return Q(creator_user__isnull=True, creator_visitor=owner.visitor_id)


def seated_q(owner: Owner) -> Q:
    """The games in which ``owner`` holds a seat (either colour)."""
    if owner.user is not None:
        return Q(red_user_id=owner.user.pk) | Q(black_user_id=owner.user.pk)
    visitor = owner.visitor_id
    return Q(red_user__isnull=True, red_visitor=visitor) | Q(
        black_user__isnull=True, black_visitor=visitor
    )


# -- a player's own games -------------------------------------------------------------------


def live_games_of(owner: Owner | None, *, limit: int = 200) -> list[LiveGame]:
    """The live games ``owner`` has played or is playing (a seat held, the game begun: neither
    a challenge waiting nor one called off), newest first."""
    if owner is None:
        return []
    shown = [LiveGame.Status.SETTING_UP, LiveGame.Status.PLAYING, LiveGame.Status.FINISHED]
    rows = LiveGame.objects.filter(seated_q(owner), status__in=shown)
    return list(
        rows.select_related("red_user", "black_user").order_by("-created_at", "-id")[:limit]
    )


def live_game_of_player(game_id: int, owner: Owner | None) -> tuple[LiveGame, str] | None:
    """Live game ``game_id`` with the side ``owner`` plays in it; None for a game that does
    not exist and for one ``owner`` does not play in (a spectator's, anyone else's): the two
    are not told apart."""
    game = LiveGame.objects.select_related("red_user", "black_user").filter(pk=game_id).first()
    side = seat_of(game, owner) if game is not None else None
    if game is None or side is None:
        return None
    return game, side


def opponent_name(game: LiveGame, side: str) -> str | None:
    """The name of the account on the other seat (None: a visitor)."""
    return _player_name(game, other_side(side))


# -- the lobby ------------------------------------------------------------------------------

# The open seeks the lobby lists (the newest first): more are kept, and listed as others go.
LOBBY_SEEKS_SHOWN = 100


def seek_cutoff(now: datetime) -> datetime:
    """A seek last refreshed by its creator's lobby page before this is gone
    (``LIVE_SEEK_EXPIRY_SECONDS``, 120: the page refreshes its seeks every 30 s while open)."""
    return now - timedelta(seconds=int(settings.LIVE_SEEK_EXPIRY_SECONDS))


def seek_expired(game: LiveGame, now: datetime) -> bool:
    return game.seek and (game.seek_seen_at is None or game.seek_seen_at < seek_cutoff(now))


def live_seeks_open(now: datetime | None = None) -> QuerySet[LiveGame]:
    """The lobby's open seeks at ``now``: waiting for anyone to accept, refreshed lately."""
    cutoff = seek_cutoff(now or timezone.now())
    return LiveGame.objects.filter(seek=True, status=LiveGame.Status.WAITING).filter(
        seek_seen_at__gte=cutoff
    )


def live_lobby_seeks(now: datetime | None = None) -> list[dict[str, Any]]:
    """The lobby's list: each open seek, the newest first, as the page shows it (who made it:
    the account's name, None for a visitor; their live rating in the variant if the seek is
    rated; the game, the clock, rated or casual, the colour the creator asked for) with its
    ``owner`` ({"user", "visitor"}: told to no client, each connection marks its own)."""
    seeks = list(
        live_seeks_open(now)
        .select_related("creator_user")
        .order_by("-created_at", "-id")[:LOBBY_SEEKS_SHOWN]
    )
    rated_users = {game.creator_user_id for game in seeks if game.rated and game.creator_user_id}
    rows = {
        (row.user_id, row.variant): row
        for row in LiveRating.objects.filter(user_id__in=rated_users)
    }
    listed = []
    for game in seeks:
        rating = None
        if game.rated and game.creator_user_id is not None:
            row = rows.get((game.creator_user_id, game.variant)) or LiveRating(
                user_id=game.creator_user_id, variant=game.variant
            )
            rating = row_shown(row)
        listed.append(
            {
                "slug": game.slug,
                "player": game.creator_user.username if game.creator_user else None,
                "rating": rating,
                "variant": game.variant,
                "setup": game.setup,
                "time": f"{game.base_ms // 60_000}+{game.increment_ms // 1000}",
                "rated": game.rated,
                "colour": game.colour_choice,
                "owner": {"user": game.creator_user_id, "visitor": game.creator_visitor},
            }
        )
    return listed


def game_position(game: LiveGame) -> Position:
    """The current position with the whole history (repetition is judged from it)."""
    pos = Position.from_fen(game.variant, game.start_fen)
    for entry in game.moves:
        pos.push(Move.from_iccs(entry["iccs"]))
    return pos


def shown_position(game: LiveGame) -> Position:
    """The position now, without its history: what the page is shown (legal moves and check do
    not depend on the history; the endings that do are judged on ``game_position``)."""
    return Position.from_fen(game.variant, game.moves[-1]["fen"] if game.moves else game.start_fen)


def game_clock(game: LiveGame) -> Clock:
    running = game.turn if game.turn_started_at is not None else None
    return Clock(
        red_ms=game.red_clock_ms,
        black_ms=game.black_clock_ms,
        increment_ms=game.increment_ms,
        running=running,
        started_at=game.turn_started_at,
    )


def first_move_window_ms() -> int:
    """How long the side to move has for its first move (``LIVE_FIRST_MOVE_SECONDS``, 60):
    the clocks do not run before both have moved, but a friend who accepted and left, or a
    challenger who never came back, does not hold the other forever."""
    return int(settings.LIVE_FIRST_MOVE_SECONDS) * 1000


def setup_window() -> timedelta:
    """How long a secret setup may go without a half handed in (``LIVE_SETUP_MINUTES``, 10):
    no clock runs while the players arrange their pieces, but two who both left, or one who
    never hands in, do not keep the game in its setup forever."""
    return timedelta(minutes=int(settings.LIVE_SETUP_MINUTES))


def setup_deadline(game: LiveGame) -> datetime | None:
    """When the game being set up is aborted unless a half is handed in: ``setup_window``
    after its last change (the acceptance, a half handed in, a void reveal); None for a game
    not being set up."""
    if game.status != LiveGame.Status.SETTING_UP:
        return None
    changed = (game.setup_info or {}).get("changed_at")
    began = datetime.fromisoformat(changed) if changed else game.started_at or game.updated_at
    return began + setup_window()


def first_move_deadline(game: LiveGame) -> datetime | None:
    """When the side to move must have made its first move by (``first_move_window_ms`` from
    the start of its turn: the game's start or a secret setup's reveal for Red, Red's first
    move for Black), or the game is aborted; None once both have moved, or out of play."""
    if game.status != LiveGame.Status.PLAYING or game.ply >= FREE_PLIES:
        return None
    if game.ply == 0:
        revealed = (game.setup_info or {}).get("revealed_at")
        began = datetime.fromisoformat(revealed) if revealed else game.started_at
    else:
        began = datetime.fromisoformat(game.moves[0]["at"])
    if game.takebacks:  # taken back to ply 0 or 1: the turn began again then
        taken = datetime.fromisoformat(game.takebacks[-1]["at"])
        began = taken if began is None else max(began, taken)
    if began is None:
        return None
    return began + timedelta(milliseconds=first_move_window_ms())


def live_games_due(now: datetime, *, limit: int) -> list[int]:
    """The ids of the games being played that a look at the clock at ``now`` may end (at most
    ``limit``, the longest due first): those whose running clock may have run out (its turn
    began at least the lower of the two clocks ago) and those with no clock running yet (not
    both sides have moved) whose start lies a first move's window back, and those being set up
    that have gone a setup window without a change (``setup_deadline``). A superset, read from
    the columns alone: whether each has ended is the clock's own decision
    (``live.services.live_games_sweep``)."""
    one_ms = Value(timedelta(milliseconds=1), output_field=DurationField())
    # typed at each step, so that SQLite (the embedded default) adds a duration to a time too
    lower = ExpressionWrapper(
        Least("red_clock_ms", "black_clock_ms") * one_ms, output_field=DurationField()
    )
    flag_from = ExpressionWrapper(F("turn_started_at") + lower, output_field=DateTimeField())
    window_from = now - timedelta(milliseconds=first_move_window_ms())
    playing = LiveGame.objects.filter(status=LiveGame.Status.PLAYING)
    timed = playing.filter(turn_started_at__isnull=False).alias(due=flag_from).filter(due__lte=now)
    untimed = playing.filter(turn_started_at__isnull=True, started_at__lte=window_from)
    # a setup's last change comes at or after its start: those started a window back
    setting_up = LiveGame.objects.filter(
        status=LiveGame.Status.SETTING_UP, started_at__lte=now - setup_window()
    )
    found = [
        *timed.order_by("due").values_list("pk", flat=True)[:limit],
        *untimed.order_by("started_at").values_list("pk", flat=True)[:limit],
        *setting_up.order_by("started_at").values_list("pk", flat=True)[:limit],
    ]
    return found[:limit]


def takeback_plies(game: LiveGame, side: str) -> int:
    """How many plies a takeback asked for by ``side`` now undoes: its own last move, with the
    opponent's answer if the opponent has answered (``side`` to move); 0: ``side`` has not
    moved yet, nothing to take back."""
    plies = 2 if game.turn == side else 1
    return plies if game.ply >= plies else 0


def _takeback_view(game: LiveGame) -> dict[str, Any]:
    """What everyone is shown of takebacks while the game is played: the request standing
    (who asked, at which ply, how many plies it undoes), the sides whose request was declined
    at this ply, the takeback just made (until the next move), and whether each side may ask
    now."""
    playing = game.status == LiveGame.Status.PLAYING
    offer_by = game.takeback_offer_by if playing else ""
    last = game.takebacks[-1] if game.takebacks else None
    return {
        "takeback_offer": (
            {
                "by": offer_by,
                "ply": game.takeback_offer_ply,
                "plies": takeback_plies(game, offer_by),
            }
            if offer_by
            else None
        ),
        "takeback_declined": sorted(
            side for side, ply in game.takeback_declined.items() if playing and ply == game.ply
        ),
        "takeback_last": (
            {key: last[key] for key in ("by", "from", "to")}
            if playing and last is not None and last["to"] == game.ply
            else None
        ),
        "takeback_allowed": {
            side: playing
            and not offer_by
            and bool(takeback_plies(game, side))
            and game.takeback_declined.get(side) != game.ply
            for side in ("red", "black")
        },
    }


def _attack_power_view(game: LiveGame, pos: Position) -> dict[str, Any]:
    """Xinban's attack power of each side (None in other variants, and before a position is
    on the board) and the side that may declare a draw by it now (None: nobody)."""
    if not pos.variant.attack_power or game.status == LiveGame.Status.SETTING_UP:
        return {"attack_power": None, "attack_power_claim": None}
    claimant = game.turn if game.status == LiveGame.Status.PLAYING else None
    return {
        "attack_power": {
            "red": attack_power(pos, "red"),
            "black": attack_power(pos, "black"),
            "limit": pos.variant.attack_power_limit,
        },
        "attack_power_claim": claimant
        if claimant is not None and can_claim_draw(pos, claimant)
        else None,
    }


def _first_move(game: LiveGame, now: datetime) -> dict[str, Any] | None:
    deadline = first_move_deadline(game)
    if deadline is None:
        return None
    return {"side": game.turn, "ms": elapsed_ms(now, deadline)}


def _player_name(game: LiveGame, side: str) -> str | None:
    user = getattr(game, f"{side}_user")
    return user.username if user is not None else None


def own_half(game: LiveGame, side: str | None) -> dict[str, str] | None:
    """The secret half ``side`` has handed in this round, while the game is being set up: sent
    to that player alone (a reconnect shows it again), never to the opponent or a spectator."""
    if side is None or game.status != LiveGame.Status.SETTING_UP:
        return None
    half = (game.setup_info or {}).get("halves", {}).get(side)
    return dict(half) if half is not None else None


def _setup_view(game: LiveGame) -> dict[str, Any] | None:
    """What everyone may be shown of a feidan setup: how a plum-blossom start was drawn; of a
    secret setup, which halves are in, the reveals that did not count and whether it is
    revealed, never a half before the reveal (the revealed position is then the start)."""
    info = game.setup_info or {}
    if game.setup == LiveGame.Setup.PLUM_BLOSSOM:
        return {"plum_blossom": info} if info else None
    if game.setup not in (LiveGame.Setup.FIVE_SOLDIERS, LiveGame.Setup.MIDDLE_SOLDIER):
        return None
    halves = info.get("halves", {})
    revealed = bool(info.get("revealed"))
    return {
        "method": game.setup,
        "round": info.get("round", 0),
        "ready": {side: revealed or side in halves for side in ("red", "black")},
        "void_reveals": info.get("void_reveals", []),
        "revealed": revealed,
    }


def _rematch(game: LiveGame) -> dict[str, Any] | None:
    """The rematch offered once the game is over: who offered it, and its link only once both
    play it (before, the link would let anyone take the seat offered to the other player)."""
    if not game.rematch_by:
        return None
    started = (
        LiveGame.objects.filter(slug=game.rematch_slug)
        .exclude(status=LiveGame.Status.WAITING)
        .exists()
    )
    return {"by": game.rematch_by, "slug": game.rematch_slug if started else None}


def live_game_state(game: LiveGame, *, now: datetime | None = None) -> dict[str, Any]:
    """Everything a game's page shows, as plain data: sent whole on every connect and after
    every change. Clocks are the server's, at ``now``; the page counts the running one down
    from them until the next state arrives."""
    now = now or timezone.now()
    playing = game.status == LiveGame.Status.PLAYING
    setting_up = game.status == LiveGame.Status.SETTING_UP
    pos = shown_position(game)
    clock = game_clock(game)
    ending = (
        ending_sentence(game.termination, game.winner or None, game.ended_by or None).as_dict()
        if game.status == LiveGame.Status.FINISHED
        else None
    )
    ratings, rating_change = _ratings(game)
    return {
        "slug": game.slug,
        "variant": game.variant,
        "rated": game.rated,
        # a rated game: each player's rating (None: a seat not taken yet) and, once it is over
        # with a result, each side's change
        "ratings": ratings,
        "rating_change": rating_change,
        "setup": game.setup,
        "status": game.status,
        "start_fen": game.start_fen,
        "fen": pos.fen(),
        "ply": game.ply,
        "turn": game.turn,
        "moves": [
            {key: entry[key] for key in ("iccs", "chinese", "fen", "effect", "check")}
            for entry in game.moves
        ],
        "legal_moves": sorted(move.iccs() for move in pos.legal_moves) if playing else [],
        "check": pos.checked_general() if playing else None,
        "clock": {
            "red_ms": clock.left("red", now),
            "black_ms": clock.left("black", now),
            "running": clock.running if playing else None,
            "base_ms": game.base_ms,
            "increment_ms": game.increment_ms,
        },
        "abortable": game.status == LiveGame.Status.WAITING
        or setting_up
        or (playing and game.ply < FREE_PLIES),
        "setup_info": _setup_view(game),
        # the side to move and the time it has left to make its first move (or the game is
        # aborted), while not both sides have moved
        "first_move": _first_move(game, now),
        # the seats whose player has left (no connection for a while): side -> ms until the
        # opponent may claim the win or a draw (0: now)
        "away": away_seats(game, now),
        "draw_offer": (
            {"by": game.draw_offer_by, "ply": game.draw_offer_ply}
            if playing and game.draw_offer_by
            else None
        ),
        **_takeback_view(game),
        **_attack_power_view(game, pos),
        "players": {side: _player_name(game, side) for side in ("red", "black")},
        "rematch": _rematch(game),
        "colour_choice": game.colour_choice,
        "result": game.result,
        "winner": game.winner or None,
        "termination": game.termination or None,
        "ended_by": game.ended_by or None,
        "ending": ending,
    }


# -- presence -------------------------------------------------------------------------------


def presence_window() -> timedelta:
    """How long one refresh keeps a seat present (``LIVE_PRESENCE_SECONDS``, 25): the process
    holding a player's connection refreshes it every ``LIVE_PING_SECONDS`` (10)."""
    return timedelta(seconds=int(settings.LIVE_PRESENCE_SECONDS))


def gone_after() -> timedelta:
    """How long a seat is away before its opponent may claim (``LIVE_GONE_SECONDS``, 30)."""
    return timedelta(seconds=int(settings.LIVE_GONE_SECONDS))


def presence_counts(game: LiveGame) -> bool:
    """Whether leaving can end ``game``: it is being played and both sides have moved (before,
    the first move's window calls a game off whose player is not there)."""
    return game.status == LiveGame.Status.PLAYING and game.ply >= FREE_PLIES


def seat_away_since(game: LiveGame, side: str, now: datetime) -> datetime | None:
    """Since when ``side``'s seat has had no connection to ``game`` (None: present, or never
    connected: a player who never opened the game is the first move window's)."""
    until = getattr(game, f"{side}_present_until")
    if until is None or until > now:
        return None
    return until


def claim_wait_ms(game: LiveGame, side: str, now: datetime) -> int | None:
    """Milliseconds until ``side``'s opponent may claim on ``side``'s leaving (0: now); None
    while ``side`` is present or leaving does not count."""
    since = seat_away_since(game, side, now)
    if since is None or not presence_counts(game):
        return None
    return elapsed_ms(now, since + gone_after())


def away_seats(game: LiveGame, now: datetime) -> dict[str, int]:
    """Each seat whose player has left, with the milliseconds until the opponent may claim."""
    waits = {side: claim_wait_ms(game, side, now) for side in ("red", "black")}
    return {side: wait for side, wait in waits.items() if wait is not None}


# -- blocks ---------------------------------------------------------------------------------


def blocked_between(user_id: int | None, other_id: int | None) -> bool:
    """Whether either of two accounts has blocked the other (a visitor is never blocked)."""
    if user_id is None or other_id is None:
        return False
    return LiveBlock.objects.filter(
        Q(blocker_id=user_id, blocked_id=other_id) | Q(blocker_id=other_id, blocked_id=user_id)
    ).exists()


PAIR_GAMES_ANNOUNCED = 20


def pair_games_over(user_id: int, other_id: int) -> list[LiveGame]:
    """The latest games over between two accounts, either colour, newest first (at most
    ``PAIR_GAMES_ANNOUNCED``): the pages a block or an unblock may find open, each of which
    offers a rematch or not by ``rematch_possible``."""
    pair = Q(red_user_id=user_id, black_user_id=other_id) | Q(
        red_user_id=other_id, black_user_id=user_id
    )
    over = (LiveGame.Status.FINISHED, LiveGame.Status.ABORTED)
    games = LiveGame.objects.filter(pair, status__in=over).order_by(
        F("finished_at").desc(nulls_last=True), "-id"
    )
    return list(games[:PAIR_GAMES_ANNOUNCED])


def both_seated(game: LiveGame) -> bool:
    """Whether both seats are held (an account or a visitor each; a seat whose account was
    deleted is empty)."""
    return all(
        getattr(game, f"{side}_user_id") is not None or getattr(game, f"{side}_visitor")
        for side in ("red", "black")
    )


def rematch_possible(game: LiveGame) -> bool:
    """Whether a rematch of ``game`` may be offered or accepted now: the game is over, both
    seats are held, and neither player has blocked the other (``blocked_between``: which of
    them did is not said). What a player's page is told (``rematch_allowed``: the Rematch
    button is offered only then) and what ``live_rematch`` refuses are the same rule."""
    if game.status not in (LiveGame.Status.FINISHED, LiveGame.Status.ABORTED):
        return False
    return both_seated(game) and not blocked_between(game.red_user_id, game.black_user_id)


def blocked_by(user_id: int, other_id: int) -> bool:
    """Whether ``user_id`` has blocked ``other_id`` (one way: what its pages show it)."""
    return LiveBlock.objects.filter(blocker_id=user_id, blocked_id=other_id).exists()


def blocked_user_ids(user_id: int | None) -> frozenset[int]:
    """The accounts ``user_id`` is never paired with: those it blocked and those that blocked
    it."""
    if user_id is None:
        return frozenset()
    pairs = LiveBlock.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
    return frozenset(
        other
        for blocker, blocked in pairs.values_list("blocker_id", "blocked_id")
        for other in (blocker, blocked)
        if other != user_id
    )


def live_blocks_of(user_id: int | None) -> list[LiveBlock]:
    """The accounts ``user_id`` has blocked, newest first (their profile lists them)."""
    if user_id is None:
        return []
    return list(LiveBlock.objects.filter(blocker_id=user_id).select_related("blocked"))
