"""Every step of a replay, packed for the offline page: in parts of :data:`PART_STEPS` steps,
each part the JSON of ``[steps, seat_views]`` (each step as the site's step JSON with no seat
view; for each step, what each seat was told there), gzip-compressed and base64-encoded.

Parts, not one block: a long match is hundreds of megabytes of JSON (an SVG picture per step),
so the writer keeps one part in memory at a time, and the page's script unpacks (with the
browser's ``DecompressionStream``) only the parts of the steps it shows, keeping a few.
Consecutive pictures differ little, and kept next to each other (the seat views apart) each
fits in gzip's 32 KiB window with the one before: a part shrinks ten- to thirty-fold.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable, Iterable
from typing import Any

#: Steps per part: a part is a few megabytes of JSON, unpacked in a few milliseconds.
PART_STEPS = 64
#: gzip's level: 9 saves some 4 % over 6 and takes twice as long.
LEVEL = 6

Step = tuple[dict[str, Any], list[Any]]


def pack_steps(
    steps: Iterable[Step], progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """``{"part_steps": PART_STEPS, "total": steps, "parts": [base64, ...]}``, the page's
    ``replay-steps`` block (no ``<`` in it); ``progress(n)`` is told each step packed."""
    parts: list[str] = []
    rows: list[Step] = []
    count = 0
    for row in steps:
        rows.append(row)
        count += 1
        if progress is not None:
            progress(count)
        if len(rows) == PART_STEPS:
            parts.append(_packed(rows))
            rows = []
    if rows:
        parts.append(_packed(rows))
    return {"part_steps": PART_STEPS, "total": count, "parts": parts}


def unpack_steps(packed: dict[str, Any]) -> list[Step]:
    """Every ``(step, seat_views)`` of a packed block, in order (what the page's script does,
    one part at a time)."""
    rows: list[Step] = []
    for part in packed["parts"]:
        steps, views = json.loads(gzip.decompress(base64.b64decode(part)))
        rows.extend(zip(steps, views, strict=True))
    return rows


def _packed(rows: list[Step]) -> str:
    steps, views = [one for one, _ in rows], [seat_views for _, seat_views in rows]
    raw = json.dumps([steps, views], separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=LEVEL, mtime=0)).decode()
