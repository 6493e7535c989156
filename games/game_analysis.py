"""The computer's analysis of a finished game: every position searched, every move judged.

The engine (``games.computer.analysis_search``: the playing engine at full strength, no
noise) searches each position of the game on a bounded budget, ``GAME_ANALYSIS_NODES`` nodes
and at most ``GAME_ANALYSIS_MOVETIME_MS`` a position, for the first ``GAME_ANALYSIS_MAX_PLIES``
plies of the game (a longer game is analysed that far and says so). ``position_evaluation``
is one such search, kept from Red's side; ``game_verdicts`` turns the list of them into one
entry a ply; ``classify`` is the judgement of one move, a pure function of the evaluation
before it and after it, from the side that moved:

- the evaluations become Red's or Black's chances, ``win_chance`` = 1 / (1 + e^(-cp/250)),
  a mate for the mover 1, a mate against them 0 (a pawn up from even is 60 %, a horse up 83 %,
  a chariot up 97 %);
- the drop of the mover's chances over the move: ``INACCURACY_DROP`` (0.10) an inaccuracy
  ``?!``, ``MISTAKE_DROP`` (0.20) a mistake ``?``, ``BLUNDER_DROP`` (0.30) a blunder ``??``;
- a move that gives up a mate the engine saw for the mover (``mate`` > 0 before, no mate for
  the mover after) is a blunder, with the mate said as the engine saw it (not proved);
- the engine's own choice is never marked (its search of the next position can disagree with
  itself by a little).

A marked move carries the engine's better move (its choice in the position before), in ICCS
and Chinese notation. These are the engine's opinions at a modest depth (docs/play.md,
"Analysis of a finished game", measures them against Fairy-Stockfish); only the prover's
verdict is a certainty, and this analysis does not ask it.

The site's side: ``game_analysis_request`` keeps one ``GameAnalysis`` a (game, version), owned
by the game's owner and the only one who may read it; asking again gives the same row. An owner
has one game analysis pending at a time (a database constraint; another is ``AnalysisBusy``,
HTTP 409), an address ``GAME_ANALYSIS_PENDING_PER_ADDRESS`` (``TooMuchWaiting``, HTTP 429); a
game not finished is ``GameNotFinished`` (HTTP 409). The work is done by ``games.game_analysis``
on the ``playing_deep`` queue, a chunk of ``GAME_ANALYSIS_RUN_SECONDS`` at a time, and each
chunk waits its turn in the games' fair queue (``games.queueing``): the analyses of one owner
and of one address take turns with everyone else's work, and never hold up the computer's
moves by more than the chunk a worker is running. Each position's search is written as soon as
it is found, only if it is the next one the row is missing; at the end of a chunk the analysis
waits for its next turn. A worker killed mid-chunk loses at most the position it was searching:
the message comes back (acknowledged late) and the next run starts where the row stops. A chunk
handed over longer than ``STALE_AFTER`` ago and not done (its message lost) is handed over
again by the dispatcher (when polled, or within a minute).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.owners import Owner
from core.exceptions import ApplicationError
from core.messages import render
from engine import EngineError, Position
from games.computer import analysis_search
from games.models import Game, GameAnalysis
from games.queueing import (
    GAME_ANALYSIS,
    REQUEUE_AFTER,
    TooMuchWaiting,
    dispatch_analyses,
    poll_dispatch,
)

# What a row was made by: a change of budget or thresholds is a new version (a new row).
GAME_ANALYSIS_VERSION = 1
# The budget: nodes a position, never longer than this a position, and how far into a game.
GAME_ANALYSIS_NODES = 30_000
GAME_ANALYSIS_MOVETIME_MS = 1_000
GAME_ANALYSIS_MAX_PLIES = 300
# A chunk searches positions for this long (each at most ``GAME_ANALYSIS_MOVETIME_MS``), then
# the analysis waits for its next turn: no longer than one search of the analysis board, so
# that whoever waits behind a chunk waits no longer than behind a search.
GAME_ANALYSIS_RUN_SECONDS = 1.0
# A chunk handed to the workers this long ago and not done has lost its message.
STALE_AFTER = REQUEUE_AFTER

# The judgement: centipawns to chances, and the drops of the mover's chances.
CHANCE_SCALE = 250.0
INACCURACY_DROP = 0.10
MISTAKE_DROP = 0.20
BLUNDER_DROP = 0.30
VERDICTS = ("inaccuracy", "mistake", "blunder")
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


class GameNotFinished(ApplicationError):
    """A game still going on (or being set up) is not analysed (HTTP 409)."""


class AnalysisBusy(ApplicationError):
    """Another game analysis of the owner's is still pending (HTTP 409)."""


# -- the judgement (pure) --------------------------------------------------------------------


def _other(side: str) -> str:
    return "black" if side == "red" else "red"


def win_chance(evaluation: dict[str, Any], side: str) -> float:
    """``side``'s chances (0 to 1) in a position evaluated ``evaluation`` from Red's side:
    ``{"cp": int | None, "mate": int | None, "winner": "red" | "black" | "draw" | None}``
    (``mate`` positive when Red mates; ``winner`` when the game is over there)."""
    winner = evaluation.get("winner")
    if winner:
        return 0.5 if winner == "draw" else (1.0 if winner == side else 0.0)
    mate = evaluation.get("mate")
    if mate is not None:
        red_wins = mate > 0
        return 1.0 if red_wins == (side == "red") else 0.0
    cp = int(evaluation.get("cp") or 0)
    if side == "black":
        cp = -cp
    return 1.0 / (1.0 + math.exp(-cp / CHANCE_SCALE))


def mate_for(evaluation: dict[str, Any], side: str) -> int | None:
    """The moves to the mate the engine sees for ``side``, or None."""
    mate = evaluation.get("mate")
    if mate is None or evaluation.get("winner"):
        return None
    if (mate > 0) == (side == "red"):
        return abs(mate)
    return None


def classify(
    eval_before: dict[str, Any], eval_after: dict[str, Any], side: str
) -> tuple[str | None, float]:
    """The verdict on ``side``'s move, the position evaluated ``eval_before`` before it and
    ``eval_after`` after it (both from Red's side, as ``win_chance`` takes them): ``None``,
    ``inaccuracy``, ``mistake`` or ``blunder``, and the drop of the mover's chances."""
    drop = win_chance(eval_before, side) - win_chance(eval_after, side)
    drop = round(max(drop, 0.0), 3)
    seen_mate = mate_for(eval_before, side) is not None
    kept_it = mate_for(eval_after, side) is not None or eval_after.get("winner") == side
    if seen_mate and not kept_it:
        return "blunder", drop
    if drop >= BLUNDER_DROP:
        return "blunder", drop
    if drop >= MISTAKE_DROP:
        return "mistake", drop
    if drop >= INACCURACY_DROP:
        return "inaccuracy", drop
    return None, drop


# -- the searches ----------------------------------------------------------------------------


def position_evaluation(
    *,
    variant: str,
    fen: str,
    moves: Sequence[str],
    nodes: int = GAME_ANALYSIS_NODES,
    movetime_ms: int = GAME_ANALYSIS_MOVETIME_MS,
) -> dict[str, Any]:
    """The engine's view of the position after ``moves`` from ``fen``, from Red's side:
    ``cp`` (centipawns) or ``mate`` (moves, positive when Red mates), its ``best`` move (ICCS
    and Chinese) and ``depth``; a position where the game is over has ``winner`` instead."""
    pos = Position.from_fen(variant, fen)
    for text in moves:
        pos.push_iccs(text)
    outcome = pos.outcome()
    if outcome is not None:
        return {"cp": None, "mate": None, "winner": outcome.winner or "draw", "best": None}
    found = analysis_search(
        variant=variant, fen=fen, moves=moves, nodes=nodes, movetime_ms=movetime_ms
    )
    sign = 1 if pos.turn == "red" else -1
    best = pos.parse_move(found.move)
    return {
        "cp": None if found.score is None else sign * found.score,
        "mate": None if found.mate is None else sign * found.mate,
        "winner": None,
        "best": {"iccs": best.iccs(), "chinese": pos.chinese(best)},
        "depth": found.depth,
    }


def first_mover(fen: str) -> str:
    return "black" if fen.split(" ")[1:2] == ["b"] else "red"


def game_verdicts(
    *, fen: str, moves: Sequence[dict[str, str]], evaluations: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One entry a ply judged: the ply (1 for the first move), the side, the move (ICCS and
    Chinese), the evaluation after it (Red's side), the verdict, the drop of the mover's
    chances, and for a marked move the engine's better move and the mate it saw (``seen_mate``,
    not proved). ``evaluations[i]`` is the position before ply i + 1; the plies judged are
    those with an evaluation on both sides."""
    side = first_mover(fen)
    entries = []
    for index in range(min(len(moves), len(evaluations) - 1)):
        before, after = evaluations[index], evaluations[index + 1]
        played = moves[index]
        verdict, drop = classify(before, after, side)
        best = before.get("best")
        if best is not None and best["iccs"] == played["iccs"]:
            verdict = None  # the engine's own choice
        entries.append(
            {
                "ply": index + 1,
                "side": side,
                "iccs": played["iccs"],
                "chinese": played["chinese"],
                "eval": {k: after.get(k) for k in ("cp", "mate", "winner")},
                "chance": round(win_chance(after, "red"), 3),
                "verdict": verdict,
                "symbol": SYMBOLS.get(verdict or ""),
                "drop": drop,
                "better": best if verdict else None,
                "seen_mate": mate_for(before, side) if verdict else None,
            }
        )
        side = _other(side)
    return entries


def summary(entries: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """How many moves of each side were marked, by verdict."""
    counts = {side: dict.fromkeys(VERDICTS, 0) for side in ("red", "black")}
    for entry in entries:
        if entry["verdict"]:
            counts[entry["side"]][entry["verdict"]] += 1
    return counts


# -- the requests ----------------------------------------------------------------------------


def _coded(
    kind: type[ApplicationError], code: str, params: dict[str, object] | None = None
) -> ApplicationError:
    explanation = {language: render(code, params, language) for language in ("zh", "en")}
    return kind.coded(code, params, {"code": code.split(".")[-1], "explanation": explanation})


def game_analysis_get(*, game: Game) -> GameAnalysis | None:
    """The analysis of ``game`` (whose owner the caller has checked), or None."""
    return GameAnalysis.objects.filter(game=game, version=GAME_ANALYSIS_VERSION).first()


def game_analysis_request(
    *, owner: Owner, game: Game, address: str = "", now: datetime | None = None
) -> tuple[GameAnalysis, bool]:
    """The analysis of ``game`` (the owner's, checked by the caller), asked for from
    ``address``: the row there is (pending, done or failed), or a new pending one, which waits
    its turn in the fair queue (its dispatcher runs once the transaction commits); ``True``
    when it is new. Raises ``GameNotFinished``, ``AnalysisBusy`` (the owner's other analysis
    is pending), ``TooMuchWaiting`` (``GAME_ANALYSIS_PENDING_PER_ADDRESS`` of the address are)."""
    if game.status != Game.Status.FINISHED:
        raise _coded(GameNotFinished, "game_analysis.not_finished")
    existing = GameAnalysis.objects.filter(game=game, version=GAME_ANALYSIS_VERSION).first()
    if existing is not None:
        return existing, False
    pending = GameAnalysis.objects.filter(status=GameAnalysis.Status.PENDING)
    if pending.filter(owner.q()).exists():
        raise _coded(AnalysisBusy, "game_analysis.busy")
    if address:
        by_address = pending.filter(address=address).count()
        if by_address >= settings.GAME_ANALYSIS_PENDING_PER_ADDRESS:
            raise _coded(TooMuchWaiting, "game_analysis.busy_address", {"count": by_address})
    plies = min(game.ply, GAME_ANALYSIS_MAX_PLIES)
    try:
        with transaction.atomic():
            row = GameAnalysis.objects.create(
                **owner.fields(),
                game=game,
                version=GAME_ANALYSIS_VERSION,
                plies=plies,
                nodes=GAME_ANALYSIS_NODES,
                address=address,
                queued_at=now or timezone.now(),
            )
    except IntegrityError:  # the same game, or another of the owner's, at the same moment
        existing = GameAnalysis.objects.filter(game=game, version=GAME_ANALYSIS_VERSION).first()
        if existing is not None:
            return existing, False
        raise _coded(AnalysisBusy, "game_analysis.busy") from None
    transaction.on_commit(dispatch_analyses)
    return row, True


def game_analysis_requeue(*, analysis: GameAnalysis, now: datetime | None = None) -> bool:
    """A poll of a pending analysis: when its next chunk waits for its turn, or was handed
    over longer than ``STALE_AFTER`` ago (its message lost), the fair queue's dispatcher runs
    (unless another one is running); True if the chunk was handed over. A second run
    alongside writes nothing twice."""
    if analysis.status != GameAnalysis.Status.PENDING:
        return False
    return poll_dispatch(
        task=GAME_ANALYSIS, pk=analysis.pk, dispatched_at=analysis.dispatched_at, now=now
    )


def _append(analysis_id: int, index: int, evaluation: dict[str, Any]) -> bool:
    """Keep the search of position ``index`` if it is the one the row is missing."""
    with transaction.atomic():
        row = (
            GameAnalysis.objects.select_for_update()
            .filter(pk=analysis_id, status=GameAnalysis.Status.PENDING)
            .first()
        )
        if row is None or len(row.evaluations) != index:
            return False
        row.evaluations = [*row.evaluations, evaluation]
        row.save(update_fields=["evaluations", "updated_at"])
    return True


def _finish(analysis_id: int, status: str, result: dict[str, Any]) -> bool:
    return bool(
        GameAnalysis.objects.filter(pk=analysis_id, status=GameAnalysis.Status.PENDING).update(
            status=status, result=result, finished_at=timezone.now(), updated_at=timezone.now()
        )
    )


def _next_chunk(analysis_id: int) -> None:
    """The chunk is done and positions are left: the analysis waits for its next turn."""
    now = timezone.now()
    GameAnalysis.objects.filter(pk=analysis_id, status=GameAnalysis.Status.PENDING).update(
        queued_at=now, dispatched_at=None, updated_at=now
    )


def game_analysis_run(*, analysis_id: int, seconds: float = GAME_ANALYSIS_RUN_SECONDS) -> str:
    """Search the positions the analysis is missing for about ``seconds`` (one chunk);
    ``done`` when the last is in (the verdicts written), ``more`` when the next chunk waits its
    turn in the fair queue (the caller runs its dispatcher), ``failed``, or ``skipped`` when
    the row is not pending (finished, or another run is ahead)."""
    analysis = GameAnalysis.objects.select_related("game").filter(pk=analysis_id).first()
    if analysis is None or analysis.status != GameAnalysis.Status.PENDING:
        return "skipped"
    game = analysis.game
    iccs = game.iccs_moves[: analysis.plies]
    index = len(analysis.evaluations)
    evaluations = list(analysis.evaluations)
    started = time.monotonic()
    try:
        while index <= analysis.plies:
            if index > len(analysis.evaluations) and time.monotonic() - started >= seconds:
                _next_chunk(analysis_id)
                return "more"
            found = position_evaluation(
                variant=game.variant, fen=game.start_fen, moves=iccs[:index]
            )
            if not _append(analysis_id, index, found):
                return "skipped"
            evaluations.append(found)
            index += 1
    except EngineError as error:
        message = {lang: render(error.code, error.params, lang) for lang in ("zh", "en")}
        failed = _finish(
            analysis_id,
            GameAnalysis.Status.FAILED,
            {"error": {"code": error.code, "message": message}},
        )
        return "failed" if failed else "skipped"
    entries = game_verdicts(
        fen=game.start_fen, moves=game.moves[: analysis.plies], evaluations=evaluations
    )
    result = {
        "start": {k: evaluations[0].get(k) for k in ("cp", "mate", "winner")},
        "plies": entries,
        "summary": summary(entries),
        "analysed": len(entries),
        "game_plies": game.ply,
    }
    return "done" if _finish(analysis_id, GameAnalysis.Status.DONE, result) else "skipped"
