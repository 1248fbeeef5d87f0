"""/sitemap.xml and /robots.txt: public pages only (games, bots, leagues, public
tournaments), in bounded pages."""

from __future__ import annotations

import re

import pytest
from bots.models import Bot
from django.test import Client
from site_pages import sitemaps

from tests.privacy.world import SECRET_NAME, World

pytestmark = pytest.mark.django_db


def _locations(client: Client, url: str) -> list[str]:
    answer = client.get(url)
    assert answer.status_code == 200, url
    return re.findall(r"<loc>([^<]+)</loc>", answer.content.decode())


def test_the_sitemap_lists_public_pages_only(world: World) -> None:
    client = Client()
    sections = _locations(client, "/sitemap.xml")
    assert sorted(s.rsplit("/", 1)[1] for s in sections) == [
        "sitemap-bots.xml",
        "sitemap-games.xml",
        "sitemap-leagues.xml",
        "sitemap-tournaments.xml",
    ]
    pages = {u.split("://", 1)[1].split("/", 1)[1] for s in sections for u in _locations(client, s)}
    assert f"tournaments/{world.public.pk}/" in pages
    assert f"tournaments/{world.private.pk}/" not in pages
    assert f"tournaments/leagues/{world.league}/" in pages
    assert f"bots/{world.bot.pk}/" in pages and "games/tri-area/" in pages
    assert not any(p.startswith(("matches/", "admin/", "api/")) for p in pages)
    staff = Client()
    staff.force_login(world.staff)  # the same for everyone: staff see no more here
    tournaments = staff.get("/sitemap-tournaments.xml").content.decode()
    assert f"/tournaments/{world.private.pk}/" not in tournaments
    assert SECRET_NAME not in tournaments


def test_sections_are_paged(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sitemaps.BotSitemap, "limit", 2)
    client = Client()
    bots = Bot.objects.filter(game__is_active=True).count()
    assert bots > 4
    index = client.get("/sitemap.xml").content.decode()
    assert "sitemap-bots.xml?p=2" in index
    first, second = (
        _locations(client, "/sitemap-bots.xml"),
        _locations(client, "/sitemap-bots.xml?p=2"),
    )
    assert len(first) == len(second) == 2 and not set(first) & set(second)
    assert client.get("/sitemap-bots.xml?p=999").status_code == 404
    assert client.get("/sitemap-nothing.xml").status_code == 404


def test_robots_points_at_the_sitemap() -> None:
    answer = Client().get("/robots.txt")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")
    text = answer.content.decode()
    assert "Sitemap: http://testserver/sitemap.xml" in text
    assert "Disallow: /admin/" in text and "Disallow: /api/" in text
