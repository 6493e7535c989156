"""Writes of the games app: create a game, set up, play a move (the player's or the
computer's), resign, offer a draw, claim an attack-power draw, take back, merge a visitor's
games into an account.

Every move is checked by the engine against the position replayed from the start FEN; a
refused move changes nothing. Services that change a game lock its row
(``select_for_update``) for their whole transaction.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.owners import Owner, owner_rows_of_visitor, owner_transfer
from core.exceptions import ApplicationError, IllegalTry
from core.messages import render
from core.models import new_share_slug
from engine import (
    VARIANTS,
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    SetupError,
    can_claim_draw,
    combine_secret_setups,
    find_variant,
    random_secret_half,
)
from games.computer import (
    computer_accepts_draw,
    computer_accepts_offer_after_move,
    computer_bestmove,
    computer_evaluation,
    computer_offers_draw,
    computer_resignation,
)
from games.models import LEVELS, TAKEBACK_MAX_LEVEL, EngineAnalysis, Game, GameAnalysis
from games.queueing import MOVE, computer_pending, dispatch_moves, poll_dispatch
from games.selectors import (
    check_point,
    computer_draw_offer_pending,
    computer_judgements,
    draw_offer_pending,
    game_position,
    setup_pending_side,
)
from words.explain import explain_illegal
from words.setups import plum_blossom_info, secret_half_faults, void_reveal_text

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

SECRET_SETUPS = (Game.Setup.FIVE_SOLDIERS, Game.Setup.MIDDLE_SOLDIER)
SETUPS_BY_VARIANT: dict[str, tuple[str, ...]] = {
    "xiangqi": (Game.Setup.STANDARD,),
    "feidan": (
        Game.Setup.STANDARD,
        Game.Setup.PLUM_BLOSSOM,
        Game.Setup.FIVE_SOLDIERS,
        Game.Setup.MIDDLE_SOLDIER,
    ),
    "xinban": (
        Game.Setup.XINBAN_NEW,
        Game.Setup.XINBAN_TRADITIONAL,
        Game.Setup.XINBAN_RED_NEW,
        Game.Setup.XINBAN_BLACK_NEW,
    ),
}
CLOCK_MINUTES_MAX = 180
CLOCK_INCREMENT_MAX = 60
SEED_MAX = 2**31 - 1
# The puzzles app's task that looks for the mates missed in a finished game.
MISSED_MATES_TASK = "puzzles.missed_mates"


def _refuse(
    code: str,
    params: Mapping[str, object] | None = None,
    *,
    error: type[ApplicationError] = ApplicationError,
    **extra: Any,
) -> ApplicationError:
    """A refusal said in the reader's language (``core.messages``: ``game.<code>``); ``extra``
    keeps the short ``code`` and the sentence in both languages (``explanation``). A move the
    rules refuse is an ``IllegalTry`` (``error``): an answer, not a fault of the request."""
    full = f"game.{code}"
    explanation = {language: render(full, params, language) for language in ("zh", "en")}
    return error.coded(full, params, {"code": code, "explanation": explanation, **extra})


# -- positions, clocks ---------------------------------------------------------------------


def _other(side: str) -> str:
    return "black" if side == "red" else "red"


def _finish(
    game: Game, termination: str, winner: str | None, *, ended_by: str = "", now: datetime
) -> None:
    """Finish ``game`` (the caller saves it, in its transaction); once that commits, the game
    goes to the search for the mates missed in it."""
    transaction.on_commit(lambda: _missed_mates_send(game), robust=True)
    game.status = Game.Status.FINISHED
    game.termination = termination
    game.winner = winner or ""
    game.result = {"red": "1-0", "black": "0-1"}.get(winner or "", "1/2-1/2")
    game.ended_by = ended_by
    game.finished_at = now
    game.turn_started_at = None


def _missed_mates_send(game: Game) -> None:
    """Hand a finished game to the puzzles app's search for the mates missed in it
    (``puzzles.missed_mates``), by the task's name: the two apps do not import each other. A
    game without a move has nothing to search."""
    if not game.moves or game.status != Game.Status.FINISHED:
        return
    current_app.send_task(MISSED_MATES_TASK, kwargs={"game": missed_mates_message(game)})


def missed_mates_message(game: Game) -> dict[str, Any]:
    """What the search for missed mates is sent of a finished game: plain data."""
    return {
        "id": game.pk,
        "variant": game.variant,
        "start_fen": game.start_fen,
        "moves": game.iccs_moves,
        "mode": game.mode,
        "human_side": game.human_side,
        "level": game.level,
        "user_id": game.user_id,
        "visitor_id": game.visitor_id,
    }


def _clock_spend(game: Game, now: datetime) -> bool:
    """Charge the side to move for the time since its turn began; True if it ran out (the
    game is then finished on time). The turn's start stays until the move is recorded.

    When a turn begins (``turn_started_at``): no clock runs before the game's first ply (it
    is free, whoever plays it); the player's turn begins when the computer's move (or, at one
    board, the other player's) is written; the computer's when a worker starts its search
    (``_computer_search_started``), so that the time its move waits in the queue is nobody's."""
    if game.clock_initial_ms is None or game.turn_started_at is None:
        return False
    spent = int((now - game.turn_started_at).total_seconds() * 1000)
    side = game.turn
    field = f"{side}_clock_ms"
    left = (getattr(game, field) or 0) - spent
    setattr(game, field, max(left, 0))
    if left <= 0:
        _finish(game, "timeout", _other(side), ended_by=side, now=now)
        return True
    return False


def _clock_after_move(game: Game, mover: str, now: datetime) -> None:
    if game.clock_initial_ms is None:
        return
    field = f"{mover}_clock_ms"
    setattr(game, field, (getattr(game, field) or 0) + game.clock_increment_ms)
    running = game.status == Game.Status.PLAYING and not game.computer_to_move
    game.turn_started_at = now if running else None


def _computer_search_started(game_id: int, ply: int, now: datetime) -> None:
    """Start the computer's clock: a worker begins its search at ``ply`` (after the first ply:
    the game's first ply is free). A game that has moved on is left as it is."""
    if ply == 0:
        return
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if (
            game is not None
            and game.clock_initial_ms is not None
            and game.ply == ply
            and game.computer_to_move
        ):
            game.turn_started_at = now
            game.save(update_fields=["turn_started_at"])


def _stamp(game: Game, now: datetime) -> dict[str, Any]:
    """When a ply is played and how long its mover took: from the start of its turn (with
    clocks), else from the ply before."""
    began = game.turn_started_at
    if began is None and game.moves and game.moves[-1].get("at"):
        began = datetime.fromisoformat(game.moves[-1]["at"])
    stamp: dict[str, Any] = {"at": now.isoformat()}
    if began is not None:
        stamp["spent_ms"] = max(0, int((now - began).total_seconds() * 1000))
    return stamp


def _play(game: Game, pos: Position, move: Move, *, by: str, now: datetime) -> None:
    """Play a legal ``move`` in ``pos`` (the game's current position) and record it, with
    its time stamp (the time on the mover's clock is charged by ``_clock_spend`` first)."""
    mover = pos.turn
    stamp = _stamp(game, now)
    chinese = pos.chinese(move)
    effect = pos.move_effect(move)
    pos.push(move)
    game.moves = [
        *game.moves,
        {
            "iccs": move.iccs(),
            "chinese": chinese,
            "fen": pos.fen(),
            "effect": effect.kind,
            "captured": effect.captured,
            "defected": effect.defected,
            "check": check_point(pos),
            "by": by,
            **stamp,
        },
    ]
    outcome = pos.outcome()
    if outcome is not None:
        _finish(game, outcome.termination, outcome.winner, now=now)
    _clock_after_move(game, mover, now)
    if game.clock_initial_ms is not None:
        game.moves[-1]["clock_ms"] = getattr(game, f"{mover}_clock_ms")


def _queue_computer(game: Game, now: datetime) -> None:
    """Ask for the computer's move at the game's current ply: it waits its turn in the fair
    queue (``games.queueing``), which runs once the transaction commits."""
    game.computer_queued_at = now
    game.computer_dispatched_at = None
    transaction.on_commit(dispatch_moves)


def _check_computer_room(game: Game, owner: Owner) -> None:
    """Refuse a move or a game that would ask the computer for one more move than the owner,
    or the address, may be waiting for (``COMPUTER_PENDING_PER_OWNER`` / ``_PER_ADDRESS``)."""
    by_owner, by_address = computer_pending(
        owner_q=owner.q(), address=game.address, exclude=game.pk
    )
    if by_owner >= settings.COMPUTER_PENDING_PER_OWNER:
        raise _refuse("computer_busy", {"count": by_owner}, count=by_owner)
    if by_address >= settings.COMPUTER_PENDING_PER_ADDRESS:
        raise _refuse("computer_busy_address", {"count": by_address}, count=by_address)


def _check_open_games(owner: Owner, address: str, now: datetime) -> None:
    """Refuse a new game beyond ``GAMES_OPEN_PER_OWNER`` games in progress (not finished, and
    moved in recently: an idle one is about to be finished), or ``GAMES_OPEN_PER_ADDRESS``
    from the address."""
    open_games = Game.objects.exclude(status=Game.Status.FINISHED).filter(
        updated_at__gte=now - idle_after()
    )
    mine = open_games.filter(owner.q()).count()
    if mine >= settings.GAMES_OPEN_PER_OWNER:
        raise _refuse("too_many_games", {"count": mine}, count=mine)
    if address:
        theirs = open_games.filter(address=address).count()
        if theirs >= settings.GAMES_OPEN_PER_ADDRESS:
            raise _refuse("too_many_games_address", {"count": theirs}, count=theirs)


def idle_after() -> timedelta:
    return timedelta(minutes=settings.GAME_IDLE_MINUTES)


def _start_playing(game: Game, now: datetime) -> None:
    """The game is ready to play; no clock runs until the first ply is played."""
    game.status = Game.Status.PLAYING
    game.turn_started_at = None
    if game.computer_to_move:
        _queue_computer(game, now)


# -- creating ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameOptions:
    variant: str
    setup: str
    mode: str = Game.Mode.COMPUTER
    side: str = "red"  # red | black | random (computer games)
    level: int | None = None
    clock_minutes: int = 0
    clock_increment: int = 0


def _validate_options(options: GameOptions) -> None:
    if options.variant not in VARIANTS:
        raise ApplicationError.coded(
            "variant.unknown",
            {"name": options.variant, "known": ", ".join(sorted(VARIANTS))},
            {"field": "variant", "code": "unknown_variant"},
        )
    allowed = SETUPS_BY_VARIANT[options.variant]
    if options.setup not in allowed:
        raise ApplicationError.coded(
            "variant.unknown_start",
            {"variant": options.variant, "setup": options.setup, "known": ", ".join(allowed)},
            {"field": "setup", "code": "unknown_setup", "allowed": list(allowed)},
        )
    if options.mode not in Game.Mode.values:
        raise ApplicationError.coded(
            "game.unknown_mode",
            {"mode": options.mode, "known": ", ".join(Game.Mode.values)},
            {"field": "mode"},
        )
    if options.mode == Game.Mode.COMPUTER:
        if options.level not in LEVELS:
            raise ApplicationError.coded(
                "game.bad_level",
                {"low": min(LEVELS), "high": max(LEVELS)},
                {"field": "level", "code": "bad_level"},
            )
        if options.side not in ("red", "black", "random"):
            raise ApplicationError.coded(
                "game.bad_side", {"side": options.side}, {"field": "side", "code": "bad_side"}
            )
    if not 0 <= options.clock_minutes <= CLOCK_MINUTES_MAX:
        raise ApplicationError.coded(
            "game.clock_range", {"limit": CLOCK_MINUTES_MAX}, {"field": "clock_minutes"}
        )
    if not 0 <= options.clock_increment <= CLOCK_INCREMENT_MAX:
        raise ApplicationError.coded(
            "game.increment_range", {"limit": CLOCK_INCREMENT_MAX}, {"field": "clock_increment"}
        )


def secret_half_random(*, seed: int, round_number: int) -> random.Random:
    """The draw of the computer's secret half in one set-up round of a game.

    Keyed with the site's secret key as well as the game's seed, so that nobody outside the
    server can compute the half before arranging their own (the seed is never shown either;
    this guards it should it ever be). The same game and round always draw the same half.
    """
    key = salted_hmac("games.secret-half", f"{seed}:{round_number}", algorithm="sha256")
    return random.Random(key.hexdigest())


def _computer_half(game: Game) -> dict[str, str]:
    """The computer's secret half for the current set-up round (``secret_half_random``)."""
    info = game.setup_info
    rng = secret_half_random(seed=game.seed, round_number=info.get("round", 0))
    color = game.computer_side
    assert color is not None
    return random_secret_half(color, info["method"], rng)  # type: ignore[arg-type]


def game_create(
    *, owner: Owner, options: GameOptions, moment: datetime | None = None, address: str = ""
) -> Game:
    """Start a game, played from ``address`` (the client's). Secret setups begin in
    ``setting_up``; the others are ready to play, and when the computer has Red its first
    move is asked for at once. Refused beyond the owner's, or the address's, open games
    (``GAMES_OPEN_PER_OWNER`` / ``_PER_ADDRESS``) or pending computer moves."""
    _validate_options(options)
    now = moment or timezone.now()
    _check_open_games(owner, address, now)
    seed = secrets.randbelow(SEED_MAX)
    game = Game(
        mode=options.mode,
        variant=options.variant,
        setup=options.setup,
        seed=seed,
        address=address,
        **owner.fields(),
    )
    if options.mode == Game.Mode.COMPUTER:
        side = options.side
        if side == "random":
            side = random.Random(seed).choice(("red", "black"))
        game.human_side = side
        game.level = options.level
    if options.clock_minutes:
        game.clock_initial_ms = options.clock_minutes * 60_000
        game.clock_increment_ms = options.clock_increment * 1000
        game.red_clock_ms = game.black_clock_ms = game.clock_initial_ms
    if options.setup in SECRET_SETUPS:
        game.status = Game.Status.SETTING_UP
        game.setup_info = {"method": options.setup, "round": 0, "halves": {}, "void_reveals": []}
        game.start_fen = find_variant("feidan").default_start
        game.save()
        return game
    if options.setup == Game.Setup.PLUM_BLOSSOM:
        game.start_fen, game.setup_info = plum_blossom_info(now)
    else:
        game.start_fen = find_variant(options.variant).start_fen(options.setup)
    if game.computer_side == "red":
        _check_computer_room(game, owner)
    with transaction.atomic():
        game.save()
        _start_playing(game, now)
        game.save()
    return game


# -- secret setups -------------------------------------------------------------------------


def secret_half_violations(
    *, method: str, color: str, placement: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Every fault of a secret half, each with the engine's code and a text in both languages."""
    if method not in SECRET_SETUPS:
        raise ApplicationError.coded(
            "game.unknown_secret_setup",
            {"method": method, "known": ", ".join(SECRET_SETUPS)},
            {"field": "method"},
        )
    if color not in ("red", "black"):
        raise ApplicationError.coded("setup.bad_colour", {"found": color}, {"field": "color"})
    return secret_half_faults(method=method, color=color, placement=placement)


def game_setup_submit(*, game_id: int, owner: Owner, placement: Mapping[str, str]) -> Game:
    """Hand in one side's secret half. An illegal half is refused with every fault explained
    and nothing stored. When both halves are in they are revealed: a void reveal (generals
    facing, a general in check) is kept for the record and both sides set up again."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id, owner)
        color = setup_pending_side(game)
        if color is None:
            raise _refuse("not_setting_up")
        info = dict(game.setup_info)
        method = info["method"]
        faults = secret_half_violations(method=method, color=color, placement=placement)
        if faults:
            lines = {
                language: "".join(f"\n{f['text'][language]}" for f in faults)
                for language in ("zh", "en")
            }
            raise _refuse("illegal_setup", {"faults": lines}, violations=faults)
        # Checked: every point is ASCII and named once, so the spellings fold without loss.
        clean = {str(p).strip().lower(): str(v) for p, v in placement.items()}
        halves = dict(info.get("halves", {}))
        halves[color] = clean
        if game.mode == Game.Mode.COMPUTER:
            other = _other(color)
            halves[other] = _computer_half(game)
        info["halves"] = halves
        if "red" in halves and "black" in halves:
            try:
                reveal = combine_secret_setups(halves["red"], halves["black"], method)
            except SetupError as error:  # the computer's half is drawn legal; a bug if not
                raise ApplicationError.from_engine(error, {"code": "illegal_setup"}) from error
            if reveal.void:
                info["void_reveals"] = [
                    *info.get("void_reveals", []),
                    {
                        "fen": reveal.fen,
                        "reasons": list(reveal.reasons),
                        "text": void_reveal_text(
                            reveal.reasons, computer=game.mode == Game.Mode.COMPUTER
                        ).as_dict(),
                    },
                ]
                info["round"] = info.get("round", 0) + 1
                info["halves"] = {}
            else:
                game.start_fen = reveal.fen
                info["revealed"] = True
                game.setup_info = info
                if game.computer_side == "red":
                    _check_computer_room(game, owner)
                _start_playing(game, now)
        game.setup_info = info
        game.save()
    return game


# -- moves ---------------------------------------------------------------------------------


def _locked(game_id: int, owner: Owner) -> Game:
    game = Game.objects.select_for_update().filter(owner.q(), pk=game_id).first()
    if game is None:
        raise Http404("no such game")
    return game


def _require_playing(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise _refuse("game_over")
    if game.status == Game.Status.SETTING_UP:
        raise _refuse("setting_up")


def _explain(pos: Position, text: str, error: EngineError) -> IllegalTry:
    """Why a move the player tried is refused, as the lessons say it."""
    reason = getattr(error, "reason", str(error))
    # a Chinese move that reads as a move its piece cannot make: the engine names it in ICCS
    named = re.match(r"([a-k]\d[a-k]\d):", reason)
    try:
        move = Move.from_iccs(named.group(1) if named else text.strip())
    except (InvalidMoveError, ValueError):
        move = None
    if move is not None:
        try:
            explanation = explain_illegal(pos, move)
        except Exception:  # the explanation is a courtesy; the refusal stands without it
            logger.exception("could not explain %s in %s", text, pos.fen())
        else:
            said = explanation.text.as_dict()
            return IllegalTry.coded(
                "game.move_explained",
                {"explanation": said},
                {
                    "code": "illegal_move",
                    "explanation": said,
                    "reason": explanation.code,
                    "move": text,
                    "field": "move",
                },
            )
    said = {language: render(error.code, error.params, language) for language in ("zh", "en")}
    return IllegalTry.from_engine(
        error,
        {
            "code": "illegal_move",
            "explanation": said,
            "move": text,
            "reason": "illegal",
            "field": "move",
        },
    )


def _parse_player_move(game: Game, pos: Position, text: str) -> Move:
    if game.mode == Game.Mode.COMPUTER:
        try:
            candidate = Move.from_iccs(text.strip())
        except (InvalidMoveError, ValueError):
            candidate = None
        if candidate is not None:
            origin = text.strip()[:2]
            letter = pos.pieces().get(origin)
            if letter is not None and (letter[-1].isupper()) != (game.human_side == "red"):
                raise _refuse(
                    "wrong_side",
                    {"point": origin, "colour": game.human_side},
                    error=IllegalTry,
                    field="move",
                )
    try:
        return pos.parse_move(text)
    except IllegalMoveError as error:
        raise _explain(pos, text, error) from error
    except AmbiguousMoveError as error:
        said = {language: render(error.code, error.params, language) for language in ("zh", "en")}
        raise ApplicationError.from_engine(
            error, {"code": "ambiguous_move", "explanation": said, "field": "move"}
        ) from error
    except InvalidMoveError as error:
        raise _refuse("invalid_move", {"move": text}, field="move") from error


def game_move_play(
    *, game_id: int, owner: Owner, move: str, ply: int | None = None, address: str = ""
) -> Game:
    """Play the player's ``move`` (ICCS or Chinese). Refused, with nothing changed: a game
    that is over or being set up, the computer's turn, a move for the other side, a move
    that is not legal here (explained), a ``ply`` other than the game's (a stale board)."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id, owner)
        _require_playing(game)
        if ply is not None and ply != game.ply:
            raise _refuse("out_of_date", {"ply": game.ply}, ply=game.ply)
        if game.computer_to_move:
            raise _refuse("computer_to_move")
        if _clock_spend(game, now):
            game.save()
            return game
        pos = game_position(game)
        parsed = _parse_player_move(game, pos, move)
        declined = computer_draw_offer_pending(game)  # playing on declines it
        if address:
            game.address = address
        _play(game, pos, parsed, by="player", now=now)
        if declined is not None:
            _answer_offer(game, declined, accepted=False)
        if game.computer_to_move:
            _check_computer_room(game, owner)  # refused: nothing is written
            _queue_computer(game, now)
        game.save()
    return game


def game_computer_move(*, game_id: int, ply: int) -> str:
    """Play the computer's move at ``ply``, once: a game that has moved on, is over, or is not
    the computer's to move is left as it is. The search runs outside the transaction; the
    move is written only if the game is still exactly as it was searched.

    Before it searches, the computer answers a draw the player offered on the player's turn
    (by ``computer_accepts_draw``) and may claim an attack-power draw. With the search done
    it resigns a lost game instead of moving (``engine.play.decisions``); else it plays,
    then answers a draw offered while it was thinking (by its move's score) or offers one
    itself in a dead-even position."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "missing"
    if game.ply != ply or not game.computer_to_move or game.level is None:
        return "skipped"
    searched = game.iccs_moves
    _computer_search_started(game_id, ply, timezone.now())
    offer = draw_offer_pending(game)
    if offer is not None and offer["ply"] < game.ply and _answer_draw_offer(game_id, searched):
        return "draw_accepted"
    if _claim_attack_power(game, searched):
        return "claimed"
    best = computer_bestmove(
        variant=game.variant, fen=game.start_fen, moves=searched, level=game.level, seed=game.seed
    )
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.iccs_moves != searched or not game.computer_to_move:
            return "skipped"
        game.computer_queued_at = game.computer_dispatched_at = None
        if _clock_spend(game, now):
            game.save()
            return "timeout"
        judgement = (best.score, best.mate)
        history = [*computer_judgements(game), judgement]
        offer = draw_offer_pending(game)  # offered while it was thinking
        side = game.computer_side
        assert side is not None
        resigned = None if offer is not None else computer_resignation(history)
        if resigned is not None:
            game.end_reason = resigned
            _finish(game, "resignation", game.human_side, ended_by=side, now=now)
            game.save()
            return "resigned"
        pos = game_position(game)
        move = Move.from_iccs(best.move)
        if not pos.is_legal(move):
            raise ValueError(f"the engine chose an illegal move {best.move} in {pos.fen()}")
        _play(game, pos, move, by="computer", now=now)
        entry = dict(game.moves[-1])
        entry.update(
            {"score": best.score, "mate": best.mate, "depth": best.depth, "nodes": best.nodes}
        )
        game.moves = [*game.moves[:-1], entry]
        if game.status == Game.Status.PLAYING:
            if offer is not None:
                accepted = computer_accepts_offer_after_move(
                    judgement, letters=list(pos.pieces().values())
                )
                _answer_offer(game, offer, accepted=accepted)
                if accepted:
                    _finish(game, "agreement", None, now=now)
            elif computer_offers_draw(
                history,
                letters=list(pos.pieces().values()),
                moves_since_offer=_computer_moves_since_offer(game),
            ):
                game.draw_offers = [
                    *game.draw_offers,
                    {"ply": game.ply, "by": "computer", "accepted": None},
                ]
        game.save()
    return "played"


def _computer_moves_since_offer(game: Game) -> int | None:
    """How many moves the computer has made since its last draw offer (None: never)."""
    made = [o["ply"] for o in game.draw_offers if o.get("by") == "computer"]
    if not made:
        return None
    return sum(1 for entry in game.moves[made[-1] :] if entry["by"] == "computer")


def _answer_offer(game: Game, offer: Mapping[str, Any], *, accepted: bool) -> None:
    """Record the answer to ``offer`` (one of ``game.draw_offers``), at the game's ply."""
    answered = {**offer, "accepted": accepted, "answered_ply": game.ply}
    game.draw_offers = [answered if o == offer else o for o in game.draw_offers]


def _claim_attack_power(game: Game, searched: list[str]) -> bool:
    """The computer declares an attack-power draw (xinban) when the rule lets it and it sees
    nothing better than a draw (its evaluation is not above zero)."""
    side = game.computer_side
    if side is None or not find_variant(game.variant).attack_power:
        return False
    if not can_claim_draw(game_position(game), side):
        return False
    if computer_evaluation(variant=game.variant, fen=game.start_fen, moves=searched) > 0:
        return False
    now = timezone.now()
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.iccs_moves != searched or not locked.computer_to_move:
            return False
        _finish(locked, "attack_power", None, ended_by=side, now=now)
        locked.save()
    return True


def game_computer_requeue(*, game: Game, now: datetime | None = None) -> bool:
    """A poll of a game whose computer move is asked for and not with the workers (its turn
    may have come, or its message been lost): run the fair queue's dispatcher, unless another
    one is running; True if this game was handed over. A move handed over lately is left to
    the workers: polling it costs no dispatch."""
    if not game.computer_to_move or game.computer_queued_at is None:
        return False
    dispatched = poll_dispatch(
        task=MOVE, pk=game.pk, dispatched_at=game.computer_dispatched_at, now=now
    )
    if dispatched:
        game.refresh_from_db(fields=["computer_dispatched_at"])
    return dispatched


def game_idle_finish(*, game: Game, now: datetime | None = None) -> Game:
    """Finish a game nobody has moved in for ``GAME_IDLE_MINUTES`` (seen by a poll or the
    periodic sweep), as abandoned: the side to move (in a secret setup, the side still to
    hand in its half) loses. A timed game whose clock has run out is lost on time instead."""
    now = now or timezone.now()
    if game.status == Game.Status.FINISHED:
        return game
    game = game_clock_check(game=game, now=now)
    if game.status == Game.Status.FINISHED or now - game.updated_at < idle_after():
        return game
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status == Game.Status.FINISHED or now - locked.updated_at < idle_after():
            return locked
        if locked.status == Game.Status.SETTING_UP:
            loser = locked.human_side or setup_pending_side(locked) or "red"
        else:
            loser = locked.turn
        locked.computer_queued_at = locked.computer_dispatched_at = None
        _finish(locked, "abandoned", _other(loser), ended_by=loser, now=now)
        locked.save()
    return locked


def games_idle_finish(*, now: datetime | None = None, limit: int = 1000) -> int:
    """Finish every idle game, and every timed game whose clock has run out (the periodic
    sweep); how many were finished."""
    now = now or timezone.now()
    open_games = Game.objects.exclude(status=Game.Status.FINISHED)
    idle = open_games.filter(updated_at__lt=now - idle_after())
    timed = open_games.filter(clock_initial_ms__isnull=False, turn_started_at__isnull=False)
    finished = 0
    for game in (idle | timed).order_by("updated_at")[:limit]:
        if game_idle_finish(game=game, now=now).status == Game.Status.FINISHED:
            finished += 1
    return finished


def game_clock_check(*, game: Game, now: datetime | None = None) -> Game:
    """Finish the game on time when the side to move has run out (seen by a poll)."""
    now = now or timezone.now()
    if game.status != Game.Status.PLAYING or game.clock_initial_ms is None:
        return game
    left = getattr(game, f"{game.turn}_clock_ms") or 0
    started = game.turn_started_at or now
    if left - (now - started).total_seconds() * 1000 > 0:
        return game
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status == Game.Status.PLAYING and _clock_spend(locked, now):
            locked.save()
        return locked


# -- the other ways a game ends, and takebacks ---------------------------------------------


def _acting_side(game: Game, side: str | None) -> str:
    if game.mode == Game.Mode.COMPUTER:
        return game.human_side
    if side in ("red", "black"):
        return side
    return game.turn


def game_resign(*, game_id: int, owner: Owner, side: str | None = None) -> Game:
    """The player resigns (at one board: ``side``, else the side to move)."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id, owner)
        _require_playing(game)
        loser = _acting_side(game, side)
        _finish(game, "resignation", _other(loser), ended_by=loser, now=now)
        game.save()
    return game


def game_draw_offer(*, game_id: int, owner: Owner) -> Game:
    """Offer a draw. At one board both players are there, so the offer is an agreement.
    Against the computer: when the computer has offered a draw itself, this takes it; an
    offer on the player's turn is answered on the computer's turn, before it searches, by its
    evaluation; an offer while the computer is thinking is answered after its move, by that
    move's score (``games.computer_move``). One offer a ply."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id, owner)
        _require_playing(game)
        if game.mode == Game.Mode.LOCAL:
            _finish(game, "agreement", None, now=now)
            game.save()
            return game
        theirs = computer_draw_offer_pending(game)
        if theirs is not None:
            _answer_offer(game, theirs, accepted=True)
            _finish(game, "agreement", None, now=now)
            game.save()
            return game
        if draw_offer_pending(game) is not None or any(
            offer["ply"] == game.ply and offer.get("by", "player") == "player"
            for offer in game.draw_offers
        ):
            raise _refuse("draw_already_offered")
        game.draw_offers = [*game.draw_offers, {"ply": game.ply, "by": "player", "accepted": None}]
        game.save()
    return game


def game_draw_answer(*, game_id: int, owner: Owner, accept: bool) -> Game:
    """Accept or decline the draw the computer offered with its last move. Refused (code
    ``no_draw_offer``) when it offered none that still stands: an answer to an offer never
    made, or made before the last move, changes nothing."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id, owner)
        _require_playing(game)
        offer = computer_draw_offer_pending(game)
        if offer is None:
            raise _refuse("no_draw_offer")
        _answer_offer(game, offer, accepted=accept)
        if accept:
            _finish(game, "agreement", None, now=now)
        game.save()
    return game


def _answer_draw_offer(game_id: int, searched: list[str]) -> bool:
    """The computer answers a pending draw offer (its turn, the game as ``searched``); True
    when it accepted and the game ended."""
    game = Game.objects.get(pk=game_id)
    assert game.level is not None
    accepted = computer_accepts_draw(
        variant=game.variant, fen=game.start_fen, moves=searched, level=game.level
    )
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        offer = draw_offer_pending(game)
        if offer is None or game.iccs_moves != searched or not game.computer_to_move:
            return False
        _answer_offer(game, offer, accepted=accepted)
        if accepted:
            _finish(game, "agreement", None, now=now)
        game.save()
    return accepted


def game_attack_power_claim(*, game_id: int, owner: Owner) -> Game:
    """Declare a draw by attack power (xinban): allowed on the claimant's turn when both
    sides' attack power is below the limit and the claimant's is not the lower."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id, owner)
        _require_playing(game)
        if not find_variant(game.variant).attack_power:
            raise _refuse("claim_no_attack_power")
        claimant = _acting_side(game, None)
        if claimant != game.turn:
            raise _refuse("not_your_turn")
        if not can_claim_draw(game_position(game), claimant):
            raise _refuse("claim_not_allowed")
        _finish(game, "attack_power", None, ended_by=claimant, now=now)
        game.save()
    return game


def game_takeback(*, game_id: int, owner: Owner) -> Game:
    """Take back the player's last move (and the computer's reply to it). Against the
    computer only at levels 1-3; at one board, one ply at a time."""
    now = timezone.now()
    with transaction.atomic():
        game = _locked(game_id, owner)
        _require_playing(game)
        if game.mode == Game.Mode.LOCAL:
            plies = 1
        else:
            assert game.level is not None
            if game.level > TAKEBACK_MAX_LEVEL:
                raise _refuse("takeback_level")
            plies = 1 if game.computer_to_move else 2
        if (
            game.ply < plies
            or (plies == 2 and game.moves[-2]["by"] != "player")
            or (plies == 1 and game.mode == Game.Mode.COMPUTER and game.moves[-1]["by"] != "player")
        ):
            raise _refuse("takeback_nothing")
        game.moves = game.moves[:-plies]
        # an offer of the computer's made with a move taken back goes with it
        game.draw_offers = [
            o
            for o in game.draw_offers
            if not (o.get("by") == "computer" and o["ply"] > game.ply and o["accepted"] is None)
        ]
        game.computer_queued_at = game.computer_dispatched_at = None
        if game.clock_initial_ms is not None:
            game.turn_started_at = now if game.ply > 0 else None
        game.save()
    return game


# -- sharing -------------------------------------------------------------------------------


def game_share(*, game_id: int, owner: Owner, share: bool = True) -> Game:
    """Give a finished game a share link (the same one if it has one), or take the link away
    (``share=False``: the link stops working). A game still being played or set up cannot
    be shared: a shared game is a finished record, not a window onto a game in progress
    whose moves an onlooker could follow and advise."""
    with transaction.atomic():
        game = _locked(game_id, owner)
        if not share:
            if game.share_slug is not None:
                game.share_slug = None
                game.save(update_fields=["share_slug", "updated_at"])
            return game
        if game.status != Game.Status.FINISHED:
            raise _refuse("share_not_finished")
        if game.share_slug is None:
            game.share_slug = _free_share_slug()
            game.save(update_fields=["share_slug", "updated_at"])
    return game


def _free_share_slug() -> str:
    """A slug no game has (31**8 slugs: a clash is rare, but the column is unique)."""
    while True:
        slug = new_share_slug()
        if not Game.objects.filter(share_slug=slug).exists():
            return slug


# -- merge ---------------------------------------------------------------------------------


def game_progress_merge(visitor_id: str, user: User) -> None:
    """Move the visitor's games to ``user`` (idempotent), and their finished game analyses
    (a pending one stays the visitor's until it is done: the user may have one pending too;
    an analysis is read through its game, whoever holds the row), and their searches of the
    analysis board (``engine_analysis_merge``)."""
    owner_transfer(owner_rows_of_visitor(Game.objects.all(), visitor_id), user)
    finished = GameAnalysis.objects.exclude(status=GameAnalysis.Status.PENDING)
    owner_transfer(owner_rows_of_visitor(finished, visitor_id), user)
    engine_analysis_merge(visitor_id, user)


def engine_analysis_merge(visitor_id: str, user: User) -> None:
    """Move the visitor's searches of the analysis board (``EngineAnalysis``) to ``user``:
    the finished ones, and the pending one too unless the account has one pending (one
    pending per owner: a database constraint), so that the board, polling it after the
    sign-up, finds it the account's. A pending search that cannot move stays the visitor's,
    finishes there, and goes with the old searches (``games.analysis.engine_analysis_sweep``)."""
    searches = owner_rows_of_visitor(EngineAnalysis.objects.all(), visitor_id)
    pending = EngineAnalysis.Status.PENDING
    owner_transfer(searches.exclude(status=pending), user)
    if EngineAnalysis.objects.filter(Owner(user=user).q(), status=pending).exists():
        return
    try:
        with transaction.atomic():  # the account's other tab may ask for one at this moment
            owner_transfer(searches.filter(status=pending), user)
    except IntegrityError:
        pass
