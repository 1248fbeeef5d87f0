"""Splitting a bot's byte stream into lines, with a cap on line length, and keeping the start of
its stderr (with marks into it, for the referee's per-decision logs). Shared by backends
(through ``sandbox.pipes.PipeBot``)."""

from __future__ import annotations

import codecs
from collections import deque
from collections.abc import Iterable

from sandbox.base import LineTooLong


class LineBuffer:
    """Collects bytes, hands out complete lines (decoded UTF-8, newline stripped).

    A line longer than ``max_line_bytes`` raises :class:`LineTooLong` once; the rest of that
    line is then discarded up to its newline, so the buffer never grows past the cap.
    """

    def __init__(self, max_line_bytes: int) -> None:
        self.max_line_bytes = max_line_bytes
        self._buf = bytearray()
        # complete lines in order; None marks an over-long line, reported in its place
        self._lines: deque[bytes | None] = deque()
        self._skipping = False  # inside an over-long line: drop bytes until its newline

    def feed(self, data: bytes) -> None:
        if not self._buf and not self._skipping:
            # The usual case, whole lines in one read: slice them out without the copies of
            # the general path below, which then takes only a trailing partial line.
            cap = self.max_line_bytes
            start = 0
            while (nl := data.find(b"\n", start)) >= 0:
                self._lines.append(data[start:nl] if nl - start <= cap else None)
                start = nl + 1
            if start:
                data = data[start:]
        while data:
            nl = data.find(b"\n")
            chunk, data = (data, b"") if nl < 0 else (data[:nl], data[nl + 1 :])
            if self._skipping:
                if nl >= 0:
                    self._skipping = False
                continue
            if len(self._buf) + len(chunk) > self.max_line_bytes:
                self._buf.clear()
                self._lines.append(None)
                self._skipping = nl < 0
                continue
            self._buf += chunk
            if nl >= 0:
                self._lines.append(bytes(self._buf))
                self._buf.clear()

    def pop(self) -> str | None:
        """The next complete line, or None. Raises LineTooLong for an over-long line."""
        if not self._lines:
            return None
        line = self._lines.popleft()
        if line is None:
            raise LineTooLong(f"line longer than {self.max_line_bytes} bytes")
        return line.decode("utf-8", errors="replace").rstrip("\r")

    def has_line(self) -> bool:
        return bool(self._lines)


class CappedText:
    """Keeps the first ``cap`` bytes written to it and counts the rest."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._buf = bytearray()
        self.dropped = 0

    def feed(self, data: bytes) -> None:
        room = self.cap - len(self._buf)
        if room > 0:
            self._buf += data[:room]
        self.dropped += max(0, len(data) - max(room, 0))

    def kept(self) -> int:
        """How many bytes are kept so far: a mark for :meth:`char_offsets`."""
        return len(self._buf)

    def char_offsets(self, marks: Iterable[int]) -> list[int]:
        """The character offsets into :meth:`text` of byte marks taken with :meth:`kept`
        (non-decreasing). One incremental decoder walks the kept bytes, so a character split
        across two marks counts where it ends, and the offsets agree with ``text()``'s own
        decoding (replacement characters included). Never past the kept text: the
        "truncated" note is in no range."""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        end = len(self._buf)
        pos = chars = 0
        out = []
        for mark in marks:
            mark = min(max(mark, pos), end)
            # At the end of what is kept, text() decodes a trailing partial character too.
            chars += len(decoder.decode(bytes(self._buf[pos:mark]), final=mark == end))
            pos = mark
            out.append(chars)
        return out

    def has(self, needle: bytes) -> bool:
        """Whether ``needle`` is in what was kept (e.g. ``MemoryError`` in a traceback)."""
        return needle in self._buf

    def text(self) -> str:
        out = self._buf.decode("utf-8", errors="replace")
        if self.dropped:
            out += f"\n[stderr truncated: {self.dropped} more bytes dropped]\n"
        return out
