"""An atomic sliding-window rate counter in Django's shared cache, for the throttles.

DRF's own throttles read a list of timestamps, append, and write it back: two processes that do
so at once lose one of the two hits (150 requests were counted as 128). Here each hit is one
atomic step of the cache's server: Redis ``INCR`` inside ``MULTI``, or, in the database cache of
the embedded default, a read and write of the counter's row in one transaction that holds the
row's lock. The window slides: the estimate is this window's hits plus the previous window's,
weighted by how much of it still lies within the last ``window`` seconds (Cloudflare's
approximation), so a client cannot spend two windows' worth at their boundary.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router, transaction


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    #: Seconds until the estimate falls under the limit again (0 when allowed).
    wait_s: float


def take(key: str, limit: int, window_s: int, *, now: float | None = None) -> Verdict:
    """Count one hit of ``key`` if fewer than ``limit`` hits fall within the last ``window_s``
    seconds; a refused hit is not counted (a client waiting as told gets through)."""
    cache = caches["default"]
    now = time.time() if now is None else now
    index, offset = divmod(now, window_s)
    current, previous = f"{key}:w{int(index)}", f"{key}:w{int(index) - 1}"
    weight = 1.0 - offset / window_s  # the part of the previous window still in view
    hits, before = _add(cache, current, previous, window_s)
    if before * weight + hits <= limit:
        return Verdict(True, 0.0)
    _add(cache, current, previous, window_s, delta=-1)
    return Verdict(False, _wait(hits, before, limit, window_s, offset))


def _wait(hits: int, before: int, limit: int, window_s: int, offset: float) -> float:
    """Seconds until ``before * weight + hits <= limit`` as the previous window fades; when this
    window alone is over the limit, until it ends. At least one second (Retry-After's unit)."""
    if before > 0 and hits <= limit:
        wait = window_s * (1 - (limit - hits) / before) - offset
    else:
        wait = window_s - offset
    return max(1.0, wait)


def _add(
    cache: BaseCache, current: str, previous: str, window_s: int, *, delta: int = 1
) -> tuple[int, int]:
    """Add ``delta`` to the counter ``current``; its new value and the counter ``previous``."""
    ttl = 2 * window_s + 1  # the counter is read as "previous" during the next window
    if isinstance(cache, RedisCache):
        key, prev_key = cache.make_and_validate_key(current), cache.make_and_validate_key(previous)
        # Django's RedisCache has no public handle on its client; MULTI needs the client itself.
        client = cache._cache.get_client(key, write=True)  # type: ignore[attr-defined]
        with client.pipeline(transaction=True) as pipe:
            pipe.set(key, 0, ex=ttl, nx=True)
            pipe.incrby(key, delta)
            pipe.get(prev_key)
            _, hits, before = pipe.execute()
        return int(hits), int(before or 0)
    if isinstance(cache, DatabaseCache):
        return _add_in_table(cache, current, previous, ttl, delta)
    # A per-process cache (tests only: settings never configure one) is atomic under its lock.
    cache.add(current, 0, ttl)
    return int(cache.incr(current, delta)), int(cache.get(previous) or 0)


def _add_in_table(
    cache: DatabaseCache, current: str, previous: str, ttl: int, delta: int
) -> tuple[int, int]:
    db = router.db_for_write(cache.cache_model_class)
    connection = connections[db]
    with transaction.atomic(using=db):
        cache.add(current, 0, ttl)  # the row exists from here on (a racing add fails quietly)
        if connection.features.has_select_for_update:
            # PostgreSQL: wait for any other hit on this counter to commit. SQLite needs no row
            # lock: the site's IMMEDIATE transactions take the database's write lock at BEGIN.
            table = connection.ops.quote_name(cache._table)  # type: ignore[attr-defined]
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT cache_key FROM {table} WHERE cache_key = %s FOR UPDATE",
                    [cache.make_and_validate_key(current)],
                )
        hits = int(cache.get(current) or 0) + delta
        cache.set(current, hits, ttl)  # not incr(): it would reset the expiry to the default
        return hits, int(cache.get(previous) or 0)
