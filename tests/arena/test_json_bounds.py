"""The bounded JSON loader and the protocol's decoder, fuzzed (issue 18, items 4 and 7).

Whatever text a bot writes (or a client posts): the measurement never recurses and agrees with
a character-by-character reading, the decoders never raise anything but ``ValueError`` behind
it (never ``RecursionError``), and the protocol's parsers never raise at all: each line is a
value or a fault."""

from __future__ import annotations

import contextlib
import json
import math
import sys
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arena import json_bounds as jb
from arena import protocol as p

# Pieces that make decoders work hard or stumble, glued together in any order.
FRAGMENTS = [
    "[",
    "]",
    "{",
    "}",
    '"',
    "\\",
    '\\"',
    "\\\\",
    ",",
    ":",
    '"a":',
    '{"action":',
    '{"action_index":',
    '"turn":',
    "NaN",
    "-Infinity",
    "1e999",
    "-0",
    "9" * 5000,  # more digits than Python converts to an int
    "1." + "0" * 400,
    '"\\ud800"',  # a lone surrogate, escaped
    '"\\udc00\\ud800"',
    "\x00",
    '"\\u0000"',
    "\ufeff",
    "\u2028",
    "null",
    "true",
]
ANY_CHAR = st.characters(codec=None, exclude_categories=())  # surrogates included
PIECES = st.one_of(st.sampled_from(FRAGMENTS), st.text(ANY_CHAR, max_size=8))


@st.composite
def hostile_lines(draw: st.DrawFn) -> str:
    """Fragments, a deep nest (open, or closed again), more fragments."""
    head = "".join(draw(st.lists(PIECES, max_size=10)))
    body = "".join(draw(st.lists(PIECES, max_size=30)))
    deep = draw(st.sampled_from([0, 0, 3, 70, 1000, 100_000]))
    opener = draw(st.sampled_from(["[", "{", '{"a":', '{"action":', '["', "[\\"]))
    closer = draw(st.sampled_from(["", "]", "}", '"]']))
    return head + opener * deep + body + closer * deep


BYTES_LINES = st.binary(max_size=200).map(lambda b: b.decode("utf-8", errors="replace"))
LINES = st.one_of(hostile_lines(), st.text(ANY_CHAR, max_size=200), BYTES_LINES)


def reference_depth(text: str) -> int:
    """Character by character, as a JSON lexer reads: the deepest prefix outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _stack_depth() -> int:
    frame: FrameType | None = sys._getframe()
    n = 0
    while frame is not None:
        frame, n = frame.f_back, n + 1
    return n


def _loads_on_a_short_stack(text: str, levels: int) -> Any:
    """json.loads with room for about ``levels`` levels of nesting: a measurement that missed
    deeper nesting would end in RecursionError here (3.11 counts the C decoder's levels on
    the same stack as Python frames)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(_stack_depth() + 2 * levels + 20)
    try:
        return json.loads(text)
    finally:
        sys.setrecursionlimit(old)


# -- the measurement ----------------------------------------------------------------------


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
@example("[" * 100_000)
@example('["' + "[" * 100 + '"]')  # brackets inside a string do not nest
@example('["\\\\"' + ",[" * 100)  # an escaped backslash ends no string
@example('"\\"' + "[" * 100)  # an unterminated string hides what follows
def test_depth_agrees_with_a_character_by_character_reading(text: str) -> None:
    assert jb.depth(text) == reference_depth(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_lines())
@example('["\\"", ' + "[" * 100 + '"]"')  # a string ending in an escaped quote, then a nest
@example('{"a\\\\": ' + "[" * 100)  # a key that ends in an escaped backslash
def test_what_passes_the_check_never_recurses_past_the_bound(text: str) -> None:
    try:
        jb.check(text, max_depth=20)
    except jb.JSONBoundsError:
        return
    with contextlib.suppress(ValueError):
        _loads_on_a_short_stack(text, levels=20)


@pytest.mark.parametrize("n", [1, 63, 64])
def test_the_bound_itself_is_read(n: int) -> None:
    assert jb.loads("[" * n + "]" * n) is not None
    assert jb.loads('{"a":' * n + "1" + "}" * n) is not None


def test_one_past_the_bound_is_refused_with_its_reason() -> None:
    with pytest.raises(jb.JSONBoundsError, match="nested deeper than 64 levels"):
        jb.loads("[" * 65 + "]" * 65)
    with pytest.raises(jb.JSONBoundsError, match="2001 bytes: at most 1000"):
        jb.loads(b"[" + b"1," * 999 + b"1]", max_bytes=1000)
    with pytest.raises(jb.JSONBoundsError, match="at most 10"):
        jb.loads("\u00e9" * 6, max_bytes=10)  # 12 bytes in UTF-8


def test_integers_past_64_bits_stay_integers() -> None:
    # orjson reads them as floats (Hypothesis found -2**63 - 1); json, the reference, does not
    for n in (-(2**63) - 1, 2**64, -(2**64), 10**30):
        assert jb.loads(str(n)) == n and isinstance(jb.loads(str(n)), int)
        assert jb.loads(f'{{"turn": {n}}}') == {"turn": n}
    assert jb.loads(str(2**63 - 1)) == 2**63 - 1


def test_bytes_are_utf8_only() -> None:
    # json.loads(bytes) would also take UTF-16, whose bytes the scan does not read
    with pytest.raises(UnicodeDecodeError):
        jb.loads('["a"]'.encode("utf-16"))
    assert jb.loads('{"\u00e9": [1]}'.encode()) == {"\u00e9": [1]}


# -- the loader ---------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(ANY_CHAR),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_documents_within_the_bounds_read_as_json_reads_them(value: Any) -> None:
    text = json.dumps(value)
    assert jb.loads(text) == json.loads(text)
    assert jb.loads(text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")) == (
        json.loads(text)
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_the_loader_raises_nothing_but_value_error(text: str) -> None:
    with contextlib.suppress(ValueError):
        jb.loads(text)


# -- the protocol's parsers ---------------------------------------------------------------

LEGAL = [{"move": "a"}, [1, 2], None, 3]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES, st.integers(0, 3))
@example('{"action":' + "[" * 100_000 + "]" * 100_000 + "}", 0)
@example('{"type":"act","action":' + "[" * 100_000, 0)
@example('{"action_index": 1' + "0" * 5000 + "}", 0)
@example('{"action": NaN}', 0)
@example('{"log": "\\ud800\\u0000", "action_index": 0}', 0)
def test_parse_answer_never_raises(line: str, turn: int) -> None:
    answer = p.parse_answer(line, LEGAL, turn)
    assert answer.stale or (answer.index is None) != (answer.fault is None)
    if answer.fault:
        assert answer.fault in p.FAULT_KINDS
        assert len(answer.detail) < 1000
    if answer.index is not None:
        assert 0 <= answer.index < len(LEGAL)
    if answer.log is not None:
        assert "\x00" not in answer.log
        answer.log.encode("utf-8")  # storable as text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_parse_ready_never_raises(line: str) -> None:
    ready = p.parse_ready(line)
    assert (ready.fault is None) or (ready.fault == p.NO_READY and ready.name is None)
    if ready.name is not None:
        assert "\x00" not in ready.name
        ready.name.encode("utf-8")


def test_not_a_number_is_not_null() -> None:
    # orjson writes NaN and the infinities as null: they must not match a legal null
    for text in ("NaN", "Infinity", "-Infinity", "1e999"):
        answer = p.parse_answer(f'{{"action": {text}}}', LEGAL, 0)
        assert answer.fault == p.ILLEGAL_ACTION, text
    assert p.parse_answer('{"action": null}', LEGAL, 0).index == 2
    assert p.parse_answer('{"action": [1, 2]}', LEGAL, 0).index == 1
    assert math.isnan(jb.loads("NaN"))


def test_deep_answers_are_invalid_json_with_the_reason() -> None:
    answer = p.parse_answer('{"action":' + "[" * 100_000 + "]" * 100_000 + "}", LEGAL, 0)
    assert answer.fault == p.INVALID_JSON
    assert answer.detail.startswith("JSON nested deeper than 64 levels")
    ready = p.parse_ready("[" * 100_000)
    assert ready.fault == p.NO_READY and "nested deeper than 64" in ready.detail


def test_a_deep_replay_file_is_refused_not_recursed(tmp_path: Any) -> None:
    from arena.replay import ReplayError, load_replay

    path = tmp_path / "deep.json"
    path.write_text('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ReplayError, match="is not JSON: JSON nested deeper than 64 levels"):
        load_replay(path)
