"""The engine on the analysis board: the playing engine's view of one position, on request.

``engine_analyse`` is the search itself, plain Python over the engine: the playing engine at
full strength on a bounded budget (``ANALYSIS_NODES`` nodes, at most ``ANALYSIS_MOVETIME_MS``),
its score from the side to move, and the best line in ICCS and Chinese notation. When it sees a
win in at most ``PROVE_UP_TO`` moves, the prover (``engine.solver.find_win``, full mode: every
defence, on its own budget) is asked whether the win is forced; ``forced`` is true only when
it proved it.

The site's side: ``engine_analysis_request`` checks the request (variant, FEN or named start,
moves: the analysis board's own rules, ``core.services.position_analyse``), answers a recent
identical search again, and otherwise keeps a pending ``EngineAnalysis``, which waits its turn
in the games' fair queue (``games.queueing``: the analyses of one owner and of one address
take turns with everyone else's, and never hold up the computer's moves) until a worker
searches it (``games.engine_analysis`` on the ``playing_deep`` queue). An owner has one search
pending at a time (a database constraint; another is refused with ``AnalysisBusy``, HTTP 409),
an address ``ANALYSIS_PENDING_PER_ADDRESS`` (``TooMuchWaiting``, HTTP 429). A search handed
over longer than ``STALE_AFTER`` ago and still pending (its message lost) no longer holds its
owner back: it is marked failed when they ask again, and the dispatcher hands it over again
(when polled, or within a minute). ``engine_analysis_run`` (the task's body) searches once: a
run finds its row no longer pending and does nothing.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.owners import Owner
from core.exceptions import ApplicationError, IllegalTry
from core.messages import render
from core.services import position_analyse
from engine import EngineError, Position
from engine.solver import Budget, find_win
from games.computer import analysis_search
from games.models import EngineAnalysis
from games.queueing import (
    REQUEUE_AFTER,
    SEARCH,
    TooMuchWaiting,
    dispatch_analyses,
    poll_dispatch,
)

# The search: the playing engine at full strength (level 8, no noise) on this many nodes, and
# never longer than this (on a loaded machine the clock stops it first).
ANALYSIS_NODES = 200_000
ANALYSIS_MOVETIME_MS = 2_000
# A win the engine sees in at most this many moves is handed to the prover, on this budget.
PROVE_UP_TO = 7
PROVE_NODES = 300_000
PROVE_SECONDS = 3.0
# An identical search finished this recently is answered again instead of searched.
REUSE_FOR = timedelta(minutes=10)
# A search still pending this long after it was handed to the workers has lost its message.
STALE_AFTER = REQUEUE_AFTER
# The sweep (``engine_analysis_sweep``): a failed or pending search is kept this long (a
# finished one ``settings.ANALYSIS_KEEP_DAYS``), and rows are deleted this many at a time, at
# most this many batches a run (the next run goes on with the rest).
SWEEP_UNFINISHED_AFTER = timedelta(days=1)
SWEEP_BATCH = 1000
SWEEP_MAX_BATCHES = 50


class AnalysisBusy(ApplicationError):
    """One search more than the owner, or the address, may have waiting (HTTP 409)."""


def _line(pos: Position, pv: Sequence[str]) -> list[dict[str, str]]:
    """The line ``pv`` (ICCS) from ``pos`` in both notations, each move said in the position it
    is played from."""
    replay = pos.copy()
    line = []
    for iccs in pv:
        move = replay.parse_move(iccs)
        line.append({"iccs": move.iccs(), "chinese": replay.chinese(move)})
        replay.push(move)
    return line


def engine_analyse(
    *,
    variant: str,
    fen: str,
    moves: Sequence[str] = (),
    nodes: int = ANALYSIS_NODES,
    movetime_ms: int = ANALYSIS_MOVETIME_MS,
    prove_nodes: int = PROVE_NODES,
    prove_seconds: float = PROVE_SECONDS,
) -> dict[str, Any]:
    """What the engine thinks of the position after ``moves`` (ICCS) from ``fen``.

    ``score``: centipawns from the side to move (``turn``), null when a mate is seen;
    ``mate``: moves to the end, positive when the side to move wins, negative when it is
    mated; ``forced``: the prover proved the win over every defence (only a win of the side to
    move, within ``PROVE_UP_TO`` moves, is put to it); ``line``: the best line, each move in
    ICCS and Chinese notation; ``depth``, ``nodes``, ``seconds`` of the search; ``proof``: the
    prover's verdict (``win``, ``no_win``, ``budget_exhausted``) or null. Raises the engine's
    errors (``EngineError``) for a bad FEN, an illegal move or a game already over.
    """
    started = time.perf_counter()
    found = analysis_search(
        variant=variant, fen=fen, moves=moves, nodes=nodes, movetime_ms=movetime_ms
    )
    searched = time.perf_counter() - started
    pos = Position.from_fen(variant, fen)
    for text in moves:
        pos.push_iccs(text)
    mate, forced, proof = found.mate, False, None
    if mate is not None and 0 < mate <= PROVE_UP_TO:
        win = find_win(
            pos,
            goal="win",
            max_moves=mate,
            budget=Budget(nodes=prove_nodes, seconds=prove_seconds),
            mode="full",
        )
        forced = win.status == "win"
        if forced and win.moves_to_win is not None:
            mate = win.moves_to_win
        proof = {
            "status": win.status,
            "moves_to_win": win.moves_to_win,
            "key_move": win.key_move,
            "nodes": win.nodes,
            "seconds": round(win.seconds, 3),
        }
    return {
        "turn": pos.turn,
        "fen": pos.fen(),
        "score": found.score,
        "mate": mate,
        "forced": forced,
        "line": _line(pos, found.pv),
        "depth": found.depth,
        "nodes": found.nodes,
        "seconds": round(searched, 3),
        "proof": proof,
    }


# -- the requests ----------------------------------------------------------------------------


def analysis_key(variant: str, fen: str, moves: Sequence[str]) -> str:
    """What makes two requests the same search."""
    text = json.dumps([variant, fen, list(moves)], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _busy(
    code: str, params: dict[str, object] | None = None, kind: type[ApplicationError] = AnalysisBusy
) -> ApplicationError:
    full = f"analysis.{code}"
    explanation = {language: render(full, params, language) for language in ("zh", "en")}
    return kind.coded(full, params, {"code": code, "explanation": explanation})


def _checked(
    variant: str, fen: str | None, setup: str | None, moves: Sequence[str]
) -> tuple[str, str, list[str]]:
    """The request as the engine takes it (variant, start FEN, moves in ICCS), or the reason
    it cannot be searched (``ApplicationError``, HTTP 400): a malformed FEN, a move that cannot
    be read or that the rules do not allow, a position where the game is over."""
    try:
        analysis = position_analyse(variant=variant, fen=fen, setup=setup, moves=moves)
    except IllegalTry as refusal:  # not a try on the board here: a request for a search
        raise refusal.as_fault() from None
    if analysis.termination is not None:
        raise ApplicationError.coded(
            "analysis.game_over",
            {"termination": analysis.termination},
            {"field": "moves" if moves else "fen", "termination": analysis.termination},
        )
    return analysis.variant, analysis.start_fen, [move.iccs for move in analysis.played]


def _lost_message() -> dict[str, Any]:
    code = "analysis.lost"
    return {
        "error": {
            "code": code,
            "message": {language: render(code, None, language) for language in ("zh", "en")},
        }
    }


def engine_analysis_request(
    *,
    owner: Owner,
    address: str,
    variant: str,
    fen: str | None = None,
    setup: str | None = None,
    moves: Sequence[str] = (),
    now: datetime | None = None,
) -> EngineAnalysis:
    """Ask the engine about the position after ``moves`` from ``fen`` (or the named start
    ``setup``, or the variant's first). The owner's own identical search, pending or recent,
    is answered again; so is anyone's recent finished one (a new row of the owner's, done).
    Otherwise a pending row is kept, and the fair queue's dispatcher runs once the
    transaction commits.

    Raises ``ApplicationError`` for a request that cannot be searched, ``AnalysisBusy`` when
    the owner has another search pending, ``TooMuchWaiting`` when the address has
    ``ANALYSIS_PENDING_PER_ADDRESS``.
    """
    variant, start_fen, played = _checked(variant, fen, setup, moves)
    key = analysis_key(variant, start_fen, played)
    now = now or timezone.now()
    fields = {"variant": variant, "fen": start_fen, "moves": played, "key": key}
    with transaction.atomic():
        EngineAnalysis.objects.filter(
            owner.q(), status=EngineAnalysis.Status.PENDING, dispatched_at__lt=now - STALE_AFTER
        ).update(status=EngineAnalysis.Status.FAILED, result=_lost_message(), finished_at=now)
        mine = EngineAnalysis.objects.filter(owner.q(), key=key).order_by("-created_at").first()
        if mine is not None and (
            mine.status == EngineAnalysis.Status.PENDING
            or (
                mine.status == EngineAnalysis.Status.DONE
                and mine.finished_at is not None
                and mine.finished_at >= now - REUSE_FOR
            )
        ):
            return mine
        recent = (
            EngineAnalysis.objects.filter(
                key=key, status=EngineAnalysis.Status.DONE, finished_at__gte=now - REUSE_FOR
            )
            .order_by("-finished_at")
            .first()
        )
        if recent is not None:
            return EngineAnalysis.objects.create(
                **owner.fields(),
                **fields,
                address=address,
                status=EngineAnalysis.Status.DONE,
                result=recent.result,
                finished_at=now,
            )
        pending = EngineAnalysis.objects.filter(status=EngineAnalysis.Status.PENDING)
        if pending.filter(owner.q()).exists():
            raise _busy("busy")
        if address:
            by_address = pending.filter(address=address).count()
            if by_address >= settings.ANALYSIS_PENDING_PER_ADDRESS:
                raise _busy("busy_address", {"count": by_address}, TooMuchWaiting)
        try:
            with transaction.atomic():
                row = EngineAnalysis.objects.create(**owner.fields(), **fields, address=address)
        except IntegrityError:  # the owner's other request, at the same moment
            raise _busy("busy") from None
        transaction.on_commit(dispatch_analyses)
    return row


def engine_analysis_get(*, owner: Owner | None, analysis_id: int) -> EngineAnalysis | None:
    """One of the owner's searches (another's, like a missing one, is ``None``)."""
    if owner is None:
        return None
    return EngineAnalysis.objects.filter(owner.q(), pk=analysis_id).first()


def engine_analysis_requeue(*, analysis: EngineAnalysis, now: datetime | None = None) -> bool:
    """A poll of a pending search: when it waits for its turn, or was handed over longer than
    ``STALE_AFTER`` ago (its message lost), the fair queue's dispatcher runs (unless another
    one is running); True if this search was handed over. Searching twice is harmless
    (``engine_analysis_run``)."""
    if analysis.status != EngineAnalysis.Status.PENDING:
        return False
    return poll_dispatch(task=SEARCH, pk=analysis.pk, dispatched_at=analysis.dispatched_at, now=now)


def engine_analysis_run(*, analysis_id: int) -> str:
    """Search a pending analysis and keep what the engine found; ``done``, ``failed``, or
    ``skipped`` when it is no longer pending (searched already, or given up). The search runs
    outside any transaction; its result is written only if the row is still pending, so a
    redelivered message writes nothing twice."""
    analysis = EngineAnalysis.objects.filter(pk=analysis_id).first()
    if analysis is None or analysis.status != EngineAnalysis.Status.PENDING:
        return "skipped"
    try:
        result = engine_analyse(variant=analysis.variant, fen=analysis.fen, moves=analysis.moves)
        status = EngineAnalysis.Status.DONE
    except EngineError as error:  # checked when asked for; kept as the reason all the same
        result = {
            "error": {
                "code": error.code,
                "message": {lang: render(error.code, error.params, lang) for lang in ("zh", "en")},
            }
        }
        status = EngineAnalysis.Status.FAILED
    written = EngineAnalysis.objects.filter(
        pk=analysis_id, status=EngineAnalysis.Status.PENDING
    ).update(status=status, result=result, finished_at=timezone.now())
    return str(status) if written else "skipped"


def engine_analysis_sweep(
    *, now: datetime | None = None, batch: int = SWEEP_BATCH, max_batches: int = SWEEP_MAX_BATCHES
) -> int:
    """Delete the searches asked for more than ``settings.ANALYSIS_KEEP_DAYS`` days ago, and
    the failed or pending ones asked for more than ``SWEEP_UNFINISHED_AFTER`` ago, oldest
    first, ``batch`` rows a transaction and at most ``max_batches`` batches; returns how many
    went. A search of the owner's that is gone is simply asked for again (a 404 when polled
    meanwhile); a pending one a day old lost its message long ago (``STALE_AFTER``)."""
    now = now or timezone.now()
    old = Q(created_at__lt=now - timedelta(days=settings.ANALYSIS_KEEP_DAYS)) | Q(
        created_at__lt=now - SWEEP_UNFINISHED_AFTER,
        status__in=(EngineAnalysis.Status.FAILED, EngineAnalysis.Status.PENDING),
    )
    deleted = 0
    for _ in range(max_batches):
        with transaction.atomic():
            ids = list(
                EngineAnalysis.objects.filter(old)
                .order_by("created_at")
                .values_list("pk", flat=True)[:batch]
            )
            if ids:
                deleted += EngineAnalysis.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            break
    return deleted
