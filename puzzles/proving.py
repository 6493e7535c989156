"""The one place the puzzles app talks to the engine's prover (``engine.solver``).

Everything else in the app calls these functions with plain data (variant name, FEN, ICCS
moves, the proof as JSON) and gets plain data back, so that the prover's own types never leak
into models, services or the API.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Final, Literal, TypedDict

from engine import Move, Position
from engine import solver as prover
from engine.vocab import PROOF_STATUSES, VERDICTS, ProofStatus
from engine.vocab import Verdict as VerdictWord
from puzzles import tactics

SOUND_UNIQUE: Final = "sound_unique"
COOKED: Final = "cooked"
SHORTER: Final = "shorter"
NO_WIN: Final = "no_win"
BUDGET_EXHAUSTED: Final = "budget_exhausted"
# Besides the prover's answers: the puzzle could not be put to the prover at all (the engine
# refused its position or goal).
INVALID: Final = "invalid"
ResultStatus = ProofStatus | Literal["invalid"]
STATUSES: tuple[ResultStatus, ...] = (*PROOF_STATUSES, INVALID)

FULL = "full"
CHECKS_ONLY = "checks_only"

# Judging and hints in a web request: moves the stored tree answers cost nothing; a move that
# leaves it is searched for at most this many positions (about 0.1 s of one core), with a
# clock as a safety net on a busy machine, and the answer is kept per line.
LIVE_NODES = 3_000
LIVE_SECONDS = 0.15
# Outside a request (scoring a line submitted before attempts were played on the server).
OFFLINE_NODES = 400_000
OFFLINE_SECONDS = 10.0
# Verifying an author's puzzle (``services.authoring``): the prover's budget (the task's time
# limits sit above it), and how often the proving worker writes how far the proof has come
# (``ProvingRequest.progress``).
VERIFY_NODES = 50_000_000
VERIFY_SECONDS = 150.0
VERIFY_PROGRESS_SECONDS = 1.0
# A game's moment is posed at its shortest win (``prove_at_shortest``): the quick look for a
# shorter one, in positions searched.
SHORTER_LOOK_NODES = 200_000


@dataclass(frozen=True)
class ProofResult:
    """What the prover found about one puzzle."""

    status: ResultStatus
    moves_to_win: int | None
    key_moves: list[str]
    mode: str
    reason: str  # for people; empty when sound and unique
    details: dict[str, Any] = field(default_factory=dict)  # for programs
    proof: dict[str, Any] | None = None  # the proof as JSON, kept when sound (or cooked)
    main_line: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def sound(self) -> bool:
        return self.status == SOUND_UNIQUE


@dataclass(frozen=True)
class Verdict:
    """The judgement of the moves played so far in a puzzle.

    ``verdict`` is ``continue`` (right so far: ``reply`` is the defender's answer), ``solved``
    (the goal is reached), ``wrong`` (``refutation`` is the defence that escapes; empty when the
    move itself ends the game without the goal or breaks a checks-only rule) or ``unknown``
    (the move could not be judged within the budget). ``reason`` says why, in words; ``code``
    and ``params`` are the same reason as data, so that a verdict kept for later readers is
    said again in each reader's language (``in_reader_language``).
    """

    verdict: VerdictWord
    reply: str | None = None
    refutation: list[str] = field(default_factory=list)
    reason: str = ""
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "reply": self.reply,
            "refutation": list(self.refutation),
            "reason": self.reason,
            "code": self.code,
            "params": dict(self.params),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Verdict:
        return cls(
            verdict=_verdict(data["verdict"]),
            reply=data.get("reply"),
            refutation=[str(m) for m in data.get("refutation") or []],
            reason=str(data.get("reason") or ""),
            code=str(data.get("code") or ""),
            params=dict(data.get("params") or {}),
        )

    def in_reader_language(self) -> Verdict:
        """This verdict with its reason said in the active language (a verdict kept before
        reasons were kept as data keeps the words it has)."""
        if not self.code:
            return self
        return replace(self, reason=_said(self.code, self.params, self.reason))


def _verdict(value: object) -> VerdictWord:
    """A verdict read back from stored data, checked against the engine's words."""
    for verdict in VERDICTS:
        if value == verdict:
            return verdict
    raise ValueError(f"unknown verdict {value!r} (known: {', '.join(VERDICTS)})")


class Problem(TypedDict):
    """What a puzzle asks, as ``prove``, ``find_win`` and the bank's keys take it
    (``prove(**problem, moves_to_win=n)``): the variant, the position and the goal."""

    variant: str
    fen: str
    goal: str


def _position(variant: str, fen: str) -> Position:
    return Position.from_fen(variant, fen)


def prove(
    *,
    variant: str,
    fen: str,
    goal: str,
    moves_to_win: int,
    nodes: int | None = None,
    seconds: float | None = None,
    mode: str = FULL,
    progress: Callable[[prover.Progress], None] | None = None,
    every: float = 1.0,
) -> ProofResult:
    """Prove (or refute) that ``goal`` is forced in exactly ``moves_to_win`` moves, uniquely.
    ``progress``, when given, is told how far the proof has come about every ``every`` seconds.

    Raises ``engine.EngineError`` for a request the prover cannot take (an illegal position, a
    game already over, a dead-general goal outside Missile Xiangqi, a length out of range).
    """
    proof = prover.solve(
        _position(variant, fen),
        goal=goal,
        max_moves=moves_to_win,
        budget=prover.Budget(nodes=nodes, seconds=seconds, progress=progress, every=every),
        mode=mode,
    )
    return _result(proof)


def prove_at_shortest(
    *,
    variant: str,
    fen: str,
    goal: str,
    moves_to_win: int,
    nodes: int | None = None,
    seconds: float | None = None,
    look_nodes: int = SHORTER_LOOK_NODES,
) -> tuple[int, ProofResult]:
    """``prove`` among every move (full mode) at the shortest win: a game's moment is posed at
    its shortest win. A quick look for a shorter win comes first (``find_win`` on
    ``look_nodes``: a proof at the stated length can spend its whole budget before it reaches a
    much shorter mate), and a proof that still answers that the goal is forced sooner is asked
    again at that length. The length of the last question and its answer, whose ``nodes`` and
    ``seconds`` count every proof (not the quick look, which is bounded by ``look_nodes``)."""
    problem: Problem = {"variant": variant, "fen": fen, "goal": goal}
    n = moves_to_win
    if n > 1:
        n = find_win(**problem, max_moves=n - 1, nodes=look_nodes) or n
    first = prove(**problem, moves_to_win=n, nodes=nodes, seconds=seconds)
    if first.status != SHORTER or not first.moves_to_win:
        return n, first
    n = first.moves_to_win
    again = prove(**problem, moves_to_win=n, nodes=nodes, seconds=seconds)
    return n, replace(again, nodes=first.nodes + again.nodes, seconds=first.seconds + again.seconds)


def _result(proof: Any) -> ProofResult:
    data = proof.to_data()
    details: dict[str, Any] = {}
    if proof.second_key:
        details["second_key"] = proof.second_key
    if proof.escape:
        details["escape"] = list(proof.escape)
    # A cooked proof is a whole proof too (every winning first move at its root): kept for
    # the puzzles that accept every winning move (a mate missed in a game, puzzles.missed).
    kept = proof.status in (SOUND_UNIQUE, COOKED) and proof.tree is not None
    return ProofResult(
        status=proof.status,
        moves_to_win=proof.moves_to_win,
        key_moves=list(proof.key_moves),
        mode=proof.mode,
        reason=proof.reason,
        details=details,
        proof=data if kept else None,
        main_line=_main_line(proof) if kept else [],
        nodes=proof.nodes,
        seconds=proof.seconds,
    )


def find_win(
    *,
    variant: str,
    fen: str,
    goal: str,
    max_moves: int,
    nodes: int | None = None,
    seconds: float | None = None,
    mode: str = FULL,
) -> int | None:
    """The length of the shortest forced win of ``goal`` within ``max_moves``, or ``None``
    (none, or the budget ran out first)."""
    found = prover.find_win(
        _position(variant, fen),
        goal=goal,
        max_moves=max_moves,
        budget=prover.Budget(nodes=nodes, seconds=seconds),
        mode=mode,
    )
    return found.moves_to_win if found.status == "win" else None


@lru_cache(maxsize=256)
def _load(text: str) -> Any:
    return prover.Proof.from_json(text)


def _text(proof: dict[str, Any]) -> str:
    return json.dumps(proof, sort_keys=True, ensure_ascii=False)


def _proof(proof: dict[str, Any]) -> Any:
    """The stored proof as the prover's object (parsed proofs are cached by their text)."""
    return _load(_text(proof))


def proof_digest(proof: dict[str, Any]) -> str:
    """A short name of a proof, to key what was judged against it."""
    return hashlib.blake2b(_text(proof).encode(), digest_size=8).hexdigest()


def judge(
    *,
    proof: dict[str, Any],
    moves: Sequence[str],
    nodes: int = LIVE_NODES,
    seconds: float = LIVE_SECONDS,
) -> Verdict:
    """Judge ``moves`` (attacker and defender alternately, ICCS) played from the start of the
    puzzle ``proof`` was made for (it holds the variant and the position).

    Any attacker move that keeps a forced win in the moves left is accepted; moves off the
    stored tree are proved on the spot within ``nodes`` and ``seconds`` (``unknown`` when the
    budget runs out). A tactics puzzle is judged from the answers stored on it (``good``: also
    good, but not the best; the move is not played).
    """
    if tactics.is_material(proof):
        verdict, reply, code = tactics.judge(proof, moves)
        return Verdict(
            verdict=_verdict(verdict), reply=reply, reason=_said(code, {}, code), code=code
        )
    loaded = _proof(proof)
    started = time.monotonic()
    judgement = prover.judge(loaded, list(moves), prover.Budget(nodes=nodes, seconds=seconds))
    if judgement.verdict == "unknown":
        remaining = _known_wrong(loaded, moves)
        if remaining is not None:
            left = max(0.0, seconds - (time.monotonic() - started))
            escape = _escape(loaded, moves, remaining, nodes=nodes, seconds=left)
            code, params = ("judge.escapes", {"move": escape}) if escape else ("judge.too_slow", {})
            english = f"{escape} escapes" if escape else "the move does not win in time"
            return Verdict(
                verdict="wrong",
                refutation=[escape] if escape else [],
                reason=_said(code, params, english),
                code=code,
                params=params,
            )
    return Verdict(
        verdict=judgement.verdict,
        reply=judgement.reply,
        refutation=[judgement.refutation] if judgement.refutation else [],
        reason=_said(judgement.code, judgement.params, judgement.reason),
        code=judgement.code,
        params=dict(judgement.params),
    )


def _said(code: str, params: Any, english: str) -> str:
    """The judge's reason in the reader's language when the site's settings are loaded (a
    request, a task, a command), else in English."""
    from django.conf import settings

    if not code or not settings.configured:
        return english
    from core.messages import render

    return render(code, params).rstrip("。.")


def _on_tree(loaded: Any, moves: Sequence[str]) -> tuple[Any | None, int]:
    """Where ``moves`` (attacker first) lead in the stored tree, following the attacker's main
    moves and the defender's stored replies: the node reached (``None`` once the line leaves
    the tree) and the attacker moves left to win after them."""
    node = loaded.tree
    for index, text in enumerate(moves):
        if node is None:
            break
        if index % 2 == 0:
            node = node if node.expanded and text == node.primary else None
        else:
            node = node.reply_node(text)
    return node, (loaded.moves_to_win or 0) - (len(moves) + 1) // 2


def _position_after(proof: Any, moves: Sequence[str]) -> Position:
    """The proof's start position with ``moves`` (ICCS) played."""
    position = Position.from_fen(proof.variant, proof.fen)
    for text in moves:
        position.push(Move.from_iccs(text))
    return position


def _known_wrong(loaded: Any, moves: Sequence[str]) -> int | None:
    """When the line follows the stored tree's main moves to a node that holds every winning
    move for the moves left, and the last attacker move is not one of them, the move is wrong
    without a search: the attacker moves left after it. Else ``None``."""
    if not moves:
        return None
    node, remaining = _on_tree(loaded, moves[:-1])
    if node is None or not node.expanded or node.distance != remaining:
        return None
    return remaining - 1 if moves[-1] not in node.moves else None


def _escape(
    loaded: Any, moves: Sequence[str], remaining: int, *, nodes: int, seconds: float
) -> str | None:
    """A defender reply after ``moves`` (ending with a wrong attacker move) after which the
    attacker cannot force the goal in ``remaining`` moves, found within the budget; ``None``
    when none was found in time."""
    position = _position_after(loaded, moves)
    if position.outcome() is not None:
        return None
    deadline = time.monotonic() + seconds
    # Captures and the like first: they are the likeliest escapes.
    replies = sorted(
        position.legal_moves, key=lambda m: (position.move_effect(m).kind == "move", m.iccs())
    )
    for reply in replies:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        if remaining <= 0:
            return reply.iccs()
        position.push(reply)
        try:
            if position.outcome() is not None:
                return reply.iccs()
            found = prover.find_win(
                position,
                goal=loaded.goal,
                max_moves=remaining,
                budget=prover.Budget(nodes=nodes, seconds=left),
                mode=loaded.mode,
            )
            if found.status == "no_win":
                return reply.iccs()
        finally:
            position.pop()
    return None


@dataclass(frozen=True)
class Hint:
    """A winning attacker move, or ``None``: none wins, or none was found in the budget
    (``decided`` is false then)."""

    move: str | None
    decided: bool = True


def hint(
    *,
    proof: dict[str, Any],
    moves: Sequence[str],
    nodes: int = LIVE_NODES,
    seconds: float = LIVE_SECONDS,
) -> Hint:
    """A winning attacker move after ``moves`` (attacker to move): from the stored tree when
    the line is on it, else searched within ``nodes`` and ``seconds``. A tactics puzzle's is
    its line's move."""
    if tactics.is_material(proof):
        return Hint(tactics.hint(proof, moves))
    loaded = _proof(proof)
    node, remaining = _on_tree(loaded, moves)
    if node is not None and node.expanded and node.primary is not None:
        return Hint(str(node.primary))
    if remaining <= 0:
        return Hint(None)
    found = prover.find_win(
        _position_after(loaded, moves),
        goal=loaded.goal,
        max_moves=remaining,
        budget=prover.Budget(nodes=nodes, seconds=seconds),
        mode=loaded.mode,
    )
    return Hint(
        found.key_move if found.status == "win" else None, found.status != "budget_exhausted"
    )


def main_line(proof: dict[str, Any]) -> list[str]:
    """The proof's main line: the key, the longest defence, and so on to the end (a tactics
    puzzle's: its line)."""
    if tactics.is_material(proof):
        return list(proof["line"])
    return _main_line(_proof(proof))


def _main_line(proof: Any) -> list[str]:
    line: list[str] = []
    node = proof.tree
    while node is not None and node.primary is not None:
        if not node.expanded:
            break
        line.append(node.primary)
        if node.final or not node.replies:
            return line
        reply, node = node.replies[0]
        line.append(reply)
    if line and node is not None and node.distance > 0:
        # The stored tree was cut here: prove the rest of the line from this position.
        position = _position_after(proof, line)
        rest = prover.solve(position, goal=proof.goal, max_moves=node.distance, mode=proof.mode)
        if rest.tree is not None:
            line.extend(_main_line(rest))
    return line
