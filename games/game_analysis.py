"""The computer's analysis of a finished game: every position judged, every move marked.

The judge (``judge.judge_for``) searches each position of the game on a node budget: for
traditional xiangqi Fairy-Stockfish where it is installed, else (and for Missile Xiangqi and
New-version Xiangqi, which no other engine plays) the site's own engine at full strength, no
noise. The budget is the judge's (``GAME_ANALYSIS_NODES``, chosen by measurement: docs/play.md,
"How far the marks can be trusted"), for the first ``GAME_ANALYSIS_MAX_PLIES`` plies of the
game (a longer game is analysed that far and says so). ``position_evaluation`` is one such
search, kept from Red's side; ``game_verdicts`` turns the list of them into one entry a ply;
``classify`` is the judgement of one move, a pure function of the evaluation before it and
after it, from the side that moved:

- the evaluations become Red's or Black's chances, ``win_chance`` = 1 / (1 + e^(-cp/scale)),
  a mate for the mover 1, a mate against them 0; the scale is the judge's
  (``CHANCE_SCALES``: the two engines count centipawns differently);
- the drop of the mover's chances over the move: ``INACCURACY_DROP`` an inaccuracy ``?!``,
  ``MISTAKE_DROP`` a mistake ``?``, ``BLUNDER_DROP`` a blunder ``??``;
- a move that gives up a mate the judge saw for the mover (``mate`` > 0 before, no mate for
  the mover after) is a blunder, with the mate said as the judge saw it (not proved);
- the judge's own choice is never marked (its search of the next position can disagree with
  itself by a little).

A marked move carries the judge's better move (its choice in the position before), in ICCS
and Chinese notation. The analysis names its judge, the budget and the depth it reached.

The site's side: ``game_analysis_request`` keeps one ``GameAnalysis`` a (game, version), owned
by the game's owner and the only one who may read it; asking again gives the same row. A live
game (the live app's, which this app does not read) is analysed from plain data
(``AnalysedGame``: variant, start, moves), handed over by the page of one of its two players,
who has been checked there: ``live_game_analysis_request`` keeps one row a (live game, player's
side, version), owned by that player; the work is the same. An owner
has one game analysis pending at a time (a database constraint; another is ``AnalysisBusy``,
HTTP 409), an address ``GAME_ANALYSIS_PENDING_PER_ADDRESS`` (``TooMuchWaiting``, HTTP 429); a
game not finished is ``GameNotFinished`` (HTTP 409). The work is done by ``games.game_analysis``
on the ``playing_deep`` queue, a chunk of ``GAME_ANALYSIS_RUN_SECONDS`` at a time, and each
chunk waits its turn in the games' fair queue (``games.queueing``): the analyses of one owner
and of one address take turns with everyone else's work, and never hold up the computer's
moves by more than the chunk a worker is running. A chunk ends early, after the position it is
searching, when a first look at the analysis board waits for its turn; when the first look is
due (``games.queueing``), the search itself stops within a moment, is dropped, and the chunk
ends: the position is searched again at the analysis's next turn. Each position's search is written as soon as
it is found, only if it is the next one the row is missing; at the end of a chunk the analysis
waits for its next turn. A worker killed mid-chunk loses at most the position it was searching:
the message comes back (acknowledged late) and the next run starts where the row stops. A chunk
handed over longer than ``STALE_AFTER`` ago and not done (its message lost) is handed over
again by the dispatcher (when polled, or within a minute).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.owners import Owner
from core.exceptions import ApplicationError
from core.messages import render
from engine import EngineError, Position
from games.models import Game, GameAnalysis
from games.queueing import (
    GAME_ANALYSIS,
    REQUEUE_AFTER,
    GiveWay,
    TooMuchWaiting,
    dispatch_analyses,
    first_look_waiting,
    poll_dispatch,
)
from judge import FAIRY_STOCKFISH, OURS, Judge, JudgeError, OurEngine, judge_for

# What a row was made by: a change of judge, budget or thresholds is a new version (a new row).
GAME_ANALYSIS_VERSION = 3
# The budget a position, by judge (nodes: the same answer on any machine), and how far into a
# game. Chosen by measurement (bench/analysis_agreement.py; docs/play.md).
GAME_ANALYSIS_NODES = {FAIRY_STOCKFISH: 100_000, OURS: 30_000}
GAME_ANALYSIS_MAX_PLIES = 300
# Close calls: a move whose drop of the mover's chances at the budget falls in this band
# (around the mistake and blunder lines), or that seems to let a mate go, is searched again,
# the best move and the move played, on this many times the budget, and that judgement
# stands. Chosen by measurement (bench/analysis_agreement.py; docs/play.md).
SETTLE_FACTOR = 4
SETTLE_BAND = (0.12, 0.45)
# What bench/analysis_agreement.py measured at those budgets with the marks as ``classify``
# gives them now (docs/play.md), by judge and variant where the sample is large enough to say:
# games between the engine's levels 1 and 2 (``--source engine --levels 1,2``; master games
# hold too few mistakes to count), the games and moves, how many times longer the reference
# (the same engine) searched, the moves the site and the reference called a mistake or worse,
# and those both did. The page says them.
GAME_ANALYSIS_AGREEMENT: dict[tuple[str, str], dict[str, int]] = {
    (FAIRY_STOCKFISH, "xiangqi"): {
        "games": 60, "moves": 720, "factor": 10, "site": 23, "reference": 21, "both": 20,
    },
    (OURS, "feidan"): {
        "games": 30, "moves": 360, "factor": 30, "site": 11, "reference": 16, "both": 11,
    },
    (OURS, "xinban"): {
        "games": 30, "moves": 360, "factor": 30, "site": 19, "reference": 24, "both": 19,
    },
}  # fmt: skip
# The site's engine stops a search this long, whatever its nodes: a safety net for a machine so
# loaded that a budget would take far longer than it does (about 0.2 s a position when quiet).
GAME_ANALYSIS_MOVETIME_MS = 5_000
# "Learn from your mistakes": at each mistake and blunder, every legal move is weighed (the
# judge's budget for all of them together: Fairy-Stockfish gives them all as lines of one
# search; the site's engine searches the position after each move on its share), and a move
# whose chances are within ``ABOUT_AS_GOOD`` of the best move's is as good an answer.
LEARN_VERDICTS = ("mistake", "blunder")
RANKING_NODES = {FAIRY_STOCKFISH: 200_000, OURS: 4_000}
ABOUT_AS_GOOD = 0.10
# A chunk searches positions for this long (each at most ``GAME_ANALYSIS_MOVETIME_MS``), then
# the analysis waits for its next turn: no longer than one search of the analysis board, so
# that whoever waits behind a chunk waits no longer than behind a search.
GAME_ANALYSIS_RUN_SECONDS = 1.0
# A chunk handed to the workers this long ago and not done has lost its message.
STALE_AFTER = REQUEUE_AFTER

# The judgement: centipawns to chances (a scale a judge: the same material is a different
# number of centipawns to each engine), and the drops of the mover's chances.
CHANCE_SCALES = {FAIRY_STOCKFISH: 250.0, OURS: 250.0}
INACCURACY_DROP = 0.10
MISTAKE_DROP = 0.20
BLUNDER_DROP = 0.30
VERDICTS = ("inaccuracy", "mistake", "blunder")
# The mover's chances with the judge's best move at or above this are a decisive win (about
# four and a half pawns ahead, or a mate): a mistake or worse that leaves them below it is a
# missed win (``missed_win``), a mate or material the move let slip.
DECISIVE_CHANCE = 0.85
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
    ``{"cp": int | None, "mate": int | None, "winner": "red" | "black" | "draw" | None,
    "engine": str}`` (``mate`` positive when Red mates; ``winner`` when the game is over
    there; ``engine`` the judge whose centipawns they are, ours when not said)."""
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
    scale = CHANCE_SCALES.get(evaluation.get("engine") or OURS, CHANCE_SCALES[OURS])
    return 1.0 / (1.0 + math.exp(-cp / scale))


def mate_for(evaluation: dict[str, Any], side: str) -> int | None:
    """The moves to the mate the engine sees for ``side``, or None."""
    mate = evaluation.get("mate")
    if mate is None or evaluation.get("winner"):
        return None
    if (mate > 0) == (side == "red"):
        return abs(mate)
    return None


def classify(
    eval_before: dict[str, Any],
    eval_after: dict[str, Any],
    side: str,
    next_position: dict[str, Any] | None = None,
) -> tuple[str | None, float]:
    """The verdict on ``side``'s move, the position evaluated ``eval_before`` before it and
    ``eval_after`` after it (both from Red's side, as ``win_chance`` takes them): ``None``,
    ``inaccuracy``, ``mistake`` or ``blunder``, and the drop of the mover's chances. A mate
    the judge saw is kept when ``eval_after`` or the search of the position the move led to
    (``next_position``, when ``eval_after`` is the move's own search from the position
    before) still sees one for the mover: a search of one root move can miss a mate that the
    search of the next position finds. A mate let go is judged by what the move left: still a
    decisive win (``DECISIVE_CHANCE``), the mate was lost but not the win, an inaccuracy (as
    Lichess judges a lost mate with ten pawns still up); anything less, a blunder."""
    after = win_chance(eval_after, side)
    drop = round(max(win_chance(eval_before, side) - after, 0.0), 3)
    seen_mate = mate_for(eval_before, side) is not None
    kept_it = any(
        mate_for(found, side) is not None or found.get("winner") == side
        for found in (eval_after, next_position or {})
    )
    if seen_mate and not kept_it:
        return ("inaccuracy" if after >= DECISIVE_CHANCE else "blunder"), drop
    if drop >= BLUNDER_DROP:
        return "blunder", drop
    if drop >= MISTAKE_DROP:
        return "mistake", drop
    if drop >= INACCURACY_DROP:
        return "inaccuracy", drop
    return None, drop


def missed_win(
    eval_before: dict[str, Any], eval_after: dict[str, Any], side: str, verdict: str | None
) -> bool:
    """Whether ``side``'s move, marked ``verdict``, let a decisive win slip: the position
    before it was won (chances at least ``DECISIVE_CHANCE`` with the judge's best move) and
    the move, a mistake or worse, left it short of that."""
    if verdict not in ("mistake", "blunder"):
        return False
    return win_chance(eval_before, side) >= DECISIVE_CHANCE > win_chance(eval_after, side)


# -- the searches ----------------------------------------------------------------------------


def analysis_judge(variant: str, engine: str | None = None) -> Judge:
    """The judge of a game of ``variant``: Fairy-Stockfish for traditional xiangqi where it is
    installed, else the site's engine (with its safety net of time); ``engine`` asks for one
    by name (``JudgeUnavailable`` when it is Fairy-Stockfish and it is gone)."""
    found = judge_for(variant, engine=engine)
    if found.name == OURS:
        return OurEngine(movetime_ms=GAME_ANALYSIS_MOVETIME_MS)
    return found


def analysis_plan(variant: str) -> dict[str, Any]:
    """Which judge would analyse a game of ``variant`` now, and its budget (for the page)."""
    judge = analysis_judge(variant)
    return {
        "engine": judge.name,
        "label": judge.label,
        "nodes": GAME_ANALYSIS_NODES[judge.name],
        "fairy": judge.name == FAIRY_STOCKFISH,
        "agreement": GAME_ANALYSIS_AGREEMENT.get((judge.name, variant)),
    }


def position_evaluation(
    *,
    variant: str,
    fen: str,
    moves: Sequence[str],
    judge: Judge | None = None,
    nodes: int | None = None,
    played: str | None = None,
    give_way: GiveWay | None = None,
    settle: bool = True,
) -> dict[str, Any]:
    """The judge's view of the position after ``moves`` from ``fen``, from Red's side: ``cp``
    (centipawns) or ``mate`` (moves, positive when Red mates), its ``best`` move (ICCS and
    Chinese), the ``depth`` it reached and the ``engine`` that judged; a position where the
    game is over has ``winner`` instead. ``judge`` defaults to ``analysis_judge(variant)``,
    ``nodes`` to its budget. With ``played``, the move the game went on with, and when it is
    not the judge's choice, ``played`` is also its judgement of that move: a second search of
    the same position on the same budget with that root move alone (``{"cp", "mate",
    "engine"}`` from Red's side), so that the move played and the best move are weighed in the
    same way from the same position. A close call (``close_call``) is searched again, both
    moves, on ``SETTLE_FACTOR`` times the budget, and that judgement stands (``settled``: its
    budget); ``settle=False`` leaves it at the budget. Raises ``JudgeError`` when the judge
    fails, and ``GaveWay`` when ``give_way`` stopped a search (a first look that is due
    waits)."""
    pos = Position.from_fen(variant, fen)
    for text in moves:
        pos.push_iccs(text)
    outcome = pos.outcome()
    if outcome is not None:
        return {"cp": None, "mate": None, "winner": outcome.winner or "draw", "best": None}
    judge = judge or analysis_judge(variant)
    budget = nodes or GAME_ANALYSIS_NODES[judge.name]
    evaluation = _searched(judge, variant, pos, fen, moves, budget, played, give_way)
    if settle and close_call(evaluation, pos.turn):
        settled = budget * SETTLE_FACTOR
        evaluation = _searched(judge, variant, pos, fen, moves, settled, played, give_way)
        evaluation["settled"] = settled
    return evaluation


def _searched(
    judge: Judge,
    variant: str,
    pos: Position,
    fen: str,
    moves: Sequence[str],
    nodes: int,
    played: str | None,
    give_way: GiveWay | None,
) -> dict[str, Any]:
    """The judge's search of ``pos`` on ``nodes``, and of ``played`` alone when it is not
    the judge's choice (``position_evaluation``)."""
    found = judge.evaluate(variant=variant, fen=fen, moves=moves, nodes=nodes, stop=give_way)
    _given_way(give_way)
    cp, mate = found.for_red()
    best = pos.parse_move(found.best.move)
    evaluation: dict[str, Any] = {
        "cp": cp,
        "mate": mate,
        "winner": None,
        "best": {"iccs": best.iccs(), "chinese": pos.chinese(best)},
        "depth": found.depth,
        "engine": found.engine,
    }
    if played is not None and played != best.iccs():
        evaluation["played"] = _played_alone(judge, variant, fen, moves, nodes, played, give_way)
    return evaluation


def close_call(evaluation: dict[str, Any], side: str) -> bool:
    """Whether the judgement of ``side``'s move, the position's evaluation ``evaluation``
    with the move played searched alone (``played``), is too close to call at the budget:
    a drop of the mover's chances within ``SETTLE_BAND`` (about the mistake and blunder
    lines), or a mate the judge saw for the mover that the move seems to let go (a short
    search can miss that the move played mates too)."""
    played = evaluation.get("played")
    if played is None:
        return False
    drop = win_chance(evaluation, side) - win_chance(played, side)
    low, high = SETTLE_BAND
    if low <= drop < high:
        return True
    return mate_for(evaluation, side) is not None and mate_for(played, side) is None


def _played_alone(
    judge: Judge,
    variant: str,
    fen: str,
    moves: Sequence[str],
    nodes: int,
    played: str,
    give_way: GiveWay | None,
) -> dict[str, Any]:
    alone = judge.evaluate(
        variant=variant, fen=fen, moves=moves, nodes=nodes, only=[played], stop=give_way
    )
    _given_way(give_way)
    cp, mate = alone.for_red()
    return {"cp": cp, "mate": mate, "winner": None, "engine": alone.engine}


class GaveWay(Exception):
    """A search of a game analysis stopped to let a first look that is due go first: what it
    found is dropped, and the position is searched again at the analysis's next turn."""


def _given_way(give_way: GiveWay | None) -> None:
    if give_way is not None and give_way.gave_way:
        raise GaveWay


def move_ranking(
    *,
    variant: str,
    fen: str,
    moves: Sequence[str],
    judge: Judge,
    nodes: int | None = None,
    give_way: GiveWay | None = None,
) -> list[dict[str, Any]]:
    """Every legal move of the position after ``moves`` from ``fen``, weighed by ``judge``:
    ``iccs``, ``chinese``, the evaluation after it from Red's side (``eval``) and the mover's
    chances (``chance``), best first. Fairy-Stockfish weighs them all in one search (a line
    each, ``nodes`` in all); the site's engine, which gives one line, searches the position
    after each move on ``nodes`` (its share). A move the judge leaves out has no chance.
    Raises ``GaveWay`` when ``give_way`` stopped a search."""
    pos = Position.from_fen(variant, fen)
    for text in moves:
        pos.push_iccs(text)
    side = pos.turn
    legal = sorted(pos.legal_moves, key=lambda m: m.iccs())
    budget = nodes or RANKING_NODES[judge.name]
    weighed: dict[str, dict[str, Any]] = {}
    if judge.name == FAIRY_STOCKFISH:
        found = judge.evaluate(
            variant=variant, fen=fen, moves=moves, nodes=budget, multipv=len(legal), stop=give_way
        )
        _given_way(give_way)
        for line in found.lines:
            cp, mate = found.for_red(line)
            weighed[line.move] = {"cp": cp, "mate": mate, "winner": None, "engine": judge.name}
    else:
        for move in legal:
            after = position_evaluation(
                variant=variant, fen=fen, moves=[*moves, move.iccs()], judge=judge, nodes=budget,
                give_way=give_way,
            )  # fmt: skip
            weighed[move.iccs()] = {k: after.get(k) for k in ("cp", "mate", "winner", "engine")}
    ranking: list[dict[str, Any]] = []
    for move in legal:
        evaluation = weighed.get(move.iccs())
        ranking.append(
            {
                "iccs": move.iccs(),
                "chinese": pos.chinese(move),
                "eval": evaluation,
                "chance": None if evaluation is None else round(win_chance(evaluation, side), 3),
            }
        )
    ranking.sort(key=lambda m: -1.0 if m["chance"] is None else m["chance"], reverse=True)
    return ranking


def learn_step(
    entry: dict[str, Any], fen: str, ranking: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    """One of "Learn from your mistakes": the marked move ``entry`` (from ``game_verdicts``),
    the position before it (``fen``) and every legal move there weighed (``move_ranking``).
    The moves whose chances are within ``ABOUT_AS_GOOD`` of the best's are the answers; None
    when the move played is itself one of them (the weighing disagrees with the mark: nothing
    to learn there)."""
    known = [m for m in ranking if m["chance"] is not None]
    if not known:
        return None
    best = known[0]
    floor = best["chance"] - ABOUT_AS_GOOD
    answers = [m["iccs"] for m in known if m["chance"] >= floor]
    if entry["iccs"] in answers:
        return None
    return {
        "ply": entry["ply"],
        "side": entry["side"],
        "fen": fen,
        "played": {k: entry[k] for k in ("iccs", "chinese", "verdict", "symbol")},
        "missed_win": bool(entry.get("missed_win")),
        "best": {"iccs": best["iccs"], "chinese": best["chinese"]},
        "answers": answers,
        "moves": {m["iccs"]: {"chinese": m["chinese"], "chance": m["chance"]} for m in ranking},
    }


def first_mover(fen: str) -> str:
    return "black" if fen.split(" ")[1:2] == ["b"] else "red"


def game_verdicts(
    *, fen: str, moves: Sequence[Mapping[str, Any]], evaluations: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One entry a ply judged: the ply (1 for the first move), the side, the move (ICCS and
    Chinese), the evaluation after it (Red's side), the verdict, the drop of the mover's
    chances, and for a marked move the engine's better move and the mate it saw (``seen_mate``,
    not proved); ``missed_win`` when the move let a decisive win slip. ``evaluations[i]`` is
    the position before ply i + 1; the plies judged are those with an evaluation on both
    sides."""
    side = first_mover(fen)
    entries = []
    for index in range(min(len(moves), len(evaluations) - 1)):
        before, after = evaluations[index], evaluations[index + 1]
        played = moves[index]
        # the move played as searched from the same position as the best move, when it was
        # (``position_evaluation(played=...)``); else the search of the position it led to
        weighed = before.get("played") if not after.get("winner") else None
        verdict, drop = classify(before, weighed or after, side, next_position=after)
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
                "missed_win": missed_win(before, weighed or after, side, verdict),
            }
        )
        side = _other(side)
    return entries


def summary(entries: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """How many moves of each side were marked, by verdict, and how many let a decisive win
    slip (``missed_win``)."""
    counts = {side: dict.fromkeys((*VERDICTS, "missed_win"), 0) for side in ("red", "black")}
    for entry in entries:
        if entry["verdict"]:
            counts[entry["side"]][entry["verdict"]] += 1
        if entry.get("missed_win"):
            counts[entry["side"]]["missed_win"] += 1
    return counts


# -- the game analysed, as plain data ---------------------------------------------------------


@dataclass(frozen=True)
class AnalysedGame:
    """What the analysis reads of a game: its variant, its start, its moves (``iccs`` and
    ``chinese`` a ply) and the sides whose mistakes are the reader's to learn from."""

    variant: str
    start_fen: str
    moves: Sequence[Mapping[str, Any]]
    sides: tuple[str, ...]

    @property
    def iccs_moves(self) -> list[str]:
        return [str(move["iccs"]) for move in self.moves]

    @property
    def ply(self) -> int:
        return len(self.moves)

    def as_json(self) -> dict[str, Any]:
        """The record kept on a live game's analysis (its sides are the row's ``side``)."""
        moves = [
            {"iccs": str(m["iccs"]), "chinese": str(m.get("chinese") or "")} for m in self.moves
        ]
        return {"variant": self.variant, "start_fen": self.start_fen, "moves": moves}


def game_record(game: Game) -> AnalysedGame:
    """One of this app's games as the analysis reads it."""
    return AnalysedGame(game.variant, game.start_fen, game.moves, tuple(player_sides(game)))


def analysed_game(analysis: GameAnalysis) -> AnalysedGame:
    """The game ``analysis`` is of: its game's row, or a live game's record."""
    if analysis.game is not None:
        return game_record(analysis.game)
    record = analysis.record
    return AnalysedGame(record["variant"], record["start_fen"], record["moves"], (analysis.side,))


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
    return _request(
        owner=owner, key={"game": game}, record=game_record(game), address=address, now=now
    )


def live_game_analysis_get(*, live_game: int, side: str) -> GameAnalysis | None:
    """The analysis of live game ``live_game`` for its player on ``side`` (whose seat the
    caller has checked), or None."""
    return GameAnalysis.objects.filter(
        live_game=live_game, side=side, version=GAME_ANALYSIS_VERSION
    ).first()


def live_game_analysis_request(
    *,
    owner: Owner,
    live_game: int,
    side: str,
    record: AnalysedGame,
    finished: bool,
    address: str = "",
    now: datetime | None = None,
) -> tuple[GameAnalysis, bool]:
    """The analysis of live game ``live_game`` (``record``; ``finished``: the game is over)
    for ``owner``, its player on ``side`` (the caller has checked the seat): as
    ``game_analysis_request``, with the same refusals."""
    if not finished:
        raise _coded(GameNotFinished, "game_analysis.not_finished")
    key = {"live_game": live_game, "side": side}
    extra = {"record": record.as_json()}
    return _request(owner=owner, key=key, record=record, extra=extra, address=address, now=now)


def _request(
    *,
    owner: Owner,
    key: dict[str, Any],
    record: AnalysedGame,
    extra: dict[str, Any] | None = None,
    address: str,
    now: datetime | None,
) -> tuple[GameAnalysis, bool]:
    """The analysis named by ``key`` (its game's fields) of the game ``record``: the row there
    is, or a new pending one (with ``extra`` fields), as ``game_analysis_request`` says."""
    existing = GameAnalysis.objects.filter(**key, version=GAME_ANALYSIS_VERSION).first()
    if existing is not None and not _judge_failed(existing):
        return existing, False
    if existing is not None:  # its judge failed: asking again starts it afresh
        GameAnalysis.objects.filter(pk=existing.pk, status=GameAnalysis.Status.FAILED).delete()
    pending = GameAnalysis.objects.filter(status=GameAnalysis.Status.PENDING)
    if pending.filter(owner.q()).exists():
        raise _coded(AnalysisBusy, "game_analysis.busy")
    if address:
        by_address = pending.filter(address=address).count()
        if by_address >= settings.GAME_ANALYSIS_PENDING_PER_ADDRESS:
            raise _coded(TooMuchWaiting, "game_analysis.busy_address", {"count": by_address})
    plies = min(record.ply, GAME_ANALYSIS_MAX_PLIES)
    judge = analysis_judge(record.variant)
    try:
        with transaction.atomic():
            row = GameAnalysis.objects.create(
                **owner.fields(),
                **key,
                **(extra or {}),
                version=GAME_ANALYSIS_VERSION,
                plies=plies,
                engine=judge.name,
                nodes=GAME_ANALYSIS_NODES[judge.name],
                address=address,
                queued_at=now or timezone.now(),
            )
    except IntegrityError:  # the same game, or another of the owner's, at the same moment
        existing = GameAnalysis.objects.filter(**key, version=GAME_ANALYSIS_VERSION).first()
        if existing is not None:
            return existing, False
        raise _coded(AnalysisBusy, "game_analysis.busy") from None
    transaction.on_commit(dispatch_analyses)
    return row, True


def _judge_failed(analysis: GameAnalysis) -> bool:
    """An analysis that failed because its judge stopped answering (not because of the game):
    asking again tries afresh."""
    error = (analysis.result or {}).get("error") or {}
    return analysis.status == GameAnalysis.Status.FAILED and (
        error.get("code") == "game_analysis.judge_failed"
    )


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
    """Search the positions the analysis is missing for about ``seconds`` (one chunk, ended
    early after a position when a first look at the analysis board waits, and at once, the
    search dropped, when a first look that is due waits: ``games.queueing``), then weigh every
    move at each mistake and blunder (``move_ranking``, one position a step);
    ``done`` when the last is in (the verdicts written), ``more`` when the next chunk waits its
    turn in the fair queue (the caller runs its dispatcher), ``failed``, or ``skipped`` when
    the row is not pending (finished, or another run is ahead)."""
    analysis = GameAnalysis.objects.select_related("game").filter(pk=analysis_id).first()
    if analysis is None or analysis.status != GameAnalysis.Status.PENDING:
        return "skipped"
    game = analysed_game(analysis)
    iccs = game.iccs_moves[: analysis.plies]
    index = len(analysis.evaluations)
    evaluations = list(analysis.evaluations)
    rankings = dict(analysis.rankings)
    started = time.monotonic()
    give_way = GiveWay()

    def chunk_over(searched: bool) -> bool:
        if not searched:
            return False
        return time.monotonic() - started >= seconds or first_look_waiting(due=False)

    try:
        judge = analysis_judge(game.variant, engine=analysis.engine or None)
        nodes = analysis.nodes or GAME_ANALYSIS_NODES[judge.name]
        while index <= analysis.plies:
            if chunk_over(index > len(analysis.evaluations)):
                _next_chunk(analysis_id)
                return "more"
            found = position_evaluation(
                variant=game.variant, fen=game.start_fen, moves=iccs[:index], judge=judge,
                nodes=nodes, played=iccs[index] if index < len(iccs) else None, give_way=give_way,
            )  # fmt: skip
            if not _append(analysis_id, index, found):
                return "skipped"
            evaluations.append(found)
            index += 1
        entries = game_verdicts(
            fen=game.start_fen, moves=game.moves[: analysis.plies], evaluations=evaluations
        )
        weighed = 0
        for entry in entries:
            key = str(entry["ply"])
            if entry["verdict"] not in LEARN_VERDICTS or key in rankings:
                continue
            if chunk_over(index > len(analysis.evaluations) or weighed > 0):
                _next_chunk(analysis_id)
                return "more"
            ranking = move_ranking(
                variant=game.variant, fen=game.start_fen, moves=iccs[: entry["ply"] - 1],
                judge=judge, give_way=give_way,
            )  # fmt: skip
            if not _keep_ranking(analysis_id, key, ranking):
                return "skipped"
            rankings[key] = ranking
            weighed += 1
    except GaveWay:
        _next_chunk(analysis_id)
        return "more"
    except EngineError as error:
        return _failed(analysis_id, error.code, error.params)
    except JudgeError as error:
        # The judge's process is restarted and asked again once by judge.uci: a second failure,
        # or a judge that is gone, ends the analysis with the reason.
        engine = str(error.params.get("engine") or analysis.engine)
        return _failed(analysis_id, "game_analysis.judge_failed", {"engine": engine}, str(error))
    result = {
        "start": {
            **{k: evaluations[0].get(k) for k in ("cp", "mate", "winner")},
            "chance": round(win_chance(evaluations[0], "red"), 3),
        },
        "plies": entries,
        "summary": summary(entries),
        "analysed": len(entries),
        "game_plies": game.ply,
        "judge": judge_summary(judge, nodes, evaluations),
        "learn": learn_steps(game, entries, rankings),
    }
    return "done" if _finish(analysis_id, GameAnalysis.Status.DONE, result) else "skipped"


def learn_steps(
    game: AnalysedGame,
    entries: Sequence[dict[str, Any]],
    rankings: dict[str, list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """The game's mistakes and blunders to learn from, in order (``learn_step``)."""
    pos = Position.from_fen(game.variant, game.start_fen)
    steps = []
    for entry in entries:
        ranking = rankings.get(str(entry["ply"]))
        if ranking is not None:
            step = learn_step(entry, pos.fen(), ranking)
            if step is not None:
                steps.append(step)
        pos.push_iccs(entry["iccs"])
    return steps


def player_sides(game: Game) -> list[str]:
    """The sides whose mistakes are the owner's to learn from: their own against the computer,
    both at one board."""
    return [game.human_side] if game.mode == Game.Mode.COMPUTER else ["red", "black"]


def learn_from_mistakes(
    *, game: AnalysedGame, analysis: GameAnalysis | None
) -> list[dict[str, Any]] | None:
    """The steps of "Learn from your mistakes" for the reader of the analysis: the player's own
    mistakes and blunders (in a game against the computer or a live game), both sides' at one
    board (``game.sides``), each with the move that led to its position (``last``, ICCS, or
    None at the start). None when the game has no finished analysis."""
    if analysis is None or analysis.status != GameAnalysis.Status.DONE:
        return None
    mine = game.sides
    iccs = game.iccs_moves
    return [
        {**step, "last": iccs[step["ply"] - 2] if step["ply"] >= 2 else None}
        for step in analysis.result.get("learn", [])
        if step["side"] in mine
    ]


def _keep_ranking(analysis_id: int, key: str, ranking: list[dict[str, Any]]) -> bool:
    """Keep the weighed moves of the position before ply ``key`` on a row still pending."""
    with transaction.atomic():
        row = (
            GameAnalysis.objects.select_for_update()
            .filter(pk=analysis_id, status=GameAnalysis.Status.PENDING)
            .first()
        )
        if row is None:
            return False
        if key not in row.rankings:
            row.rankings = {**row.rankings, key: ranking}
            row.save(update_fields=["rankings", "updated_at"])
    return True


def _failed(analysis_id: int, code: str, params: Mapping[str, Any] | None, detail: str = "") -> str:
    message = {lang: render(code, dict(params or {}), lang) for lang in ("zh", "en")}
    error: dict[str, Any] = {"code": code, "message": message}
    if detail:
        error["detail"] = detail
    failed = _finish(analysis_id, GameAnalysis.Status.FAILED, {"error": error})
    return "failed" if failed else "skipped"


def judge_summary(
    judge: Judge, nodes: int, evaluations: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """Who judged the game and how deep: the engine (its stable name and its label), the
    budget a position, the middle of the depths its searches reached, and the close calls
    searched again (``settled``) on their larger budget (``settle_nodes``)."""
    depths = sorted(int(e["depth"]) for e in evaluations if e.get("depth"))
    return {
        "engine": judge.name,
        "label": judge.label,
        "nodes": nodes,
        "depth": depths[len(depths) // 2] if depths else None,
        "settled": sum(1 for e in evaluations if e.get("settled")),
        "settle_nodes": nodes * SETTLE_FACTOR,
    }
