"""A live game after its end, for its two players: it stands in their games list beside the
games against the computer, and has a replay with their missed wins and the computer's
analysis. The live app keeps the game; the games app replays and analyses it from plain data
(``games.game_analysis.AnalysedGame``); the puzzles app lists the wins each player missed
(``kind=live``). This page layer is the one that reads all three: every request names a
live game by its id and is answered only for a seated player (anyone else, a spectator
included, is told the game is not theirs, as for a game that does not exist)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.owners import Owner, owner_for_request
from core.api_helpers import operation
from core.selectors import variant_title
from core.starts import start_name
from core.throttles import client_address
from engine import VARIANTS
from games.api import GameAnalysisSerializer, game_analysis_response, refused_response
from games.game_analysis import (
    AnalysedGame,
    AnalysisBusy,
    GameNotFinished,
    game_analysis_requeue,
    live_game_analysis_get,
    live_game_analysis_request,
)
from games.queueing import TooMuchWaiting
from games.texts import result_headline
from games.views import game_rows, games_list_page, learn_page, live_replay_page, record_state
from live.models import LiveGame
from live.selectors import live_game_of_player, live_games_of, opponent_name, seat_of
from words.endings import ending_sentence
from words.texts import Text


def _opponent(game: LiveGame, side: str) -> str:
    return opponent_name(game, side) or _("a visitor")


def _record(game: LiveGame, side: str) -> AnalysedGame:
    return AnalysedGame(game.variant, game.start_fen, game.moves, (side,))


def _move_count(game: LiveGame) -> int:
    """Moves as players count them (Red's ply and Black's answer are one move)."""
    black_first = game.start_fen.split(" ")[1:2] == ["b"]
    return (game.ply + (1 if black_first else 0) + 1) // 2


def _headline(game: LiveGame, side: str) -> tuple[str, Text] | None:
    if game.status != LiveGame.Status.FINISHED or not game.termination:
        return None
    return result_headline(
        termination=game.termination, winner=game.winner or None, player=side, against="opponent"
    )


def live_rows(owner: Owner | None) -> list[dict[str, Any]]:
    """The rows of "My games" for ``owner``'s live games (``games.views.games_list_page``)."""
    language = get_language()
    rows = []
    for game in live_games_of(owner):
        side = seat_of(game, owner)
        if side is None:
            continue
        finished = game.status == LiveGame.Status.FINISHED
        result = _headline(game, side)
        rows.append(
            {
                "kind": "live",
                "created_at": game.created_at,
                "variant": variant_title(VARIANTS[game.variant]),
                "setup": start_name(game.setup),
                "side": side,
                "opponent": _opponent(game, side),
                "moves": _move_count(game),
                "status": game.status,
                "outcome": result[0] if result else "",
                "result": result[1].get(language) if result else "",
                "url": reverse("pages:live-replay", args=[game.pk])
                if finished
                else reverse("live:game", args=[game.slug]),
                "continue": not finished,
                "share_url": reverse("live:game", args=[game.slug]) if finished else "",
            }
        )
    return rows


@never_cache
@require_safe
def my_games(request: HttpRequest) -> HttpResponse:
    """My games: against the computer, at one board and live, newest first."""
    owner = owner_for_request(request, create=False)
    return games_list_page(request, game_rows(owner) + live_rows(owner))


def _not_yours(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/live_not_yours.html", status=404)


@never_cache
@require_safe
def live_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished live game's replay for one of its players: the moves, the player's missed
    wins and the computer's analysis (the game's page of the games app, given the game as
    plain data). A game still going on is not replayed here: the page says so (409) and links
    to the game."""
    found = live_game_of_player(game_id, owner_for_request(request, create=False))
    if found is None:
        return _not_yours(request)
    game, side = found
    if game.status != LiveGame.Status.FINISHED:
        return render(
            request,
            "pages/live_not_over.html",
            {"url": reverse("live:game", args=[game.slug])},
            status=409,
        )
    result = _headline(game, side)
    moves = [
        {key: entry.get(key) for key in ("iccs", "chinese", "fen", "check", "effect")}
        for entry in game.moves
    ]
    state = record_state(
        variant=game.variant,
        setup=game.setup,
        start_fen=game.start_fen,
        moves=moves,
        result=game.result,
        winner=game.winner or None,
        termination=game.termination or None,
        ending=ending_sentence(
            game.termination, game.winner or None, game.ended_by or None
        ).as_dict(),
        headline=result[1].as_dict() if result else None,
        mode="live",
        human_side=side,
        created_at=game.created_at.isoformat(),
    )
    api = {
        "analysis": reverse("pages-api:live-analysis", args=[game.pk]),
        "missed": f"{reverse('puzzles-api:missed')}?game={game.pk}&kind=live",
    }
    live = {
        "url": reverse("live:game", args=[game.slug]),
        "opponent": _opponent(game, side),
        "side": side,
    }
    return live_replay_page(
        request,
        state=state,
        record=_record(game, side),
        api=api,
        live=live,
        analysis_asked=live_game_analysis_get(live_game=game.pk, side=side) is not None,
        learn_url=reverse("pages:live-learn", args=[game.pk]),
    )


@never_cache
@require_safe
def live_learn(request: HttpRequest, game_id: int) -> HttpResponse:
    """Learn from your mistakes, in a live game: the player's own mistakes of its analysis."""
    found = live_game_of_player(game_id, owner_for_request(request, create=False))
    if found is None:
        return _not_yours(request)
    game, side = found
    return learn_page(
        request,
        record=_record(game, side),
        analysis=live_game_analysis_get(live_game=game.pk, side=side),
        orientation=side,
        local=False,
        game_url=reverse("pages:live-replay", args=[game.pk]),
        name=_("live, against {name}").format(name=_opponent(game, side)),
    )


class LiveGameAnalysisApi(APIView):
    """The computer's analysis of one of my finished live games, for me (each of its two
    players has their own): POST asks for it (202 new, 200 the one there is), GET polls it
    (404 when never asked for). Anyone who is not one of its two players, a spectator
    included, gets a 404 that says so, and nothing is asked for; 409 for a game not over or
    while another of my analyses is pending; 429 while too many of my address wait."""

    throttle_scope = "game_analysis"

    def _game(self, request: Request, game_id: int) -> tuple[LiveGame, str]:
        found = live_game_of_player(game_id, owner_for_request(request, create=False))
        if found is None:
            raise exceptions.NotFound(
                _("Not one of your live games: only its two players may see its analysis.")
            )
        return found

    @operation(
        "live_analysis_create",
        GameAnalysisSerializer,
        status=202,
        also={200: GameAnalysisSerializer},
        request=None,
        errors=(404, 409, 429),
    )
    def post(self, request: Request, game_id: int) -> Response:
        game, side = self._game(request, game_id)
        owner = owner_for_request(request)
        assert owner is not None
        try:
            analysis, new = live_game_analysis_request(
                owner=owner,
                live_game=game.pk,
                side=side,
                record=_record(game, side),
                finished=game.status == LiveGame.Status.FINISHED,
                address=client_address(request._request),
            )
        except (GameNotFinished, AnalysisBusy) as refused:
            return refused_response(refused)
        except TooMuchWaiting as full:
            return refused_response(full, status.HTTP_429_TOO_MANY_REQUESTS)
        url = reverse("pages-api:live-analysis", args=[game.pk])
        code = status.HTTP_202_ACCEPTED if new else status.HTTP_200_OK
        return game_analysis_response(analysis, url, code)

    @operation("live_analysis_get", GameAnalysisSerializer, errors=(404,))
    def get(self, request: Request, game_id: int) -> Response:
        game, side = self._game(request, game_id)
        analysis = live_game_analysis_get(live_game=game.pk, side=side)
        if analysis is None:
            raise exceptions.NotFound(_("This game has not been analysed yet."))
        game_analysis_requeue(analysis=analysis)
        url = reverse("pages-api:live-analysis", args=[game.pk])
        return game_analysis_response(analysis, url)
