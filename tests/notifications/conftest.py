"""Fixtures for the notifications' tests: the platform's (real rows, Celery inline, matches
played through the process sandbox), with users who have email addresses; the resilience
tests' own redis-server and worker processes for an email redelivered after a kill."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.resilience.redis_servers import redis_server  # noqa: F401  fixtures, used by name
from tests.resilience.workers import workers  # noqa: F401
from tests.site_fixtures import (  # noqa: F401  fixtures, used by name
    _celery_inline,
    _media_root,
    builtin_versions,
    games,
    inline,
    rounds,
    trnd,
    user_bot,
)


@pytest.fixture(autouse=True)
def _sandbox(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.ARENA_LADDER_BUDGET = 2
    settings.ARENA_LADDER_PLACEMENT = 2
    settings.ARENA_LADDER_SUSPEND_AFTER = 2
    settings.ARENA_SITE_URL = "https://arena.example"


@pytest.fixture
def user(db: None) -> Any:
    return get_user_model().objects.create_user(
        "alice", email="alice@example.com", password="pw-alice-123"
    )


@pytest.fixture
def other_user(db: None) -> Any:
    return get_user_model().objects.create_user(
        "bob", email="bob@example.com", password="pw-bob-123"
    )
