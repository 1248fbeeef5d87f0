"""Replay documents: stored gzip-compressed in their own table (``ReplayDocument``), served
as stored, decoded at most once per process while they are in use.

A finished match's replay never changes, so the decoded copy is keyed by the document's
SHA-256 (a key that cannot go stale) and kept in a small per-process LRU
(``matches.replay_cache``); the replay viewer's rendered steps are cached in Django's cache
under the same key (``step_cache_key``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from typing import Any

from arena.viewer.steps import STEP_FORM
from matches import replay_cache
from matches.models import ReplayDocument


def pack(doc: dict[str, Any]) -> tuple[bytes, int]:
    """The stored form of a replay: gzip of compact JSON, and the JSON's length."""
    raw = json.dumps(doc, separators=(",", ":")).encode()
    return gzip.compress(raw, compresslevel=6, mtime=0), len(raw)


def document_row(match_id: int, data: bytes, size_bytes: int) -> dict[str, Any]:
    """A ``ReplayDocument`` row of already packed bytes (bulk loads: bench/fill_scale.py)."""
    return {
        "match_id": match_id,
        "data": data,
        "size_bytes": size_bytes,
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def store_replay(match_id: int, doc: dict[str, Any]) -> ReplayDocument:
    """Write the replay of ``match_id`` (call inside the transaction that records it)."""
    data, size = pack(doc)
    row = document_row(match_id, data, size)
    obj, _ = ReplayDocument.objects.update_or_create(
        match_id=match_id, defaults={k: v for k, v in row.items() if k != "match_id"}
    )
    return obj


def stored_replay(match_id: int) -> tuple[bytes, str] | None:
    """The stored gzip bytes and their SHA-256, or None when the match has no replay."""
    row = ReplayDocument.objects.filter(match_id=match_id).values_list("data", "sha256").first()
    if row is None:
        return None
    return bytes(row[0]), row[1]


def replay_sha(match_id: int) -> str | None:
    return ReplayDocument.objects.sha_of(match_id)


def decoded(sha: str, *, match_id: int | None = None) -> dict[str, Any] | None:
    """The decoded document with this SHA-256, from this process's LRU or the database."""
    return replay_cache.decoded(sha, lambda: ReplayDocument.objects.data_of(sha, match_id))


def load_replay(match_id: int) -> dict[str, Any] | None:
    """The decoded replay of ``match_id``, or None when it has none."""
    return ReplayDocument.objects.document_of(match_id)


def step_cache_key(sha: str, n: int, variant: str = "") -> str:
    """Django-cache key of one rendered viewer step of the replay with this SHA-256, in the
    steps' current form (``STEP_FORM``: a step rendered by older code is never served)."""
    variant_hash = hashlib.sha1(variant.encode()).hexdigest()[:12]
    return f"replay-step:{STEP_FORM}:{sha}:{n}:{variant_hash}"
