"""What a live game's WebSocket, and the lobby's, accept from a client: one JSON object a
message, read and checked here before anything looks at a game (no database;
``live.consumers`` calls it).

Messages (every field required, no other field allowed; clocks are never sent by clients):

    {"type": "move", "ply": 12, "move": "h2e2"}   the move at ply 12 (the plies played so far)
    {"type": "resign"}  {"type": "abort"}  {"type": "flag"}  (claim: the opponent's time is up)
    {"type": "draw", "action": "offer" | "accept" | "decline"}
    {"type": "rematch", "action": "offer" | "accept" | "decline"}   once the game is over
    {"type": "takeback", "action": "offer" | "accept" | "decline"}  take back my last move
    {"type": "state"}                                the game as it stands now
    {"type": "setup", "placement": {"a0": "M", "f0": "K", ...}}   a secret half (feidan)
    {"type": "claim", "action": "attack_power" | "win" | "draw"}   a draw by attack power
                     (xinban, on the claimant's turn); the opponent having left, the win or a draw
    {"type": "probe", "id": "…"}   the answer to the server's probe of that id, sent at once: the
                                   server times the round trip itself (the lag allowance)

The lobby's (``parse_lobby_message``):

    {"type": "seek", "variant": "xiangqi", "setup": "standard", "colour": "random",
     "minutes": 10, "increment": 5, "rated": false}   an open seek (the values are judged by
                                                     live.services, as a challenge's)
    {"type": "cancel", "slug": "…"}  {"type": "accept", "slug": "…"}   one's own seek; another's
    {"type": "ping"}   the page is open: my seeks stay listed; answered with the list
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

from words.texts import Text

MESSAGE_MAX_BYTES: Final = 1024
PLY_MAX: Final = 10_000
PLACEMENT_MAX: Final = 40  # points in a secret half sent (a feidan side has 20 pieces)
ICCS: Final = re.compile(r"[a-k][0-9][a-k][0-9]")
FIELDS: Final[dict[str, frozenset[str]]] = {
    "move": frozenset({"type", "ply", "move"}),
    "draw": frozenset({"type", "action"}),
    "rematch": frozenset({"type", "action"}),
    "takeback": frozenset({"type", "action"}),
    "resign": frozenset({"type"}),
    "abort": frozenset({"type"}),
    "flag": frozenset({"type"}),
    "state": frozenset({"type"}),
    "setup": frozenset({"type", "placement"}),
    "claim": frozenset({"type", "action"}),
    "probe": frozenset({"type", "id"}),
}
LOBBY_FIELDS: Final[dict[str, frozenset[str]]] = {
    "seek": frozenset({"type", "variant", "setup", "colour", "minutes", "increment", "rated"}),
    "cancel": frozenset({"type", "slug"}),
    "accept": frozenset({"type", "slug"}),
    "ping": frozenset({"type"}),
}
SLUG_MAX: Final = 16
DRAW_ACTIONS: Final = ("offer", "accept", "decline")
CLAIM_ACTIONS: Final = ("attack_power", "win", "draw")
CLOCK_WORDS: Final = ("clock", "time", "_ms", "remaining", "lag", "rtt")
PROBE_ID_MAX: Final = 32


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
    probe: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def parse_message(text: str | bytes | None) -> Command:
    """The command in ``text``, or ``ProtocolError``: not text, too long, not a JSON object,
    an unknown type, a missing or extra field (a clock value is named as such), a field of
    the wrong kind."""
    kind, data = _read(text, FIELDS)
    if kind == "move":
        ply, move = data["ply"], data["move"]
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= PLY_MAX:
            raise ProtocolError("bad_ply")
        if not isinstance(move, str) or not ICCS.fullmatch(move):
            raise ProtocolError("bad_move", move=str(move)[:16])
        return Command("move", ply=ply, move=move, raw=data)
    if kind in ("draw", "rematch", "takeback"):
        action = data["action"]
        if action not in DRAW_ACTIONS:
            raise ProtocolError("bad_draw_action", action=str(action)[:16])
        return Command(kind, action=action, raw=data)
    if kind == "claim":
        action = data["action"]
        if action not in CLAIM_ACTIONS:
            raise ProtocolError("bad_claim_action", action=str(action)[:16])
        return Command("claim", action=action, raw=data)
    if kind == "setup":
        placement = data["placement"]
        if (
            not isinstance(placement, dict)
            or not 0 < len(placement) <= PLACEMENT_MAX
            or not all(isinstance(v, str) and len(v) <= 2 for v in placement.values())
        ):
            raise ProtocolError("bad_placement", limit=PLACEMENT_MAX)
        return Command("setup", placement={str(k): v for k, v in placement.items()}, raw=data)
    if kind == "probe":
        probe = data["id"]
        if not isinstance(probe, str) or not 0 < len(probe) <= PROBE_ID_MAX:
            raise ProtocolError("bad_field", type="probe", field="id", kind=PROBE_KIND)
        return Command("probe", probe=probe, raw=data)
    return Command(kind, raw=data)


# How a lobby message's field must be written, said in a refusal.
TEXT_KIND: Final = Text("不超过16个字的文字", "a text of at most 16 characters")
WHOLE_KIND: Final = Text("0到999的整数", "a whole number from 0 to 999")
FLAG_KIND: Final = Text("true或false", "true or false")
PROBE_KIND: Final = Text("服务器发来的编号", "the id the server sent")


def parse_lobby_message(text: str | bytes | None) -> tuple[str, dict[str, Any]]:
    """The type and fields of a lobby message in ``text`` (each field of its kind), or
    ``ProtocolError`` as ``parse_message`` says it, or ``bad_field``."""
    kind, data = _read(text, LOBBY_FIELDS)

    def bad(name: str, said: Text) -> ProtocolError:
        return ProtocolError("bad_field", type=kind, field=name, kind=said)

    for name in ("variant", "setup", "colour", "slug"):
        if name in data and not (isinstance(data[name], str) and len(data[name]) <= SLUG_MAX):
            raise bad(name, TEXT_KIND)
    for name in ("minutes", "increment"):
        value = data.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999:
            raise bad(name, WHOLE_KIND)
    if "rated" in data and not isinstance(data["rated"], bool):
        raise bad("rated", FLAG_KIND)
    return kind, data


def _read(
    text: str | bytes | None, fields: dict[str, frozenset[str]]
) -> tuple[str, dict[str, Any]]:
    """The type and fields of the JSON object in ``text`` (one of ``fields``' types, with
    exactly its fields), or ``ProtocolError``."""
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
    if not isinstance(kind, str) or kind not in fields:
        raise ProtocolError("unknown_type", type=str(kind)[:32], known=", ".join(sorted(fields)))
    allowed = fields[kind]
    extra = sorted(str(key)[:32] for key in data if key not in allowed)
    if extra:
        if fields is FIELDS and any(word in name.lower() for name in extra for word in CLOCK_WORDS):
            raise ProtocolError("clock_not_accepted", field=extra[0])
        raise ProtocolError("unknown_field", field=extra[0], type=kind)
    missing = sorted(allowed - set(data))
    if missing:
        raise ProtocolError("missing_field", field=missing[0], type=kind)
    return kind, data
