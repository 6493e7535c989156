"""What a live game's WebSocket reads from a client (live.protocol): each kind of bad message
is refused with its own code, before anything looks at the game."""

from __future__ import annotations

import json

import pytest

from live.protocol import MESSAGE_MAX_BYTES, Command, ProtocolError, parse_message
from live.texts import REFUSALS, refusal_text


def code_of(text: object) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse_message(text)  # type: ignore[arg-type]
    return caught.value.code


def test_the_messages_a_game_reads() -> None:
    move = parse_message('{"type": "move", "ply": 4, "move": "h2e2"}')
    assert (move.type, move.ply, move.move) == ("move", 4, "h2e2")
    assert parse_message('{"type": "draw", "action": "accept"}').action == "accept"
    rematch = parse_message('{"type": "rematch", "action": "offer"}')
    assert (rematch.type, rematch.action) == ("rematch", "offer")
    for kind in ("resign", "abort", "flag", "state"):
        assert parse_message(json.dumps({"type": kind})) == Command(kind)
    setup = parse_message('{"type": "setup", "placement": {"f0": "K", "a0": "M"}}')
    assert (setup.type, setup.placement) == ("setup", {"f0": "K", "a0": "M"})


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (None, "not_text"),
        (b'{"type": "state"}', "not_text"),
        ("{not json", "not_json"),
        ("[1, 2]", "not_object"),
        ('"move"', "not_object"),
        ('{"type": "castle"}', "unknown_type"),
        ('{"kind": "move"}', "unknown_type"),
        ('{"type": "move", "move": "h2e2"}', "missing_field"),
        ('{"type": "resign", "why": "bored"}', "unknown_field"),
        ('{"type": "move", "ply": "3", "move": "h2e2"}', "bad_ply"),
        ('{"type": "move", "ply": -1, "move": "h2e2"}', "bad_ply"),
        ('{"type": "move", "ply": true, "move": "h2e2"}', "bad_ply"),
        ('{"type": "move", "ply": 0, "move": "炮二平五"}', "bad_move"),
        ('{"type": "move", "ply": 0, "move": "h2e2 "}', "bad_move"),
        ('{"type": "move", "ply": 0, "move": ["h2e2"]}', "bad_move"),
        ('{"type": "draw", "action": "maybe"}', "bad_draw_action"),
        ('{"type": "setup"}', "missing_field"),
        ('{"type": "setup", "placement": ["f0", "K"]}', "bad_placement"),
        ('{"type": "setup", "placement": "MRNBAKABNRM"}', "bad_placement"),
        ('{"type": "setup", "placement": {}}', "bad_placement"),
        ('{"type": "setup", "placement": {"f0": 1}}', "bad_placement"),
        ('{"type": "setup", "placement": {"f0": "KKK"}}', "bad_placement"),
        ('{"type": "setup", "placement": {"f0": "K"}, "side": "black"}', "unknown_field"),
    ],
)
def test_a_malformed_message_is_refused_with_its_reason(text: object, code: str) -> None:
    assert code_of(text) == code


@pytest.mark.parametrize("field", ["red_ms", "clock", "time_left", "remaining"])
def test_a_client_that_sends_a_clock_is_told_clocks_are_the_servers(field: str) -> None:
    message = {"type": "move", "ply": 0, "move": "h2e2", field: 999_999}
    assert code_of(json.dumps(message)) == "clock_not_accepted"


def test_a_secret_half_of_too_many_points_is_refused() -> None:
    placement = {f"{file}{rank}": "P" for file in "abcdefghijk" for rank in range(4)}
    assert code_of(json.dumps({"type": "setup", "placement": placement})) == "bad_placement"


def test_a_message_too_long_is_refused_before_it_is_read() -> None:
    text = json.dumps({"type": "state", "pad": "x" * MESSAGE_MAX_BYTES})
    assert code_of(text) == "too_long"
    assert code_of("[" * 100_000) == "too_long"


def test_every_refusal_is_said_in_both_languages_with_its_values_filled() -> None:
    said = refusal_text("out_of_date", {"ply": 7})
    assert "7" in said.zh and "7" in said.en
    for text in REFUSALS.values():
        assert text.zh and text.en
