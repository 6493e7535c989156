"""The engine on the analysis board: the judge's view of one position, deepened while it is shown.

``engine_analyse`` is the search itself, plain Python over the judge (``judge.judge_for``:
Fairy-Stockfish for traditional xiangqi where it is installed, else the site's own engine):
``ANALYSIS_LINES`` lines (multipv) on a budget of nodes, each line's moves in ICCS and Chinese
notation and its score from Red's side, the best line's score also from the side to move. When
the best line is a win in at most ``PROVE_UP_TO`` moves, the prover (``engine.solver.find_win``,
full mode: every defence, on its own budget) is asked whether the win is forced; ``forced`` is
true only when it proved it.

The board asks about a position as soon as it shows it, on the first budget of the judge's
``ANALYSIS_BUDGETS`` (small: a line within about a second), then again on each next one (four
times larger) while the position stays shown, up to the last, the most any request may ask
for (``analysis.too_deep`` beyond it, HTTP 400). ``analysis_next_nodes`` says which budget
comes next (none after the last, or once a forced mate is proved).

The site's side: ``engine_analysis_request`` checks the request (variant, FEN or named start,
moves: the analysis board's own rules, ``core.services.position_analyse``), answers with a
recent search of the same position on this budget or more, and otherwise keeps a pending
``EngineAnalysis``, which waits its turn in the games' fair queue (``games.queueing``: the
analyses of one owner and of one address take turns with everyone else's, and never hold up the
computer's moves) until a worker searches it (``games.engine_analysis`` on the
``playing_deep`` queue). An owner has one search pending at a time (a database constraint):
asking about another position takes the place of the one pending (``analysis.superseded``), and
a worker searching that one stops within a moment (``stop``) so that the new one gets its turn.
A search deeper than a first look (``games.queueing.FIRST_LOOK_NODES``, the judges' first
budgets) also stops within a moment when a first look that is due waits for its turn
(``games.queueing``): its lines so far are its answer, marked ``cut_short``, never answered
again in place of a full search, and the board asks for the same budget again;
an address has ``ANALYSIS_PENDING_PER_ADDRESS`` (``TooMuchWaiting``, HTTP 429). A search handed
over longer than ``STALE_AFTER`` ago and still pending (its message lost) is marked failed when
its owner asks again, and the dispatcher hands it over again (when polled, or within a minute).
``engine_analysis_run`` (the task's body) searches once: a run finds its row no longer pending
and does nothing.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
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
from games.models import EngineAnalysis
from games.queueing import (
    FIRST_LOOK_NODES,
    REQUEUE_AFTER,
    SEARCH,
    GiveWay,
    TooMuchWaiting,
    dispatch_analyses,
    poll_dispatch,
)
from judge import FAIRY_STOCKFISH, OURS, Judge, JudgeError, OurEngine, judge_for

# The budgets (nodes) the board asks for while a position is shown, one after another, by
# judge: the first small (a line within about a second), each next four times larger, the
# last the most a request may ask for (a few seconds of search on this 2-core machine).
ANALYSIS_BUDGETS: dict[str, tuple[int, ...]] = {
    FAIRY_STOCKFISH: (40_000, 160_000, 640_000, 2_560_000),
    OURS: (24_000, 96_000, 384_000, 1_536_000),
}
ANALYSIS_MIN_NODES = 1_000
ANALYSIS_LINES = 3
# The site's engine also stops at a clock, for a loaded machine: this many ms per 1,000 nodes
# of its budget (it searches about 200 nodes a millisecond), within these bounds.
MOVETIME_MS_PER_1000_NODES = 10
MOVETIME_MS_BOUNDS = (2_000, 15_000)
# A win the engine sees in at most this many moves is handed to the prover, on this budget.
PROVE_UP_TO = 7
PROVE_NODES = 300_000
PROVE_SECONDS = 3.0
# An identical search finished this recently is answered again instead of searched.
REUSE_FOR = timedelta(minutes=10)
# A search still pending this long after it was handed to the workers has lost its message.
STALE_AFTER = REQUEUE_AFTER
# While searching, a worker asks this often whether its search is still wanted.
WANTED_EVERY_SECONDS = 0.25
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


def analysis_judge(variant: str, nodes: int) -> Judge:
    """The judge of ``variant``'s positions for a search of ``nodes``: the site's engine with a
    clock as a safety net (``MOVETIME_MS_PER_1000_NODES``)."""
    judge = judge_for(variant)
    if judge.name == OURS:
        low, high = MOVETIME_MS_BOUNDS
        movetime = nodes * MOVETIME_MS_PER_1000_NODES // 1000
        return OurEngine(movetime_ms=min(high, max(low, movetime)))
    return judge


def analysis_budgets(variant: str) -> tuple[int, ...]:
    """The budgets the board asks for, in turn, about a position of ``variant``."""
    return ANALYSIS_BUDGETS[judge_for(variant).name]


def analysis_next_nodes(analysis: EngineAnalysis) -> int | None:
    """The budget to ask about the same position with next, once ``analysis`` is done: the
    judge's next larger one, or its own again when it was cut short (it gave way to another
    visitor's first look); None after the last, for a forced mate proved, or while it is not
    done."""
    result = analysis.result
    if analysis.status != EngineAnalysis.Status.DONE or result.get("forced"):
        return None
    if analysis.cut_short:
        return analysis.nodes
    budgets = ANALYSIS_BUDGETS.get(str(result.get("engine")), ())
    return next((nodes for nodes in budgets if nodes > analysis.nodes), None)


def _red_line(
    pos: Position, cp: int | None, mate: int | None, moves: Sequence[str]
) -> dict[str, Any]:
    sign = 1 if pos.turn == "red" else -1
    return {
        "cp": None if cp is None else sign * cp,
        "mate": None if mate is None else sign * mate,
        "moves": _line(pos, moves),
    }


def engine_analyse(
    *,
    variant: str,
    fen: str,
    moves: Sequence[str] = (),
    nodes: int | None = None,
    lines: int = ANALYSIS_LINES,
    judge: Judge | None = None,
    stop: Callable[[], bool] | None = None,
    prove_nodes: int = PROVE_NODES,
    prove_seconds: float = PROVE_SECONDS,
) -> dict[str, Any]:
    """What the judge thinks of the position after ``moves`` (ICCS) from ``fen``, on ``nodes``
    (by default the judge's first budget) and up to ``lines`` lines.

    ``engine``, ``label``: the judge's name and its words for itself; ``lines``: best first,
    each ``{cp, mate, moves}`` with its score from Red's side (``cp`` centipawns, or ``mate``
    in moves: positive when Red mates) and its moves in ICCS and Chinese notation (the site's
    engine finds them one after another, the budget shared); ``score``, ``mate``: the best
    line's from the side to move (``turn``); ``forced``: the prover proved the mate (only a win
    of the side to move, within ``PROVE_UP_TO`` moves, is put to it; the proved length then
    replaces the engine's in ``mate`` and the first line); ``line``: the best line's moves;
    ``depth``, ``nodes``, ``seconds`` of the search, ``budget`` its nodes asked for;
    ``proof``: the prover's verdict (``win``, ``no_win``, ``budget_exhausted``) or null.
    ``stop`` cuts the search short (and leaves the prover out) once it answers True.

    Raises the engine's errors (``EngineError``) for a bad FEN, an illegal move or a game
    already over, and the judge's (``JudgeError``) when the engine fails.
    """
    pos = Position.from_fen(variant, fen)
    for text in moves:
        pos.push_iccs(text)
    outcome = pos.outcome()
    if outcome is not None:
        raise EngineError("play.game_over", {"termination": outcome.termination})
    budget = nodes if nodes is not None else analysis_budgets(variant)[0]
    judge = judge or analysis_judge(variant, budget)
    started = time.perf_counter()
    found = judge.evaluate(
        variant=variant, fen=fen, moves=moves, nodes=budget, multipv=lines, stop=stop
    )
    searched = time.perf_counter() - started
    best = found.best
    mate, forced, proof = best.mate, False, None
    wanted = stop is None or not stop()
    if wanted and mate is not None and 0 < mate <= PROVE_UP_TO:
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
    said = [
        _red_line(pos, line.cp, mate if index == 0 else line.mate, line.moves)
        for index, line in enumerate(found.lines)
    ]
    return {
        "engine": judge.name,
        "label": judge.label,
        "turn": pos.turn,
        "fen": pos.fen(),
        "lines": said,
        "score": best.cp,
        "mate": mate,
        "forced": forced,
        "line": said[0]["moves"],
        "depth": found.depth,
        "nodes": found.nodes,
        "budget": budget,
        "seconds": round(searched, 3),
        "proof": proof,
    }


# -- the requests ----------------------------------------------------------------------------


def analysis_key(variant: str, fen: str, moves: Sequence[str]) -> str:
    """What makes two requests ask about the same position."""
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


def _budget(variant: str, nodes: int | None) -> int:
    """The budget asked for, or the first; ``analysis.too_deep`` (HTTP 400) beyond the last."""
    budgets = analysis_budgets(variant)
    if nodes is None:
        return budgets[0]
    if nodes > budgets[-1]:
        raise ApplicationError.coded(
            "analysis.too_deep",
            {"nodes": nodes, "cap": budgets[-1]},
            {"field": "nodes", "cap": budgets[-1]},
        )
    return max(nodes, ANALYSIS_MIN_NODES)


def _error(code: str, params: Mapping[str, object] | None = None) -> dict[str, Any]:
    return {
        "error": {
            "code": code,
            "message": {language: render(code, params, language) for language in ("zh", "en")},
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
    nodes: int | None = None,
    now: datetime | None = None,
) -> EngineAnalysis:
    """Ask the engine about the position after ``moves`` from ``fen`` (or the named start
    ``setup``, or the variant's first), on ``nodes`` (by default the judge's first budget).

    The owner's pending search of the same position is answered again; so is a search of it
    finished within ``REUSE_FOR`` on this budget or more (the deepest; anyone's: a new row of
    the owner's, done). The owner's pending search of another position gives way
    (``analysis.superseded``): they look at this one now. Otherwise a pending row is kept, and
    the fair queue's dispatcher runs once the transaction commits.

    Raises ``ApplicationError`` for a request that cannot be searched (or a budget beyond the
    last, ``analysis.too_deep``), ``AnalysisBusy`` when the owner's other request made a
    search pending at the same moment, ``TooMuchWaiting`` when the address has
    ``ANALYSIS_PENDING_PER_ADDRESS``.
    """
    variant, start_fen, played = _checked(variant, fen, setup, moves)
    budget = _budget(variant, nodes)
    key = analysis_key(variant, start_fen, played)
    now = now or timezone.now()
    fields = {"variant": variant, "fen": start_fen, "moves": played, "key": key}
    pending_status = EngineAnalysis.Status.PENDING
    with transaction.atomic():
        pending = EngineAnalysis.objects.filter(status=pending_status)
        pending.filter(owner.q(), dispatched_at__lt=now - STALE_AFTER).update(
            status=EngineAnalysis.Status.FAILED, result=_error("analysis.lost"), finished_at=now
        )
        other = pending.filter(owner.q()).exclude(key=key)
        gone = {"status": EngineAnalysis.Status.FAILED, "result": _error("analysis.superseded")}
        # one never handed over is done with; one a worker may be searching stays unfinished
        # (its lanes busy: games.queueing) until the worker has stopped
        other.filter(dispatched_at__isnull=True).update(**gone, finished_at=now)
        other.update(**gone)
        mine = pending.filter(owner.q(), key=key).first()
        if mine is not None:
            return mine
        recent = EngineAnalysis.objects.filter(
            key=key,
            status=EngineAnalysis.Status.DONE,
            cut_short=False,
            finished_at__gte=now - REUSE_FOR,
            nodes__gte=budget,
        ).order_by("-nodes", "-finished_at")
        own = recent.filter(owner.q()).first()
        if own is not None:
            return own
        found = recent.first()
        if found is not None:
            return EngineAnalysis.objects.create(
                **owner.fields(),
                **fields,
                nodes=found.nodes,
                address=address,
                status=EngineAnalysis.Status.DONE,
                result=found.result,
                finished_at=now,
            )
        if pending.filter(owner.q()).exists():
            raise _busy("busy")
        if address:
            by_address = pending.filter(address=address).count()
            if by_address >= settings.ANALYSIS_PENDING_PER_ADDRESS:
                raise _busy("busy_address", {"count": by_address}, TooMuchWaiting)
        try:
            with transaction.atomic():
                row = EngineAnalysis.objects.create(
                    **owner.fields(), **fields, nodes=budget, address=address
                )
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


class _Wanted:
    """``stop`` for a worker's search: True once its row is no longer pending (its owner asked
    about another position), asked of the database at most every ``WANTED_EVERY_SECONDS``;
    or, for a search deeper than a first look (``give_way``), once a first look that is due
    waits (``games.queueing.GiveWay``)."""

    def __init__(self, analysis_id: int, *, give_way: GiveWay | None) -> None:
        self.analysis_id = analysis_id
        self.give_way = give_way
        self.asked = time.monotonic()
        self.gone = False

    def __call__(self) -> bool:
        if not self.gone and time.monotonic() - self.asked >= WANTED_EVERY_SECONDS:
            self.asked = time.monotonic()
            self.gone = not EngineAnalysis.objects.filter(
                pk=self.analysis_id, status=EngineAnalysis.Status.PENDING
            ).exists()
        return self.gone or (self.give_way is not None and self.give_way())


def engine_analysis_run(*, analysis_id: int) -> str:
    """Search a pending analysis and keep what the engine found; ``done``, ``failed``, or
    ``skipped`` when it is no longer pending (searched already, given up, or given way to
    another position of its owner's: the search then stops within a moment). A search deeper
    than a first look stops within a moment when a first look that is due waits, and is done
    with what it found so far (``cut_short``). The search runs
    outside any transaction; its result is written only if the row is still pending, so a
    redelivered message writes nothing twice. Either way the row is finished when the run
    ends, so that its lanes in the fair queue are free."""
    analysis = EngineAnalysis.objects.filter(pk=analysis_id).first()
    if analysis is None or analysis.status != EngineAnalysis.Status.PENDING:
        _finished(analysis_id)
        return "skipped"
    give_way = GiveWay() if analysis.nodes > FIRST_LOOK_NODES else None
    cut_short = False
    try:
        result = engine_analyse(
            variant=analysis.variant,
            fen=analysis.fen,
            moves=analysis.moves,
            nodes=analysis.nodes,
            stop=_Wanted(analysis_id, give_way=give_way),
        )
        status = EngineAnalysis.Status.DONE
        cut_short = give_way is not None and give_way.gave_way and result["nodes"] < analysis.nodes
    except EngineError as error:  # checked when asked for; kept as the reason all the same
        result = _error(error.code, error.params)
        status = EngineAnalysis.Status.FAILED
    except JudgeError as error:  # the engine died or hung twice: ask again later
        result = _error("analysis.judge_failed", {"engine": error.params.get("engine", "")})
        status = EngineAnalysis.Status.FAILED
    written = EngineAnalysis.objects.filter(
        pk=analysis_id, status=EngineAnalysis.Status.PENDING
    ).update(status=status, result=result, cut_short=cut_short, finished_at=timezone.now())
    if not written:
        _finished(analysis_id)
    return str(status) if written else "skipped"


def _finished(analysis_id: int) -> None:
    EngineAnalysis.objects.filter(pk=analysis_id, finished_at__isnull=True).update(
        finished_at=timezone.now()
    )


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
