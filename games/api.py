"""The games JSON API (under /api/games/): one view per operation. Each parses, calls one
service or selector, and answers the game as the play page shows it. Another player's game
is a 404, like a missing one."""

from __future__ import annotations

from typing import Any, ClassVar

from django.urls import reverse
from django.utils.translation import get_language
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.owners import Owner, owner_for_request
from core.api_helpers import (
    SizedDictField,
    found_or_404,
    operation,
    post_operation,
    request_body,
    request_query,
)
from core.exceptions import ApplicationError, error_body
from core.models import Variant
from core.services import MAX_MOVES
from core.throttles import client_address
from games import selectors, services
from games.analysis import (
    ANALYSIS_MIN_NODES,
    AnalysisBusy,
    analysis_next_nodes,
    engine_analysis_get,
    engine_analysis_request,
    engine_analysis_requeue,
)
from games.game_analysis import AnalysisBusy as GameAnalysisBusy
from games.game_analysis import (
    GameNotFinished,
    game_analysis_get,
    game_analysis_request,
    game_analysis_requeue,
)
from games.models import EngineAnalysis, Game, GameAnalysis
from games.queueing import TooMuchWaiting


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="the game's page")
    mode = serializers.CharField(help_text="computer or local (two players, one board)")
    variant = serializers.CharField()
    setup = serializers.CharField()
    level = serializers.IntegerField(allow_null=True)
    human_side = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text="setting_up, playing or finished")
    result = serializers.CharField(help_text="1-0, 0-1, 1/2-1/2 or empty")
    winner = serializers.CharField(allow_null=True)
    termination = serializers.CharField(allow_null=True)
    outcome = serializers.CharField(
        allow_null=True,
        help_text="a finished game from the player's side: won, lost or draw (at one board "
        "red_won, black_won or draw); null while it goes on",
    )
    headline = serializers.JSONField(
        allow_null=True, help_text='the result as said first, {zh, en}: "You won — checkmate"'
    )
    plies = serializers.IntegerField()
    created_at = serializers.CharField(allow_null=True)


class GameSerializer(GameSummarySerializer):
    start_fen = serializers.CharField()
    moves = serializers.JSONField(help_text="one entry a ply: iccs, chinese, fen, effect, check")
    turn = serializers.CharField()
    computer_side = serializers.CharField(allow_null=True)
    thinking = serializers.BooleanField(help_text="the computer's move is being computed")
    setup_info = serializers.JSONField()
    ending = serializers.JSONField(help_text="how the game ended, {zh, en}, or null")
    ended_by = serializers.CharField(allow_null=True)
    clock = serializers.JSONField(allow_null=True)
    takeback_allowed = serializers.BooleanField()
    fen = serializers.CharField(help_text="the position now")
    legal_moves = serializers.ListField(child=serializers.CharField())
    board_moves = serializers.ListField(child=serializers.CharField())
    check = serializers.CharField(allow_null=True)
    attack_power = serializers.JSONField(allow_null=True)
    can_claim_draw = serializers.BooleanField()
    draw_offered_this_ply = serializers.BooleanField()
    draw_offer = serializers.JSONField(
        allow_null=True,
        help_text="my last draw offer: {ply, accepted (null: not answered), answered_ply}",
    )
    computer_draw_offer = serializers.JSONField(
        allow_null=True,
        help_text="the computer's draw offer made with its last move, still to be answered "
        "(POST draw/answer/), or null",
    )
    end_reason = serializers.JSONField(
        allow_null=True,
        help_text="why the computer resigned: {reason: mate | lost, moves, mate, score}",
    )
    share_url = serializers.CharField(
        allow_null=True, help_text="the finished game's share link (POST share/), or null"
    )


def _owner(request: Request) -> Owner:
    owner = owner_for_request(request)
    assert owner is not None
    return owner


def _answer(game: Game, code: int = status.HTTP_200_OK, **extra: Any) -> Response:
    body = selectors.game_state(game, language=get_language())
    body.update(extra)
    return Response(body, status=code)


class GameActionApi(APIView):
    """An operation on one of my games (another's is a 404, like a missing one): the body read
    through ``InputSerializer`` (no body when ``None``), one service called by ``act``, and the
    game answered as the play page shows it (``OutputSerializer``)."""

    InputSerializer: ClassVar[type[serializers.Serializer] | None] = None
    OutputSerializer: ClassVar[type[serializers.Serializer]] = GameSerializer

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        raise NotImplementedError

    def post(self, request: Request, game_id: int) -> Response:
        body = request_body(self.InputSerializer, request) if self.InputSerializer else {}
        return _answer(self.act(game_id=game_id, owner=_owner(request), body=body))


class GameListCreateApi(APIView):
    """My games (newest first), and starting a new one."""

    class CreateSerializer(serializers.Serializer):
        mode = serializers.ChoiceField(choices=Game.Mode.values, default=Game.Mode.COMPUTER)
        variant = serializers.ChoiceField(choices=Variant.choices)
        setup = serializers.CharField(
            required=False,
            help_text="xiangqi: standard; feidan: standard, plum_blossom, five_soldiers, "
            "middle_soldier; xinban: new, traditional, red-new, black-new",
        )
        side = serializers.ChoiceField(choices=["red", "black", "random"], default="red")
        level = serializers.IntegerField(min_value=1, max_value=8, required=False)
        clock_minutes = serializers.IntegerField(min_value=0, max_value=180, default=0)
        clock_increment = serializers.IntegerField(min_value=0, max_value=60, default=0)

    class ListParams(serializers.Serializer):
        limit = serializers.IntegerField(min_value=1, max_value=100, default=50)
        offset = serializers.IntegerField(min_value=0, max_value=100000, default=0)

    throttle_scope = "games"

    @operation(
        "games_list", GameSummarySerializer(many=True), errors=(400,), parameters=[ListParams]
    )
    def get(self, request: Request) -> Response:
        params = request_query(self.ListParams, request)
        games = selectors.game_list(
            owner=owner_for_request(request, create=False),
            limit=params["limit"],
            offset=params["offset"],
        )
        return Response([selectors.game_summary(g) for g in games])

    @operation(
        "games_create", GameSerializer, status=201, request=CreateSerializer, errors=(400, 429)
    )
    def post(self, request: Request) -> Response:
        data = request_body(self.CreateSerializer, request)
        variant = data["variant"]
        default_setup = "new" if variant == "xinban" else "standard"
        options = services.GameOptions(
            mode=data["mode"],
            variant=variant,
            setup=data.get("setup") or default_setup,
            side=data["side"],
            level=data.get("level", 1 if data["mode"] == Game.Mode.COMPUTER else None),
            clock_minutes=data["clock_minutes"],
            clock_increment=data["clock_increment"],
        )
        game = services.game_create(
            owner=_owner(request), options=options, address=client_address(request._request)
        )
        return _answer(game, status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    """One of my games as the page shows it; polled while the computer thinks (a computer
    move whose message was lost is queued again)."""

    @operation("games_get", GameSerializer, errors=(404,))
    def get(self, request: Request, game_id: int) -> Response:
        game = found_or_404(
            selectors.game_get(owner=owner_for_request(request, create=False), game_id=game_id)
        )
        game = services.game_idle_finish(game=game)
        services.game_computer_requeue(game=game)
        return _answer(game)


@post_operation("games_move", illegal=True)
class GameMoveApi(GameActionApi):
    """Play a move (ICCS ``h2e2`` or Chinese ``炮二平五``). A move the rules do not allow is an
    answer (200) with ``legal: false`` and the reason in ``error`` (``extra.code``: illegal_move
    with the rule explained, or wrong_side); a move that cannot be read or played now answers
    400 (``extra.code``: invalid_move, ambiguous_move, computer_to_move, game_over,
    out_of_date ...). Either way nothing changes."""

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "Move"

        move = serializers.CharField(max_length=32)
        ply = serializers.IntegerField(
            min_value=0, max_value=100000, required=False, help_text="the ply the board shows"
        )

    throttle_scope = "game_moves"

    def post(self, request: Request, game_id: int) -> Response:
        body = request_body(self.InputSerializer, request)
        game = services.game_move_play(
            game_id=game_id,
            owner=_owner(request),
            move=body["move"],
            ply=body.get("ply"),
            address=client_address(request._request),
        )
        return _answer(game)


class LetterField(serializers.CharField):
    """A FEN letter: a string (a number is not read as one)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class PlacementSerializer(serializers.Serializer):
    placement = SizedDictField(
        child=LetterField(max_length=2),
        max_length=110,  # the points of the largest board
        help_text='point -> FEN letter of one side\'s twenty pieces, e.g. {"f0": "K"}',
    )

    def validate_placement(self, value: dict[str, str]) -> dict[str, str]:
        if not value:  # also a form without the field: DRF reads it as an empty dict
            # DRF's own sentence, in the reader's language
            required = self.fields["placement"].error_messages["required"]
            raise serializers.ValidationError(required, code="required")
        return value


@post_operation("games_setup")
class GameSetupApi(GameActionApi):
    """Hand in my secret half. Faults are answered 400 with every violation explained; a void
    reveal is answered 200 with the game still being set up and the reveal in
    ``setup_info.void_reveals``."""

    InputSerializer = PlacementSerializer
    throttle_scope = "game_moves"

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        return services.game_setup_submit(game_id=game_id, owner=owner, placement=body["placement"])


class SetupCheckApi(APIView):
    """Check a secret half without handing it in: every violation, explained."""

    class CheckSerializer(PlacementSerializer):
        method = serializers.ChoiceField(choices=["five_soldiers", "middle_soldier"])
        color = serializers.RegexField(r"^(red|black)$", help_text="red or black")

    class ViolationSerializer(serializers.Serializer):
        point = serializers.CharField(allow_null=True)
        code = serializers.CharField()
        text = serializers.DictField(child=serializers.CharField())

    class AnswerSerializer(serializers.Serializer):
        legal = serializers.BooleanField()
        violations = serializers.ListField(child=serializers.DictField())

    throttle_scope = "setup_checks"

    @operation("games_setup_check", AnswerSerializer, request=CheckSerializer, errors=(400,))
    def post(self, request: Request) -> Response:
        data = request_body(self.CheckSerializer, request)
        violations = services.secret_half_violations(
            method=data["method"], color=data["color"], placement=data["placement"]
        )
        return Response({"legal": not violations, "violations": violations})


@post_operation("games_resign")
class GameResignApi(GameActionApi):
    """Resign (at one board: ``color``, or the side to move)."""

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "Resign"

        color = serializers.RegexField(r"^(red|black)$", required=False, help_text="red or black")

    throttle_scope = "game_actions"

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        return services.game_resign(game_id=game_id, owner=owner, side=body.get("color"))


@post_operation("games_draw_offer")
class GameDrawApi(GameActionApi):
    """Offer a draw (the offer is in ``draw_offer``; ``accepted`` stays null until it is
    answered). Offered on my turn, the computer answers on its turn before it moves, by its
    evaluation; offered while it thinks, it answers after its move, by that move's score.
    When the computer has offered a draw (``computer_draw_offer``) this accepts it; at one
    board the offer is an agreement."""

    throttle_scope = "game_draws"

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        return services.game_draw_offer(game_id=game_id, owner=owner)


@post_operation("games_draw_answer")
class GameDrawAnswerApi(GameActionApi):
    """Accept or decline the draw the computer offered with its last move
    (``computer_draw_offer``). With no such offer standing the answer is 400, code
    ``no_draw_offer``, and nothing changes. Playing a move declines it too."""

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "Answer"

        accept = serializers.BooleanField(help_text="true: a draw by agreement; false: play on")

    throttle_scope = "game_actions"

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        return services.game_draw_answer(game_id=game_id, owner=owner, accept=body["accept"])


@post_operation("games_attack_power_claim")
class GameClaimApi(GameActionApi):
    """Declare a draw by attack power (xinban), when the rule allows it."""

    throttle_scope = "game_actions"

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        return services.game_attack_power_claim(game_id=game_id, owner=owner)


@post_operation("games_share")
class GameShareApi(GameActionApi):
    """Share my finished game: its link (``share_url``) opens a replay anyone can watch, and
    asking again gives the same link. ``share: false`` takes the link back (it then answers
    404). A game not finished is refused (400, code ``share_not_finished``)."""

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "Share"

        share = serializers.BooleanField(
            default=True, help_text="true: share (the default); false: stop sharing"
        )

    throttle_scope = "game_actions"

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        return services.game_share(game_id=game_id, owner=owner, share=body["share"])


@post_operation("games_takeback")
class GameTakebackApi(GameActionApi):
    """Take back my last move (and the computer's reply): levels 1-3, or at one board."""

    throttle_scope = "game_moves"

    def act(self, *, game_id: int, owner: Owner, body: dict[str, Any]) -> Game:
        return services.game_takeback(game_id=game_id, owner=owner)


class EngineAnalysisSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="poll it here (GET) until status is not pending")
    status = serializers.CharField(help_text="pending, done or failed")
    variant = serializers.CharField()
    fen = serializers.CharField(help_text="the start of the line")
    moves = serializers.ListField(child=serializers.CharField(), help_text="ICCS")
    nodes = serializers.IntegerField(help_text="the search's budget")
    next_nodes = serializers.IntegerField(
        allow_null=True,
        help_text="done: the budget to ask about the same position with next (null after "
        "the last, or once a forced mate is proved; the same budget again when cut short); "
        "otherwise null",
    )
    cut_short = serializers.BooleanField(
        help_text="done before its budget was spent: the search stopped early to let another "
        "visitor's first look at a position go first; its lines are what it found so far"
    )
    result = serializers.JSONField(
        help_text="done: engine (fairy-stockfish or ours), label (its name and version), "
        "turn, fen, lines [{cp, mate, moves [{iccs, chinese}]}] best first, each scored from "
        "Red's side (cp centipawns, or mate in moves: positive when Red mates); score "
        "(centipawns from the side to move, null with a mate) and mate (moves; negative: the "
        "side to move is mated) of the best line, forced (proved by the prover), line (the "
        "best line's moves), depth, nodes, budget, seconds, proof; failed: error "
        "{code, message {zh, en}} (analysis.superseded: its owner asked about another "
        "position); pending: {}"
    )


def _analysis(analysis: EngineAnalysis, code: int = status.HTTP_200_OK) -> Response:
    body = {
        "id": analysis.pk,
        "url": reverse("games-api:analysis-detail", args=[analysis.pk]),
        "status": analysis.status,
        "variant": analysis.variant,
        "fen": analysis.fen,
        "moves": analysis.moves,
        "nodes": analysis.nodes,
        "next_nodes": analysis_next_nodes(analysis),
        "cut_short": analysis.cut_short,
        "result": analysis.result,
    }
    return Response(EngineAnalysisSerializer(body).data, status=code)


class EngineAnalysisCreateApi(APIView):
    """Ask the engine about a position of the analysis board: the variant, a FEN or a named
    start (default: the variant's first), moves (ICCS or Chinese notation) as the board's
    position API takes them, and the budget (``nodes``: by default the first; the board asks
    again with each answer's ``next_nodes``). Answers 202 with a pending search to poll, or
    200 with a recent search of the same position on this budget or more. A bad FEN, a move
    that cannot be read or is illegal, a game already over, or a budget beyond the last
    (``analysis.too_deep``) answers 400 with the reason; one while
    ``ANALYSIS_PENDING_PER_ADDRESS`` of your address are pending, 429. Your pending search of
    another position gives way to this one (it fails with ``analysis.superseded``). The search
    waits its turn in the games' fair queue (``games.queueing``)."""

    throttle_scope = "engine_analysis"

    class InputSerializer(serializers.Serializer):
        variant = serializers.CharField(max_length=32)
        fen = serializers.CharField(max_length=300, required=False, allow_null=True)
        setup = serializers.CharField(max_length=32, required=False, allow_null=True)
        moves = serializers.ListField(
            child=serializers.CharField(max_length=16), required=False, max_length=MAX_MOVES
        )
        nodes = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=ANALYSIS_MIN_NODES,
            help_text="the budget (default: the first); at most the judge's last",
        )

    @operation(
        "analysis_engine_create",
        EngineAnalysisSerializer,
        status=202,
        also={200: EngineAnalysisSerializer},
        request=InputSerializer,
        errors=(400, 409, 429),
    )
    def post(self, request: Request) -> Response:
        data = request_body(self.InputSerializer, request)
        try:
            analysis = engine_analysis_request(
                owner=_owner(request),
                address=client_address(request._request),
                variant=data["variant"],
                fen=data.get("fen"),
                setup=data.get("setup"),
                moves=tuple(data.get("moves", [])),
                nodes=data.get("nodes"),
            )
        except AnalysisBusy as busy:
            return _refused(busy, status.HTTP_409_CONFLICT)
        except TooMuchWaiting as full:
            return _refused(full, status.HTTP_429_TOO_MANY_REQUESTS)
        pending = analysis.status == EngineAnalysis.Status.PENDING
        return _analysis(analysis, status.HTTP_202_ACCEPTED if pending else status.HTTP_200_OK)


class EngineAnalysisDetailApi(APIView):
    """One of my engine searches (another's is a 404, like a missing one); polled while it is
    pending (one whose message was lost is handed to the workers again)."""

    @operation("analysis_engine_get", EngineAnalysisSerializer, errors=(404,))
    def get(self, request: Request, analysis_id: int) -> Response:
        analysis = found_or_404(
            engine_analysis_get(
                owner=owner_for_request(request, create=False), analysis_id=analysis_id
            )
        )
        engine_analysis_requeue(analysis=analysis)
        return _analysis(analysis)


class GameAnalysisSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    url = serializers.CharField(help_text="poll it here (GET) until status is not pending")
    status = serializers.CharField(help_text="pending, done or failed")
    plies = serializers.IntegerField(help_text="the plies analysed (the game's, up to the cap)")
    searched = serializers.IntegerField(help_text="positions searched so far (plies + 1 in all)")
    nodes = serializers.IntegerField(help_text="the judge's budget a position")
    engine = serializers.CharField(
        help_text="the judge: fairy-stockfish (traditional xiangqi, where installed) or ours"
    )
    result = serializers.JSONField(
        help_text="done: start (the first position's evaluation), plies [{ply, side, iccs, "
        "chinese, eval {cp, mate, winner} from Red's side, chance (Red's, 0 to 1), verdict "
        "(null, inaccuracy, mistake, blunder), symbol, drop, better {iccs, chinese}, "
        "seen_mate, missed_win}], summary {red, black: counts by verdict, and missed_win}, "
        "analysed, game_plies, judge "
        "{engine, label, nodes, depth}; failed: error {code, message {zh, en}} (a judge that "
        "stopped answering, game_analysis.judge_failed, may be asked again); pending: {}"
    )


def _game_analysis(analysis: GameAnalysis, code: int = status.HTTP_200_OK) -> Response:
    url = reverse("games-api:game-analysis", args=[analysis.game_id])
    return game_analysis_response(analysis, url, code)


def game_analysis_response(
    analysis: GameAnalysis, url: str, code: int = status.HTTP_200_OK
) -> Response:
    """An analysis as the API answers it (a live game's too), to be polled at ``url``."""
    body = {
        "game": analysis.game_id or analysis.live_game,
        "url": url,
        "status": analysis.status,
        "plies": analysis.plies,
        "searched": len(analysis.evaluations),
        "nodes": analysis.nodes,
        "engine": analysis.engine,
        "result": analysis.result,
    }
    return Response(GameAnalysisSerializer(body).data, status=code)


def refused_response(error: ApplicationError, code: int = status.HTTP_409_CONFLICT) -> Response:
    """A request the analysis refused, in the API's error shape."""
    return _refused(error, code)


def _refused(error: ApplicationError, code: int = status.HTTP_409_CONFLICT) -> Response:
    body = error_body(error.localized(), error.extra, code=error.code, params=error.params)
    return Response(body, status=code)


class GameAnalysisApi(APIView):
    """The computer's analysis of one of my finished games (another's game is a 404, like a
    missing one). POST asks for it: 202 with the analysis to poll when it is new, 200 with
    the one there is (asking twice gives the same); 409 for a game not finished, or while
    another of my games is being analysed; 429 while ``GAME_ANALYSIS_PENDING_PER_ADDRESS``
    games of my address wait for theirs. GET polls it (404 when never asked for)."""

    throttle_scope = "game_analysis"

    def _game(self, request: Request, game_id: int) -> Game:
        owner = owner_for_request(request, create=False)
        return found_or_404(selectors.game_get(owner=owner, game_id=game_id))

    @operation(
        "games_analysis_create",
        GameAnalysisSerializer,
        status=202,
        also={200: GameAnalysisSerializer},
        request=None,
        errors=(404, 409, 429),
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = self._game(request, game_id)
        try:
            analysis, new = game_analysis_request(
                owner=_owner(request), game=game, address=client_address(request._request)
            )
        except (GameNotFinished, GameAnalysisBusy) as refused:
            return _refused(refused)
        except TooMuchWaiting as full:
            return _refused(full, status.HTTP_429_TOO_MANY_REQUESTS)
        return _game_analysis(analysis, status.HTTP_202_ACCEPTED if new else status.HTTP_200_OK)

    @operation("games_analysis_get", GameAnalysisSerializer, errors=(404,))
    def get(self, request: Request, game_id: int) -> Response:
        analysis = found_or_404(game_analysis_get(game=self._game(request, game_id)))
        game_analysis_requeue(analysis=analysis)
        return _game_analysis(analysis)
