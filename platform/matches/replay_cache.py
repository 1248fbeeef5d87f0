"""This process's decoded replays: a finished match's replay never changes, so its decoded copy
is keyed by the stored document's SHA-256 (a key that cannot go stale) and kept in a small LRU.
Below the models (``Match.replay`` reads through it, as ``matches.replays`` does)."""

from __future__ import annotations

import gzip
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

#: Decoded replays kept per process (the longest are about 1 MB of JSON each).
DECODED_KEEP = 16
_decoded: OrderedDict[str, dict[str, Any]] = OrderedDict()
_lock = threading.Lock()


def decoded(sha: str, read: Callable[[], bytes | None]) -> dict[str, Any] | None:
    """The decoded document with this SHA-256: from the LRU, else ``read()``'s gzip bytes
    (None: there is no such document)."""
    with _lock:
        if sha in _decoded:
            _decoded.move_to_end(sha)
            return _decoded[sha]
    raw = read()
    if raw is None:
        return None
    doc = json.loads(gzip.decompress(bytes(raw)))
    with _lock:
        _decoded[sha] = doc
        while len(_decoded) > DECODED_KEEP:
            _decoded.popitem(last=False)
    return doc
