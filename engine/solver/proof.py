"""The proof object: what the prover found, and its compact JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError

FORMAT_VERSION = 1

STATUSES = ("sound_unique", "cooked", "shorter", "no_win", "budget_exhausted")


class SolverInputError(EngineError):
    """A request the prover cannot answer: unknown goal or mode, a length
    out of range, a position that is already over, a malformed proof."""


@dataclass(frozen=True)
class Node:
    """A position of the solution with the attacker to move.

    ``distance``: attacker moves still needed against the best defence.
    ``moves``: every attacker move that wins within ``distance``, the
    primary first; more than one at a non-final step are duals, at the
    final step (``distance == 1``) they are the moves that all end the game.
    ``replies``: under the primary move, every defender reply and the node
    it leads to, the longest-resisting first. ``expanded`` is false where
    the tree was cut to keep it small (the judge proves such positions on
    the fly). ``ending`` names a repetition ruling (``perpetual_check``,
    ``perpetual_chase``, ``forced_variation``) that ends the line in the
    attacker's favour: on a node reached by a defender move that repeats a
    position for the third time (distance 0, no moves), or on a node whose
    primary move does.
    """

    distance: int
    moves: tuple[str, ...] = ()
    replies: tuple[tuple[str, Node], ...] = ()
    expanded: bool = True
    ending: str | None = None

    @property
    def primary(self) -> str | None:
        return self.moves[0] if self.moves else None

    @property
    def final(self) -> bool:
        return self.distance == 1

    @property
    def duals(self) -> tuple[str, ...]:
        """The other winning moves at a non-final step."""
        return self.moves[1:] if self.distance > 1 else ()

    def reply_node(self, reply: str) -> Node | None:
        for text, node in self.replies:
            if text == reply:
                return node
        return None

    def size(self) -> int:
        return 1 + sum(node.size() for _, node in self.replies)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"d": self.distance}
        if self.moves:
            data["m"] = list(self.moves)
        if self.replies:
            data["r"] = [[text, node.to_data()] for text, node in self.replies]
        if not self.expanded:
            data["x"] = 1
        if self.ending:
            data["e"] = self.ending
        return data

    @classmethod
    def from_data(cls, data: Any) -> Node:
        if not isinstance(data, dict) or not isinstance(data.get("d"), int):
            raise SolverInputError("solver.malformed_tree", {"part": "node"})
        moves = data.get("m", [])
        replies = data.get("r", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise SolverInputError("solver.malformed_tree", {"part": "moves"})
        if not isinstance(replies, list):
            raise SolverInputError("solver.malformed_tree", {"part": "replies"})
        pairs = []
        for item in replies:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
                raise SolverInputError("solver.malformed_tree", {"part": "reply"})
            pairs.append((item[0], cls.from_data(item[1])))
        ending = data.get("e")
        return cls(
            distance=data["d"],
            moves=tuple(moves),
            replies=tuple(pairs),
            expanded=not data.get("x"),
            ending=ending if isinstance(ending, str) else None,
        )


@dataclass(frozen=True)
class Proof:
    """The prover's verdict on one puzzle.

    ``status`` is one of ``sound_unique``, ``cooked`` (more than one key),
    ``shorter`` (a win in fewer than ``max_moves`` exists), ``no_win`` and
    ``budget_exhausted``. ``moves_to_win`` is the length of the shortest
    forced win (``None`` when none was found); ``key_moves`` the first
    moves that force it, in ICCS; ``tree`` the solution from the start
    position (``None`` without a win). ``reason`` explains a status that is
    not sound in words an author can act on; ``second_key`` (cooked) and
    ``escape`` (no_win, when found cheaply: the defence that beats the
    attacker's most forcing try) give the moves behind it.
    """

    variant: str
    fen: str
    goal: str
    mode: str
    max_moves: int
    status: str
    moves_to_win: int | None = None
    key_moves: tuple[str, ...] = ()
    tree: Node | None = None
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""
    second_key: str | None = None
    escape: tuple[str, ...] = ()
    tree_complete: bool = True
    version: int = field(default=FORMAT_VERSION)

    @property
    def sound(self) -> bool:
        return self.status == "sound_unique"

    @property
    def checks_only(self) -> bool:
        return self.mode == "checks_only"

    def summary(self) -> dict[str, Any]:
        """The few fields the command line prints."""
        return {
            "status": self.status,
            "moves_to_win": self.moves_to_win,
            "key_moves": list(self.key_moves),
            "mode": self.mode,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "v": self.version,
            "variant": self.variant,
            "fen": self.fen,
            "goal": self.goal,
            "mode": self.mode,
            "max": self.max_moves,
            "status": self.status,
            "n": self.moves_to_win,
            "keys": list(self.key_moves),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }
        if self.reason:
            data["reason"] = self.reason
        if self.second_key:
            data["second_key"] = self.second_key
        if self.escape:
            data["escape"] = list(self.escape)
        if not self.tree_complete:
            data["partial"] = 1
        if self.tree is not None:
            data["tree"] = self.tree.to_data()
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_data(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_data(cls, data: Any) -> Proof:
        if not isinstance(data, dict):
            raise SolverInputError("solver.proof_not_object")
        version = data.get("v")
        if version != FORMAT_VERSION:
            raise SolverInputError("solver.proof_version", {"version": repr(version)})
        try:
            status = data["status"]
            if status not in STATUSES:
                raise SolverInputError("solver.proof_status", {"status": status})
            tree = data.get("tree")
            return cls(
                variant=str(data["variant"]),
                fen=str(data["fen"]),
                goal=str(data["goal"]),
                mode=str(data["mode"]),
                max_moves=int(data["max"]),
                status=status,
                moves_to_win=None if data.get("n") is None else int(data["n"]),
                key_moves=tuple(str(k) for k in data.get("keys", [])),
                tree=None if tree is None else Node.from_data(tree),
                nodes=int(data.get("nodes", 0)),
                seconds=float(data.get("seconds", 0.0)),
                reason=str(data.get("reason", "")),
                second_key=None if data.get("second_key") is None else str(data["second_key"]),
                escape=tuple(str(m) for m in data.get("escape", [])),
                tree_complete=not data.get("partial"),
                version=FORMAT_VERSION,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SolverInputError):
                raise
            raise SolverInputError("solver.malformed_proof", {"detail": exc}) from None

    @classmethod
    def from_json(cls, text: str) -> Proof:
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise SolverInputError("solver.proof_not_json", {"detail": exc}) from None
        return cls.from_data(data)
