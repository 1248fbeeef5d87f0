"""A page kept for anonymous visitors (foundation/page_cache.py) is kept per host and scheme:
a tournament's page draws its embed code as an absolute address from the request, and a page
kept for one of ALLOWED_HOSTS (an internal name, the bare address) was served under the others,
its links pointing there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from competitions.tournaments.services import create_tournament
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _kept_pages(settings: Any) -> Iterator[None]:
    settings.PAGE_CACHE_SECONDS = 60
    settings.ALLOWED_HOSTS = ["arena.example.org", "internal.example"]
    cache.clear()
    yield
    cache.clear()


def test_a_kept_page_is_never_served_under_another_host_or_scheme() -> None:
    game = {g.slug: g for g in sync_games()}["tri-area"]
    versions = [v for b in ensure_builtin_bots(game) if (v := b.latest_version())][:3]
    t = create_tournament(
        organiser=versions[0].bot.owner, game=game, name="Open cup", entrants=versions
    )
    url = f"/tournaments/{t.pk}/"
    client = Client()
    for _ in range(2):  # kept for the public name
        public = client.get(url, HTTP_HOST="arena.example.org").content.decode()
    assert f"http://arena.example.org/tournaments/{t.pk}/embed/" in public
    internal = client.get(url, HTTP_HOST="internal.example").content.decode()
    assert f"http://internal.example/tournaments/{t.pk}/embed/" in internal
    assert "arena.example.org" not in internal
    secure = client.get(url, HTTP_HOST="arena.example.org", secure=True).content.decode()
    assert f"https://arena.example.org/tournaments/{t.pk}/embed/" in secure
