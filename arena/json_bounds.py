"""Reading JSON from strangers: size and nesting depth checked before any decoder runs.

Python's ``json`` recurses once per level of nesting, so ``[[[[...`` 100,000 deep raises
``RecursionError`` (orjson stops at 1024 levels with its own error); both fail only after
the work. :func:`check` measures the text with one linear pass that never recurses, so a
document too large or too deep is refused with a :class:`JSONBoundsError` (a ``ValueError``)
whose message says which bound it passed, and :func:`loads` decodes only what passed.

Shared by the referee (each line a bot writes, ``arena.protocol``) and the site (every JSON
request body, ``foundation.parsers``).
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

import orjson

#: Deeper than any honest message: the protocol's own messages nest fewer than 10 levels, the
#: games' observations and actions fewer than 8, the site's API bodies 2.
MAX_DEPTH = 64

#: One JSON string: possessive, with the closing quote optional, so that an unterminated
#: string runs to the end once instead of being tried again from every later quote.
_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"?', re.DOTALL)
#: Brackets become +1 / -1 as signed bytes; every other byte is deleted.
_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[{]}")


class JSONBoundsError(ValueError):
    """The text passes a bound: too large, or nested too deep."""


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text``, brackets inside strings not
    counted; of unbalanced text, the deepest any prefix reaches (as deep as a decoder goes)."""
    # UTF-8 never uses the bytes of '"', '\\' or a bracket inside a longer character, so the
    # bytes tell strings and brackets apart exactly as the decoder does on the text.
    raw = text.encode("utf-8", "surrogatepass")
    if b'"' in raw:
        raw = _STRING.sub(b"", raw)
    steps = raw.translate(_STEP, _NOT_BRACKET)
    if not steps:
        return 0
    # The running sum of +1/-1, in C: accumulate and max over a signed-byte view.
    return max(0, max(accumulate(memoryview(steps).cast("b"))))


def check(text: str, *, max_depth: int = MAX_DEPTH, max_bytes: int | None = None) -> None:
    """Raise :class:`JSONBoundsError` unless ``text`` is at most ``max_bytes`` long in UTF-8
    (None: no size bound) and nests at most ``max_depth`` levels."""
    if max_bytes is not None and len(text) > max_bytes // 4:  # UTF-8: at most 4 bytes a char
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise JSONBoundsError(f"JSON text of {size} bytes: at most {max_bytes} are read")
    # Fewer opening brackets than the bound cannot nest past it: no scan for the usual small
    # message.
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise JSONBoundsError(f"JSON nested deeper than {max_depth} levels")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: A run of 19 digits or more: maybe an integer outside 64 bits, which orjson reads as a float
#: where ``json`` (the reference) keeps the integer; such text goes to ``json`` directly.
_LONG_DIGITS = re.compile(r"[0-9]{19}")


def loads(
    data: str | bytes | bytearray,
    *,
    max_depth: int = MAX_DEPTH,
    max_bytes: int | None = None,
    allow_nan: bool = True,
) -> Any:
    """Decode one JSON document within the bounds of :func:`check`; bytes must be UTF-8.

    orjson reads it when it can; what orjson refuses and the standard library reads (``NaN``
    and ``Infinity`` unless ``allow_nan`` is false, integers past 64 bits, lone surrogates in
    escapes) is read by ``json``. Raises ``ValueError`` for anything else: a
    :class:`JSONBoundsError`, a ``json.JSONDecodeError``, a ``UnicodeDecodeError``, or an
    integer of more digits than Python converts."""
    if isinstance(data, str):
        text = data
    else:
        if max_bytes is not None and len(data) > max_bytes:
            raise JSONBoundsError(f"JSON text of {len(data)} bytes: at most {max_bytes} are read")
        # Decoded here, not by json.loads(bytes), which would also take UTF-16 and UTF-32 that
        # the scan does not read.
        text = bytes(data).decode("utf-8")
    check(text, max_depth=max_depth, max_bytes=max_bytes)
    if not _LONG_DIGITS.search(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text, parse_constant=None if allow_nan else _refuse_constant)
