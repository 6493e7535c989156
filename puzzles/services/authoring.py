"""Authoring: drafts made by users, checked by the engine, proved by the prover, then published.

A draft can be edited by its author only, while it is a draft (a rejected puzzle becomes a
draft again when edited). Submitting it queues a verification task that runs the prover within
a budget; the puzzle is published only when it is sound and unique, otherwise the author is
told exactly why (the second key, the shorter win, the defence that escapes, or that it was too
hard to prove within the budget). A published puzzle never changes.

The prover is shared, so a submission is refused, with the reason, when the author already has
a puzzle being verified (one proof at a time per author: refused rather than queued behind it,
so that no author can stack up hours of proving and the author sees at once that the first
result comes first), when ``PROVING_ADDRESS_LIMIT`` puzzles sent from the same address are
waiting (many accounts at one address count as one), or when ``PROVING_QUEUE_LIMIT`` puzzles
site-wide are waiting for the prover already (``ProvingQueueFullError``: the API answers 503
with Retry-After).

The queue is served fairly, not first come first served: the puzzles waiting are rows of the
database (status ``verifying``), and each verification message (``puzzles.verify_puzzle``,
one per submission) proves whichever waiting puzzle comes next (``proving_queue_next``). A
puzzle's turn is the larger of its author's and its address's turns: how many of their puzzles
the prover started on in the last hour, plus how many of theirs wait ahead of it; ties go to the
earlier submission. So an author or an address that was just served, or has more waiting, waits
behind everyone else's next puzzle, and a newcomer waits behind no flood. A claimed puzzle
records the message that claimed it: a message handed back when its worker died goes on with
the same puzzle, so nothing is lost or proved twice in parallel.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from core.exceptions import ApplicationError, IllegalTry
from engine import EngineError, Move, Position, find_variant
from engine import solver as prover
from puzzles import proving, selectors
from puzzles.models import MAX_MOVES_TO_WIN, PROVED_GOALS, Goal, ProvingRequest, Puzzle, Variant
from puzzles.rejections import rejection_text
from puzzles.selectors import proving_queue_order
from puzzles.services.bank import puzzle_publish

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

# An author may ask for a win of up to this many moves (the classical collections hold mates
# of 10 to 30); a long one in full mode often outgrows the budget, and the author is told so.
MAX_AUTHORED_MOVES = MAX_MOVES_TO_WIN
# The modes an author may choose: every move (``full``), or checks only (连将杀).
AUTHORED_MODES = (proving.FULL, proving.CHECKS_ONLY)
# The prover's budget for one verification (the task's time limits sit above it), and how
# often the proving worker writes how far the proof has come: ``puzzles.proving``.
VERIFY_NODES = proving.VERIFY_NODES
VERIFY_SECONDS = proving.VERIFY_SECONDS
VERIFY_PROGRESS_SECONDS = proving.VERIFY_PROGRESS_SECONDS
MAX_TITLE = 120
# Seconds an author is asked to wait when the proving queue is full (proofs take up to
# VERIFY_SECONDS each).
PROVING_QUEUE_RETRY_SECONDS = 60
# Key of the PostgreSQL advisory lock that makes "count, then queue" one step per submission,
# and "choose the next puzzle, then claim it" one step per verification.
PROVING_QUEUE_LOCK = 0x7871_7072  # "xqpr"
# Proofs started within this window count against their author's and address's next turn.
SERVED_WINDOW = selectors.SERVED_WINDOW


class ProvingQueueFullError(ApplicationError):
    """As many puzzles as the proving queue holds are waiting already; try again later."""

    retry_after = PROVING_QUEUE_RETRY_SECONDS


# The engine's reasons for refusing a FEN it could read: the pieces stand where the rules do not
# allow (the editor's board always writes a readable FEN, so these are what an author meets).
ILLEGAL_POSITION_CODES = frozenset(
    {
        "fen.general_outside_palace",
        "fen.advisor_point",
        "fen.elephant_point",
        "fen.soldier_behind",
        "fen.no_general",
        "fen.two_generals",
        "fen.too_many_pieces",
        "fen.too_many_turncoats",
        "fen.too_many_on_board",
        "fen.other_side_in_check",
    }
)


@dataclass(frozen=True)
class PositionCheck:
    fen: str  # normalised
    turn: str


def puzzle_position_check(*, variant: str, fen: str, goal: str, moves_to_win: int) -> PositionCheck:
    """Check that a puzzle can be made from this position; raise ``ApplicationError`` if not.

    The engine rejects an illegal position with the reason (which rank, what is wrong); a
    position where the game is already over has nothing to solve; a dead-general goal needs
    Missile Xiangqi. A readable position the rules do not allow, or one where the game is
    over, is an ``IllegalTry`` (an answer to an author placing pieces, not a fault).
    """
    if variant not in Variant.values:
        raise ApplicationError.coded(
            "puzzle.unknown_variant", {"variant": variant}, {"field": "variant"}
        )
    if goal not in PROVED_GOALS:
        raise ApplicationError.coded("puzzle.unknown_goal", {"goal": goal}, {"field": "goal"})
    if goal == Goal.DEAD_GENERAL and not find_variant(variant).dead_general_types:
        raise ApplicationError.coded("puzzle.dead_general_needs_feidan", extra={"field": "goal"})
    if not 1 <= moves_to_win <= MAX_AUTHORED_MOVES:
        raise ApplicationError.coded(
            "puzzle.moves_range", {"limit": MAX_AUTHORED_MOVES}, {"field": "moves_to_win"}
        )
    try:
        position = Position.from_fen(variant, fen)
    except EngineError as error:
        rank = getattr(error, "rank", None)
        # a board the rules do not allow is an answer; a FEN that cannot be read, a fault
        refusal = IllegalTry if error.code in ILLEGAL_POSITION_CODES else ApplicationError
        raise refusal.from_engine(error, {"field": "fen", "rank": rank}) from None
    outcome = position.outcome()
    if outcome is not None:
        raise IllegalTry.coded(
            "puzzle.game_over",
            {"termination": outcome.termination},
            {"field": "fen", "termination": outcome.termination},
        )
    return PositionCheck(fen=position.fen(), turn=position.turn)


def _position_to_save(*, variant: str, fen: str, goal: str, moves_to_win: int) -> PositionCheck:
    """The position of a draft being saved: any refusal is a fault of the save (HTTP 400)."""
    try:
        return puzzle_position_check(variant=variant, fen=fen, goal=goal, moves_to_win=moves_to_win)
    except IllegalTry as refused:
        raise refused.as_fault() from None


def _mode_check(mode: str) -> str:
    if mode not in AUTHORED_MODES:
        raise ApplicationError.coded("puzzle.unknown_mode", {"mode": mode}, {"field": "mode"})
    return mode


def puzzle_draft_create(
    *,
    author: User,
    variant: str,
    fen: str,
    goal: str,
    moves_to_win: int,
    title: str = "",
    mode: str = proving.FULL,
) -> Puzzle:
    checked = _position_to_save(variant=variant, fen=fen, goal=goal, moves_to_win=moves_to_win)
    return Puzzle.objects.create(
        variant=variant,
        fen=checked.fen,
        goal=goal,
        moves_to_win=moves_to_win,
        proof_mode=_mode_check(mode),
        title=title.strip()[:MAX_TITLE],
        author=author,
        source=Puzzle.Source.AUTHORED,
        status=Puzzle.Status.DRAFT,
    )


def _editable(puzzle: Puzzle, author: User) -> None:
    if puzzle.author_id is None or puzzle.author_id != getattr(author, "pk", None):
        raise PermissionDenied("Only the author can change this puzzle.")
    if puzzle.status == Puzzle.Status.PUBLISHED:
        raise ApplicationError.coded(
            "puzzle.published", extra={"status": puzzle.status, "code": "published"}
        )
    if puzzle.status == Puzzle.Status.VERIFYING:
        raise ApplicationError.coded(
            "puzzle.verifying", extra={"status": puzzle.status, "code": "verifying"}
        )


def puzzle_draft_update(
    *,
    puzzle: Puzzle,
    author: User,
    variant: str | None = None,
    fen: str | None = None,
    goal: str | None = None,
    moves_to_win: int | None = None,
    title: str | None = None,
    mode: str | None = None,
) -> Puzzle:
    """Change a draft (or a rejected puzzle, which becomes a draft again)."""
    with transaction.atomic():
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        _editable(puzzle, author)
        variant = variant if variant is not None else puzzle.variant
        goal = goal if goal is not None else puzzle.goal
        moves_to_win = moves_to_win if moves_to_win is not None else puzzle.moves_to_win
        checked = _position_to_save(
            variant=variant,
            fen=fen if fen is not None else puzzle.fen,
            goal=goal,
            moves_to_win=moves_to_win,
        )
        puzzle.variant = variant
        puzzle.fen = checked.fen
        puzzle.goal = goal
        puzzle.moves_to_win = moves_to_win
        if title is not None:
            puzzle.title = title.strip()[:MAX_TITLE]
        if mode is not None:
            puzzle.proof_mode = _mode_check(mode)
        puzzle.status = Puzzle.Status.DRAFT
        puzzle.rejection_reason = ""
        puzzle.rejection = {}
        puzzle.proof = None
        puzzle.save()
    return puzzle


def _lock_proving_queue() -> None:
    """Serialise submissions until the transaction ends (SQLite serialises writers itself)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PROVING_QUEUE_LOCK])


def _proving_queue_check(puzzle: Puzzle, address: str) -> None:
    """Refuse a submission while the author has a proof running or waiting, when the queue is
    full, or while the address has ``PROVING_ADDRESS_LIMIT`` puzzles in it."""
    verifying = Puzzle.objects.filter(status=Puzzle.Status.VERIFYING)
    busy = verifying.filter(author_id=puzzle.author_id).exclude(pk=puzzle.pk).first()
    if busy is not None:
        raise ApplicationError.coded(
            "puzzle.author_verifying",
            {"id": busy.pk},
            {"code": "author_verifying", "puzzle": busy.pk},
        )
    limit = settings.PROVING_QUEUE_LIMIT
    if verifying.count() >= limit:
        raise ProvingQueueFullError.coded(
            "puzzle.queue_full", {"count": limit}, {"code": "proving_queue_full", "limit": limit}
        )
    per_address = settings.PROVING_ADDRESS_LIMIT
    if address and verifying.filter(proving__address=address).count() >= per_address:
        raise ProvingQueueFullError.coded(
            "puzzle.address_queue_full",
            {"count": per_address},
            {"code": "address_queue_full", "limit": per_address},
        )


def puzzle_draft_submit(*, puzzle: Puzzle, author: User, address: str = "") -> Puzzle:
    """Queue the draft for verification by the prover: it waits in the proving queue, and a
    Celery task proves it in its fair turn. ``address`` is where the author is
    (``core.addresses.address_key``).

    Raises ``ApplicationError`` when the author has another puzzle being verified, and
    ``ProvingQueueFullError`` when ``PROVING_QUEUE_LIMIT`` puzzles in all or
    ``PROVING_ADDRESS_LIMIT`` from the address are waiting already; the draft stays a draft
    then."""
    from puzzles.tasks import puzzle_verify_task

    with transaction.atomic():
        _lock_proving_queue()
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        _editable(puzzle, author)
        _proving_queue_check(puzzle, address)
        now = timezone.now()
        puzzle.status = Puzzle.Status.VERIFYING
        puzzle.rejection_reason = ""
        puzzle.rejection = {}
        puzzle.verify_requested_at = now
        puzzle.save()
        ProvingRequest.objects.update_or_create(
            puzzle=puzzle,
            defaults={
                "address": address,
                "asked_at": now,
                "started_at": None,
                "task": "",
                "progress": {},
            },
        )
        transaction.on_commit(lambda: puzzle_verify_task.apply_async(ignore_result=True))
    return puzzle


def proving_queue_next(*, task_id: str) -> int | None:
    """Claim the puzzle that message ``task_id`` proves: the one it claimed already (a message
    handed back when its worker died goes on with it), else the first in the fair order
    (``proving_queue_order``, a selector). ``None`` when no puzzle waits.

    Locking: under the proving queue's advisory lock, so two messages never claim one puzzle;
    the claim is written to the puzzle's ``ProvingRequest``, never to the puzzle's row."""
    with transaction.atomic():
        _lock_proving_queue()
        if task_id:
            claimed = (
                ProvingRequest.objects.filter(task=task_id, puzzle__status=Puzzle.Status.VERIFYING)
                .values_list("puzzle_id", flat=True)
                .first()
            )
            if claimed is not None:
                return claimed
        order = proving_queue_order()
        if not order:
            return None
        ProvingRequest.objects.update_or_create(
            puzzle_id=order[0],
            defaults={"started_at": timezone.now(), "task": task_id, "progress": {}},
        )
        return order[0]


def proving_progress_record(progress: prover.Progress, *, puzzle_id: int) -> None:
    """Write how far the proof of a puzzle has come, for its author's page. A database that
    cannot take it does not stop the proof: the page shows the last progress it could."""
    data = {
        "stage": progress.stage,
        "done": progress.done,
        "total": progress.total,
        "nodes": progress.nodes,
        "seconds": progress.seconds,
    }
    try:
        ProvingRequest.objects.filter(puzzle_id=puzzle_id).update(progress=data)
    except DatabaseError:
        logger.warning("the progress of puzzle %s's proof was not written", puzzle_id)


def _san(variant: str, fen: str, line: list[str]) -> str:
    """Moves in Chinese notation with ICCS in brackets, for messages."""
    position = Position.from_fen(variant, fen)
    parts = []
    for text in line:
        try:
            move = Move.from_iccs(text)
            parts.append(f"{position.chinese(move)} ({move.iccs()})")
            position.push(move)
        except EngineError:
            parts.append(text)
            break
    return ", ".join(parts)


def rejection_message(puzzle: Puzzle, result: proving.ProofResult) -> tuple[str, dict[str, object]]:
    """Why a proof result does not allow publishing: (the English sentence, for logs; the
    details, which also hold what ``puzzles.rejections.rejection_text`` says in the reader's
    language: ``kind`` and the values of its sentence)."""
    details: dict[str, object] = {
        "kind": result.status,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 2),
        **result.details,
        "goal": puzzle.goal,
        "moves": puzzle.moves_to_win,
        "mode": puzzle.proof_mode or proving.FULL,
    }
    if result.status == proving.COOKED:
        keys = result.key_moves
        details["keys"] = keys
        details["keys_text"] = "; ".join(_san(puzzle.variant, puzzle.fen, [k]) for k in keys[:3])
    elif result.status == proving.SHORTER:
        details["moves_to_win"] = result.moves_to_win
        details["moves"] = result.moves_to_win
        details["keys_text"] = _san(puzzle.variant, puzzle.fen, result.key_moves[:1])
    elif result.status == proving.NO_WIN:
        escape = result.details.get("escape")
        if isinstance(escape, list) and len(escape) == 2:
            details["escape"] = escape
            line = _san(puzzle.variant, puzzle.fen, escape).split(", ")
            details["attempt"] = line[0]
            details["reply"] = line[1] if len(line) > 1 else escape[1]
    elif result.status == proving.BUDGET_EXHAUSTED:
        details["seconds"] = round(result.seconds)
    message = rejection_text(details, "", "en")
    if not message:
        message = f"Not published: {result.status}."
    return message, details


def puzzle_verify(
    *, puzzle_id: int, nodes: int = VERIFY_NODES, seconds: float = VERIFY_SECONDS
) -> Puzzle | None:
    """Prove a puzzle waiting for verification; publish it or reject it with the reason.

    The prover runs outside any transaction; the result is written under a row lock, and only
    if the puzzle is still waiting and unchanged (an edit in between makes the result stale).
    """
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None or puzzle.status != Puzzle.Status.VERIFYING:
        return puzzle
    mode = puzzle.proof_mode or proving.FULL
    snapshot = (puzzle.variant, puzzle.fen, puzzle.goal, puzzle.moves_to_win, mode)
    try:
        result = proving.prove(
            **puzzle.problem,
            moves_to_win=puzzle.moves_to_win,
            nodes=nodes,
            seconds=seconds,
            mode=mode,
            progress=partial(proving_progress_record, puzzle_id=puzzle_id),
            every=VERIFY_PROGRESS_SECONDS,
        )
    except EngineError as error:
        result = proving.ProofResult(
            status=proving.INVALID,
            moves_to_win=None,
            key_moves=[],
            mode=mode,
            reason=str(error),
            details={"error": {"code": error.code, "params": dict(error.params)}},
        )
    with transaction.atomic():
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        if puzzle.status != Puzzle.Status.VERIFYING or snapshot != (
            puzzle.variant, puzzle.fen, puzzle.goal, puzzle.moves_to_win,
            puzzle.proof_mode or proving.FULL,
        ):  # fmt: skip
            return puzzle
        if result.sound and result.moves_to_win == puzzle.moves_to_win:
            puzzle_publish(puzzle=puzzle, result=result)
        else:
            message, details = rejection_message(puzzle, result)
            puzzle.status = Puzzle.Status.REJECTED
            puzzle.rejection_reason = message
            puzzle.rejection = details
            puzzle.save()
            logger.info("puzzle %s rejected: %s", puzzle.pk, message)
    return puzzle


# A verification not finished this long after it was asked for is asked for again (its task
# message was lost, or the worker died in a way that dropped it).
STUCK_AFTER = timedelta(minutes=15)


def puzzle_verifications_requeue(*, now: datetime | None = None) -> list[int]:
    """Send a verification message again for puzzles stuck in ``verifying``; returns their ids.

    Stuck: started longer than ``STUCK_AFTER`` ago (its worker is gone: the task's hard limit
    is far shorter), which goes back to waiting in its turn; or waiting with no message sent
    for that long (a message lost). Harmless when a message is merely slow: a message proves
    whichever puzzle comes next, or finds none. Also forgets the address of requests whose
    proof started over ``SERVED_WINDOW`` ago (it only served their turns).
    """
    from puzzles.tasks import puzzle_verify_task

    now = now or timezone.now()
    cutoff = now - STUCK_AFTER
    with transaction.atomic():
        _lock_proving_queue()
        verifying = Puzzle.objects.filter(status=Puzzle.Status.VERIFYING)
        running = verifying.filter(proving__started_at__lt=cutoff)
        waiting = verifying.filter(proving__started_at__isnull=True).filter(
            Q(proving__asked_at__lt=cutoff)
            | Q(proving__asked_at__isnull=True, verify_requested_at__lt=cutoff)
        )
        stuck = sorted(
            {*running.values_list("pk", flat=True), *waiting.values_list("pk", flat=True)}
        )
        for puzzle_id in stuck:
            ProvingRequest.objects.update_or_create(
                puzzle_id=puzzle_id, defaults={"asked_at": now, "started_at": None, "task": ""}
            )
            transaction.on_commit(partial(puzzle_verify_task.apply_async, ignore_result=True))
        ProvingRequest.objects.filter(started_at__lt=now - SERVED_WINDOW).exclude(
            address=""
        ).exclude(puzzle__status=Puzzle.Status.VERIFYING).update(address="")
    return stuck
