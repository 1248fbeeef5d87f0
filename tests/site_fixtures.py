"""The site's fixtures: real database rows, uploads in a temporary MEDIA_ROOT, Celery inline.

Shared by the tests of the platform's apps (tests/platform, bots, matches, ladder, ratings,
competitions, notifications): each folder's conftest imports the ones it uses, so the two
autouse ones (``_media_root``, ``_celery_inline``) apply to that folder only."""

from __future__ import annotations

import io
import random
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from bots.models import Bot, BotVersion
from bots.services import ensure_builtin_bots
from catalog.models import Game
from catalog.services import sync_games
from django.contrib.auth import get_user_model

BOT_SOURCE = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""


def make_zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _celery_inline(celery_inline: None) -> None:
    """The platform's own tests run the match chain inline, also when CI configures a broker;
    tests/workers/test_platform_worker.py covers the same chain through Redis."""


@pytest.fixture
def games(db: None) -> dict[str, Game]:
    return {g.slug: g for g in sync_games()}


@pytest.fixture
def trnd(games: dict[str, Game]) -> Game:
    return games["trnd"]


@pytest.fixture
def builtin_versions(trnd: Game) -> list[BotVersion]:
    """The trnd built-ins (random, greedy) plus a second random-playing entry, as versions."""
    bots = ensure_builtin_bots(trnd)
    return [b.latest_version() for b in bots]


@pytest.fixture
def user(db: None) -> Any:
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def other_user(db: None) -> Any:
    return get_user_model().objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def user_bot(user: Any, trnd: Game) -> Bot:
    return Bot.objects.create(owner=user, game=trnd, name="first-legal")


@pytest.fixture
def three_versions(builtin_versions: list[BotVersion]) -> list[BotVersion]:
    """Three distinct bots for a 3-seat trnd match: the two built-ins and a second random."""
    from bots.services import create_bot

    owner = builtin_versions[0].bot.owner
    extra = create_bot(owner=owner, game=builtin_versions[0].bot.game, name="random-2")
    return [*builtin_versions, extra.versions.create(number=1, builtin_name="random")]


@pytest.fixture
def inline(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """``inline(fn, ...)``: call ``fn`` and run what it sends on commit (matches, played
    inline by the eager worker path) before returning."""

    def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


@pytest.fixture
def rounds(inline: Callable[..., Any]) -> Callable[..., None]:
    """``rounds(game, n)``: n rounds of what beat sends, each one's work done before the next:
    the checks' sweeper (it sends the checks of uploads, never sent here as no commit runs;
    they run inline), then the matchmaker's tick (it qualifies what passed)."""

    def run(game: Any, n: int = 3, seed: int = 1) -> None:
        from bots.check_sweeper import sweep_checks
        from ladder.services import tick as ladder_tick

        rng = random.Random(seed)
        for _ in range(n):
            sweep_checks()
            inline(ladder_tick, game, rng=rng)

    return run


#: The fixtures a site test folder's conftest takes with ``from tests.site_fixtures import *``
#: (the autouse ones too): added here once, seen by every such folder.
FIXTURES = [
    "_celery_inline",
    "_media_root",
    "builtin_versions",
    "games",
    "inline",
    "other_user",
    "rounds",
    "three_versions",
    "trnd",
    "user",
    "user_bot",
]
__all__ = [*FIXTURES, "BOT_SOURCE", "make_zip"]
