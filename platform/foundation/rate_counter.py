"""An atomic sliding-window rate counter, for the throttles.

DRF's own throttles read a list of timestamps, append, and write it back: two processes that do
so at once lose one of the two hits (150 requests were counted as 128). Here each hit is one
atomic step: Redis ``INCR`` inside ``MULTI`` when Redis is the cache, else (the embedded
default) one ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` on the counters' table
(``foundation.RateCount``): two queries a hit, whatever the history (expired rows are deleted
by a periodic task, never by a request). The window slides: the
estimate is this window's hits plus the previous window's, weighted by how much of it still
lies within the last ``window`` seconds (Cloudflare's approximation), so a client cannot spend
two windows' worth at their boundary.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router
from django.utils import timezone

from foundation.models import RateCount


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
        return _add_in_table(current, previous, ttl, delta)
    # A per-process cache (tests only: settings never configure one) is atomic under its lock.
    cache.add(current, 0, ttl)
    return int(cache.incr(current, delta)), int(cache.get(previous) or 0)


def _add_in_table(current: str, previous: str, ttl: int, delta: int) -> tuple[int, int]:
    """The embedded default's counter: one upsert that adds ``delta`` and returns the new
    value (atomic in SQLite and PostgreSQL alike), and one read of the previous window."""
    db = router.db_for_write(RateCount)
    connection = connections[db]
    table = connection.ops.quote_name(RateCount._meta.db_table)
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (key, hits, expires) VALUES (%s, %s, %s) "
            f"ON CONFLICT (key) DO UPDATE SET hits = {table}.hits + excluded.hits "
            "RETURNING hits",
            [current, delta, now + timedelta(seconds=ttl)],
        )
        hits = int(cursor.fetchone()[0])
        cursor.execute(
            f"SELECT hits FROM {table} WHERE key = %s AND expires > %s",
            [previous, now],
        )
        row = cursor.fetchone()
    return hits, int(row[0]) if row else 0


def sweep_expired() -> int:
    """Delete the counters of windows gone by (the periodic ``foundation.sweep_rate_counts``);
    how many. Requests never do it: a request's queries stay the same from one to the next."""
    deleted, _ = RateCount.objects.filter(expires__lt=timezone.now()).delete()
    return deleted
