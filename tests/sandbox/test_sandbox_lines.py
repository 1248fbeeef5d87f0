"""LineBuffer and CappedText: the byte-stream bookkeeping both backends share."""

from __future__ import annotations

import pytest

from sandbox.base import LineTooLong
from sandbox.lines import CappedText, LineBuffer


def test_lines_split_across_chunks() -> None:
    b = LineBuffer(100)
    b.feed(b'{"a":')
    assert b.pop() is None
    b.feed(b'1}\n{"b":2}\r\npart')
    assert b.pop() == '{"a":1}'
    assert b.pop() == '{"b":2}'
    assert b.pop() is None
    b.feed(b"ial\n")
    assert b.pop() == "partial"


def test_too_long_reported_in_place_then_skipped() -> None:
    b = LineBuffer(10)
    b.feed(b"ok\n" + b"x" * 25)
    b.feed(b"y" * 30)  # still the same over-long line: not buffered
    b.feed(b"z\nnext\n")
    assert b.pop() == "ok"
    with pytest.raises(LineTooLong):
        b.pop()
    assert b.pop() == "next"
    assert len(b._buf) == 0


def test_line_exactly_at_cap_is_fine() -> None:
    b = LineBuffer(5)
    b.feed(b"12345\n")
    assert b.pop() == "12345"


def test_bad_utf8_replaced_not_raised() -> None:
    b = LineBuffer(100)
    b.feed(b"\xff\xfe{}\n")
    assert b.pop().endswith("{}")


def test_capped_text() -> None:
    c = CappedText(8)
    c.feed(b"12345")
    c.feed(b"67890")
    assert c.text().startswith("12345678")
    assert "2 more bytes dropped" in c.text()


def test_whole_lines_in_one_chunk_with_an_overlong_one() -> None:
    b = LineBuffer(5)
    b.feed(b"a\n123456\nbc\r\nxyz")
    assert b.pop() == "a"
    with pytest.raises(LineTooLong):
        b.pop()
    assert b.pop() == "bc"
    assert b.pop() is None
    b.feed(b"\n" + b"q" * 9)  # ends a line, then starts an over-long one
    assert b.pop() == "xyz"
    b.feed(b"q\nok\n")
    with pytest.raises(LineTooLong):
        b.pop()
    assert b.pop() == "ok"
