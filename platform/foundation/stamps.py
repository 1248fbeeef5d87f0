"""Version numbers kept in the shared cache: a page part drawn once per state of something (a
league's table) is cached under the thing's current number, and whatever changes the thing
bumps the number once its transaction commits, so the next view draws afresh.

A missing number (never set, or evicted) is created from the clock, never reset to a number
used before, so a fragment cached under an old number is never shown again.
"""

from __future__ import annotations

import time

from django.core.cache import cache


def current(key: str) -> int:
    found = cache.get(key)
    if found is None:
        cache.add(key, time.time_ns(), None)
        found = cache.get(key)
    return int(found or 0)


def bump(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:  # missing: a fresh number
        cache.add(key, time.time_ns(), None)


def current_many(keys: list[str]) -> list[int]:
    """``current`` of each key, in one round trip to the cache when all are there."""
    found = cache.get_many(keys)
    return [int(found[k]) if k in found else current(k) for k in keys]
