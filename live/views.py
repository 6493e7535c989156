"""The live-play pages: a challenge to send a friend (/play/live/), the lobby of open seeks
(/play/live/lobby/), and one live game (/play/live/<slug>/: the challenge to accept, the
game, or the game watched). The pages hold
no rule: the game page talks to the server over its WebSocket (live.consumers)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.owners import owner_for_request
from core.selectors import variant_title
from core.starts import start_name
from engine import VARIANTS
from live.broadcast import live_game_announce, live_lobby_announce
from live.clock import other_side
from live.models import LiveGame
from live.selectors import (
    blocked_by,
    is_creator,
    live_game_get,
    live_rating_shown,
    opponent_name,
    pair_games_over,
    seat_of,
)
from live.services import (
    SETUPS_BY_VARIANT,
    ChallengeOptions,
    LiveRefusal,
    live_block,
    live_challenge_accept,
    live_challenge_create,
    live_unblock,
)

# The time controls offered: (minutes, increment seconds).
TIME_CONTROLS = [(3, 2), (5, 3), (10, 5), (15, 10), (30, 0)]
DEFAULT_TIME_CONTROL = "10+5"
# What the form of a challenge or a seek has chosen when it opens.
DEFAULT_CHOICES = {
    "game": "xiangqi:standard",
    "colour": "random",
    "time": DEFAULT_TIME_CONTROL,
    "mode": "casual",
}


def _game_choices() -> list[dict[str, str]]:
    """Each variant with each of its starts, as one choice ("xinban:new")."""
    choices = []
    for variant, setups in SETUPS_BY_VARIANT.items():
        for setup in setups:
            title = variant_title(VARIANTS[variant])
            label = title if len(setups) == 1 else f"{title} · {start_name(setup)}"
            choices.append({"value": f"{variant}:{setup}", "label": label})
    return choices


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1


# A challenge's mode: rated (both players need an account) or casual.
MODES = ("casual", "rated")


def _options(data: Any) -> ChallengeOptions:
    variant, _sep, setup = str(data.get("game", "")).partition(":")
    minutes, _plus, increment = str(data.get("time", "")).partition("+")
    mode = str(data.get("mode", "casual"))
    if mode not in MODES:
        raise LiveRefusal.of("bad_options", {"reason": f"mode {mode[:16]!r}"}, field="mode")
    return ChallengeOptions(
        variant=variant,
        setup=setup,
        colour=str(data.get("colour", "")),
        base_minutes=_int(minutes),
        increment_seconds=_int(increment),
        rated=mode == "rated",
    )


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """Play a friend: choose the game, the colour and the clock; get a link to send."""
    error = None
    chosen = dict(DEFAULT_CHOICES)
    if request.method == "POST":
        chosen.update({key: str(request.POST.get(key, "")) for key in chosen})
        owner = owner_for_request(request)
        assert owner is not None
        try:
            game = live_challenge_create(owner=owner, options=_options(request.POST))
        except LiveRefusal as refusal:
            error = refusal.extra["message"]
        else:
            return HttpResponseRedirect(reverse("live:game", args=[game.slug]))
    context = {**_form_context(request, chosen), "error": error}
    return render(request, "live/new.html", context, status=400 if error else 200)


def _form_context(request: HttpRequest, chosen: dict[str, str]) -> dict[str, Any]:
    """What the form of a challenge or a seek offers, with the choices ``chosen``."""
    return {
        "games": _game_choices(),
        "time_controls": [f"{m}+{i}" for m, i in TIME_CONTROLS],
        "chosen": chosen,
        "signed_in": request.user.is_authenticated,
    }


@never_cache
@require_http_methods(["GET", "HEAD"])
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: the open seeks, live (over /ws/live/lobby/); make one, or accept another's."""
    owner_for_request(request)  # a visitor's session has its id before the socket opens
    setups = {setup for choices in SETUPS_BY_VARIANT.values() for setup in choices}
    page = {
        "socket": "/ws/live/lobby/",
        "signed_in": request.user.is_authenticated,
        "labels": {
            "variants": {name: variant_title(VARIANTS[name]) for name in SETUPS_BY_VARIANT},
            "setups": {setup: start_name(setup) for setup in sorted(setups)},
            "colours": {
                "red": _("plays Red"),
                "black": _("plays Black"),
                "random": _("colour at random"),
            },
            "rated": _("rated"),
            "casual": _("casual"),
            "visitor": _("visitor"),
            "yours": _("your seek"),
            "accept": _("Accept and play"),
            "cancel": _("Cancel"),
            "provisional": _("provisional rating: few games yet"),
            "connecting": _("Connecting…"),
            "reconnecting": _("Connection lost: reconnecting…"),
            "empty": _("No open seeks: make one, and it shows here for everyone."),
            "count": _("Open seeks: {n}"),
        },
    }
    context = {**_form_context(request, dict(DEFAULT_CHOICES)), "page": page}
    return render(request, "live/lobby.html", context)


def _labels() -> dict[str, Any]:
    return {
        "red": _("Red"),
        "black": _("Black"),
        "you": _("you"),
        "anonymous": _("Anonymous"),
        "your_turn": _("Your move."),
        "their_turn": _("Your opponent's move."),
        "check_your_turn": _("Check! Your move."),
        "to_move": _("{side} to move."),
        "check_to_move": _("Check! {side} to move."),
        "waiting": _("Waiting for your friend to open the link and accept."),
        "waiting_spectator": _("This challenge has not been accepted yet."),
        "aborted": _("The game was aborted: no result."),
        "aborted_no_first_move": _(
            "{side} made no first move in time: the game was aborted, no result."
        ),
        "aborted_setup_abandoned": _(
            "No setup was handed in for {minutes} minutes: the game was aborted, no result."
        ).replace("{minutes}", str(settings.LIVE_SETUP_MINUTES)),
        "aborted_setup_abandoned_by": _(
            "{side} handed in no setup for {minutes} minutes: the game was aborted, no result."
        ).replace("{minutes}", str(settings.LIVE_SETUP_MINUTES)),
        "setup_window": _(
            "Hand in your half within {minutes} minutes of the last change, or the game is aborted."
        ).replace("{minutes}", str(settings.LIVE_SETUP_MINUTES)),
        "first_move_yours": _("Make your first move within {seconds} s, or the game is aborted."),
        "first_move_theirs": _(
            "{side} has {seconds} s to make a first move, or the game is aborted."
        ),
        "you_play": _("You play {side}."),
        "watching": _("You are watching this game."),
        "draw_offered_by_you": _("You offered a draw."),
        "draw_offered_to_you": _("Your opponent offers a draw."),
        "draw_offered": _("{side} offers a draw."),
        "takeback_offered_by_you": _("You asked to take back your last move."),
        "takeback_offered_to_you": _("Your opponent asks to take back their last move."),
        "takeback_offered_to_you_2": _(
            "Your opponent asks to take back their last move and your answer to it."
        ),
        "takeback_offered": _("{side} asks to take back their last move."),
        "takeback_declined_yours": _(
            "Your takeback was declined: you may ask again after the next move."
        ),
        "takeback_declined": _("{side}'s takeback was declined."),
        "takeback_made_yours": _("Your move was taken back: play again."),
        "takeback_made": _("{side}'s move was taken back."),
        "attack_power": _("Attack power: Red {red}, Black {black}"),
        "attack_power_rule": _(
            "When both are below {limit}, the side to move may claim a draw unless it has less."
        ),
        "confirm_claim": _("Claim a draw by attack power? The game ends as a draw."),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost: reconnecting…"),
        "confirm_resign": _("Resign this game?"),
        "confirm_move": _("Send the move {move}? Your clock runs meanwhile."),
        "ply": _("Move {n} ({side})"),
        "rematch_offered_by_you": _("You offered a rematch, colours swapped."),
        "rematch_offered_to_you": _("Your opponent offers a rematch, colours swapped."),
        "rematch_offered": _("{side} offers a rematch."),
        "rematch_started": _("The rematch has begun."),
        "setup_help": _(
            "Drag your pieces to arrange your half; drop a piece on another of yours to swap "
            "them. Your opponent arranges theirs unseen: neither half is shown to anyone until "
            "both are in. No clock runs meanwhile."
        ),
        "setup_yours": _("Arrange your half, then hand it in."),
        "setup_waiting": _("Your setup is in: waiting for your opponent's."),
        "setup_watching": _("Both players are arranging their pieces in secret."),
        "setup_legal": _("Your setup is legal."),
        "setup_opponent_in": _("Your opponent's setup is in."),
        "setup_opponent_not_in": _("Your opponent is still arranging."),
        "setup_sides_in": _("Setups handed in: {sides}."),
        "provisional": _("provisional rating: few games yet"),
        "rating_change": _("Rating: {rating} ({change})"),
        "plum_hexagram": _("Drawn from the moment the game began ({lunar}): {hexagram}."),
        "opponent_left": _("Your opponent left the game."),
        "claim_in": _("You can claim the win in {seconds} s."),
        "claim_now": _("You can claim the win, or call it a draw."),
        "side_left": _("{side} left the game."),
        "effects": {
            "collision": _("collision"),
            "self_destruct": _("self-destruct"),
            "cannon_takes_missile": _("cannon takes missile"),
            "defection": _("defection"),
        },
    }


@never_cache
@require_http_methods(["GET", "HEAD"])
def game(request: HttpRequest, slug: str) -> HttpResponse:
    """One live game: for its creator, the link to send while it waits; for anyone else, the
    challenge to accept; then the game (players play, everyone else watches)."""
    game = live_game_get(slug)
    if game is None:
        return render(request, "live/missing.html", status=404)
    owner = owner_for_request(request, create=False)
    return _game_page(request, game, owner)


def _game_page(
    request: HttpRequest, game: LiveGame, owner: Any, *, error: dict[str, str] | None = None
) -> HttpResponse:
    waiting = game.status == LiveGame.Status.WAITING
    user = getattr(owner, "user", None)
    # a rated challenge is accepted by an account only: a visitor is asked to sign in first
    needs_sign_in = waiting and game.rated and user is None and not is_creator(game, owner)
    page = {
        "slug": game.slug,
        "variant": game.variant,
        "start_fen": game.start_fen,
        # a secret setup shows no piece until the socket sends the player's own half
        "setting_up": game.status == LiveGame.Status.SETTING_UP,
        "socket": f"/ws/live/{game.slug}/",
        "board_module": static("build/board.js"),
        "board_label": variant_title(VARIANTS[game.variant]),
        "labels": _labels(),
        # checks a secret half as it is arranged (the engine's rules; handing it in is judged
        # again by the game's own service)
        "setup_check": reverse("games-api:setup-check"),
    }
    context = {
        "game": game,
        "page": page,
        "variant_title": variant_title(VARIANTS[game.variant]),
        "setup_label": start_name(game.setup),
        "time_control": f"{game.base_ms // 60_000}+{game.increment_ms // 1000}",
        "creator": is_creator(game, owner),
        "seat": seat_of(game, owner),
        "can_accept": waiting and not is_creator(game, owner) and not needs_sign_in,
        "needs_sign_in": needs_sign_in,
        "challenger_rating": (
            live_rating_shown(game.creator_user_id, game.variant) if game.rated else None
        ),
        "link": request.build_absolute_uri(reverse("live:game", args=[game.slug])),
        "error": error,
        "block_offer": _block_offer(game, owner),
    }
    return render(request, "live/game.html", context, status=409 if error else 200)


@require_POST
def accept(request: HttpRequest, slug: str) -> HttpResponse:
    """Accept the challenge: take the other seat, then play on the game's page."""
    game = live_game_get(slug)
    if game is None:
        return render(request, "live/missing.html", status=404)
    owner = owner_for_request(request)
    assert owner is not None
    try:
        accepted = live_challenge_accept(slug=slug, owner=owner)
    except LiveRefusal as refusal:
        return _game_page(request, game, owner, error=refusal.extra["message"])
    # The game has begun in the database. The pages open are told if the channel layer can be
    # reached (a failure is logged; they are sent the game when their sockets reconnect).
    if live_game_announce(accepted):  # the challenger's page begins the game
        live_lobby_announce(accepted)  # a seek taken by its link, or the players' seeks closed
    return HttpResponseRedirect(reverse("live:game", args=[slug]))


def _block_offer(game: LiveGame, owner: Any) -> dict[str, Any] | None:
    """What the game's page offers its player once the game is over: to block the opponent
    (an account blocking an account; None for a spectator, a visitor, a visitor opponent).
    ``name`` is None while the challenge waits: the page names the opponent once it knows."""
    user = getattr(owner, "user", None)
    if user is None:
        return None
    if game.status == LiveGame.Status.WAITING and is_creator(game, owner):
        # The challenger's page, open before anyone accepts (its seat may not be drawn yet):
        # the game comes to it over its socket, and with it the opponent's name (none for a
        # visitor: no block then).
        return {"name": None, "blocked": False, "over": False}
    side = seat_of(game, owner)
    if side is None:
        return None
    opponent_id = getattr(game, f"{other_side(side)}_user_id")
    if opponent_id is None or opponent_id == user.pk:
        return None
    over = game.status in (LiveGame.Status.FINISHED, LiveGame.Status.ABORTED)
    return {
        "name": opponent_name(game, side),
        "blocked": blocked_by(user.pk, opponent_id),
        "over": over,
    }


@require_POST
def block(request: HttpRequest, slug: str) -> HttpResponse:
    """Block the opponent of this finished game: the two are never paired again."""
    game = live_game_get(slug)
    if game is None:
        return render(request, "live/missing.html", status=404)
    owner = owner_for_request(request, create=False)
    try:
        block = live_block(slug=slug, owner=owner)
    except LiveRefusal as refusal:
        return _game_page(request, game, owner, error=refusal.extra["message"])
    # both players' open pages of this game and of the pair's other games over stop offering
    # a rematch (as a reload would; a failure is logged)
    _announce_pair(block.blocker_id, block.blocked_id)
    return HttpResponseRedirect(reverse("live:game", args=[slug]))


def _announce_pair(user_id: int, other_id: int) -> None:
    for game in pair_games_over(user_id, other_id):
        live_game_announce(game)


@require_POST
def unblock(request: HttpRequest, user_id: int) -> HttpResponse:
    """Lift one's block of an account (from the profile page), then back to the profile."""
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse('accounts:login')}?next={reverse('pages:profile')}")
    try:
        live_unblock(user=request.user, blocked_id=user_id)
    except LiveRefusal as refusal:
        return render(request, "live/refused.html", {"error": refusal.extra["message"]}, status=404)
    # the pair's open game pages offer a rematch again, unless the other blocks too
    _announce_pair(request.user.pk, user_id)
    return HttpResponseRedirect(reverse("pages:profile"))
