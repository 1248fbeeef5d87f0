"""The protocol's fast JSON path (orjson) writes and reads exactly what the standard library
did: bots see the same bytes, and every answer json accepted is still accepted."""

from __future__ import annotations

import json

import pytest

from arena import protocol as p
from games import registry


def _slow(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode("ascii")


@pytest.mark.parametrize("slug", registry.slugs())
def test_act_lines_of_real_matches_are_byte_identical(slug) -> None:
    game = registry.get_game(slug)
    for players in sorted({game.min_players, game.max_players}):
        state = game.new_game(players, 3)
        turn = 0
        while not state.is_over() and turn < 400:
            seat = state.current_seat()
            legal = state.legal_actions()
            msg = p.act_message(turn, seat, state.observation(seat), legal, 1234)
            assert p.encode_bytes(msg) == _slow(msg)
            state.apply(legal[turn % len(legal)])
            turn += 1
    start = p.start_message(slug, "m1", 0, players, {"x": 1.5}, {"start_ms": 1, "move_ms": 2})
    assert p.encode(start) == _slow(start).decode()


@pytest.mark.parametrize(
    "message",
    [
        {"name": "Ünïcode ☃ bot", "emoji": "🎲"},  # json escapes: \u00dc, surrogate pairs
        {1: "int key", "b": [1, 2]},  # json turns the key into "1"; orjson refuses
        {"big": 2**70, "neg": -(2**65)},  # past 64 bits
        {"f": [0.1, 1e-07, 1.5e-05, 9.99e-06, -2.5e-08, 1e-10, 1e22, 1e16, -0.0, 3.0]},
        {"f": 0.00001, "s": "0.00001 and 1e-7 in a string"},
        {"nested": {"deep": [[[]]], "t": True, "n": None}},
    ],
)
def test_unusual_messages_are_byte_identical(message) -> None:
    assert p.encode_bytes(message) == _slow(message)
    assert p.encode(message).isascii()


def test_answers_json_reads_are_still_read() -> None:
    legal = [{"move": "a"}, {"move": "b"}]
    # NaN in a field the referee ignores, and a huge integer: json reads both
    assert p.parse_answer('{"action_index": 1, "turn": 3, "x": NaN}', legal, 3).index == 1
    assert (
        p.parse_answer('{"action_index": 0, "big": 123456789012345678901234567890}', legal, 0).index
        == 0
    )
    assert p.parse_answer('{"action_index": 1}', legal, 9).index == 1
    assert p.parse_answer("[1]", legal, 0).fault == p.INVALID_JSON
    assert p.parse_answer("{nope", legal, 0).fault == p.INVALID_JSON


def test_action_answers_match_by_value_not_by_text() -> None:
    legal = [{"a": 1, "b": [True, 2]}, {"a": 1, "b": [1, 2]}, {"ü": 2.0}, {"ü": 2}]
    assert p.parse_answer('{"action": {"b": [1, 2], "a": 1}}', legal, 0).index == 1
    assert p.parse_answer('{"action": {"b": [true, 2], "a": 1}}', legal, 0).index == 0
    assert p.parse_answer('{"action": {"\\u00fc": 2}}', legal, 0).index == 3
    assert p.parse_answer('{"action": {"ü": 2.0}}', legal, 0).index == 2
    bad = p.parse_answer('{"action": {"a": 2}}', legal, 0)
    assert bad.fault == p.ILLEGAL_ACTION and '{"a":2}' in bad.detail
