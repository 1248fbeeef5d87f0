"""Marks into a bot's capped stderr (``CappedText.kept`` / ``char_offsets``): the referee's
per-decision logs slice ``text()`` with them, so they must agree with its decoding for any
bytes, any chunking and any cap."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sandbox.lines import CappedText

TEXT = st.text(alphabet=st.sampled_from("a\n\x00é€☃😀"), max_size=40)


def body(log: CappedText) -> str:
    return log.text().split("\n[stderr truncated: ", 1)[0]


@given(st.lists(TEXT, max_size=8))
def test_pieces_of_valid_text_come_back_exactly(pieces: list[str]) -> None:
    log = CappedText(cap=10_000)
    marks = []
    for piece in pieces:
        log.feed(piece.encode())
        marks.append(log.kept())
    offsets = log.char_offsets(marks)
    text = log.text()
    assert [text[a:b] for a, b in zip([0, *offsets], offsets, strict=False)] == pieces


@given(st.binary(max_size=60), st.lists(st.integers(0, 60), max_size=6), st.integers(0, 70))
def test_any_bytes_any_cuts_any_cap(data: bytes, cuts: list[int], cap: int) -> None:
    log = CappedText(cap=cap)
    marks, pos = [], 0
    for cut in sorted(cuts):
        log.feed(data[pos:cut])
        pos = max(pos, cut)
        marks.append(log.kept())
    log.feed(data[pos:])
    offsets = log.char_offsets([*marks, log.kept()])
    kept = body(log)
    assert kept == data[:cap].decode("utf-8", errors="replace")
    assert offsets == sorted(offsets) and offsets[-1] == len(kept)  # the note is in no range


@given(TEXT, st.integers(0, 200))
def test_a_mark_inside_a_character_puts_it_after(text: str, cut: int) -> None:
    data = text.encode()
    log = CappedText(cap=1000)
    log.feed(data[:cut])
    mark = log.kept()
    log.feed(data[cut:])
    (offset,) = log.char_offsets([mark])
    # only the whole characters before the mark (the text is valid UTF-8)
    assert log.text()[:offset] == data[:cut].decode("utf-8", errors="ignore")
