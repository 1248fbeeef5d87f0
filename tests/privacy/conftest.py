"""Fixtures of the privacy tests: a site with a private tournament (tests/privacy/world.py)."""

from __future__ import annotations

from typing import Any

import pytest
from catalog.services import sync_games

from tests.privacy.world import World, build_world
from tests.scale.conftest import GAME, History


@pytest.fixture(autouse=True)
def _inline(celery_inline: None, settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def world(db: None) -> World:
    games = {g.slug: g for g in sync_games()}
    return build_world(History(games[GAME]))
