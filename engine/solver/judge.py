"""Judging a solver's moves against a proof.

The moves alternate: the attacker's (played by the user) and the
defender's (played by the site). Any attacker move that keeps a forced win
within the moves that remain is accepted, not only the stored line; moves
the stored tree does not cover are proved on the spot, within a budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import Params, english, frozen
from engine.position import Position
from engine.rules import repetition_outcome
from engine.solver.movegen import gives_check, legal_replies
from engine.solver.proof import Node, Proof, SolverInputError
from engine.solver.search import Budget, OutOfBudget, Search, terminal_status
from engine.vocab import VERDICTS as VERDICTS  # what ``judge`` answers
from engine.vocab import Verdict

JUDGE_BUDGET = Budget(nodes=400_000, seconds=10.0)


@dataclass(frozen=True)
class Judgement:
    """The verdict on the moves played so far.

    ``continue``: every attacker move keeps the win; ``reply`` is the
    defender move the site should play now (``None`` when the last move
    was the defender's). ``solved``: the goal is reached. ``wrong``: the
    last attacker move lets the defender escape; ``refutation`` is the
    defence that does it (``None`` when the move ends the game without the
    goal, or breaks the checks-only rule). ``unknown``: the budget ran out
    before the move could be judged. ``remaining``: attacker moves left.
    ``reason`` says why, in words; ``code`` and ``params`` say the same for
    a program (``engine.errors.MESSAGES``).
    """

    verdict: Verdict
    reply: str | None = None
    refutation: str | None = None
    remaining: int = 0
    reason: str = ""
    code: str = ""
    params: Params = field(default_factory=dict)


def _judgement(
    verdict: Verdict, code: str, params: Mapping[str, object] | None = None, **more: Any
) -> Judgement:
    clean = frozen(params)
    return Judgement(verdict, reason=english(code, clean), code=code, params=clean, **more)


def _iccs(pos: Position, m: int) -> str:
    return pos.decode(m).iccs()


def judge(proof: Proof, moves: list[str], budget: Budget | None = None) -> Judgement:
    """Judge ``moves`` (ICCS or Chinese notation, attacker first) against
    ``proof``. Raises an engine error for an illegal or unreadable move."""
    if proof.moves_to_win is None:
        raise SolverInputError("solver.no_solution", {"status": proof.status})
    pos = Position.from_fen(proof.variant, proof.fen)
    search = Search(pos, proof.goal, proof.checks_only, budget or JUDGE_BUDGET)
    pos = search.pos
    node: Node | None = proof.tree
    remaining = proof.moves_to_win
    on_line = True  # the moves so far follow the primary line of the tree
    for i, text in enumerate(moves):
        m = pos.encode(pos.parse_move(text))
        if i % 2 == 0:
            if remaining <= 0:
                raise SolverInputError("solver.too_many_moves")
            if proof.checks_only and not gives_check(pos, m):
                return _judgement("wrong", "judge.checks_only", remaining=remaining)
            iccs = _iccs(pos, m)
            known = node is not None and node.expanded and iccs in node.moves
            if not known:
                try:
                    wins = search.move_wins(m, remaining)
                    refutation = None if wins else _refutation(search, m, remaining)
                except OutOfBudget:
                    search.reset()
                    return _judgement("unknown", "judge.no_time", remaining=remaining)
                if not wins:
                    code, params = _wrong_reason(search, m, refutation)
                    return _judgement(
                        "wrong", code, params, refutation=refutation, remaining=remaining
                    )
            on_line = on_line and node is not None and iccs == node.primary
            count = search.enter(m)
            remaining -= 1
            ended = _ended(search, count)
            if ended is not None:
                return replace(ended, remaining=remaining)
        else:
            iccs = _iccs(pos, m)
            child = node.reply_node(iccs) if node is not None and on_line else None
            node = child
            on_line = child is not None
            count = search.enter(m)
            ended = _ended(search, count)
            if ended is not None:
                return replace(ended, remaining=remaining)
    if len(moves) % 2 == 0:
        return _judgement("continue", "judge.attacker_to_move", remaining=remaining)
    # the attacker has just moved: the site plays the longest-resisting defence
    reply = None
    if on_line and node is not None and node.replies and node.primary == _last_iccs(pos):
        reply = node.replies[0][0]
    if reply is None:
        try:
            reply = _longest_defence(search, remaining)
        except OutOfBudget:
            search.reset()
            return _judgement("unknown", "judge.no_defence_in_time", remaining=remaining)
    return _judgement("continue", "judge.keeps_win", reply=reply, remaining=remaining)


def _ended(search: Search, count: int) -> Judgement | None:
    """The verdict if the last move ended the game (``count``: how often
    its position has now occurred), or ``None`` while it goes on. Lines
    that keep a proved win end with the goal or with a repetition ruling
    in the attacker's favour; anything else is reported as wrong."""
    pos = search.pos
    replies, in_check, dead = legal_replies(pos)
    status = None
    won = False
    if not replies:
        status = terminal_status(replies, in_check, dead)
        won = status in search.goal and pos.side != search.attacker
    elif count >= 3:
        outcome = repetition_outcome(pos)
        if outcome is not None:
            status = outcome.termination
            won = outcome.winner == ("red", "black")[search.attacker >> 5]
    if status is None:
        return None
    if won:
        return Judgement(
            "solved", reason=status, code="judge.solved", params=frozen({"status": status})
        )
    return _judgement("wrong", "judge.game_ended", {"status": status})


def _last_iccs(pos: Position) -> str:
    return pos.decode(pos.last_code()).iccs()


def _refutation(search: Search, m: int, remaining: int) -> str | None:
    """The defender reply after attacker move ``m`` that escapes."""
    pos = search.pos
    search.enter(m)
    try:
        replies, _, _ = legal_replies(pos)
        if not replies:
            return None
        best = search.best_move()
        order = list(replies)
        if best in order:
            order.remove(best)
            order.insert(0, best)
        for r in order:
            search.enter(r)
            try:
                escapes = remaining <= 1 or not search.attack(remaining - 1)
            finally:
                search.leave()
            if escapes:
                return _iccs(pos, r)
        return None
    finally:
        search.leave()


def _wrong_reason(search: Search, m: int, refutation: str | None) -> tuple[str, dict[str, object]]:
    if refutation is not None:
        return "judge.escapes", {"move": refutation}
    pos = search.pos
    search.enter(m)
    try:
        replies, in_check, dead = legal_replies(pos)
        if not replies:
            return "judge.ends_game", {"status": terminal_status(replies, in_check, dead)}
        return "judge.too_slow", {}
    finally:
        search.leave()


def _longest_defence(search: Search, remaining: int) -> str | None:
    """The defender move after which the attacker needs the most moves."""
    pos = search.pos
    replies, _, _ = legal_replies(pos)
    best_move = None
    best_distance = -1
    for r in list(replies):
        search.enter(r)
        try:
            d = search.distance(remaining) or remaining + 1
        finally:
            search.leave()
        if d > best_distance:
            best_distance = d
            best_move = r
    return None if best_move is None else _iccs(pos, best_move)
