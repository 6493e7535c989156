"""What the puzzle editor checks in the browser before it asks the server about a position.

While an author places pieces one by one, most positions on the way are not legal yet (one
general still missing, a piece giving check to the side not to move). The editor tells these
at once, without a request, using the rules of docs/rules.md §3 that a board can see by
itself: where generals, advisors, elephants and soldiers may stand, how many pieces of a kind a
game can have, and whether the side not to move is in check. Everything else (a game already
over, the engine's last word) is the server's check.

The sentences are the server's own (``core.messages.render``), made here with ``{square}``,
``{rank}``, ``{count}`` and ``{limit}`` left as slots for the page script to fill, so the
editor says exactly what the API would say.
"""

from __future__ import annotations

from typing import Any

from core.messages import render
from engine import find_variant
from engine.fen import START_COUNT, material_limits
from engine.variants import ENGLISH_NAME, KING, LETTER_OF_TYPE, TYPE_OF_LETTER
from puzzles.models import Variant

COLOURS = ("red", "black")
# Codes about one piece on a point it may never stand on.
POINT_CODES = (
    "fen.general_outside_palace",
    "fen.advisor_point",
    "fen.elephant_point",
    "fen.soldier_behind",
)


def position_rules() -> dict[str, dict[str, Any]]:
    """Per variant: the material limits (in the engine's order) and whether a dead-general
    puzzle can be set."""
    rules: dict[str, dict[str, Any]] = {}
    for name in Variant.values:
        variant = find_variant(name)
        limits = []
        for kind, (per_side, together) in sorted(material_limits(variant).items()):
            if kind == KING:
                continue  # two generals are a placement fault, with their rank
            limits.append(
                {
                    "letter": LETTER_OF_TYPE[kind].upper(),
                    "piece": ENGLISH_NAME[kind],
                    "per_side": per_side,
                    "together": together,
                    "turncoats": START_COUNT[kind],
                }
            )
        rules[name] = {"limits": limits, "dead_general": variant.has_dead_general}
    return rules


def position_messages() -> dict[str, str]:
    """The server's sentences for the faults the editor finds itself, in the active language,
    keyed ``"<code> <colour> <piece>"`` (the parts a code has)."""
    slots = {"square": "{square}", "rank": "{rank}", "count": "{count}", "limit": "{limit}"}
    messages: dict[str, str] = {}
    pieces = sorted({ENGLISH_NAME[TYPE_OF_LETTER[letter]] for letter in "abnrcpfm"})
    for colour in COLOURS:
        for code in POINT_CODES:
            messages[f"{code} {colour}"] = render(
                code, {"colour": colour, "square": slots["square"], "rank": slots["rank"]}
            )
        messages[f"fen.no_general {colour}"] = render("fen.no_general", {"colour": colour})
        messages[f"fen.two_generals {colour}"] = render(
            "fen.two_generals", {"colour": colour, "count": slots["count"], "rank": slots["rank"]}
        )
        messages[f"fen.other_side_in_check {colour}"] = render(
            "fen.other_side_in_check", {"colour": colour, "rank": slots["rank"]}
        )
        for piece in pieces:
            for code in ("fen.too_many_pieces", "fen.too_many_turncoats"):
                messages[f"{code} {colour} {piece}"] = render(
                    code,
                    {
                        "colour": colour,
                        "piece": piece,
                        "count": slots["count"],
                        "limit": slots["limit"],
                    },
                )
    for piece in pieces:
        messages[f"fen.too_many_on_board {piece}"] = render(
            "fen.too_many_on_board",
            {"piece": piece, "count": slots["count"], "limit": slots["limit"]},
        )
    messages["puzzle.dead_general_needs_feidan"] = render("puzzle.dead_general_needs_feidan")
    messages["puzzle.moves_range"] = render("puzzle.moves_range", {"limit": slots["limit"]})
    return messages
