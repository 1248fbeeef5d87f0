"""The sitemap (``/sitemap.xml``, an index of one section per kind of page) and
``/robots.txt``. Only public pages are listed: the games, the bots, the leagues and the public
tournaments (a private tournament, its matches and replays are its members' and never appear
here: docs/permissions.md). Each section is paged (``LIMIT`` addresses a page, ``?p=n``), so
a page costs the same however many bots the site holds."""

from __future__ import annotations

from typing import Any

from bots.models import Bot
from catalog.models import Game
from competitions.models import League, Tournament
from competitions.permissions import visible_tournaments_q
from django.contrib.auth.models import AnonymousUser
from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps import views as sitemap_views
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

#: Addresses per page of a section (the protocol allows 50,000; a page stays small).
LIMIT = 1000


class _Paged(Sitemap):
    limit = LIMIT


class GameSitemap(_Paged):
    changefreq = "daily"

    def items(self) -> QuerySet[Game]:
        return Game.objects.filter(is_active=True).order_by("pk").only("slug")

    def location(self, item: Game) -> str:
        return reverse("catalog:detail", args=[item.slug])


class BotSitemap(_Paged):
    changefreq = "daily"

    def items(self) -> QuerySet[Bot]:
        return Bot.objects.filter(game__is_active=True).order_by("pk").only("pk")

    def location(self, item: Bot) -> str:
        return reverse("bots:detail", args=[item.pk])


class LeagueSitemap(_Paged):
    changefreq = "daily"

    def items(self) -> QuerySet[League]:
        return League.objects.order_by("pk").only("pk")

    def location(self, item: League) -> str:
        return reverse("competitions:league_detail", args=[item.pk])


class TournamentSitemap(_Paged):
    """Public tournaments only: the list's own rule, as an anonymous visitor sees it."""

    changefreq = "hourly"

    def items(self) -> QuerySet[Tournament]:
        public = visible_tournaments_q(AnonymousUser())
        return Tournament.objects.filter(public).order_by("pk").only("pk", "created_at")

    def location(self, item: Tournament) -> str:
        return reverse("competitions:tournament_detail", args=[item.pk])

    def lastmod(self, item: Tournament) -> Any:
        return item.created_at


SECTIONS: dict[str, type[Sitemap] | Sitemap] = {
    "games": GameSitemap,
    "bots": BotSitemap,
    "leagues": LeagueSitemap,
    "tournaments": TournamentSitemap,
}


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The sections, each with its pages (``?p=n``): one bounded count per section."""
    return sitemap_views.index(request, SECTIONS, sitemap_url_name="site_pages:sitemap_section")


@require_GET
def section(request: HttpRequest, section: str) -> HttpResponse:
    """One page of a section (404 for an unknown section or page)."""
    return sitemap_views.sitemap(request, SECTIONS, section=section)


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    """Crawlers may read the public pages; the sitemap lists them. Accounts, the API, the
    admin and the tables of people playing are not for indexing."""
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        "Disallow: /api/",
        "Disallow: /accounts/",
        "Disallow: /play/",
        "Disallow: /bots/mine/",
        f"Sitemap: {request.build_absolute_uri(reverse('site_pages:sitemap'))}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
