"""What a live game's WebSocket accepts from a client: one JSON object a message, read and
checked here before anything looks at the game (no database; ``live.consumers`` calls it).

Messages (every field required, no other field allowed; clocks are never sent by clients):

    {"type": "move", "ply": 12, "move": "h2e2"}   the move at ply 12 (the plies played so far)
    {"type": "resign"}  {"type": "abort"}  {"type": "flag"}  (claim: the opponent's time is up)
    {"type": "draw", "action": "offer" | "accept" | "decline"}
    {"type": "rematch", "action": "offer" | "accept" | "decline"}   once the game is over
    {"type": "state"}                                the game as it stands now
    {"type": "setup", "placement": {"a0": "M", "f0": "K", ...}}   a secret half (feidan)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

MESSAGE_MAX_BYTES: Final = 1024
PLY_MAX: Final = 10_000
PLACEMENT_MAX: Final = 40  # points in a secret half sent (a feidan side has 20 pieces)
ICCS: Final = re.compile(r"[a-k][0-9][a-k][0-9]")
FIELDS: Final[dict[str, frozenset[str]]] = {
    "move": frozenset({"type", "ply", "move"}),
    "draw": frozenset({"type", "action"}),
    "rematch": frozenset({"type", "action"}),
    "resign": frozenset({"type"}),
    "abort": frozenset({"type"}),
    "flag": frozenset({"type"}),
    "state": frozenset({"type"}),
    "setup": frozenset({"type", "placement"}),
}
DRAW_ACTIONS: Final = ("offer", "accept", "decline")
CLOCK_WORDS: Final = ("clock", "time", "_ms", "remaining")


class ProtocolError(ValueError):
    """A message that is not one the game accepts: ``code`` names why (``live.texts``)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Command:
    type: str
    ply: int | None = None
    move: str | None = None
    action: str | None = None
    placement: dict[str, str] | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def parse_message(text: str | bytes | None) -> Command:
    """The command in ``text``, or ``ProtocolError``: not text, too long, not a JSON object,
    an unknown type, a missing or extra field (a clock value is named as such), a field of
    the wrong kind."""
    if not isinstance(text, str):
        raise ProtocolError("not_text")
    if len(text.encode("utf-8", "surrogatepass")) > MESSAGE_MAX_BYTES:
        raise ProtocolError("too_long", limit=MESSAGE_MAX_BYTES)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ProtocolError("not_json") from error
    if not isinstance(data, dict):
        raise ProtocolError("not_object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError("unknown_type", type=str(kind)[:32], known=", ".join(sorted(FIELDS)))
    allowed = FIELDS[kind]
    extra = sorted(str(key)[:32] for key in data if key not in allowed)
    if extra:
        if any(word in name.lower() for name in extra for word in CLOCK_WORDS):
            raise ProtocolError("clock_not_accepted", field=extra[0])
        raise ProtocolError("unknown_field", field=extra[0], type=kind)
    missing = sorted(allowed - set(data))
    if missing:
        raise ProtocolError("missing_field", field=missing[0], type=kind)
    if kind == "move":
        ply, move = data["ply"], data["move"]
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= PLY_MAX:
            raise ProtocolError("bad_ply")
        if not isinstance(move, str) or not ICCS.fullmatch(move):
            raise ProtocolError("bad_move", move=str(move)[:16])
        return Command("move", ply=ply, move=move, raw=data)
    if kind in ("draw", "rematch"):
        action = data["action"]
        if action not in DRAW_ACTIONS:
            raise ProtocolError("bad_draw_action", action=str(action)[:16])
        return Command(kind, action=action, raw=data)
    if kind == "setup":
        placement = data["placement"]
        if (
            not isinstance(placement, dict)
            or not 0 < len(placement) <= PLACEMENT_MAX
            or not all(isinstance(v, str) and len(v) <= 2 for v in placement.values())
        ):
            raise ProtocolError("bad_placement", limit=PLACEMENT_MAX)
        return Command("setup", placement={str(k): v for k, v in placement.items()}, raw=data)
    return Command(kind, raw=data)
