"""foundation.stamps: cache-kept version numbers only move forward, also when evicted."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from foundation import stamps

pytestmark = pytest.mark.django_db


def test_numbers_move_forward_and_survive_eviction() -> None:
    key = "test-stamp"
    cache.delete(key)
    first = stamps.current(key)
    assert first > 0 and stamps.current(key) == first  # made once, then read
    stamps.bump(key)
    assert stamps.current(key) == first + 1
    cache.delete(key)  # evicted: never back to a number used before
    assert stamps.current(key) > first + 1
    cache.delete(key)
    stamps.bump(key)  # a bump of a missing number makes a fresh one too
    assert stamps.current(key) > first + 1
